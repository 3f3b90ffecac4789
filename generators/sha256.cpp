// SHA-256 written from FIPS 180-4: constants K (section 4.2.2, the first 32 bits of the
// fractional parts of the cube roots of the first 64 primes), initial hash H(0) (section 5.3.3,
// square roots of the first 8 primes), functions Ch, Maj, Sigma0/1, sigma0/1 (section 4.1.2).
#include "sha256.hpp"

#include "error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace rngvet {

namespace {

constexpr std::uint32_t round_constants[64] = { 0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
    0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
    0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
    0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
    0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2 };

constexpr std::uint32_t initial_hash[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

std::uint32_t rotr(std::uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

std::uint32_t load_be32(const std::uint8_t* p)
{
    return (std::uint32_t{ p[0] } << 24) | (std::uint32_t{ p[1] } << 16)
        | (std::uint32_t{ p[2] } << 8) | std::uint32_t{ p[3] };
}

} // namespace

Sha256::Sha256()
{
    std::memcpy(h_, initial_hash, sizeof h_);
}

void Sha256::compress(const std::uint8_t* block)
{
    std::uint32_t w[64];
    for (int t = 0; t < 16; ++t)
        w[t] = load_be32(block + 4 * t);
    for (int t = 16; t < 64; ++t) {
        const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    std::uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3];
    std::uint32_t e = h_[4], f = h_[5], g = h_[6], h = h_[7];
    for (int t = 0; t < 64; ++t) {
        const std::uint32_t big_s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        const std::uint32_t ch = (e & f) ^ (~e & g);
        const std::uint32_t t1 = h + big_s1 + ch + round_constants[t] + w[t];
        const std::uint32_t big_s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        const std::uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
        const std::uint32_t t2 = big_s0 + maj;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h_[0] += a;
    h_[1] += b;
    h_[2] += c;
    h_[3] += d;
    h_[4] += e;
    h_[5] += f;
    h_[6] += g;
    h_[7] += h;
}

void Sha256::update(const void* data, std::size_t size)
{
    const auto* p = static_cast<const std::uint8_t*>(data);
    total_bytes_ += size;
    while (size > 0) {
        const std::size_t take = size < 64 - buffered_ ? size : 64 - buffered_;
        std::memcpy(buffer_ + buffered_, p, take);
        buffered_ += take;
        p += take;
        size -= take;
        if (buffered_ == 64) {
            compress(buffer_);
            buffered_ = 0;
        }
    }
}

std::string Sha256::hex_digest()
{
    // Padding (FIPS 180-4 section 5.1.1): a 1 bit, zeros, then the message length in bits as
    // a 64-bit big-endian integer, so that the padded length is a multiple of 512 bits.
    const std::uint64_t bit_length = total_bytes_ * 8;
    const std::uint8_t one = 0x80;
    const std::uint8_t zero = 0;
    update(&one, 1);
    while (buffered_ != 56)
        update(&zero, 1);
    std::uint8_t length_be[8];
    for (int i = 0; i < 8; ++i)
        length_be[i] = static_cast<std::uint8_t>(bit_length >> (56 - 8 * i));
    update(length_be, 8);

    static const char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(64);
    for (std::uint32_t word : h_) {
        for (int shift = 28; shift >= 0; shift -= 4)
            out += digits[(word >> shift) & 0xF];
    }
    return out;
}

std::string sha256_hex(const void* data, std::size_t size)
{
    Sha256 hash;
    hash.update(data, size);
    return hash.hex_digest();
}

std::string sha256_hex(const std::string& bytes)
{
    return sha256_hex(bytes.data(), bytes.size());
}

std::string sha256_of_file(const std::string& path)
{
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw InputError("cannot open '" + path + "': " + std::strerror(errno));
    Sha256 hash;
    std::vector<unsigned char> buffer(1 << 20);
    for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), f)) > 0;)
        hash.update(buffer.data(), n);
    const bool failed = std::ferror(f) != 0;
    std::fclose(f);
    if (failed) throw InputError("cannot read '" + path + "'");
    return hash.hex_digest();
}

} // namespace rngvet

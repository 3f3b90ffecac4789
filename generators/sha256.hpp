// SHA-256 (FIPS 180-4, section 6.2), used as the content hash of parameter files and file:
// inputs: every run records the hash of the parameter set and the input file it used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace rngvet {

// Incremental SHA-256: update() any number of times, then hex_digest() once.
class Sha256 {
public:
    Sha256();
    void update(const void* data, std::size_t size);
    // Pads, finishes and returns the 64 lower-case hex digits. Call once.
    std::string hex_digest();

private:
    void compress(const std::uint8_t* block);

    std::uint32_t h_[8];
    std::uint8_t buffer_[64];
    std::size_t buffered_ = 0;
    std::uint64_t total_bytes_ = 0;
};

// SHA-256 of a byte string, as 64 lower-case hex digits.
std::string sha256_hex(const void* data, std::size_t size);
std::string sha256_hex(const std::string& bytes);
// SHA-256 of a file's contents; throws InputError when it cannot be opened or read.
std::string sha256_of_file(const std::string& path);

} // namespace rngvet

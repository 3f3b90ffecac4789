#include "source.hpp"

#include "process/cores.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rngvet::native {

namespace {
// Words asked of the source at a time: a feed block.
constexpr std::size_t peek_size = std::size_t(1) << 16;
int thread_count = 0; // 0: the machine's cores
} // namespace

void set_threads(int threads)
{
    thread_count = std::max(0, threads);
}

int threads()
{
    return thread_count > 0 ? thread_count : cores();
}

int cores()
{
    return usable_cores();
}

Numbers::Numbers(WordSource& source)
    : source_(source)
    , bits_(source.bits())
    , scale_(1.0 / static_cast<double>(1ull << source.bits()))
{
}

void Numbers::sync()
{
    if (used_ > 0) source_.advance(used_);
    data_ = nullptr;
    size_ = used_ = 0;
}

bool Numbers::fill_device(void* out, std::size_t n)
{
    if (used_ != size_) return false; // words of the current block are still to be read
    sync();
    if (!source_.fill_device(out, n)) return false;
    consumed_ += n;
    return true;
}

bool Numbers::give_back(const std::uint64_t* words, std::size_t n)
{
    if (used_ != size_ || n > consumed_) return false;
    sync();
    if (!source_.give_back(words, n)) return false;
    consumed_ -= n;
    return true;
}

void Numbers::refill()
{
    sync();
    const Stream::View v = source_.peek(peek_size);
    data_ = v.data;
    size_ = v.size;
}

void Numbers::read(std::uint64_t* out, std::size_t n)
{
    while (n > 0) {
        if (used_ == size_) refill();
        const std::size_t k = std::min(n, size_ - used_);
        std::memcpy(out, data_ + used_, k * sizeof *out);
        used_ += k;
        consumed_ += k;
        out += k;
        n -= k;
    }
}

double Numbers::two_exp(int r)
{
    return std::ldexp(1.0, r);
}

} // namespace rngvet::native

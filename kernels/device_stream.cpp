#include "kernels/device_stream.hpp"

#include "generators/error.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

namespace rngvet {
namespace {

// Copies n words, with several host threads for large copies (the last step of delivering
// numbers to host memory, which one thread would make slower than the device-to-host copy).
void copy_words(std::uint64_t* dst, const std::uint64_t* src, std::size_t n)
{
#if defined(_OPENMP)
    const std::size_t piece = std::size_t(1) << 17; // 1 MiB
    if (n >= 8 * piece) {
        const auto pieces = static_cast<std::int64_t>((n + piece - 1) / piece);
#pragma omp parallel for schedule(static)
        for (std::int64_t k = 0; k < pieces; ++k) {
            const std::size_t at = static_cast<std::size_t>(k) * piece;
            std::memcpy(dst + at, src + at, std::min(piece, n - at) * sizeof(std::uint64_t));
        }
        return;
    }
#endif
    std::copy_n(src, n, dst);
}

// The combined stream of a configuration, generated `launch` numbers at a time on a device
// and served from a host buffer. Launches follow one another, so any sequence of fill() and
// discard() calls continues the stream exactly.
//
// On a device with host staging (KernelDevice::stage, CUDA) the numbers are served from the
// device's two host slots instead, and fill() reads ahead: when it takes launch m's numbers it
// has launch m+1 generated and copied into the other slot while it copies launch m into the
// caller's memory, so generation, the device-to-host copy and the host copy overlap. The
// numbers read ahead are served by the next fill() or discard(), in order.
class DeviceStream final : public Stream {
public:
    DeviceStream(std::unique_ptr<KernelDevice> device, std::uint64_t start, int bits,
        std::string name, std::size_t launch)
        : device_(std::move(device))
        , bits_(bits)
        , name_(std::move(name))
        , launch_(launch)
        , next_(start)
    {
        device_->reserve(launch_);
        staged_ = device_->stage(launch_);
        if (staged_) return;
        check_host_memory(launch_, sizeof(std::uint64_t),
            "the host buffer of " + std::to_string(launch_) + " numbers for "
                + device_->description());
        try {
            buffer_.resize(launch_);
        } catch (const std::bad_alloc&) {
            throw InputError("cannot allocate a host buffer of " + std::to_string(launch_)
                + " numbers for " + device_->description());
        }
        current_ = buffer_.data();
    }

    int bits() const override { return bits_; }
    std::string name() const override { return name_; }

    void fill(std::uint64_t* out, std::size_t n) override
    {
        while (n > 0) {
            if (pos_ == have_) {
                if (staged_) {
                    take_staged(true);
                } else {
                    if (n >= launch_) { // straight into the caller's memory
                        run(out, launch_);
                        out += launch_;
                        n -= launch_;
                        continue;
                    }
                    refill();
                }
            }
            const std::size_t take = std::min(n, have_ - pos_);
            copy_words(out, current_ + pos_, take);
            pos_ += take;
            out += take;
            n -= take;
        }
    }

    // Serves the current launch's numbers in place: from a staging slot (reading the next
    // launch ahead), else from the host buffer.
    View take(std::size_t n) override
    {
        if (pos_ == have_) {
            if (staged_)
                take_staged(true);
            else
                refill();
        }
        const std::size_t size = std::min(n, have_ - pos_);
        const View v{ current_ + pos_, size };
        pos_ += size;
        return v;
    }

    ReadAhead read_ahead() const override
    {
        ReadAhead r;
        r.asynchronous = staged_ && device_->asynchronous_staging();
        r.takes = ahead_takes_;
        r.waits = ahead_waits_;
        return r;
    }

    // Into device memory: one launch per request, once nothing is held in host memory.
    bool fill_device(void* out, std::size_t n, DeviceFormat format) override
    {
        if (pos_ != have_ || ahead_ >= 0) return false;
        if (n == 0) return true;
        if (!out) {
            for (std::size_t done = 0; done < n;) {
                const std::size_t k = std::min(n - done, launch_);
                device_->launch(next_, k, 0, false);
                next_ += k;
                done += k;
            }
            device_->finish();
            return true;
        }
        if (!device_->launch_to_device(next_, n, out, static_cast<int>(format), bits_))
            return false;
        next_ += n;
        return true;
    }

    // Skips n numbers: whole launches are generated on the device and not copied back. (The
    // skip of the configuration is jumped over on the host instead, in the setup.)
    void discard(std::uint64_t n) override
    {
        bool launched = false;
        while (n > 0) {
            if (pos_ == have_) {
                if (n >= launch_ && ahead_ < 0) {
                    device_->launch(next_, launch_, 0, false);
                    next_ += launch_;
                    launched = true;
                    n -= launch_;
                    continue;
                }
                if (staged_)
                    take_staged(false);
                else
                    refill();
            }
            const std::size_t take
                = static_cast<std::size_t>(std::min<std::uint64_t>(n, have_ - pos_));
            pos_ += take;
            n -= take;
        }
        if (launched) device_->finish();
    }

private:
    void refill()
    {
        run(buffer_.data(), launch_);
        have_ = launch_;
        pos_ = 0;
    }

    void run(std::uint64_t* host, std::size_t len)
    {
        device_->launch(next_, len, 0, false);
        if (host) device_->download(host, len);
        next_ += len;
    }

    // The next launch's numbers become the current ones: the one read ahead if any, else a
    // new launch; with read_ahead, the launch after it is started into the other slot.
    void take_staged(bool read_ahead)
    {
        int slot = ahead_;
        ahead_ = -1;
        if (slot >= 0) {
            ++ahead_takes_;
            if (!device_->host_ready(slot)) ++ahead_waits_;
        } else {
            slot = start_staged();
        }
        if (read_ahead) ahead_ = start_staged();
        current_ = device_->host_words(slot);
        have_ = launch_;
        pos_ = 0;
    }

    int start_staged()
    {
        const int slot = next_slot_;
        device_->launch_to_host(next_, launch_, slot);
        next_ += launch_;
        next_slot_ ^= 1;
        return slot;
    }

    std::unique_ptr<KernelDevice> device_;
    int bits_;
    std::string name_;
    std::size_t launch_;
    bool staged_ = false;
    std::vector<std::uint64_t> buffer_; // unstaged devices: the current launch's numbers
    const std::uint64_t* current_ = nullptr; // buffer_ or a staging slot
    std::size_t have_ = 0; // valid numbers at current_
    std::size_t pos_ = 0; // next one to hand out
    std::uint64_t next_; // first combined index of the next launch
    int ahead_ = -1; // staging slot of the launch read ahead, -1: none
    int next_slot_ = 0; // staging slot of the next launch
    std::uint64_t ahead_takes_ = 0; // launches taken that had been read ahead
    std::uint64_t ahead_waits_ = 0; // of those, the ones not yet copied when taken
};

} // namespace

std::unique_ptr<Stream> make_device_stream(std::unique_ptr<KernelDevice> device,
    std::uint64_t start, int bits, std::string name, std::size_t launch)
{
    return std::make_unique<DeviceStream>(std::move(device), start, bits, std::move(name), launch);
}

} // namespace rngvet

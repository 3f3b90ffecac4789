// The C API of librngvet (include/rngvet/rngvet.h): streams opened from a configuration, served
// through the buffered (Prefetch) or the direct interface, with errors as codes and messages.
#include "rngvet/rngvet.h"

#include "generators/configuration.hpp"
#include "generators/configuration_options.hpp"
#include "generators/error.hpp"
#include "internal.hpp"
#include "kernels/backend.hpp"
#include "prefetch.hpp"
#include "rngvet/version.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

using rngvet::Configuration;
using rngvet::InputError;

namespace {
thread_local std::string last_error;
} // namespace

void rngvet::library::set_last_error(const std::string& message)
{
    last_error = message;
}

namespace {

// A call that does not fit the stream (a host call on a device stream, or the reverse): always
// RNGVET_ERROR_INPUT, whatever the backend would have said.
struct Misuse : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Runs f, turning its exceptions into a status and the thread's last error.
template <class F> int guarded(int failure, F&& f)
{
    try {
        f();
        last_error.clear();
        return RNGVET_OK;
    } catch (const Misuse& e) {
        last_error = e.what();
        return RNGVET_ERROR_INPUT;
    } catch (const InputError& e) {
        last_error = e.what();
        return failure;
    } catch (const std::bad_alloc&) {
        last_error = "out of memory";
        return RNGVET_ERROR_SYSTEM;
    } catch (const std::system_error& e) {
        last_error = e.what();
        return RNGVET_ERROR_SYSTEM;
    } catch (const std::exception& e) {
        last_error = e.what();
        return RNGVET_ERROR_BACKEND;
    }
}

// The options form: "--generator ranmar48 --seed 1802,9373 ..." (also --key=value), the
// spellings of rngvet run, read into their words and resolved as rngvet run resolves them
// (resolve_configuration). A --backend among them is returned in `backend`.
Configuration configuration_from_options(const std::string& text, std::string& backend)
{
    std::vector<std::string> words;
    std::istringstream in(text);
    for (std::string w; in >> w;) {
        const auto eq = w.find('=');
        if (w.rfind("--", 0) == 0 && eq != std::string::npos) {
            words.push_back(w.substr(0, eq));
            words.push_back(w.substr(eq + 1));
        } else {
            words.push_back(w);
        }
    }
    rngvet::ConfigurationText c;
    bool backend_given = false;
    for (std::size_t i = 0; i < words.size(); i += 2) {
        const std::string& key = words[i];
        if (key.rfind("--", 0) != 0)
            throw InputError("expected an option such as --seed, got '" + key + "'");
        if (i + 1 >= words.size()) throw InputError(key + " needs a value");
        const std::string& value = words[i + 1];
        const rngvet::ConfigurationOption* row
            = rngvet::find_configuration_option(key.substr(2), rngvet::in_library_options);
        if (!row)
            throw InputError("unknown option '" + key + "' (valid: "
                + rngvet::configuration_option_names(rngvet::in_library_options, "--") + ")");
        if (row->field.word) {
            rngvet::set_option_word(c, *row, value);
        } else if (row->field.count) {
            if (value.empty() || value.size() > 9
                || value.find_first_not_of("0123456789") != std::string::npos)
                throw InputError(key + " must be a non-negative integer, got '" + value + "'");
            rngvet::set_option_number(c, *row, std::strtoull(value.c_str(), nullptr, 10));
        } else {
            if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos)
                throw InputError(key + " must be a non-negative integer, got '" + value + "'");
            rngvet::set_option_number(c, *row, std::strtoull(value.c_str(), nullptr, 10));
        }
        backend_given = backend_given || row->field.word == &rngvet::ConfigurationText::backend;
    }
    // The backend is the stream's choice (auto included), made when it opens: returned, and the
    // configuration resolved on its default.
    if (backend_given) {
        backend = c.backend;
        c.backend = rngvet::ConfigurationText{}.backend;
    }
    if (c.generator.empty()) throw InputError("the configuration needs --generator");
    return rngvet::resolve_configuration(c);
}

} // namespace

Configuration rngvet::library::configuration_from_text(const char* text, std::string& backend)
{
    if (!text) throw InputError("no configuration given");
    std::string s(text);
    const auto first = s.find_first_not_of(" \t\n");
    if (first == std::string::npos) throw InputError("no configuration given");
    s = s.substr(first);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
        s.pop_back();
    // Both forms come back validated.
    Configuration c = s.rfind("--", 0) == 0 ? configuration_from_options(s, backend)
                                            : rngvet::parse_canonical_name(s);
    if (rngvet::is_transform(c.view))
        throw InputError(std::string("the view ") + rngvet::to_string(c.view)
            + " tests what a simulation makes of the numbers; a stream for use has a bit view "
              "(top32, low32, reversed, packed)");
    if (rngvet::family_traits(c.generator).reads_words && !rngvet::reads_file(c.generator))
        throw InputError(rngvet::to_string(c.generator)
            + " is not a stream a library can open; use file:PATH or file64:PATH");
    return c;
}

namespace {

// "auto": a CUDA device when present (for generators with a GPU kernel), else OpenMP (jump-parallel
// for few instances), else the CPU reference. External streams exist on the CPU only. (On the H100
// host's 16 cores, ranmar48 on one instance, 10 doubles a call: OpenMP 2.8e8 numbers/s, the CPU
// reference 1.75e8; 2-core development machine: about equal; docs/benchmarks.md.)
rngvet::Backend choose_backend(const Configuration& c, rngvet::Backend wanted)
{
    using rngvet::Backend;
    if (wanted != Backend::automatic) return wanted;
    if (!rngvet::runs_on(rngvet::traits(c.generator), Backend::openmp)) return Backend::cpu;
    const std::vector<Backend> here = rngvet::available_backends();
    const auto has
        = [&](Backend b) { return std::find(here.begin(), here.end(), b) != here.end(); };
    if (has(Backend::cuda) && rngvet::runs_on(rngvet::traits(c.generator), Backend::cuda))
        return Backend::cuda;
    if (has(Backend::openmp)) return Backend::openmp;
    return Backend::cpu;
}

// Where a stream's numbers come from: the prefetch or the backend's stream itself.
class Source {
public:
    Source(std::unique_ptr<rngvet::Stream> stream, int interface, std::size_t buffer)
        : device_(interface == RNGVET_DEVICE)
    {
        if (interface == RNGVET_BUFFERED)
            prefetch_ = std::make_unique<rngvet::library::Prefetch>(std::move(stream), buffer);
        else
            stream_ = std::move(stream);
    }

    // Calls sink(numbers, k) over consecutive pieces of the next n numbers.
    template <class Sink> void read(std::size_t n, Sink&& sink)
    {
        if (device_) refuse_host();
        while (n > 0) {
            std::size_t k = n;
            const std::uint64_t* p;
            if (prefetch_) {
                p = prefetch_->acquire(k);
            } else {
                // In place: a device stream's numbers where its device copied them.
                const rngvet::Stream::View v = stream_->take(n);
                if (v.size == 0) throw std::runtime_error("the stream ended");
                p = v.data;
                k = v.size;
            }
            sink(p, k);
            n -= k;
        }
    }
    // Into device memory, for a stream opened with RNGVET_DEVICE.
    void device(void* out, std::size_t n, rngvet::DeviceFormat format)
    {
        if (!device_) throw Misuse("device output needs a stream opened with RNGVET_DEVICE");
        if (!stream_->fill_device(out, n, format))
            throw std::runtime_error("the backend cannot write into device memory");
    }
    // The numbers themselves, straight into out where nothing is buffered.
    void raw(std::uint64_t* out, std::size_t n)
    {
        if (device_) refuse_host();
        if (stream_) {
            stream_->fill(out, n);
            return;
        }
        read(n, [&](const std::uint64_t* p, std::size_t k) {
            std::copy_n(p, k, out);
            out += k;
        });
    }
    // The prefetch of a buffered stream, else null.
    rngvet::library::Prefetch* prefetch() const { return prefetch_.get(); }
    void skip(std::uint64_t n)
    {
        if (prefetch_)
            prefetch_->skip(n);
        else if (device_)
            skip_on_device(n);
        else
            stream_->discard(n);
    }

private:
    static void refuse_host()
    {
        throw Misuse("this stream was opened with RNGVET_DEVICE: its numbers go to device memory "
                     "(rngvet_u01_device, rngvet_u32_device, rngvet_raw_device)");
    }
    // A device stream never holds numbers on the host: it skips by generating on the device
    // and dropping them (fill_device into no memory).
    void skip_on_device(std::uint64_t n)
    {
        const std::size_t step = std::size_t(1) << 30;
        while (n > 0) {
            const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(n, step));
            device(nullptr, k, rngvet::DeviceFormat::u64);
            n -= k;
        }
    }
    bool device_ = false;

    std::unique_ptr<rngvet::library::Prefetch> prefetch_;
    std::unique_ptr<rngvet::Stream> stream_;
};

// out[i] = f(p[i]) for i < k: over the OpenMP threads when the piece is large (a request of 10^6
// numbers from a GPU is otherwise bound by one core's memory traffic).
template <class T, class F> void convert(const std::uint64_t* p, std::size_t k, T* out, F f)
{
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(k);
    if (n < (std::ptrdiff_t(1) << 18)) { // no OpenMP region: it costs microseconds to enter
        for (std::ptrdiff_t i = 0; i < n; ++i)
            out[i] = f(p[i]);
        return;
    }
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < n; ++i)
        out[i] = f(p[i]);
}

} // namespace

struct rngvet_stream {
    std::string name;
    std::string backend;
    int bits = 0;
    std::uint64_t position = 0; // streams without a prefetch (which counts for itself)
    bool locked = false;
    std::mutex mutex;
    std::unique_ptr<Source> source;
    // rngvet_fast_of's struct for a stream whose buffer the caller may not read inline (locked,
    // direct, device): always empty, so that every request comes to rngvet_u01.
    rngvet_fast no_fast
        = { rngvet::library::no_numbers, rngvet::library::no_numbers, 0.0, nullptr };

    // Runs f under the stream's mutex where the stream is locked.
    template <class F> int call(F&& f)
    {
        if (!locked) return guarded(RNGVET_ERROR_BACKEND, f);
        std::lock_guard<std::mutex> lock(mutex);
        return guarded(RNGVET_ERROR_BACKEND, f);
    }
};

int rngvet::library::open_configuration(
    rngvet_stream** stream, Configuration c, const std::string& backend, const rngvet_options& o)
{
    *stream = nullptr;
    rngvet::Backend wanted = rngvet::Backend::automatic;
    int status = guarded(RNGVET_ERROR_INPUT, [&] {
        if (o.interface != RNGVET_BUFFERED && o.interface != RNGVET_DIRECT
            && o.interface != RNGVET_DEVICE)
            throw InputError("interface must be RNGVET_BUFFERED (0), RNGVET_DIRECT (1) or "
                             "RNGVET_DEVICE (2), got "
                + std::to_string(o.interface));
        wanted = rngvet::parse_backend_here(backend);
        if (o.interface == RNGVET_DEVICE) {
            if (wanted == rngvet::Backend::automatic) wanted = rngvet::Backend::cuda;
            if (wanted != rngvet::Backend::cuda)
                throw InputError("RNGVET_DEVICE needs the cuda backend, got '" + backend + "'");
            if (c.view != rngvet::BitView::top32)
                throw InputError("RNGVET_DEVICE delivers the top32 view only");
        }
        if (o.buffer_numbers > (std::size_t(1) << 32))
            throw InputError("buffer_numbers is too large (at most 2^32), got "
                + std::to_string(o.buffer_numbers));
    });
    if (status != RNGVET_OK) return status;
    auto s = std::make_unique<rngvet_stream>();
    status = guarded(RNGVET_ERROR_BACKEND, [&] {
        c.backend = choose_backend(c, wanted);
        rngvet::BackendOptions bo;
        if (o.launch_numbers) bo.launch_numbers = o.launch_numbers;
        auto made = rngvet::make_backend_stream(c, bo);
        s->name = made->name();
        s->bits = made->bits();
        s->backend = rngvet::to_string(c.backend);
        s->locked = o.locked != 0;
        s->source = std::make_unique<Source>(std::move(made), o.interface,
            o.buffer_numbers ? o.buffer_numbers : std::size_t(1) << 20);
    });
    if (status != RNGVET_OK) return status;
    const double scale = rngvet::u01_scale(s->bits);
    s->no_fast.scale = scale;
    s->no_fast.stream = s.get();
    if (rngvet::library::Prefetch* p = s->source->prefetch()) {
        p->fast().scale = scale;
        p->fast().stream = s.get();
    }
    *stream = s.release();
    return RNGVET_OK;
}

extern "C" {

void rngvet_options_init(rngvet_options* options)
{
    if (!options) return;
    options->backend = nullptr;
    options->interface = RNGVET_BUFFERED;
    options->buffer_numbers = 0;
    options->launch_numbers = 0;
    options->locked = 0;
}

int rngvet_open(rngvet_stream** stream, const char* configuration, const rngvet_options* options)
{
    if (!stream) {
        last_error = "rngvet_open: stream is NULL";
        return RNGVET_ERROR_INPUT;
    }
    *stream = nullptr;
    rngvet_options o;
    rngvet_options_init(&o);
    if (options) o = *options;
    Configuration c;
    std::string backend = o.backend && *o.backend ? o.backend : "auto";
    const int status = guarded(RNGVET_ERROR_INPUT,
        [&] { c = rngvet::library::configuration_from_text(configuration, backend); });
    if (status != RNGVET_OK) return status;
    return rngvet::library::open_configuration(stream, c, backend, o);
}

int rngvet_open_with(rngvet_stream** stream, const char* configuration, const char* backend,
    int interface, size_t buffer_numbers)
{
    rngvet_options o;
    rngvet_options_init(&o);
    o.backend = backend;
    o.interface = interface;
    o.buffer_numbers = buffer_numbers;
    return rngvet_open(stream, configuration, &o);
}

void rngvet_close(rngvet_stream* stream)
{
    delete stream;
}

#define RNGVET_NEED_STREAM(s)                                                                      \
    if (!(s)) {                                                                                    \
        last_error = "the stream is NULL";                                                         \
        return RNGVET_ERROR_INPUT;                                                                 \
    }                                                                                              \
    if (n > 0 && !out) {                                                                           \
        last_error = "the output array is NULL";                                                   \
        return RNGVET_ERROR_INPUT;                                                                 \
    }

int rngvet_u01(rngvet_stream* s, double* out, size_t n)
{
    RNGVET_NEED_STREAM(s)
    return s->call([&] {
        const double scale = rngvet::u01_scale(s->bits);
        s->source->read(n, [&](const std::uint64_t* p, std::size_t k) {
            convert(p, k, out, [scale](std::uint64_t x) { return static_cast<double>(x) * scale; });
            out += k;
        });
        s->position += n;
    });
}

int rngvet_f32(rngvet_stream* s, float* out, size_t n)
{
    RNGVET_NEED_STREAM(s)
    return s->call([&] {
        const int shift = s->bits - 24;
        const float scale = 1.0f / 16777216.0f;
        s->source->read(n, [&](const std::uint64_t* p, std::size_t k) {
            convert(p, k, out,
                [shift, scale](std::uint64_t x) { return static_cast<float>(x >> shift) * scale; });
            out += k;
        });
        s->position += n;
    });
}

int rngvet_u32(rngvet_stream* s, uint32_t* out, size_t n)
{
    RNGVET_NEED_STREAM(s)
    return s->call([&] {
        const int bits = s->bits;
        s->source->read(n, [&](const std::uint64_t* p, std::size_t k) {
            convert(p, k, out, [bits](std::uint64_t x) { return rngvet::top32(x, bits); });
            out += k;
        });
        s->position += n;
    });
}

int rngvet_raw(rngvet_stream* s, uint64_t* out, size_t n)
{
    RNGVET_NEED_STREAM(s)
    return s->call([&] {
        s->source->raw(out, n);
        s->position += n;
    });
}

int rngvet_u01_device(rngvet_stream* s, double* out, size_t n)
{
    RNGVET_NEED_STREAM(s)
    return s->call([&] {
        s->source->device(out, n, rngvet::DeviceFormat::u01);
        s->position += n;
    });
}

int rngvet_u32_device(rngvet_stream* s, uint32_t* out, size_t n)
{
    RNGVET_NEED_STREAM(s)
    return s->call([&] {
        s->source->device(out, n, rngvet::DeviceFormat::u32);
        s->position += n;
    });
}

int rngvet_raw_device(rngvet_stream* s, uint64_t* out, size_t n)
{
    RNGVET_NEED_STREAM(s)
    return s->call([&] {
        s->source->device(out, n, rngvet::DeviceFormat::u64);
        s->position += n;
    });
}

int rngvet_skip(rngvet_stream* s, uint64_t n)
{
    if (!s) {
        last_error = "the stream is NULL";
        return RNGVET_ERROR_INPUT;
    }
    return s->call([&] {
        s->source->skip(n);
        s->position += n;
    });
}

uint64_t rngvet_position(const rngvet_stream* s)
{
    if (!s) return 0;
    const rngvet::library::Prefetch* p = s->source->prefetch();
    return p ? p->position() : s->position;
}

rngvet_fast* rngvet_fast_of(rngvet_stream* s)
{
    if (!s) return nullptr;
    rngvet::library::Prefetch* p = s->source->prefetch();
    return p && !s->locked ? &p->fast() : &s->no_fast;
}

int rngvet_bits(const rngvet_stream* s)
{
    return s ? s->bits : 0;
}

const char* rngvet_stream_name(const rngvet_stream* s)
{
    return s ? s->name.c_str() : "";
}

const char* rngvet_stream_backend(const rngvet_stream* s)
{
    return s ? s->backend.c_str() : "";
}

const char* rngvet_last_error(void)
{
    return last_error.c_str();
}

const char* rngvet_version(void)
{
    static const std::string v
        = std::string(rngvet::version) + " (commit " + rngvet::git_commit + ")";
    return v.c_str();
}

} // extern "C"

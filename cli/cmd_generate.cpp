#include "commands.hpp"
#include "generators/error.hpp"
#include "guards.hpp"
#include "kernels/auto_backend.hpp"
#include "kernels/backend.hpp"
#include "options.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace rngvet::cli {
namespace {

enum class Format { u32, f64, text_u32, text_f64 };

Format parse_format(const std::string& f)
{
    if (!find_word(format_words(), f))
        throw InputError("unknown format '" + f + "' (valid: " + word_list(format_words()) + ")");
    if (f == "u32") return Format::u32;
    if (f == "double") return Format::f64;
    if (f == "text-u32") return Format::text_u32;
    if (f == "text-double") return Format::text_f64;
    throw std::logic_error("format " + f + " has no writer");
}

void put_le(std::vector<unsigned char>& out, std::uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out.push_back(static_cast<unsigned char>(v >> (8 * i)));
}

// Converts a block of stream values to the output bytes of the format.
void encode(const std::vector<std::uint64_t>& values, std::size_t n, int bits, Format format,
    std::vector<unsigned char>& out)
{
    out.clear();
    char text[40];
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t x = values[i];
        switch (format) {
        case Format::u32:
            put_le(out, top32(x, bits), 4);
            break;
        case Format::f64: {
            const double d = to_u01(x, bits);
            std::uint64_t raw;
            std::memcpy(&raw, &d, sizeof raw);
            put_le(out, raw, 8);
            break;
        }
        case Format::text_u32: {
            const int len = std::snprintf(text, sizeof text, "%u\n", top32(x, bits));
            out.insert(out.end(), text, text + len);
            break;
        }
        case Format::text_f64: {
            const int len = std::snprintf(text, sizeof text, "%.17g\n", to_u01(x, bits));
            out.insert(out.end(), text, text + len);
            break;
        }
        }
    }
}

} // namespace

int cmd_generate(int argc, char** argv)
{
    ConfigurationOptions config_options;
    std::string count_text, format_text, out_path;
    bool allow_unverified = false;
    po::options_description options("rngvet generate options");
    config_options.add_to(options);
    options.add_options()("count", po::value(&count_text)->required(),
        "how many numbers, or 'inf' for no end")("format",
        po::value(&format_text)->default_value("u32"), word_help(format_words()).c_str())("out,o",
        po::value(&out_path), "output file (default: standard output)")("allow-unverified-params",
        po::bool_switch(&allow_unverified),
        "mtdc: use parameter sets that fail rngvet dc verify's checks");
    po::variables_map vm;
    if (!parse(argc, argv, options,
            "usage: rngvet generate --generator G [--seed S] [configuration options] --count N "
            "[--format FMT] [--out FILE]",
            vm))
        return 0;

    Configuration config = config_options.configuration();
    if (config.backend == Backend::automatic) {
        std::string report;
        config.backend = resolve_auto_backend(config, BackendOptions{}, &report);
        std::istringstream lines(report);
        for (std::string line; std::getline(lines, line);)
            std::cerr << "rngvet: " << line << "\n";
    }
    const Format format = parse_format(format_text);
    std::uint64_t count = std::numeric_limits<std::uint64_t>::max();
    if (count_text != "inf") {
        errno = 0;
        char* end = nullptr;
        count = std::strtoull(count_text.c_str(), &end, 10);
        if (count_text.empty() || count_text.find_first_not_of("0123456789") != std::string::npos
            || errno == ERANGE)
            throw InputError(
                "--count must be a non-negative integer or 'inf', got '" + count_text + "'");
    }
    std::vector<std::string> inputs;
    if (reads_file(config.generator)) inputs.push_back(config.generator.path);
    if (config.generator.kind == kinds::mtdc) inputs.push_back(config.params);
    refuse_overwriting_input(out_path, "--out", inputs);
    check_param_sets(config, allow_unverified);
    auto stream = make_backend_stream(config);

    // A finite stream into a regular file is written beside its final name and renamed when
    // complete, so an interrupted or failed write leaves the previous file as it was.
    std::FILE* out = stdout;
    std::string temp;
    struct stat st { };
    if (!out_path.empty()) {
        if (::stat(out_path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
            throw InputError("--out '" + out_path + "' is a directory");
        // A path that cannot be written is a failure of the machine (exit 1), as in report
        // --out and dc create --out.
        const bool regular = count != std::numeric_limits<std::uint64_t>::max()
            && (::stat(out_path.c_str(), &st) != 0 || S_ISREG(st.st_mode));
        if (regular) {
            const auto slash = out_path.find_last_of('/');
            temp = (slash == std::string::npos ? std::string(".") : out_path.substr(0, slash))
                + "/.rngvet-generate-XXXXXX";
            const int fd = ::mkstemp(temp.data());
            if (fd < 0)
                throw std::runtime_error(
                    "cannot write '" + out_path + "': " + std::strerror(errno));
            out = ::fdopen(fd, "wb");
        } else if (::stat(out_path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
            out = ::fdopen(open_special_output(out_path), "wb");
        } else {
            out = std::fopen(out_path.c_str(), "wb");
        }
        if (!out)
            throw std::runtime_error("cannot write '" + out_path + "': " + std::strerror(errno));
    }
    const auto write_failed = [&](int err) {
        if (!temp.empty()) ::unlink(temp.c_str());
        return std::runtime_error("writing the stream failed: " + std::string(std::strerror(err)));
    };
    // A reader that stops early (| head) ends the stream quietly.
    std::signal(SIGPIPE, SIG_IGN);

    std::vector<std::uint64_t> values(1u << 16);
    std::vector<unsigned char> bytes;
    for (std::uint64_t done = 0; done < count;) {
        const std::size_t n
            = static_cast<std::size_t>(std::min<std::uint64_t>(values.size(), count - done));
        stream->fill(values.data(), n);
        encode(values, n, stream->bits(), format, bytes);
        if (std::fwrite(bytes.data(), 1, bytes.size(), out) != bytes.size()) {
            if (errno == EPIPE) return 0;
            throw write_failed(errno);
        }
        done += n;
    }
    if (std::fflush(out) != 0 && errno != EPIPE) throw write_failed(errno);
    if (out != stdout) {
        if ((!temp.empty() && ::fsync(::fileno(out)) != 0) || std::fclose(out) != 0)
            throw write_failed(errno);
        if (!temp.empty()) {
            ::chmod(temp.c_str(), 0644);
            if (::rename(temp.c_str(), out_path.c_str()) != 0) throw write_failed(errno);
        }
    }
    return 0;
}

} // namespace rngvet::cli

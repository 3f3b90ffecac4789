#include "guards.hpp"

#include "dc/dynamic_creator.hpp"
#include "generators/error.hpp"
#include "generators/sha256.hpp"
#include "process/files.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace rngvet::cli {
namespace {

std::string directory_of(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

[[noreturn]] void write_failed(const std::string& path, int err)
{
    throw std::runtime_error("cannot write '" + path + "': " + std::strerror(err));
}

// Writes all of `content` to `fd`; returns 0 or the errno of the failure.
int write_all(int fd, const std::string& content)
{
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        done += static_cast<std::size_t>(n);
    }
    return 0;
}

std::string cache_dir()
{
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/rngvet";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/rngvet";
    return "";
}

// A file named after a SHA-256 in the cache records that the file of that hash passed.
std::string verified_marker(const std::string& sha256)
{
    const std::string dir = cache_dir();
    return dir.empty() ? "" : dir + "/verified-params/" + sha256;
}

void remember_verified(const std::string& marker)
{
    if (marker.empty()) return;
    // Best effort: a cache that cannot be written only means checking again next time.
    std::string dir;
    for (std::size_t at = 1; at != std::string::npos;) {
        at = marker.find('/', at + 1);
        if (at == std::string::npos) break;
        dir = marker.substr(0, at);
        ::mkdir(dir.c_str(), 0755);
    }
    const int fd = ::open(marker.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) ::close(fd);
}

} // namespace

void refuse_overwriting_input(
    const std::string& out, const char* option, const std::vector<std::string>& inputs)
{
    struct stat o { };
    if (out.empty() || ::stat(out.c_str(), &o) != 0) return;
    for (const std::string& in : inputs) {
        struct stat i { };
        if (in.empty() || ::stat(in.c_str(), &i) != 0) continue;
        if (o.st_dev == i.st_dev && o.st_ino == i.st_ino)
            throw InputError(std::string(option) + " '" + out + "' is the input '" + in
                + "'; writing there would destroy it");
    }
}

int open_special_output(const std::string& path)
{
    // O_NONBLOCK: opening a FIFO for writing fails at once (ENXIO) when nothing reads it.
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENXIO)
            throw std::runtime_error(
                "cannot write '" + path + "': it is a FIFO that no process reads");
        write_failed(path, errno);
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

void write_file_atomically(const std::string& path, const std::string& content)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) throw InputError("'" + path + "' is a directory");
        const int fd = open_special_output(path);
        const int err = write_all(fd, content);
        if (::close(fd) != 0 && err == 0) write_failed(path, errno);
        if (err) write_failed(path, err);
        return;
    }
    replace_file(path, content);
}

void check_log_path(const std::string& path)
{
    if (path.empty()) return;
    const std::string dir = directory_of(path);
    struct stat st { };
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw InputError("--log '" + path + "': no directory '" + dir + "'");
    if (::access(dir.c_str(), W_OK) != 0)
        throw InputError("--log '" + path + "': directory '" + dir + "' cannot be written");
}

std::string check_external_input(const Configuration& config)
{
    // A loaded file (a plugin's library) was hashed as it was loaded.
    if (family_traits(config.generator).loaded_sha256)
        return family_traits(config.generator).loaded_sha256(config);
    const int bytes = external_word_bytes(config.generator);
    if (bytes == 0) return "";
    const std::string word = std::to_string(8 * bytes) + "-bit word";
    if (!reads_file(config.generator)) {
        // Waits for the first byte (or the end) and puts it back for the run to read.
        const int c = std::getc(stdin);
        if (c == EOF)
            throw InputError(
                to_string(config.generator) + ": standard input is empty; nothing to test");
        std::ungetc(c, stdin);
        return "";
    }
    const std::string& path = config.generator.path;
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0)
        throw InputError("cannot open '" + path + "': " + std::strerror(errno));
    if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
        throw InputError("'" + path + "' is not a file of " + word + "s");
    if (!S_ISREG(st.st_mode)) return ""; // a pipe or device: read once, cannot be hashed
    if (st.st_size < bytes) throw InputError("'" + path + "' holds no " + word);
    // A size that is not a whole number of words: the file is not what its generator names
    // (another word width, or cut off while written).
    const auto size = static_cast<std::uint64_t>(st.st_size);
    const auto width = static_cast<std::uint64_t>(bytes);
    if (size % width != 0)
        throw InputError("'" + path + "' ends in the middle of a " + word + " ("
            + std::to_string(size) + " bytes: " + std::to_string(size / width) + " words and "
            + std::to_string(size % width) + " bytes)");
    return sha256_of_file(path);
}

std::string check_param_sets(const Configuration& config, bool allow_unverified)
{
    if (config.generator.kind != kinds::mtdc) return "";
    if (allow_unverified) return "unverified (allowed)";
    const std::shared_ptr<const MtParamSet> set = mtdc_param_set(config);
    const std::string marker = verified_marker(set->sha256);
    if (!marker.empty() && ::access(marker.c_str(), F_OK) == 0) return "verified (cached)";
    DcVerifyOptions options;
    options.equidistribution = false;
    const DcVerifyReport report = dc_verify(*set, options);
    const auto failures = report.failures();
    if (!failures.empty())
        throw InputError("parameter sets '" + config.params + "' fail rngvet dc verify ("
            + failures.front()
            + (failures.size() > 1 ? ", and " + std::to_string(failures.size() - 1) + " more" : "")
            + "); --allow-unverified-params uses them anyway and records that");
    remember_verified(marker);
    return "verified";
}

} // namespace rngvet::cli

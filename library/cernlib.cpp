// CERNLIB RM48 / CORSIKA RMMARD sequences over librngvet streams: ranmar48 with CERNLIB's zero
// rule, seeded by IJKL (IJ = IJKL / 30082, KL = IJKL mod 30082) and restarted after
// NTOT + NTOT2 * 10^9 numbers by exact jump-ahead. The Fortran entries are in fortran/.
#include "internal.hpp"
#include "rngvet/rngvet.h"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>

namespace {

constexpr int default_ijkl = 54217137; // CERNLIB's default, (IJ, KL) = (1802, 9373)
constexpr std::uint64_t billion = 1000000000;

struct Sequence {
    rngvet_stream* stream = nullptr;
    int ijkl = default_ijkl;
    std::uint64_t start = 0; // numbers skipped when the sequence was set
};

std::array<Sequence, RNGVET_CERNLIB_SEQUENCES> sequences;
std::mutex sequences_mutex;

bool valid_sequence(int iseq)
{
    if (iseq >= 1 && iseq <= RNGVET_CERNLIB_SEQUENCES) return true;
    rngvet::library::set_last_error("sequence " + std::to_string(iseq) + " does not exist (1.."
        + std::to_string(RNGVET_CERNLIB_SEQUENCES) + ")");
    return false;
}

int open_sequence(Sequence& s, int ijkl, std::uint64_t start)
{
    const int ij = ijkl / 30082, kl = ijkl - 30082 * ij;
    std::string name = "ranmar48/1/single/increment/" + std::to_string(ij) + ","
        + std::to_string(kl) + ";zero=smallest";
    if (start > 0) name += ";skip=" + std::to_string(start);
    const char* backend = std::getenv("RNGVET_BACKEND");
    rngvet_options options;
    rngvet_options_init(&options);
    options.backend = backend && *backend ? backend : "auto";
    rngvet_stream* opened = nullptr;
    const int status = rngvet_open(&opened, name.c_str(), &options);
    if (status != RNGVET_OK) return status;
    rngvet_close(s.stream);
    s.stream = opened;
    s.ijkl = ijkl;
    s.start = start;
    return RNGVET_OK;
}

} // namespace

extern "C" {

int rngvet_cernlib_set(int iseq, int ijkl, int ntot, int ntot2)
{
    if (!valid_sequence(iseq)) return RNGVET_ERROR_INPUT;
    if (ijkl < 0 || ijkl > 900000000 || ntot < 0 || ntot2 < 0) {
        rngvet::library::set_last_error("RMMAQD/RM48IN: IJKL must be in 0..900000000 and NTOT, "
                                        "NTOT2 non-negative, got "
            + std::to_string(ijkl) + ", " + std::to_string(ntot) + ", " + std::to_string(ntot2));
        return RNGVET_ERROR_INPUT;
    }
    std::lock_guard<std::mutex> lock(sequences_mutex);
    return open_sequence(sequences[static_cast<std::size_t>(iseq - 1)], ijkl,
        static_cast<std::uint64_t>(ntot) + static_cast<std::uint64_t>(ntot2) * billion);
}

int rngvet_cernlib_get(int iseq, int* ijkl, int* ntot, int* ntot2)
{
    if (!valid_sequence(iseq)) return RNGVET_ERROR_INPUT;
    std::lock_guard<std::mutex> lock(sequences_mutex);
    const Sequence& s = sequences[static_cast<std::size_t>(iseq - 1)];
    const std::uint64_t done = s.start + rngvet_position(s.stream);
    if (ijkl) *ijkl = s.ijkl;
    if (ntot) *ntot = static_cast<int>(done % billion);
    if (ntot2) *ntot2 = static_cast<int>(done / billion);
    return RNGVET_OK;
}

int rngvet_cernlib_next(double* out, int n, int iseq)
{
    if (!valid_sequence(iseq)) return RNGVET_ERROR_INPUT;
    if (n < 0) {
        rngvet::library::set_last_error(
            "RMMARD: LENV must be non-negative, got " + std::to_string(n));
        return RNGVET_ERROR_INPUT;
    }
    if (n > 0 && !out) {
        rngvet::library::set_last_error(
            "RMMARD: the output array is NULL for LENV = " + std::to_string(n) + " numbers");
        return RNGVET_ERROR_INPUT;
    }
    std::lock_guard<std::mutex> lock(sequences_mutex);
    Sequence& s = sequences[static_cast<std::size_t>(iseq - 1)];
    if (!s.stream) {
        const int status = open_sequence(s, default_ijkl, 0);
        if (status != RNGVET_OK) return status;
    }
    return rngvet_u01(s.stream, out, static_cast<std::size_t>(n));
}

} // extern "C"

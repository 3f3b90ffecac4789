// CERNLIB RM48 / CORSIKA RMMARD sequences over librngvet streams of one configuration: the one
// rngvet_cernlib_configure chose, else $RNGVET_CERNLIB_CONFIG, else CERNLIB's ranmar48 with its
// zero rule. A sequence never set is the configuration itself; RMMAQD/RM48IN's IJKL goes into
// the configuration's seed field (RANMAR: IJ = IJKL / 30082, KL = IJKL mod 30082; the Mersenne
// Twisters: the seed IJKL) and its NTOT + NTOT2 * 10^9 onto its skip, by exact jump-ahead.
// The configuration is fixed once a number has been delivered. The Fortran entries are in
// fortran/.
#include "generators/error.hpp"
#include "generators/ranmar.hpp"
#include "internal.hpp"
#include "kernels/backend.hpp"
#include "rngvet/rngvet.h"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <optional>
#include <string>

using rngvet::Configuration;
using rngvet::InputError;

namespace {

constexpr int ijkl_max = static_cast<int>(rngvet::ranmar_ijkl_max); // CERNLIB's range of IJKL
constexpr std::uint64_t billion = 1000000000;
const char* const cernlib_default = "ranmar48/1/single/increment/1802,9373;zero=smallest";

struct Sequence {
    rngvet_stream* stream = nullptr; // opened at the sequence's first number
    std::optional<int> ijkl; // set by rngvet_cernlib_set, else the configuration's own seed
    std::uint64_t start = 0; // numbers skipped when the sequence was set
};

struct Chosen {
    Configuration config;
    std::string backend;
    std::string name; // canonical_name(config)
};

struct State {
    std::optional<Chosen> chosen; // by rngvet_cernlib_configure, or read from the environment
    bool delivered = false; // a sequence has delivered a number: the configuration is fixed
    std::array<Sequence, RNGVET_CERNLIB_SEQUENCES> sequences;
};

State state;
std::mutex state_mutex;

bool valid_sequence(int iseq)
{
    if (iseq >= 1 && iseq <= RNGVET_CERNLIB_SEQUENCES) return true;
    rngvet::library::set_last_error("sequence " + std::to_string(iseq) + " does not exist (1.."
        + std::to_string(RNGVET_CERNLIB_SEQUENCES) + ")");
    return false;
}

// The backend when the configuration names none: $RNGVET_BACKEND, else auto.
std::string default_backend()
{
    const char* backend = std::getenv("RNGVET_BACKEND");
    return backend && *backend ? backend : "auto";
}

Chosen choose(const char* text)
{
    Chosen c;
    c.backend = default_backend();
    c.config = rngvet::library::configuration_from_text(text, c.backend);
    rngvet::parse_backend_here(c.backend); // a name that is no backend, refused here
    c.name = rngvet::canonical_name(c.config);
    return c;
}

// The configuration in use, read from $RNGVET_CERNLIB_CONFIG (or CERNLIB's default) when none
// was chosen yet. Throws InputError for an environment variable that is not a configuration.
const Chosen& chosen()
{
    if (!state.chosen) {
        const char* env = std::getenv("RNGVET_CERNLIB_CONFIG");
        if (env && *env) {
            try {
                state.chosen = choose(env);
            } catch (const std::exception& e) {
                throw InputError(std::string("RNGVET_CERNLIB_CONFIG: ") + e.what());
            }
        } else {
            state.chosen = choose(cernlib_default);
        }
    }
    return *state.chosen;
}

// The configuration of a sequence set to CERNLIB seed ijkl after `start` numbers (validated).
Configuration seeded(const Chosen& chosen, int ijkl, std::uint64_t start)
{
    Configuration c = chosen.config;
    const rngvet::FamilyTraits& family = rngvet::family_traits(c.generator);
    if (!family.seed_of_number)
        throw InputError("RMMAQD/RM48IN: " + chosen.name
            + " reads its numbers from a file and has no seed to set");
    c.seed = family.seed_of_number(rngvet::to_string(c.generator), ijkl);
    c.skip += start;
    rngvet::validate(c);
    return c;
}

// The configuration's own seed as a CERNLIB seed, or -1 where it has none in 0..900000000.
int own_ijkl(const Configuration& c)
{
    const rngvet::FamilyTraits& family = rngvet::family_traits(c.generator);
    const long long v = family.number_of_seed ? family.number_of_seed(c.seed) : -1;
    return v >= 0 && v <= ijkl_max ? static_cast<int>(v) : -1;
}

// Runs f under the state's lock, turning an InputError into RNGVET_ERROR_INPUT and its message.
template <class F> int locked(F&& f)
{
    std::lock_guard<std::mutex> lock(state_mutex);
    try {
        return f();
    } catch (const InputError& e) {
        rngvet::library::set_last_error(e.what());
        return RNGVET_ERROR_INPUT;
    }
}

int open_sequence(Sequence& s)
{
    const Chosen& c = chosen();
    rngvet_options options;
    rngvet_options_init(&options);
    return rngvet::library::open_configuration(
        &s.stream, s.ijkl ? seeded(c, *s.ijkl, s.start) : c.config, c.backend, options);
}

} // namespace

extern "C" {

int rngvet_cernlib_configure(const char* configuration)
{
    return locked([&] {
        if (state.delivered)
            throw InputError(
                std::string("rngvet_cernlib_configure: the CERNLIB entries have already "
                            "delivered numbers of ")
                + (state.chosen ? state.chosen->name : std::string("their configuration"))
                + "; the configuration is chosen before the first number, never switched mid-run");
        Chosen c;
        try {
            c = choose(configuration);
        } catch (const std::exception& e) {
            throw InputError(std::string("rngvet_cernlib_configure: ") + e.what());
        }
        // Every sequence already set must take its seed on the new configuration.
        for (const Sequence& s : state.sequences)
            if (s.ijkl) seeded(c, *s.ijkl, s.start);
        // A sequence open here has delivered nothing (a request for 0 numbers): reopened on the
        // new configuration at its first number.
        for (Sequence& s : state.sequences) {
            rngvet_close(s.stream);
            s.stream = nullptr;
        }
        state.chosen = std::move(c);
        return RNGVET_OK;
    });
}

const char* rngvet_cernlib_configuration(void)
{
    const char* name = nullptr;
    locked([&] {
        name = chosen().name.c_str();
        return RNGVET_OK;
    });
    return name;
}

int rngvet_cernlib_set(int iseq, int ijkl, int ntot, int ntot2)
{
    if (!valid_sequence(iseq)) return RNGVET_ERROR_INPUT;
    if (ijkl < 0 || ijkl > ijkl_max || ntot < 0 || ntot2 < 0) {
        rngvet::library::set_last_error("RMMAQD/RM48IN: IJKL must be in 0..900000000 and NTOT, "
                                        "NTOT2 non-negative, got "
            + std::to_string(ijkl) + ", " + std::to_string(ntot) + ", " + std::to_string(ntot2));
        return RNGVET_ERROR_INPUT;
    }
    return locked([&] {
        const std::uint64_t start
            = static_cast<std::uint64_t>(ntot) + static_cast<std::uint64_t>(ntot2) * billion;
        seeded(chosen(), ijkl, start); // refused here, not at the first number
        Sequence& s = state.sequences[static_cast<std::size_t>(iseq - 1)];
        rngvet_close(s.stream);
        s.stream = nullptr;
        s.ijkl = ijkl;
        s.start = start;
        return RNGVET_OK;
    });
}

int rngvet_cernlib_get(int iseq, int* ijkl, int* ntot, int* ntot2)
{
    if (!valid_sequence(iseq)) return RNGVET_ERROR_INPUT;
    return locked([&] {
        const Sequence& s = state.sequences[static_cast<std::size_t>(iseq - 1)];
        const std::uint64_t done = s.start + rngvet_position(s.stream);
        if (ijkl) *ijkl = s.ijkl ? *s.ijkl : own_ijkl(chosen().config);
        if (ntot) *ntot = static_cast<int>(done % billion);
        if (ntot2) *ntot2 = static_cast<int>(done / billion);
        return RNGVET_OK;
    });
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
    return locked([&] {
        Sequence& s = state.sequences[static_cast<std::size_t>(iseq - 1)];
        if (!s.stream) {
            const int status = open_sequence(s);
            if (status != RNGVET_OK) return status;
        }
        const int status = rngvet_u01(s.stream, out, static_cast<std::size_t>(n));
        if (status == RNGVET_OK && n > 0) state.delivered = true;
        return status;
    });
}

} // extern "C"

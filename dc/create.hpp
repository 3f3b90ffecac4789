// dc_create: Mersenne Twister parameter sets with primitive characteristic polynomials, one per
// id, searched on several threads (rngvet's mode, and dcmt 0.6.1's, set for set).
#pragma once

#include "generators/mt_params.hpp"

#include <cstdint>
#include <functional>

namespace rngvet {

// Called with (work done, work total) as creation proceeds.
using DcProgress = std::function<void(int, int)>;

// How dc_create draws candidates and chooses tempering.
enum class DcCreator {
    // rngvet: set i is searched with its own MT19937 seeded by init_by_array({seed, id}), so a
    // set depends only on (p, seed, id); the first two primitive aaa of that stream get dcmt's
    // tempering search, the one with the lower k(v) defect sum is kept (the first on a tie)
    // and one sweep of dc_tune_tempering's bit flips follows (docs/dynamic_creator.md).
    rngvet,
    // dcmt 0.6.1 (and 0.6.2, whose library code is the same): get_mt_parameters_st(32, p,
    // start_id, start_id + count - 1, seed), equal to init_dc(seed) then
    // get_mt_parameters(32, p, count - 1) when start_id = 0, and to get_mt_parameter_id_st for
    // one id. One MT19937 (init_genrand(seed)) feeds every id in turn: a candidate is
    // aaa = (draw & 0xFFFF0000) | 0x80000000 | id; one that passes the prescreen costs nn more
    // draws (the start state of dcmt's period check) and is then tested exactly; dcmt gives up
    // on an id after 10000 candidates. Tempering by dc_tune_tempering_dcmt.
    dcmt_061,
};

const char* dc_creator_name(DcCreator c); // "rngvet", "dcmt-0.6.1"

struct DcCreateOptions {
    int p = 521; // Mersenne exponent, 521..44497
    int count = 1; // sets wanted, ids start_id .. start_id + count - 1 (<= 65535)
    std::uint32_t seed = 0;
    int start_id = 0;
    DcCreator creator = DcCreator::rngvet;
    int threads = 0; // <= 0: hardware concurrency
    DcProgress progress;
    // Draws per id before giving up (<= 0: dcmt's 10000 in dcmt mode, 2^20 in rngvet mode);
    // other values are for tests of that path.
    int max_draws = 0;
};

// Creates parameter sets; throws std::invalid_argument for bad options, and std::runtime_error
// when no primitive aaa turns up (dcmt mode: within dcmt's 10000 candidates for an id).
// Every mode runs on `threads` threads, which test later candidates of a stream before
// earlier ones finish but keep the first primitive ones in stream order (dcmt mode: dcmt's
// single candidate stream), and temper settled sets as they come; the result does not depend
// on the thread count.
MtParamSet dc_create(const DcCreateOptions& options);

// The former signature: rngvet mode, ids 0..count-1.
MtParamSet dc_create(
    int p, int count, std::uint32_t seed, int threads = 0, const DcProgress& progress = {});

} // namespace rngvet

// The Dynamic Creator's search for tempering masks (maskB, maskC) that raise k(v).
#pragma once

#include "generators/mt_params.hpp"

#include <cstdint>
#include <vector>

namespace rngvet {

// dcmt 0.6.1's tempering search (its _get_tempering_parameter_hard_dc), same decisions and
// ties: for v = 1..15 every mask pair reachable by setting bit v of maskC and maskB (and bit
// v + 15 of maskB) is kept when it attains the best k(v) among all candidates of that level,
// then v = 16..32 greedily; k(v) by mt_kv_lattice.
void dc_tune_tempering_dcmt(MtParams& prm);

// rngvet's tempering search: dcmt's search, then single-bit flips of maskB and maskC, top bit
// first, kept while they lower the k(v) defect sum over v = 1..32, sweeps repeated until one
// changes nothing. Never worse than dcmt's search for the same aaa.
void dc_tune_tempering(MtParams& prm);

// rngvet mode's tempering of one id (dc_create): from the id's first primitive aaa (in stream
// order), each gets dcmt's tempering search; a later one only replaces the best so far when its
// defect sum is lower (its search stops as soon as the defects it has decided reach the best
// sum); then one sweep of single-bit flips lowers the winner's defect sum further.
MtParams dc_temper_best_of(int p, const std::vector<std::uint32_t>& aaa);

} // namespace rngvet

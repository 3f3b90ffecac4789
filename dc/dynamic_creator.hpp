// The Dynamic Creator (DC) of Matsumoto & Nishimura ("Dynamic Creation of Pseudorandom Number
// Generators", MCQMC 1998), written from the mathematics: it finds Mersenne Twister parameter
// sets with primitive characteristic polynomials (period 2^p - 1), one per id, and tunes their
// tempering masks for equidistribution; dc_verify checks any set of such parameters.
//
// Terms. The MT recurrence is a linear map B on p = nn*32 - rr state bits; its characteristic
// polynomial phi(t) has degree p. The generator has period 2^p - 1 iff phi is primitive. Its
// output is equidistributed in k dimensions to v bits when every kv-bit pattern of the top v
// bits of k consecutive outputs occurs equally often over the period (the all-zero pattern
// once less); k(v) is the largest such k, at most floor(p/v); d(v) = floor(p/v) - k(v) is the
// defect (MT paper, section 1.2).
//
// The parts: primitivity (primitivity.hpp), k(v) (equidistribution.hpp), the tempering search
// (tempering.hpp), the parallel search of new sets (create.hpp) and the checks of a file of sets
// (verify.hpp); the characteristic polynomial of any MT is generators/mt_charpoly.hpp.
#pragma once

#include "dc/create.hpp"
#include "dc/equidistribution.hpp"
#include "dc/primitivity.hpp"
#include "dc/tempering.hpp"
#include "dc/verify.hpp"
#include "generators/mt_charpoly.hpp"

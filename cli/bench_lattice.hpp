// rngvet bench --lattice (bench_lattice.cpp).
#pragma once

#include "kernels/bench.hpp"

#include <string>
#include <vector>

namespace rngvet::cli {

// The Ising chains' throughput on one backend (empty: cuda where it is available, else openmp,
// else cpu), each measurement at least `seconds` long, in one table beside the backend's own
// generation rate for the same configuration (ranmar48, many instances interleaved on a
// device): checkerboard Metropolis spin updates per second on the L x L lattice at K_c (on the
// device where the stream runs on CUDA, else the host chain), and Wolff cluster-spin flips per
// second over replicas on native::threads() threads (4 per thread, L = 128, K_c; the host
// chain). Rows go to `csv_path` and the store `db_path` as the bench table's do.
int bench_lattice(int L, const std::string& backend, double seconds, const std::string& csv_path,
    const std::string& db_path);

// The bench table's rows into the store `db_path` (rngvet bench and bench --lattice), each
// with the time and the command line that measured it.
void store_bench_rows(const std::string& db_path, const std::vector<Throughput>& rows);

} // namespace rngvet::cli

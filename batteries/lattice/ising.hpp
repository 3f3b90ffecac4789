// Monte Carlo chains of the 2D Ising model on the periodic L x L lattice (H = -sum over bonds of
// s_i s_j, coupling K = J/kT), driven by an rngvet::Stream, and runs that compare their energy
// and specific heat with Kaufman's exact values (kaufman.hpp): the test of A. M. Ferrenberg,
// D. P. Landau and Y. J. Wong, Phys. Rev. Lett. 69, 3382 (1992).
//
// Every chain consumes uniform doubles u = word * 2^-bits (to_u01, stream.hpp), one stream word
// per number, in the count and order below, so that any backend that hands the same words
// reproduces the same chain bit for bit. Sites are numbered row-major, i = y L + x; the
// neighbours of a site, in this order, are right (x+1), left (x-1), down (y+1), up (y-1), all
// modulo L. p_add = 1 - exp(-2K) (computed as -expm1(-2K) in double).
//
// Wolff single cluster (U. Wolff, Phys. Rev. Lett. 62, 361 (1989)), one step = one cluster:
//   one number picks the seed site, floor(u N); the seed is flipped and pushed on a LIFO stack.
//   Until the stack is empty: pop the top site, and for each neighbour in the order above that
//   still has the cluster's original spin (so is not in the cluster yet) draw one number; if
//   u < p_add, flip the neighbour and push it.
//   A neighbour rejected from one site may be tested again (and drawn for again) from another.
// Swendsen-Wang (R. H. Swendsen and J.-S. Wang, Phys. Rev. Lett. 58, 86 (1987)), one step = one
//   sweep: for each site in row-major order its right bond then its down bond, one number per
//   bond (2N per sweep, drawn for every bond); the bond is occupied if the two spins are equal
//   and u < p_add. Clusters by union-find whose root is the cluster's smallest site; then sites
//   in row-major order, one number drawn at each cluster's root (its smallest site, so clusters
//   take their numbers in the order of their smallest sites): the cluster flips if u < 1/2.
// Metropolis checkerboard, one step = one sweep: the black sites ((x + y) even) in row-major
//   order, then the white ones, one number per site: with h the sum of its 4 neighbours,
//   the flip is accepted if u < min(1, exp(-2K s h)) (a table of the 3 values for s h <= 0, 2,
//   4; s h <= 0 always accepts but still consumes its number). metropolis.hpp holds the order
//   and the rule as the code of both the host chain and the device chain (ising_device.hpp).
//
// Lanes (the per-site mode). With M > 1 lanes a chain reads its numbers in rounds of M
// consecutive numbers, and lane k (0 <= k < M) hands out the k-th number of each round, in
// order: the j-th number lane k hands out (j = 0, 1, ... from the chain's start) is number
// j M + k of the chain's numbers. Under a configuration of M instances with the interleave
// layout, read from a position that is a multiple of M, lane k is instance k: its numbers are
// instance k's, in order. Each number of an update comes from the lane of the site or bond it
// decides:
//   Metropolis: site i's number from lane i mod M;
//   Swendsen-Wang: bond b = 2 i + d (d = 0 the right bond of site i, d = 1 its down bond) from
//     lane b mod M; a cluster's flip number from the lane of its root (smallest site) r,
//     r mod M;
//   Wolff: the seed site's number from lane 0; the number that decides whether neighbour j
//     joins the cluster from lane j mod M (the site being added), in the order above.
// The order in which numbers are taken is the one stated above for each algorithm. A chain
// reads a new round when a lane it draws from has handed out every number read so far, so it
// consumes M max_k(n_k) numbers, n_k the numbers lane k handed out (Metropolis with M dividing
// N: exactly N per sweep); numbers read but not handed out when the chain ends are discarded
// (the next replica starts at the next round). M = 1 is the definition above it, unchanged.
//
// Own lanes (the per-replica mode). R replicas run together on M >= R lanes, replica r on lane r
// alone: the run reads its numbers in blocks of B rounds of M consecutive numbers
// (B = ising_own_block_rounds in the battery), and replica r's j-th number is number j M + r of
// the run's numbers; under a configuration of M instances with the interleave layout, read from a
// position that is a multiple of M, replica r's numbers are instance r's, in order. Each replica
// takes its numbers in the count and order of the one-lane chain above, so replica r equals that
// chain run on lane r's numbers; lanes R .. M - 1 are read and not used. The run reads whole
// blocks until every replica has made its steps: it consumes B M ceil(max_r(n_r) / B) numbers,
// n_r the numbers replica r took; the rest of the last block is discarded (a next run starts at
// the next block).
//
// A run: every replica starts from all spins up with its own stream (the caller's; the chain
// reads the stream in blocks of 4096 words, so the stream ends up to 4095 words further on than
// the chain used) or from a shared source of numbers (run_ising_replica's second form, which
// reads exactly the numbers the chain uses), makes `thermalisation_steps` steps, then
// `measurement_steps` steps measuring the energy per spin e = -(bond sum)/N after each. The bond
// sum is kept exactly (integers). Per replica: mean energy, specific heat
// C = K^2 N (<e^2> - <e>^2), and their standard errors:
//   the energy's from 64 blocks of consecutive measurements (the binning analysis reports the
//   error for 1024, 512, ..., 16 bins, the naive error that ignores correlations, and the
//   integrated autocorrelation time tau = (err_64 / err_naive)^2 / 2 in steps), the specific
//   heat's by the jackknife over the same 64 blocks (B. Efron, 1982).
// Across replicas: the mean of the replicas' estimates and its standard error from their spread,
// sd / sqrt(R). The statistic is z = (estimate - exact) / standard error; its p-value is
// two-sided from the standard normal, erfc(|z| / sqrt 2). With 64 blocks or many replicas the
// Student t correction is small; with few replicas (R < 10) the normal p-value is too small and
// the block (per-replica) statistic is the one to read.
#pragma once

#include "batteries/lattice/kaufman.hpp"
#include "generators/stream.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rngvet::native {
class Numbers;
} // namespace rngvet::native

namespace rngvet::lattice {

enum class IsingAlgorithm { wolff, swendsen_wang, metropolis };
std::string to_string(IsingAlgorithm algorithm);

// Uniform doubles in [0, 1) (a function may also give 1: a view that rounds up), from one of two
// sources:
//   a stream: u = word * 2^-bits, the words read in blocks of `block` (so the stream may end
//     up to block - 1 words further on than the numbers handed out);
//   a function: u = draw(context), one call per number handed out and none ahead, so that the
//     numbers a chain takes are exactly the numbers read (rngvet's ising battery reads TestU01's
//     GetU01 this way, ising_battery.hpp).
class UniformSource {
public:
    static constexpr std::size_t block = 4096;
    using Draw = double (*)(void* context);
    explicit UniformSource(Stream& stream);
    UniformSource(Draw draw, void* context);
    UniformSource(const UniformSource&) = delete;
    UniformSource& operator=(const UniformSource&) = delete;
    double next()
    {
        if (position_ == filled_) refill();
        return values_[position_++];
    }
    // Numbers handed out so far.
    std::uint64_t used() const { return read_ - (filled_ - position_); }

private:
    void refill();
    Stream* stream_ = nullptr;
    Draw draw_ = nullptr;
    void* context_ = nullptr;
    double scale_ = 0;
    std::vector<std::uint64_t> words_;
    std::vector<double> values_;
    std::size_t position_ = 0;
    std::size_t filled_ = 0;
    std::uint64_t read_ = 0; // numbers taken from the stream or the function
};

// Spins +1/-1 on the periodic L x L lattice with its neighbour table and exact bond sum.
class IsingLattice {
public:
    enum Direction { right = 0, left = 1, down = 2, up = 3 };
    explicit IsingLattice(int L); // all spins up; L >= 2
    int size() const { return L_; }
    int sites() const { return n_; }
    int neighbour(int site, int direction) const { return neighbours_[4 * site + direction]; }
    int spin(int site) const { return spins_[site]; }
    // sum over the 2N bonds of s_i s_j, as maintained by the updates.
    std::int64_t bond_sum() const { return bond_sum_; }
    // The same, recounted from the spins.
    std::int64_t count_bond_sum() const;
    double energy() const { return -static_cast<double>(bond_sum_) / n_; }

private:
    friend class IsingChain;
    int L_;
    int n_;
    std::vector<std::int8_t> spins_;
    std::vector<std::int32_t> neighbours_;
    std::int64_t bond_sum_;
};

// M lanes over a source (the per-site mode above): lane k's j-th number is the source's number
// j M + k counted from the lanes' start; a round of M numbers is read when a lane needs it.
class LaneSource {
public:
    LaneSource(UniformSource& source, int lanes);
    int lanes() const { return lanes_; }
    double next(int lane)
    {
        const std::uint64_t round = next_[static_cast<std::size_t>(lane)];
        if (round == rounds_) read_round();
        ++next_[static_cast<std::size_t>(lane)];
        return buffer_[static_cast<std::size_t>(round - base_) * static_cast<std::size_t>(lanes_)
            + static_cast<std::size_t>(lane)];
    }
    // Rounds read so far (M numbers each).
    std::uint64_t rounds() const { return rounds_; }

private:
    void read_round();
    UniformSource& source_;
    int lanes_;
    std::vector<double> buffer_; // rounds base_ .. rounds_ - 1, M numbers each
    std::vector<std::uint64_t> next_; // per lane: the round of its next number
    std::uint64_t base_ = 0;
    std::uint64_t rounds_ = 0;
    std::size_t compact_at_;
};

inline constexpr int ising_max_lanes = 65536;

// One Markov chain: a lattice, an algorithm and the stream that drives it.
class IsingChain {
public:
    // Reads `stream` through a source of its own (in blocks).
    IsingChain(int L, double K, IsingAlgorithm algorithm, Stream& stream, int lanes = 1);
    // Reads `source`, which may have served earlier chains and serves later ones.
    IsingChain(int L, double K, IsingAlgorithm algorithm, UniformSource& source, int lanes = 1);
    // One step (a Wolff cluster, a Swendsen-Wang or Metropolis sweep); returns the spins flipped.
    std::uint64_t step();
    const IsingLattice& lattice() const { return lattice_; }
    // Numbers this chain has taken from its source.
    std::uint64_t numbers_used() const { return source_.used() - source_start_; }
    double add_probability() const { return p_add_; }

private:
    std::uint64_t wolff();
    std::uint64_t swendsen_wang();
    std::uint64_t metropolis();
    int find_root(int site);
    // The number for site or bond `index` (lane index mod M; the source itself with one lane).
    double number(int index)
    {
        return lanes_ ? lanes_->next(index % lanes_->lanes()) : source_.next();
    }
    IsingChain(int L, double K, IsingAlgorithm algorithm, UniformSource* shared_source,
        std::unique_ptr<UniformSource> own_source, int lanes);

    IsingLattice lattice_;
    IsingAlgorithm algorithm_;
    std::unique_ptr<UniformSource> own_source_; // the stream constructor's; null otherwise
    UniformSource& source_;
    std::uint64_t source_start_; // source_.used() when the chain began
    std::unique_ptr<LaneSource> lanes_; // null with one lane
    double p_add_;
    double accept_[3]; // metropolis_table(K)
    std::vector<std::int32_t> order_; // Metropolis: the sweep's sites in order (Checkerboard)
    std::vector<std::int32_t> stack_;
    std::vector<std::int32_t> members_;
    std::vector<std::uint32_t> stamp_;
    std::uint32_t generation_ = 0;
    std::vector<std::int32_t> parent_;
    std::vector<std::uint8_t> flip_;
};

struct IsingRunConfig {
    int L = 16;
    double K = 0;
    IsingAlgorithm algorithm = IsingAlgorithm::wolff;
    std::uint64_t thermalisation_steps = 0;
    // A positive multiple of 1024 (the finest bins).
    std::uint64_t measurement_steps = 0;
    // Lanes M (the per-site mode above), 1 to ising_max_lanes; 1: one sequence per chain.
    int lanes = 1;
    // The own-lanes mode above: replica r on lane r of the M lanes (run_ising_own_lanes).
    bool own_lanes = false;
};

// Rounds per block of the own-lanes mode in the battery (ising_battery.hpp).
inline constexpr std::uint32_t ising_own_block_rounds = 1024;

inline constexpr int ising_finest_bins = 1024;
inline constexpr int ising_blocks = 64;

struct BinningLevel {
    std::uint64_t bin_size = 0; // steps per bin
    int bins = 0;
    double energy_error = 0; // standard error of the mean energy from these bins
};

struct ReplicaResult {
    double energy = 0; // mean energy per spin
    double energy_error = 0; // from 64 blocks
    double specific_heat = 0; // K^2 N (<e^2> - <e>^2)
    double specific_heat_error = 0; // jackknife over 64 blocks
    double naive_energy_error = 0; // as if the measurements were independent
    double energy_tau = 0; // (energy_error / naive_energy_error)^2 / 2, in steps
    std::vector<BinningLevel> binning; // 1024 bins down to 16
    std::uint64_t flips = 0; // spins flipped while measuring
    std::uint64_t numbers = 0; // numbers consumed, thermalisation included
    double seconds = 0; // wall time of the replica
    double cpu_seconds = 0; // CPU time of its thread (differs from seconds on a shared machine)
};

// How far an estimate lies from the exact value, in standard errors.
struct Deviation {
    double estimate = 0;
    double error = 0;
    double exact = 0;
    double sigmas = 0; // (estimate - exact) / error
    double p_value = 0; // two-sided, standard normal
};
Deviation deviation(double estimate, double error, double exact);

struct IsingRunResult {
    IsingRunConfig config;
    IsingExact exact;
    std::vector<ReplicaResult> replicas;
    // Across replicas (error from their spread); error and sigmas are NaN with one replica.
    Deviation energy;
    Deviation specific_heat;
    double seconds = 0; // wall time of the run
};

// Runs one replica per stream, in parallel (OpenMP, native::threads() threads); each replica reads
// only its own stream, so the results do not depend on the thread count. Throws
// std::invalid_argument for a bad config.
IsingRunResult run_ising(const IsingRunConfig& config, const std::vector<Stream*>& streams);

// One replica, on the calling thread: a Metropolis replica on the CUDA device the stream runs on
// where run_ising_replica_on_device can (the stream then ends where the host chain's blocks of
// 4096 would leave it), else on the host.
ReplicaResult run_ising_replica(const IsingRunConfig& config, Stream& stream);
// One replica taking its numbers from `source` (exactly ReplicaResult::numbers of them when the
// source reads a function): replicas run one after another on one source read consecutive
// numbers.
ReplicaResult run_ising_replica(const IsingRunConfig& config, UniformSource& source);
// One Metropolis replica on the device that writes the words of `in` into its memory
// (ising_device.hpp), reading exactly the numbers the host chain takes (ReplicaResult::numbers);
// every field but the times equal, as bits, to run_ising_replica's on the same numbers. nullopt,
// with nothing read, for another algorithm, lanes whose sweeps do not each take the same block of
// rounds (M dividing N, or M >= N, do), or where `in` cannot write device memory.
std::optional<ReplicaResult> run_ising_replica_on_device(
    const IsingRunConfig& config, native::Numbers& in);

// The own-lanes mode: `replicas` replicas (1 to config.lanes) together on `source`, reading blocks
// of `block_rounds` rounds of config.lanes numbers (config.own_lanes set), on host threads. Each
// replica's fields equal, as bits, those of run_ising_replica on its lane's numbers alone, but
// the times: `seconds` and `cpu_seconds` are the run's (all replicas together) and the calling
// thread's. Throws std::invalid_argument for a bad config.
std::vector<ReplicaResult> run_ising_own_lanes(const IsingRunConfig& config, int replicas,
    UniformSource& source, std::uint32_t block_rounds = ising_own_block_rounds);
// The same on the device that writes the words of `in` into its memory (ising_device.hpp's
// device_wolff), for the Wolff algorithm: every field but the times equal, as bits, to
// run_ising_own_lanes's on the same numbers, and the same blocks read. nullopt, with nothing read,
// for another algorithm or where `in` cannot write device memory.
std::optional<std::vector<ReplicaResult>> run_ising_own_lanes_on_device(
    const IsingRunConfig& config, int replicas, native::Numbers& in,
    std::uint32_t block_rounds = ising_own_block_rounds);

// `steps` Wolff steps of each of `replicas` own-lanes replicas (lanes = replicas, nothing
// measured: their flips counted) on the device the stream runs on; the flips, or nullopt, with
// nothing read, where the stream's words cannot be written into device memory. For
// `rngvet bench --lattice`.
std::optional<std::uint64_t> run_wolff_own_lanes_on_device(
    int L, double K, int replicas, std::uint64_t steps, Stream& stream);

// `sweeps` sweeps of one Metropolis chain (one lane, even L) from all spins up, nothing
// measured: on the device the stream runs on where it can (as run_ising_replica), else on the
// host. True where the device ran them. For `rngvet bench --lattice`.
bool run_metropolis_sweeps(int L, double K, std::uint64_t sweeps, Stream& stream);

} // namespace rngvet::lattice

// The Ising chains and runs of ising.hpp: Wolff, Swendsen-Wang and checkerboard Metropolis
// updates with a documented consumption of uniform numbers, block and jackknife error analysis.
// Algorithms: U. Wolff, Phys. Rev. Lett. 62, 361 (1989); R. H. Swendsen and J.-S. Wang, Phys.
// Rev. Lett. 58, 86 (1987); N. Metropolis et al., J. Chem. Phys. 21, 1087 (1953). The test:
// A. M. Ferrenberg, D. P. Landau and Y. J. Wong, Phys. Rev. Lett. 69, 3382 (1992).
#include "ising.hpp"

#include "batteries/native/source.hpp"
#include "ising_device.hpp"
#include "metropolis.hpp"
#include "own_lanes.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>
#include <time.h>

namespace rngvet::lattice {

std::string to_string(IsingAlgorithm algorithm)
{
    switch (algorithm) {
    case IsingAlgorithm::wolff:
        return "wolff";
    case IsingAlgorithm::swendsen_wang:
        return "swendsen-wang";
    case IsingAlgorithm::metropolis:
        return "metropolis";
    }
    return "unknown";
}

UniformSource::UniformSource(Stream& stream)
    : stream_(&stream)
    , scale_(1.0 / static_cast<double>(std::uint64_t(1) << stream.bits()))
    , words_(block)
    , values_(block)
{
}

UniformSource::UniformSource(Draw draw, void* context)
    : draw_(draw)
    , context_(context)
    , values_(1)
{
}

void UniformSource::refill()
{
    if (stream_ != nullptr) {
        stream_->fill(words_.data(), block);
        for (std::size_t k = 0; k < block; ++k)
            values_[k] = static_cast<double>(words_[k]) * scale_;
        filled_ = block;
    } else {
        values_[0] = draw_(context_);
        filled_ = 1;
    }
    position_ = 0;
    read_ += filled_;
}

LaneSource::LaneSource(UniformSource& source, int lanes)
    : source_(source)
    , lanes_(lanes)
    , next_(static_cast<std::size_t>(lanes), 0)
    , compact_at_(std::max<std::size_t>(65536, 4 * static_cast<std::size_t>(lanes)))
{
    if (lanes < 1 || lanes > ising_max_lanes)
        throw std::invalid_argument("LaneSource: lanes must be 1 to 65536");
}

void LaneSource::read_round()
{
    const std::size_t m = static_cast<std::size_t>(lanes_);
    if (buffer_.size() >= compact_at_) {
        // Drop the rounds every lane has handed out; the buffer then holds only the rounds
        // between the slowest lane and the fastest.
        const std::uint64_t oldest = *std::min_element(next_.begin(), next_.end());
        buffer_.erase(
            buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>((oldest - base_) * m));
        base_ = oldest;
        compact_at_ = std::max(compact_at_, 2 * buffer_.size());
    }
    for (std::size_t k = 0; k < m; ++k)
        buffer_.push_back(source_.next());
    ++rounds_;
}

IsingLattice::IsingLattice(int L)
    : L_(L)
    , n_(L * L)
    , spins_(static_cast<std::size_t>(L) * L, 1)
    , neighbours_(4 * static_cast<std::size_t>(L) * L)
    , bond_sum_(2 * static_cast<std::int64_t>(L) * L)
{
    if (L < 2 || L > 46340) throw std::invalid_argument("IsingLattice: L must be in 2..46340");
    for (int y = 0; y < L; ++y)
        for (int x = 0; x < L; ++x) {
            const int i = y * L + x;
            neighbours_[4 * i + right] = y * L + (x + 1) % L;
            neighbours_[4 * i + left] = y * L + (x + L - 1) % L;
            neighbours_[4 * i + down] = ((y + 1) % L) * L + x;
            neighbours_[4 * i + up] = ((y + L - 1) % L) * L + x;
        }
}

std::int64_t IsingLattice::count_bond_sum() const
{
    std::int64_t sum = 0;
    for (int i = 0; i < n_; ++i)
        sum += spins_[i] * (spins_[neighbour(i, right)] + spins_[neighbour(i, down)]);
    return sum;
}

IsingChain::IsingChain(int L, double K, IsingAlgorithm algorithm, Stream& stream, int lanes)
    : IsingChain(L, K, algorithm, nullptr, std::make_unique<UniformSource>(stream), lanes)
{
}

IsingChain::IsingChain(int L, double K, IsingAlgorithm algorithm, UniformSource& source, int lanes)
    : IsingChain(L, K, algorithm, &source, nullptr, lanes)
{
}

IsingChain::IsingChain(int L, double K, IsingAlgorithm algorithm, UniformSource* shared_source,
    std::unique_ptr<UniformSource> own_source, int lanes)
    : lattice_(L)
    , algorithm_(algorithm)
    , own_source_(std::move(own_source))
    , source_(own_source_ ? *own_source_ : *shared_source)
    , source_start_(source_.used())
    , lanes_(lanes == 1 ? nullptr : std::make_unique<LaneSource>(source_, lanes))
    , p_add_(-std::expm1(-2.0 * K))
{
    metropolis_table(K, accept_);
    if (!(K >= 0) || !std::isfinite(K)) throw std::invalid_argument("IsingChain: K must be >= 0");
    if (lanes < 1 || lanes > ising_max_lanes)
        throw std::invalid_argument("IsingChain: lanes must be 1 to 65536");
    const std::size_t n = static_cast<std::size_t>(lattice_.sites());
    if (algorithm == IsingAlgorithm::wolff) {
        stack_.resize(n);
        members_.resize(n);
        stamp_.assign(n, 0);
    } else if (algorithm == IsingAlgorithm::swendsen_wang) {
        parent_.resize(n);
        flip_.resize(n);
    } else {
        const Checkerboard board{ L };
        for (int c = 0; c < 2; ++c)
            for (int k = 0; k < board.sites(c); ++k)
                order_.push_back(board.site(c, k));
    }
}

std::uint64_t IsingChain::step()
{
    switch (algorithm_) {
    case IsingAlgorithm::wolff:
        return wolff();
    case IsingAlgorithm::swendsen_wang:
        return swendsen_wang();
    case IsingAlgorithm::metropolis:
        return metropolis();
    }
    return 0;
}

std::uint64_t IsingChain::wolff()
{
    const int n = lattice_.n_;
    std::int8_t* const spins = lattice_.spins_.data();
    const std::int32_t* const nb = lattice_.neighbours_.data();
    std::int32_t* const stack = stack_.data();
    std::int32_t* const members = members_.data();
    std::uint32_t* const stamp = stamp_.data();
    const double p_add = p_add_;

    if (++generation_ == 0) { // the stamps wrapped: clear them
        std::fill(stamp_.begin(), stamp_.end(), 0u);
        generation_ = 1;
    }
    const std::uint32_t generation = generation_;

    int seed = static_cast<int>(number(0) * n); // lane 0 with several lanes
    if (seed >= n) seed = n - 1;
    const std::int8_t sigma = spins[seed];
    spins[seed] = static_cast<std::int8_t>(-sigma);
    stamp[seed] = generation;
    int top = 0, count = 0;
    stack[top++] = seed;
    members[count++] = seed;
    while (top > 0) {
        const int site = stack[--top];
        const std::int32_t* const around = nb + 4 * site;
        for (int d = 0; d < 4; ++d) {
            const int j = around[d];
            if (spins[j] == sigma && number(j) < p_add) {
                spins[j] = static_cast<std::int8_t>(-sigma);
                stamp[j] = generation;
                stack[top++] = j;
                members[count++] = j;
            }
        }
    }
    // Bonds from the cluster to outside change s_i s_j from sigma s_j to -sigma s_j.
    std::int64_t outside = 0;
    for (int k = 0; k < count; ++k) {
        const std::int32_t* const around = nb + 4 * members[k];
        for (int d = 0; d < 4; ++d) {
            const int j = around[d];
            if (stamp[j] != generation) outside += spins[j];
        }
    }
    lattice_.bond_sum_ -= 2 * sigma * outside;
    return static_cast<std::uint64_t>(count);
}

int IsingChain::find_root(int site)
{
    std::int32_t* const parent = parent_.data();
    while (parent[site] != site) {
        parent[site] = parent[parent[site]]; // path halving
        site = parent[site];
    }
    return site;
}

std::uint64_t IsingChain::swendsen_wang()
{
    const int n = lattice_.n_;
    std::int8_t* const spins = lattice_.spins_.data();
    std::int32_t* const parent = parent_.data();
    const double p_add = p_add_;
    for (int i = 0; i < n; ++i)
        parent[i] = i;
    for (int i = 0; i < n; ++i) {
        for (int d : { IsingLattice::right, IsingLattice::down }) {
            const int j = lattice_.neighbour(i, d);
            const double u = number(2 * i + (d == IsingLattice::down ? 1 : 0));
            if (spins[i] == spins[j] && u < p_add) {
                const int a = find_root(i), b = find_root(j);
                // The smaller root stays the root: each root is its cluster's smallest site.
                if (a < b)
                    parent[b] = a;
                else if (b < a)
                    parent[a] = b;
            }
        }
    }
    std::uint64_t flipped = 0;
    for (int i = 0; i < n; ++i) {
        const int root = find_root(i);
        if (root == i) flip_[i] = number(i) < 0.5 ? 1 : 0;
        if (flip_[root]) {
            spins[i] = static_cast<std::int8_t>(-spins[i]);
            ++flipped;
        }
    }
    lattice_.bond_sum_ = lattice_.count_bond_sum();
    return flipped;
}

std::uint64_t IsingChain::metropolis()
{
    std::int8_t* const spins = lattice_.spins_.data();
    const std::int32_t* const nb = lattice_.neighbours_.data();
    std::uint64_t flipped = 0;
    std::int64_t bond_sum = lattice_.bond_sum_;
    for (const std::int32_t i : order_) {
        const std::int32_t* const around = nb + 4 * i;
        const int h = spins[around[0]] + spins[around[1]] + spins[around[2]] + spins[around[3]];
        const int sh = spins[i] * h;
        if (metropolis_accepts(number(i), sh, accept_)) {
            spins[i] = static_cast<std::int8_t>(-spins[i]);
            bond_sum -= 2 * sh;
            ++flipped;
        }
    }
    lattice_.bond_sum_ = bond_sum;
    return flipped;
}

Deviation deviation(double estimate, double error, double exact)
{
    Deviation d;
    d.estimate = estimate;
    d.error = error;
    d.exact = exact;
    d.sigmas = (estimate - exact) / error;
    d.p_value = std::erfc(std::fabs(d.sigmas) / std::sqrt(2.0));
    return d;
}

namespace {

__extension__ typedef __int128 Wide;

// CPU time of the calling thread (POSIX).
double thread_cpu_seconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double to_double(Wide x)
{
    return static_cast<double>(x);
}

// Standard error of the mean of `values` (their spread / sqrt(count)).
double standard_error(const std::vector<double>& values)
{
    const double count = static_cast<double>(values.size());
    double mean = 0;
    for (double v : values)
        mean += v;
    mean /= count;
    double sum = 0;
    for (double v : values)
        sum += (v - mean) * (v - mean);
    return std::sqrt(sum / (count - 1) / count);
}

// `own`: the own-lanes run's check; the other runs refuse an own-lanes config.
void check(const IsingRunConfig& config, bool own = false)
{
    if (config.own_lanes && !own)
        throw std::invalid_argument("run_ising: an own-lanes config runs with run_ising_own_lanes");
    if (config.L < 2 || config.L % 2 != 0)
        throw std::invalid_argument("run_ising: L must be even and at least 2");
    if (!(config.K > 0) || !std::isfinite(config.K))
        throw std::invalid_argument("run_ising: K must be positive");
    if (config.measurement_steps == 0 || config.measurement_steps % ising_finest_bins != 0)
        throw std::invalid_argument("run_ising: measurement_steps must be a positive multiple of "
            + std::to_string(ising_finest_bins));
    if (config.lanes < 1 || config.lanes > ising_max_lanes)
        throw std::invalid_argument("run_ising: lanes must be 1 to 65536");
}

// The own-lanes mode's config, replicas and block (ising.hpp).
void check_own_lanes(const IsingRunConfig& config, int replicas, std::uint32_t block_rounds)
{
    check(config, true);
    if (!config.own_lanes)
        throw std::invalid_argument("run_ising_own_lanes: the config is not in own-lanes mode");
    if (replicas < 1 || replicas > config.lanes)
        throw std::invalid_argument("run_ising_own_lanes: replicas must be 1 to the lanes");
    if (block_rounds == 0)
        throw std::invalid_argument("run_ising_own_lanes: a block must hold at least one round");
    // The bond sums come back as 32-bit integers: |b| <= 2 L^2.
    if (config.L > 1024) throw std::invalid_argument("run_ising_own_lanes: L at most 1024");
}

own_lanes::Plan own_lanes_plan(const IsingRunConfig& config)
{
    own_lanes::Plan plan{};
    plan.L = config.L;
    plan.p_add = -std::expm1(-2.0 * config.K);
    metropolis_table(config.K, plan.table);
    plan.thermalisation = config.thermalisation_steps;
    plan.total = config.thermalisation_steps + config.measurement_steps;
    return plan;
}

// A stream as the native engine's word source (batteries/native/source.hpp), for its
// fill_device: the device chain reads nothing else (peek and advance serve blocks of the stream
// all the same).
class StreamWords : public native::WordSource {
public:
    explicit StreamWords(Stream& stream)
        : stream_(stream)
    {
    }
    int bits() const override { return stream_.bits(); }
    Stream::View peek(std::size_t n) override
    {
        if (position_ == held_.size()) {
            held_.resize(std::min<std::size_t>(n, UniformSource::block));
            stream_.fill(held_.data(), held_.size());
            position_ = 0;
        }
        return { held_.data() + position_, std::min(n, held_.size() - position_) };
    }
    void advance(std::size_t k) override { position_ += k; }
    bool fill_device(void* out, std::size_t n) override
    {
        return position_ == held_.size() && stream_.fill_device(out, n, DeviceFormat::u64);
    }

private:
    Stream& stream_;
    std::vector<std::uint64_t> held_;
    std::size_t position_ = 0;
};

// Exact sums of the bond sum b and of b^2 over each finest bin, fed the measured steps in order.
struct BondSums {
    explicit BondSums(const IsingRunConfig& config)
        : bin_size(config.measurement_steps / ising_finest_bins)
        , sum_b(ising_finest_bins, 0)
        , sum_b2(ising_finest_bins, 0)
    {
    }
    void add(std::int64_t b)
    {
        const std::uint64_t bin = step++ / bin_size;
        sum_b[bin] += b;
        sum_b2[bin] += static_cast<Wide>(b) * b;
    }
    std::uint64_t bin_size;
    std::vector<Wide> sum_b, sum_b2;
    std::uint64_t step = 0;
};

// The replica's statistics from its bond sums (r: flips and numbers already set).
void replica_statistics(const IsingRunConfig& config, const BondSums& sums, ReplicaResult& r);

// The chain's sweep plan for the device (ising_device.hpp): the index, in the block of numbers
// one sweep takes, of each site's number, found by handing the sweep's sites numbers 0, 1, 2, ...
// through the host's own LaneSource (twice, to see that each sweep takes the same block). False
// where the sweeps do not each take one block of whole rounds.
bool sweep_plan(const IsingRunConfig& config, DeviceMetropolis& run)
{
    const Checkerboard board{ config.L };
    const std::uint64_t n = static_cast<std::uint64_t>(config.L) * config.L;
    if (config.lanes == 1) {
        run.sweep_numbers = n;
        return true;
    }
    struct Counter {
        static double next(void* context)
        {
            return static_cast<double>((*static_cast<std::uint64_t*>(context))++);
        }
    };
    std::uint64_t counter = 0;
    UniformSource counting(&Counter::next, &counter);
    LaneSource lanes(counting, config.lanes);
    const std::uint64_t m = static_cast<std::uint64_t>(config.lanes);
    std::vector<std::uint64_t> first(n);
    for (int sweep = 0; sweep < 2; ++sweep) {
        std::uint64_t q = 0;
        for (int c = 0; c < 2; ++c)
            for (int k = 0; k < board.sites(c); ++k, ++q) {
                const int i = board.site(c, k);
                const std::uint64_t index = static_cast<std::uint64_t>(
                    lanes.next(static_cast<int>(static_cast<std::uint64_t>(i) % m)));
                if (sweep == 0)
                    first[q] = index;
                else if (index != first[q] + run.sweep_numbers)
                    return false;
            }
        if (sweep == 0) run.sweep_numbers = lanes.rounds() * m;
    }
    if (lanes.rounds() * m != 2 * run.sweep_numbers) return false;
    run.number_of.assign(first.begin(), first.end());
    return true;
}

} // namespace

ReplicaResult run_ising_replica(const IsingRunConfig& config, Stream& stream)
{
    if (config.algorithm == IsingAlgorithm::metropolis) {
        StreamWords words(stream);
        native::Numbers in(words);
        if (auto r = run_ising_replica_on_device(config, in)) {
            // Where the host chain's source, reading blocks of UniformSource::block, leaves it.
            const std::uint64_t block = UniformSource::block;
            const std::uint64_t rest = (r->numbers + block - 1) / block * block - r->numbers;
            if (rest > 0 && !in.fill_device(nullptr, static_cast<std::size_t>(rest)))
                throw std::runtime_error("ising: the stream stopped skipping on its device");
            return *r;
        }
    }
    UniformSource source(stream);
    return run_ising_replica(config, source);
}

std::optional<ReplicaResult> run_ising_replica_on_device(
    const IsingRunConfig& config, native::Numbers& in)
{
    check(config);
    if (config.algorithm != IsingAlgorithm::metropolis) return std::nullopt;
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = thread_cpu_seconds();
    DeviceMetropolis run;
    run.L = config.L;
    metropolis_table(config.K, run.table);
    run.thermalisation = config.thermalisation_steps;
    run.measured = config.measurement_steps;
    if (!sweep_plan(config, run)) return std::nullopt;
    BondSums sums(config);
    run.bond_sum = [&sums](std::int64_t b) { sums.add(b); };
    const std::optional<DeviceMetropolisResult> chain = device_metropolis(in, run);
    if (!chain) return std::nullopt;
    if (chain->measured != config.measurement_steps)
        throw std::logic_error("ising: the device chain measured another number of sweeps");
    ReplicaResult r;
    r.flips = chain->flips;
    r.numbers = run.sweep_numbers * (config.thermalisation_steps + config.measurement_steps);
    replica_statistics(config, sums, r);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.cpu_seconds = thread_cpu_seconds() - cpu_start;
    return r;
}

std::vector<ReplicaResult> run_ising_own_lanes(
    const IsingRunConfig& config, int replicas, UniformSource& source, std::uint32_t block_rounds)
{
    check_own_lanes(config, replicas, block_rounds);
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = thread_cpu_seconds();
    const own_lanes::Plan plan = own_lanes_plan(config);
    const std::size_t R = static_cast<std::size_t>(replicas);
    const std::size_t M = static_cast<std::size_t>(config.lanes);
    const std::size_t B = block_rounds;
    const std::size_t n = static_cast<std::size_t>(config.L) * static_cast<std::size_t>(config.L);
    std::vector<own_lanes::State> states(R);
    for (own_lanes::State& st : states)
        own_lanes::start(st, plan);
    std::vector<std::int8_t> spins(R * n, 1);
    // Wolff's stack, Swendsen-Wang's parents; Swendsen-Wang's flips.
    std::vector<std::int32_t> work(config.algorithm == IsingAlgorithm::metropolis ? 0 : R * n);
    std::vector<std::uint8_t> flips(config.algorithm == IsingAlgorithm::swendsen_wang ? R * n : 0);
    std::vector<double> window(R * B); // replica r's k-th number of the block at r B + k
    std::vector<std::int32_t> out(R * B);
    std::vector<BondSums> sums(R, BondSums(config));
    struct Lane {
        const double* values;
        double operator()(std::uint32_t k) const { return values[k]; }
    };
    for (std::size_t left = R; left > 0;) {
        for (std::size_t k = 0; k < B; ++k)
            for (std::size_t lane = 0; lane < M; ++lane) {
                const double u = source.next();
                if (lane < R) window[lane * B + k] = u;
            }
        const long count = static_cast<long>(R);
#pragma omp parallel for schedule(dynamic, 16) num_threads(native::threads())
        for (long q = 0; q < count; ++q) {
            const std::size_t r = static_cast<std::size_t>(q);
            own_lanes::State& st = states[r];
            if (st.steps >= plan.total) continue;
            const Lane lane{ window.data() + r * B };
            std::int32_t* const o = out.data() + r * B;
            std::uint32_t measured = 0;
            const std::uint32_t b = block_rounds;
            switch (config.algorithm) {
            case IsingAlgorithm::wolff:
                own_lanes::wolff(
                    st, plan, spins.data() + r * n, work.data() + r * n, lane, b, o, measured);
                break;
            case IsingAlgorithm::metropolis:
                own_lanes::metropolis(st, plan, spins.data() + r * n, lane, b, o, measured);
                break;
            case IsingAlgorithm::swendsen_wang:
                own_lanes::swendsen_wang(st, plan, spins.data() + r * n, work.data() + r * n,
                    flips.data() + r * n, lane, b, o, measured);
                break;
            }
            for (std::uint32_t m = 0; m < measured; ++m)
                sums[r].add(o[m]);
        }
        left = 0;
        for (const own_lanes::State& st : states)
            left += st.steps < plan.total;
    }
    std::vector<ReplicaResult> results(R);
    const double seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const long count = static_cast<long>(R);
#pragma omp parallel for schedule(dynamic, 16) num_threads(native::threads())
    for (long q = 0; q < count; ++q) {
        const std::size_t r = static_cast<std::size_t>(q);
        results[r].flips = states[r].flips;
        results[r].numbers = states[r].numbers;
        replica_statistics(config, sums[r], results[r]);
    }
    for (ReplicaResult& r : results) {
        r.seconds = seconds;
        r.cpu_seconds = thread_cpu_seconds() - cpu_start;
    }
    return results;
}

std::optional<std::vector<ReplicaResult>> run_ising_own_lanes_on_device(
    const IsingRunConfig& config, int replicas, native::Numbers& in, std::uint32_t block_rounds)
{
    check_own_lanes(config, replicas, block_rounds);
    if (config.algorithm != IsingAlgorithm::wolff) return std::nullopt;
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = thread_cpu_seconds();
    const std::size_t R = static_cast<std::size_t>(replicas);
    DeviceWolff run;
    run.plan = own_lanes_plan(config);
    run.lanes = config.lanes;
    run.replicas = replicas;
    run.block_rounds = block_rounds;
    std::vector<BondSums> sums(R, BondSums(config));
    run.block = [&sums, R, block_rounds](const std::uint32_t* measured, const std::int32_t* bonds) {
        const long count = static_cast<long>(R);
#pragma omp parallel for schedule(dynamic, 64) num_threads(native::threads())
        for (long q = 0; q < count; ++q) {
            const std::size_t r = static_cast<std::size_t>(q);
            const std::int32_t* const b = bonds + r * block_rounds;
            for (std::uint32_t m = 0; m < measured[r]; ++m)
                sums[r].add(b[m]);
        }
    };
    const std::optional<DeviceWolffResult> chain = device_wolff(in, run);
    if (!chain) return std::nullopt;
    std::vector<ReplicaResult> results(R);
    const double seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (std::size_t r = 0; r < R; ++r) {
        const own_lanes::State& st = chain->states[r];
        if (st.steps != run.plan.total || sums[r].step != config.measurement_steps)
            throw std::logic_error("ising: a device replica made another number of steps");
        results[r].flips = st.flips;
        results[r].numbers = st.numbers;
        replica_statistics(config, sums[r], results[r]);
        results[r].seconds = seconds;
        results[r].cpu_seconds = thread_cpu_seconds() - cpu_start;
    }
    return results;
}

std::optional<std::uint64_t> run_wolff_own_lanes_on_device(
    int L, double K, int replicas, std::uint64_t steps, Stream& stream)
{
    if (L < 2 || L > 1024 || replicas < 1 || replicas > ising_max_lanes)
        throw std::invalid_argument(
            "run_wolff_own_lanes_on_device: L 2 to 1024, replicas 1 to 65536");
    IsingRunConfig config;
    config.L = L;
    config.K = K;
    config.measurement_steps = steps;
    DeviceWolff run;
    run.plan = own_lanes_plan(config);
    run.lanes = replicas;
    run.replicas = replicas;
    run.block_rounds = ising_own_block_rounds;
    StreamWords words(stream);
    native::Numbers in(words);
    const std::optional<DeviceWolffResult> chain = device_wolff(in, run);
    if (!chain) return std::nullopt;
    std::uint64_t flips = 0;
    for (const own_lanes::State& st : chain->states)
        flips += st.flips;
    return flips;
}

bool run_metropolis_sweeps(int L, double K, std::uint64_t sweeps, Stream& stream)
{
    if (L < 2 || L % 2 != 0 || L > 46340)
        throw std::invalid_argument("run_metropolis_sweeps: L must be even, 2 to 46340");
    DeviceMetropolis run;
    run.L = L;
    metropolis_table(K, run.table);
    run.thermalisation = sweeps;
    run.sweep_numbers = static_cast<std::uint64_t>(L) * static_cast<std::uint64_t>(L);
    {
        StreamWords words(stream);
        native::Numbers in(words);
        if (device_metropolis(in, run)) return true;
    }
    IsingChain chain(L, K, IsingAlgorithm::metropolis, stream);
    for (std::uint64_t s = 0; s < sweeps; ++s)
        chain.step();
    return false;
}

ReplicaResult run_ising_replica(const IsingRunConfig& config, UniformSource& source)
{
    check(config);
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = thread_cpu_seconds();
    IsingChain chain(config.L, config.K, config.algorithm, source, config.lanes);
    for (std::uint64_t s = 0; s < config.thermalisation_steps; ++s)
        chain.step();
    ReplicaResult r;
    BondSums sums(config);
    for (std::uint64_t s = 0; s < config.measurement_steps; ++s) {
        r.flips += chain.step();
        sums.add(chain.lattice().bond_sum());
    }
    r.numbers = chain.numbers_used();
    replica_statistics(config, sums, r);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.cpu_seconds = thread_cpu_seconds() - cpu_start;
    return r;
}

namespace {

void replica_statistics(const IsingRunConfig& config, const BondSums& sums, ReplicaResult& r)
{
    const std::vector<Wide>& sum_b = sums.sum_b;
    const std::vector<Wide>& sum_b2 = sums.sum_b2;
    const std::uint64_t bin_size = sums.bin_size;
    const double n_sites = static_cast<double>(config.L) * config.L;
    const double k2 = config.K * config.K;
    Wide total_b = 0, total_b2 = 0;
    for (int bin = 0; bin < ising_finest_bins; ++bin) {
        total_b += sum_b[bin];
        total_b2 += sum_b2[bin];
    }
    const Wide m = static_cast<Wide>(config.measurement_steps);
    // Var(b) = (m sum b^2 - (sum b)^2) / m^2, exact up to the final division.
    auto specific_heat_of = [&](Wide s1, Wide s2, Wide count) {
        const double variance
            = to_double(count * s2 - s1 * s1) / (to_double(count) * to_double(count));
        return k2 * variance / n_sites;
    };
    r.energy = -to_double(total_b) / to_double(m) / n_sites;
    r.specific_heat = specific_heat_of(total_b, total_b2, m);
    const double variance_e = to_double(m * total_b2 - total_b * total_b)
        / (to_double(m) * to_double(m)) / n_sites / n_sites;
    r.naive_energy_error = std::sqrt(variance_e / (to_double(m) - 1));

    // Binning: 1024, 512, ..., 16 bins of consecutive measurements.
    for (int bins = ising_finest_bins; bins >= 16; bins /= 2) {
        const int merge = ising_finest_bins / bins;
        std::vector<double> means(static_cast<std::size_t>(bins));
        for (int k = 0; k < bins; ++k) {
            Wide s = 0;
            for (int q = 0; q < merge; ++q)
                s += sum_b[k * merge + q];
            means[k] = -to_double(s) / (static_cast<double>(bin_size) * merge) / n_sites;
        }
        r.binning.push_back(
            { bin_size * static_cast<std::uint64_t>(merge), bins, standard_error(means) });
        if (bins == ising_blocks) r.energy_error = r.binning.back().energy_error;
    }
    r.energy_tau
        = 0.5 * (r.energy_error / r.naive_energy_error) * (r.energy_error / r.naive_energy_error);

    // Jackknife of the specific heat over the 64 blocks.
    const int merge = ising_finest_bins / ising_blocks;
    const Wide block_steps = static_cast<Wide>(bin_size) * merge;
    std::vector<double> leave_one_out(ising_blocks);
    double jack_mean = 0;
    for (int k = 0; k < ising_blocks; ++k) {
        Wide s1 = 0, s2 = 0;
        for (int q = 0; q < merge; ++q) {
            s1 += sum_b[k * merge + q];
            s2 += sum_b2[k * merge + q];
        }
        leave_one_out[k] = specific_heat_of(total_b - s1, total_b2 - s2, m - block_steps);
        jack_mean += leave_one_out[k];
    }
    jack_mean /= ising_blocks;
    double jack_sum = 0;
    for (double c : leave_one_out)
        jack_sum += (c - jack_mean) * (c - jack_mean);
    r.specific_heat_error = std::sqrt(jack_sum * (ising_blocks - 1) / ising_blocks);
}

} // namespace

IsingRunResult run_ising(const IsingRunConfig& config, const std::vector<Stream*>& streams)
{
    check(config);
    if (streams.empty()) throw std::invalid_argument("run_ising: no streams");
    for (Stream* s : streams)
        if (s == nullptr) throw std::invalid_argument("run_ising: a null stream");
    const auto start = std::chrono::steady_clock::now();
    IsingRunResult result;
    result.config = config;
    result.exact = kaufman_exact(config.L, config.K);
    result.replicas.resize(streams.size());
    std::vector<std::exception_ptr> errors(streams.size());
    const long count = static_cast<long>(streams.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(native::threads())
    for (long k = 0; k < count; ++k) {
        try {
            result.replicas[k] = run_ising_replica(config, *streams[k]);
        } catch (...) {
            errors[k] = std::current_exception();
        }
    }
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);

    std::vector<double> energies, heats;
    for (const auto& r : result.replicas) {
        energies.push_back(r.energy);
        heats.push_back(r.specific_heat);
    }
    auto mean_of = [](const std::vector<double>& v) {
        double s = 0;
        for (double x : v)
            s += x;
        return s / static_cast<double>(v.size());
    };
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const bool spread = streams.size() > 1;
    result.energy = deviation(
        mean_of(energies), spread ? standard_error(energies) : nan, result.exact.energy);
    result.specific_heat = deviation(
        mean_of(heats), spread ? standard_error(heats) : nan, result.exact.specific_heat);
    result.seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace rngvet::lattice

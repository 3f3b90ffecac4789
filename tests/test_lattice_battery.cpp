// The lattice battery ising: its stored name and parameters, the Student p-values against
// closed forms, its statistics against values computed here, replicas reading consecutive
// numbers exactly, and through the binary: sound generators at the defaults, serial against
// sharded and cpu against openmp bit for bit, resume after lost tests, refused parameters, a
// campaign with its report and --fail-on.
#include "batteries/bits_read.hpp"
#include "batteries/catalogue.hpp"
#include "batteries/lattice/ising_battery.hpp"
#include "batteries/lattice/kaufman.hpp"
#include "generators/error.hpp"
#include "generators/r250.hpp"
#include "reports/store.hpp"
#include "tests/support.hpp"

#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

namespace {

using rngvet::lattice::ReplicaResult;
using rngvet_test::fresh;
using rngvet_test::run_rngvet;

constexpr double pi = 3.14159265358979323846;

// --- Independent reference computations -------------------------------------------------

// Two-sided p-value of Student's t with n degrees of freedom, 1 - A(t|n) in the closed forms of
// Abramowitz and Stegun 26.7.3 (n odd) and 26.7.4 (n even), theta = atan(|t| / sqrt n).
double student_two_sided(double t, int n)
{
    const double theta = std::atan(std::fabs(t) / std::sqrt(static_cast<double>(n)));
    const double c = std::cos(theta), s = std::sin(theta);
    double a = 0;
    if (n % 2 == 0) {
        double term = 1, sum = 1;
        for (int k = 2; k <= n - 2; k += 2) {
            term *= (k - 1.0) / k * c * c;
            sum += term;
        }
        a = s * sum;
    } else {
        double sum = 0;
        if (n > 1) {
            double term = c;
            sum = c;
            for (int k = 3; k <= n - 2; k += 2) {
                term *= (k - 1.0) / k * c * c;
                sum += term;
            }
        }
        a = 2 / pi * (theta + s * sum);
    }
    return 1 - a;
}

ReplicaResult replica(double energy, double energy_error, double heat, double heat_error)
{
    ReplicaResult r;
    r.energy = energy;
    r.energy_error = energy_error;
    r.specific_heat = heat;
    r.specific_heat_error = heat_error;
    return r;
}

std::map<int, rngvet::StatisticRecord> stats_of(const std::string& db, std::int64_t run)
{
    std::map<int, rngvet::StatisticRecord> out;
    for (const auto& s : rngvet::Store(db).statistics(run))
        EXPECT_TRUE(out.emplace(s.stat_index, s).second)
            << "statistic " << s.stat_index << " twice";
    return out;
}

// Whether two stored p-values are the same double, bit for bit.
bool same_bits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof(double)) == 0;
}

// --- The catalogue, the laws, the statistics --------------------------------------------

TEST(IsingBattery, CatalogueNamesParametersAndRefusesBadOnes)
{
    const auto& c = rngvet::catalogue_for("ising");
    const double kc = rngvet::lattice::critical_coupling();
    EXPECT_EQ(c.name, "ising(L=16,K=0.4406867935097715,therm=1024,steps=65536,reps=8)");
    EXPECT_EQ(c.lattice_size, 16);
    EXPECT_EQ(c.coupling, kc);
    EXPECT_EQ(c.thermalisation, 1024u);
    EXPECT_EQ(c.steps, 65536u);
    EXPECT_EQ(c.reps, 8);
    ASSERT_EQ(c.tests.size(), 3u);
    EXPECT_EQ(c.total_statistics(), 3 * (4 + 2 * 8));
    // The stored name reads back as the same catalogue, K as the same double.
    EXPECT_EQ(&rngvet::catalogue_for(c.name), &c);
    const std::string k_text = c.name.substr(c.name.find("K=") + 2);
    EXPECT_EQ(std::strtod(k_text.c_str(), nullptr), kc);
    EXPECT_EQ(rngvet::catalogue_for("ising(K=Kc)").name, c.name);
    // Keys in any order, powers, and K in its shortest exact text.
    const auto& small = rngvet::catalogue_for("ising(reps=3,steps=2^11,K=0.25,therm=10^2,L=8)");
    EXPECT_EQ(small.name, "ising(L=8,K=0.25,therm=100,steps=2048,reps=3)");
    EXPECT_EQ(rngvet::catalogue_for("ising(K=0.1)").coupling, 0.1);
    EXPECT_EQ(rngvet::catalogue_for("ising(K=0.30000000000000004)").name,
        "ising(L=16,K=0.30000000000000004,therm=1024,steps=65536,reps=8)");
    EXPECT_EQ(rngvet::battery_title(small.name),
        "Ising (L = 8, K = 0.25, therm = 100, steps = 2048, reps = 3)");
    EXPECT_EQ(small.test(1).name, std::string("Ising Wolff, E over replicas"));
    EXPECT_EQ(small.test(3).statistics, 10);
    for (const char* bad : { "ising(L=7)", "ising(L=2)", "ising(L=0)", "ising(L=1026)",
             "ising(K=0)", "ising(K=-0.1)", "ising(K=1.5)", "ising(K=nan)", "ising(K=inf)",
             "ising(K=0.4x)", "ising(K=)", "ising(reps=0)", "ising(reps=1)", "ising(reps=65)",
             "ising(steps=0)", "ising(steps=1000)", "ising(steps=2^31)", "ising(therm=2^31)",
             "ising(n=5)", "ising(l=16)", "ising(L=16,L=16)", "ising(", "ising(L=1024,steps=2^30)",
             "ising(lanes=0)", "ising(lanes=-1)", "ising(lanes=65537)", "ising(lanes=x)",
             "ising(steps=2^20,lanes=65536)" })
        EXPECT_THROW(rngvet::catalogue_for(bad), rngvet::InputError) << bad;
    // Lanes: written only when not 1, so one-lane names are those stored before lanes existed.
    EXPECT_EQ(c.lanes, 1);
    EXPECT_EQ(rngvet::catalogue_for("ising(lanes=1)").name, c.name);
    const auto& lanes = rngvet::catalogue_for("ising(lanes=64,L=8)");
    EXPECT_EQ(lanes.name, "ising(L=8,K=0.4406867935097715,therm=1024,steps=65536,reps=8,lanes=64)");
    EXPECT_EQ(lanes.lanes, 64);
    EXPECT_EQ(&rngvet::catalogue_for(lanes.name), &lanes);
    // The 2^40 bound counts M (1 + 4 ceil(N / M)) numbers a step: 2^20 steps pass with one
    // lane (8.6e9 numbers a test) and are refused with 65536 on 256 sites (2.7e12).
    EXPECT_NO_THROW(rngvet::catalogue_for("ising(steps=2^20)"));
    const auto b = rngvet::bits_read(c.name, 1);
    EXPECT_TRUE(b.all_bits);
    EXPECT_FALSE(b.resolution_matters);
    EXPECT_EQ(rngvet::ising_statistic_names(2, 2),
        (std::vector<std::string>{ "Ising Metropolis, E over replicas",
            "Ising Metropolis, C over replicas", "Ising Metropolis, E from blocks",
            "Ising Metropolis, C from blocks", "Ising Metropolis, E rep 1",
            "Ising Metropolis, E rep 2", "Ising Metropolis, C rep 1",
            "Ising Metropolis, C rep 2" }));
}

TEST(IsingBattery, StudentPvaluesEqualTheClosedForms)
{
    for (int n : { 1, 2, 3, 7, 63, 252 })
        for (double t : { 0.1, 0.7, 1.5, 2.5, 4.0 }) {
            const double expected = student_two_sided(t, n);
            EXPECT_NEAR(rngvet::ising_student_pvalue(1 + t, 1, 1, n), expected, 1e-12)
                << "n = " << n << ", t = " << t;
            EXPECT_NEAR(rngvet::ising_student_pvalue(1 - 2 * t, 2, 1, n), expected, 1e-12);
        }
    // Far tails keep their relative precision: with 1 degree of freedom p = (2/pi) atan(1/t).
    EXPECT_NEAR(rngvet::ising_student_pvalue(1e6, 1, 0, 1) / (2 / pi * std::atan(1e-6)), 1, 1e-6);
    // Normal-like: 10 standard errors with 10^5 degrees of freedom.
    const double p10 = rngvet::ising_student_pvalue(10, 1, 0, 100000);
    EXPECT_GT(p10, 1e-24);
    EXPECT_LT(p10, 1e-22);
    // No error: exact or not.
    EXPECT_EQ(rngvet::ising_student_pvalue(-2, 0, -2, 7), 1.0);
    EXPECT_EQ(rngvet::ising_student_pvalue(-2, 0, -1.9, 7), 0.0);
}

TEST(IsingBattery, StatisticsEqualTheLawsComputedIndependently)
{
    const std::vector<ReplicaResult> replicas
        = { replica(-1.452, 0.002, 1.51, 0.02), replica(-1.455, 0.0021, 1.47, 0.018),
              replica(-1.4505, 0.0019, 1.52, 0.025), replica(-1.4531, 0.0022, 1.49, 0.021) };
    rngvet::lattice::IsingExact exact;
    exact.energy = -1.4530648528134771;
    exact.specific_heat = 1.4987049594000259;
    const auto s = rngvet::ising_statistics(replicas, exact);
    ASSERT_EQ(s.pvalues.size(), 12u);

    std::vector<double> expected;
    const auto over_replicas = [&](auto value, double exact_value) {
        double mean = 0, sum = 0;
        for (const auto& r : replicas)
            mean += value(r) / 4;
        for (const auto& r : replicas)
            sum += (value(r) - mean) * (value(r) - mean);
        return student_two_sided((mean - exact_value) / std::sqrt(sum / 3 / 4), 3);
    };
    const auto from_blocks = [&](auto value, auto error, double exact_value) {
        double deviation = 0, variance = 0;
        for (const auto& r : replicas) {
            deviation += value(r) - exact_value;
            variance += error(r) * error(r);
        }
        return student_two_sided(deviation / std::sqrt(variance), 63 * 4);
    };
    const auto e = [](const ReplicaResult& r) { return r.energy; };
    const auto c = [](const ReplicaResult& r) { return r.specific_heat; };
    const auto de = [](const ReplicaResult& r) { return r.energy_error; };
    const auto dc = [](const ReplicaResult& r) { return r.specific_heat_error; };
    expected.push_back(over_replicas(e, exact.energy));
    expected.push_back(over_replicas(c, exact.specific_heat));
    expected.push_back(from_blocks(e, de, exact.energy));
    expected.push_back(from_blocks(c, dc, exact.specific_heat));
    for (const auto& r : replicas)
        expected.push_back(student_two_sided((r.energy - exact.energy) / r.energy_error, 63));
    for (const auto& r : replicas)
        expected.push_back(
            student_two_sided((r.specific_heat - exact.specific_heat) / r.specific_heat_error, 63));
    for (std::size_t k = 0; k < expected.size(); ++k)
        EXPECT_NEAR(s.pvalues[k], expected[k], 1e-10) << "statistic " << k + 1;
    EXPECT_THROW(rngvet::ising_statistics({ replicas[0] }, exact), std::invalid_argument);
}

// A generator record serving R250's words as u = w 2^-32, counting the calls.
struct R250Gen {
    rngvet::R250Stream stream{ 11 };
    std::uint64_t calls = 0;
    static double u01(void*, void* state)
    {
        auto* g = static_cast<R250Gen*>(state);
        ++g->calls;
        return g->stream.next() * 0x1p-32;
    }
    static unsigned long bits(void*, void* state)
    {
        auto* g = static_cast<R250Gen*>(state);
        ++g->calls;
        return g->stream.next();
    }
    static void write(void*) { }
};

TEST(IsingBattery, ReplicasReadConsecutiveNumbersExactly)
{
    const auto& battery = rngvet::catalogue_for("ising(L=6,K=0.4,therm=50,steps=1024,reps=3)");
    for (int test : { 1, 2, 3 }) {
        R250Gen words;
        char name[] = "r250";
        unif01_Gen gen{ &words, nullptr, name, &R250Gen::u01, &R250Gen::bits, &R250Gen::write };
        const auto replicas = rngvet::ising_replicas(&gen, battery, test);
        ASSERT_EQ(replicas.size(), 3u);
        // Replica k is the replica of its own stream started where replica k - 1 ended.
        std::uint64_t before = 0;
        for (const ReplicaResult& r : replicas) {
            rngvet::R250Stream alone(11);
            for (std::uint64_t i = 0; i < before; ++i)
                alone.next();
            rngvet::lattice::IsingRunConfig config;
            config.L = 6;
            config.K = 0.4;
            config.algorithm = rngvet::ising_algorithm(test);
            config.thermalisation_steps = 50;
            config.measurement_steps = 1024;
            const ReplicaResult same = rngvet::lattice::run_ising_replica(config, alone);
            EXPECT_EQ(same.numbers, r.numbers) << "test " << test;
            EXPECT_EQ(same.energy, r.energy) << "test " << test;
            EXPECT_EQ(same.specific_heat, r.specific_heat) << "test " << test;
            EXPECT_EQ(same.energy_error, r.energy_error) << "test " << test;
            before += r.numbers;
        }
        EXPECT_EQ(words.calls, before) << "test " << test;
        if (test == 2) {
            EXPECT_EQ(before, 3u * (50 + 1024) * 36); // Metropolis: N a sweep
        }
    }
}

// --- Through the binary -----------------------------------------------------------------

// Every p-value of the run away from 0 and 1, the stored name, version and statistic names.
void expect_sound(const std::string& db, std::int64_t run, const std::string& what)
{
    rngvet::Store store(db);
    EXPECT_EQ(store.run(run)->battery, rngvet::catalogue_for("ising").name);
    EXPECT_EQ(store.run(run)->testu01_version, "rngvet ising 1");
    const auto stored = stats_of(db, run);
    ASSERT_EQ(stored.size(), 60u) << what;
    for (const auto& [index, s] : stored) {
        const int test = (index - 1) / 20 + 1;
        EXPECT_EQ(s.test_number, test);
        EXPECT_EQ(s.test_name, rngvet::ising_statistic_names(test, 8)[(index - 1) % 20]);
        EXPECT_GT(s.pvalue, 1e-4) << what << ": " << s.test_name;
        EXPECT_LT(s.pvalue, 1 - 1e-4) << what << ": " << s.test_name;
    }
}

TEST(IsingCli, Mt19937AndRanmar48PassAtTheDefaults)
{
    const std::string db = fresh("ising_defaults.sqlite");
    auto r = run_rngvet(
        "run --generator mt19937 --seed 1 --battery ising --mode sharded --jobs 2 --fail-on fail "
        "--db "
        + db);
    ASSERT_EQ(r.status, 0) << r.err;
    r = run_rngvet("run --generator ranmar48 --seed 1802,9373 --battery ising --mode sharded "
                   "--jobs 2 --fail-on fail --db "
        + db);
    ASSERT_EQ(r.status, 0) << r.err;
    expect_sound(db, 1, "mt19937 seed 1");
    expect_sound(db, 2, "ranmar48 seed 1802,9373");
}

// R250's words (generators/r250.hpp, seed 1) fed through --generator stdin32, written here until
// rngvet has read what the Wolff test needs and closes its end; returns the exit status.
int run_r250_words_through_stdin32(const std::string& db)
{
    const std::string err = rngvet_test::running_test_file(".err");
    std::signal(SIGPIPE, SIG_IGN);
    std::FILE* pipe = popen((std::string(RNGVET_BINARY)
                                + " run --generator stdin32 --battery ising --tests 1 --fail-on "
                                  "fail --db "
                                + db + " >/dev/null 2>" + err)
                                .c_str(),
        "w");
    EXPECT_NE(pipe, nullptr);
    if (!pipe) return -1;
    rngvet::R250Stream r250(1);
    std::vector<std::uint32_t> block(1 << 14);
    std::uint64_t written = 0;
    while (written < (1ull << 30)) {
        for (auto& w : block)
            w = r250.next(); // little-endian words, as stdin32 reads them on this machine
        if (std::fwrite(block.data(), sizeof(std::uint32_t), block.size(), pipe) != block.size())
            break;
        written += block.size();
    }
    const int status = pclose(pipe);
    std::signal(SIGPIPE, SIG_DFL);
    EXPECT_TRUE(WIFEXITED(status)) << rngvet_test::slurp(err);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The Wolff test's verdict on R250 seed 1 (its C lies about 12 standard errors low at the
// defaults, 2^19 clusters in all): --fail-on fail exits 3, C from blocks and C over replicas
// fail.
void expect_r250_fails_wolff(const std::string& db, std::int64_t run)
{
    const auto stored = stats_of(db, run);
    ASSERT_EQ(stored.size(), 20u);
    EXPECT_EQ(stored.at(4).test_name, "Ising Wolff, C from blocks");
    EXPECT_LT(stored.at(4).pvalue, 1e-20);
    EXPECT_LT(stored.at(2).pvalue, 1e-3); // C over replicas: Student's law with 7 degrees
}

TEST(IsingCli, R250FailsTheWolffTest)
{
    const std::string db = fresh("ising_r250.sqlite");
    EXPECT_EQ(run_r250_words_through_stdin32(db), 3); // --fail-on fail
    expect_r250_fails_wolff(db, 1);
}

// The built-in generator r250 (--generator r250 --seed 1) is the same stream: it fails the Wolff
// test with the same statistics, bit for bit, and its stored configuration names r250.
TEST(IsingCli, BuiltInR250FailsTheWolffTestAsItsWordsThroughStdin32Do)
{
    const std::string db = fresh("ising_r250_builtin.sqlite");
    const auto r = run_rngvet(
        "run --generator r250 --seed 1 --battery ising --tests 1 --fail-on fail --db " + db);
    EXPECT_EQ(r.status, 3) << r.err; // --fail-on fail
    expect_r250_fails_wolff(db, 1);
    EXPECT_EQ(rngvet::Store(db).run(1)->config, "r250/1/single/increment/1");
    EXPECT_EQ(run_r250_words_through_stdin32(db), 3);
    EXPECT_EQ(rngvet::Store(db).run(2)->config, "stdin32");
    const auto builtin = stats_of(db, 1), piped = stats_of(db, 2);
    ASSERT_EQ(builtin.size(), piped.size());
    for (const auto& [index, s] : builtin)
        EXPECT_TRUE(same_bits(piped.at(index).pvalue, s.pvalue)) << s.test_name;
    // GSL's tap order fails it as well.
    const auto gsl = run_rngvet(
        "run --generator r250gsl --seed 1 --battery ising --tests 1 --fail-on fail --db " + db);
    EXPECT_EQ(gsl.status, 3) << gsl.err;
    EXPECT_EQ(rngvet::Store(db).run(3)->config, "r250gsl/1/single/increment/1");
    EXPECT_LT(stats_of(db, 3).at(4).pvalue, 1e-10);
}

// Sharded, each test of r250 starts at its segment, (k - 1) x 2^40, by the GF(2) jump-ahead: the
// same statistics as a serial run of that test with --skip, and as openmp's.
TEST(IsingCli, R250ShardedTestsStartAtTheirSegmentsByJumpAhead)
{
    const std::string db = fresh("ising_r250_sharded.sqlite");
    const std::string config
        = "--generator r250gsl --seed 5 --battery 'ising(L=8,therm=256,steps=2048,reps=3)'";
    auto r = run_rngvet("run " + config + " --mode sharded --jobs 2 --db " + db);
    ASSERT_EQ(r.status, 0) << r.err;
    r = run_rngvet(
        "run " + config + " --tests 3 --skip " + std::to_string(2ull << 40) + " --db " + db);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto sharded = stats_of(db, 1), serial = stats_of(db, 2);
    ASSERT_EQ(serial.size(), 10u);
    for (const auto& [index, s] : serial)
        EXPECT_TRUE(same_bits(sharded.at(index).pvalue, s.pvalue)) << s.test_name;
    if (run_rngvet("list").out.find("  openmp: host threads") == std::string::npos)
        GTEST_SKIP() << "the openmp backend is not built here";
    r = run_rngvet("run " + config + " --tests 3 --skip " + std::to_string(2ull << 40)
        + " --backend openmp --db " + db);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto omp = stats_of(db, 3);
    for (const auto& [index, s] : serial)
        EXPECT_TRUE(same_bits(omp.at(index).pvalue, s.pvalue)) << s.test_name;
}

TEST(IsingCli, SerialEqualsShardedAndCpuEqualsOpenmpBitForBit)
{
    const std::string db = fresh("ising_sharded.sqlite");
    const std::string config = "--generator ranmar48 --seed 1802,9373 --instances 4 --battery "
                               "'ising(L=8,therm=256,steps=2048,reps=3)'";
    ASSERT_EQ(run_rngvet("run " + config + " --mode sharded --jobs 2 --db " + db).status, 0);
    // Serially, each test at the start of the segment where the sharded mode puts it.
    for (int test : { 1, 2, 3 }) {
        const auto r = run_rngvet("run " + config + " --tests " + std::to_string(test) + " --skip "
            + std::to_string(std::uint64_t(test - 1) << 40) + " --db " + db);
        ASSERT_EQ(r.status, 0) << r.err;
    }
    const auto sharded = stats_of(db, 1);
    ASSERT_EQ(sharded.size(), 30u);
    std::size_t compared = 0;
    for (const auto& [index, s] : sharded) {
        const auto serial = stats_of(db, 1 + s.test_number);
        ASSERT_EQ(serial.size(), 10u);
        const auto& same = serial.at(index);
        EXPECT_EQ(same.test_name, s.test_name);
        EXPECT_TRUE(same_bits(same.pvalue, s.pvalue))
            << s.test_name << ": " << same.pvalue << " serial, " << s.pvalue << " sharded";
        ++compared;
    }
    EXPECT_EQ(compared, 30u);
    rngvet::Store store(db);
    for (const auto& t : store.tests(1))
        EXPECT_EQ(t.start_offset, std::uint64_t(t.test_number - 1) << 40);
    for (std::int64_t run : { 2, 3, 4 })
        EXPECT_EQ(store.tests(run).at(0).numbers_used,
            store.tests(1).at(static_cast<std::size_t>(run - 2)).numbers_used);

    // The whole battery serially on cpu and on openmp: the same statistics.
    const auto cpu = run_rngvet("run " + config + " --db " + db);
    ASSERT_EQ(cpu.status, 0) << cpu.err;
    if (run_rngvet("list").out.find("  openmp: host threads") == std::string::npos)
        GTEST_SKIP() << "the openmp backend is not built here";
    const auto omp = run_rngvet("run " + config + " --backend openmp --db " + db);
    ASSERT_EQ(omp.status, 0) << omp.err;
    const auto on_cpu = stats_of(db, 5), on_openmp = stats_of(db, 6);
    ASSERT_EQ(on_cpu.size(), 30u);
    ASSERT_EQ(on_openmp.size(), 30u);
    for (const auto& [index, s] : on_cpu)
        EXPECT_TRUE(same_bits(on_openmp.at(index).pvalue, s.pvalue)) << s.test_name;
    // Test 1 of the serial run starts where the sharded mode's test 1 does.
    for (const auto& [index, s] : sharded)
        if (s.test_number == 1) {
            EXPECT_TRUE(same_bits(on_cpu.at(index).pvalue, s.pvalue));
        }
}

// Runs `config` sharded over 2 jobs (run 1), then tests 1, 2 and 3 each alone and serially from
// its segment's offset (runs 2 to 4), and checks that every serial statistic equals the sharded
// one as bits; `sharded` gets run 1's statistics, `per_test` of them a test.
void expect_sharded_equals_serial_tests(const std::string& config, const std::string& db,
    std::size_t per_test, std::map<int, rngvet::StatisticRecord>& sharded)
{
    ASSERT_EQ(run_rngvet("run " + config + " --mode sharded --jobs 2 --db " + db).status, 0);
    for (int test : { 1, 2, 3 }) {
        const auto r = run_rngvet("run " + config + " --tests " + std::to_string(test) + " --skip "
            + std::to_string(std::uint64_t(test - 1) << 40) + " --db " + db);
        ASSERT_EQ(r.status, 0) << r.err;
    }
    sharded = stats_of(db, 1);
    ASSERT_EQ(sharded.size(), 3 * per_test);
    for (const auto& [index, s] : sharded) {
        const auto serial = stats_of(db, 1 + s.test_number);
        ASSERT_EQ(serial.size(), per_test);
        EXPECT_TRUE(same_bits(serial.at(index).pvalue, s.pvalue)) << s.test_name;
    }
}

// The per-site mode (lanes = the instances, interleaved): serial and sharded, cpu and openmp
// give the same statistics bit for bit, and they are not those of one lane.
TEST(IsingCli, LanesSerialEqualsShardedAndCpuEqualsOpenmpBitForBit)
{
    const std::string db = fresh("ising_lanes.sqlite");
    const std::string config = "--generator ranmar48 --seed 1802,9373 --instances 4 --layout "
                               "interleave --battery 'ising(L=8,therm=256,steps=2048,reps=3,"
                               "lanes=4)'";
    std::map<int, rngvet::StatisticRecord> sharded;
    ASSERT_NO_FATAL_FAILURE(expect_sharded_equals_serial_tests(config, db, 10, sharded));
    rngvet::Store store(db);
    // A replica reads whole rounds of 4 numbers.
    for (const auto& t : store.tests(1))
        EXPECT_EQ(t.numbers_used % 4, 0u) << t.test_number;

    const auto cpu = run_rngvet("run " + config + " --db " + db);
    ASSERT_EQ(cpu.status, 0) << cpu.err;
    const auto on_cpu = stats_of(db, 5);
    ASSERT_EQ(on_cpu.size(), 30u);
    for (const auto& [index, s] : sharded)
        if (s.test_number == 1) {
            EXPECT_TRUE(same_bits(on_cpu.at(index).pvalue, s.pvalue));
        }
    // One lane on the same numbers: other statistics.
    const auto one = run_rngvet("run --generator ranmar48 --seed 1802,9373 --instances 4 --layout "
                                "interleave --battery 'ising(L=8,therm=256,steps=2048,reps=3)' "
                                "--db "
        + db);
    ASSERT_EQ(one.status, 0) << one.err;
    const auto one_lane = stats_of(db, 6);
    int differ = 0;
    for (const auto& [index, s] : on_cpu)
        differ += same_bits(one_lane.at(index).pvalue, s.pvalue) ? 0 : 1;
    EXPECT_EQ(differ, 30);
    if (run_rngvet("list").out.find("  openmp") == std::string::npos)
        GTEST_SKIP() << "the openmp backend is not built here";
    const auto omp = run_rngvet("run " + config + " --backend openmp --db " + db);
    ASSERT_EQ(omp.status, 0) << omp.err;
    const auto on_openmp = stats_of(db, 7);
    ASSERT_EQ(on_openmp.size(), 30u);
    for (const auto& [index, s] : on_cpu)
        EXPECT_TRUE(same_bits(on_openmp.at(index).pvalue, s.pvalue)) << s.test_name;
}

// The own-lanes mode (own=1, replica r on instance r): serial and sharded, cpu and openmp give
// the same p-values bit for bit, and every test reads whole blocks of 1024 rounds of M.
TEST(IsingCli, OwnLanesSerialEqualsShardedAndCpuEqualsOpenmpBitForBit)
{
    const std::string db = fresh("ising_own.sqlite");
    const std::string config = "--generator ranmar48 --seed 1802,9373 --instances 4 --layout "
                               "interleave --battery 'ising(L=8,therm=256,steps=2048,reps=4,"
                               "lanes=4,own=1)'";
    std::map<int, rngvet::StatisticRecord> sharded;
    ASSERT_NO_FATAL_FAILURE(expect_sharded_equals_serial_tests(config, db, 12, sharded));
    rngvet::Store store(db);
    for (const auto& t : store.tests(1))
        EXPECT_EQ(t.numbers_used % (1024 * 4), 0u) << t.test_number;
    const auto cpu = run_rngvet("run " + config + " --db " + db);
    ASSERT_EQ(cpu.status, 0) << cpu.err;
    const auto on_cpu = stats_of(db, 5);
    ASSERT_EQ(on_cpu.size(), 36u);
    for (const auto& [index, s] : sharded)
        if (s.test_number == 1) {
            EXPECT_TRUE(same_bits(on_cpu.at(index).pvalue, s.pvalue));
        }
    if (run_rngvet("list").out.find("  openmp") == std::string::npos)
        GTEST_SKIP() << "the openmp backend is not built here";
    const auto omp = run_rngvet("run " + config + " --backend openmp --db " + db);
    ASSERT_EQ(omp.status, 0) << omp.err;
    const auto on_openmp = stats_of(db, 6);
    ASSERT_EQ(on_openmp.size(), 36u);
    for (const auto& [index, s] : on_cpu)
        EXPECT_TRUE(same_bits(on_openmp.at(index).pvalue, s.pvalue)) << s.test_name;
}

TEST(IsingCli, ResumeAfterLostTestsGivesTheSameStatistics)
{
    const std::string config
        = "--generator mt19937 --seed 9 --battery 'ising(L=8,therm=256,steps=2048,reps=3)'";
    for (const char* mode : { "serial", "sharded" }) {
        const std::string db = fresh(std::string("ising_resume_") + mode + ".sqlite");
        const auto r = run_rngvet("run " + config + " --mode " + mode + " --db " + db);
        ASSERT_EQ(r.status, 0) << r.err;
        const auto whole = stats_of(db, 1);
        ASSERT_EQ(whole.size(), 30u);
        // Serially the last test can be lost alone (each test starts where the one before it
        // ended); sharded, any test.
        const int lost = std::string(mode) == "serial" ? 3 : 2;
        const std::string where
            = " WHERE run_id = 1 AND test_number = " + std::to_string(lost) + ";";
        rngvet_test::sql_write(db,
            "DELETE FROM statistics" + where + "DELETE FROM tests" + where
                + "UPDATE runs SET status = 'running' WHERE run_id = 1;");
        ASSERT_EQ(stats_of(db, 1).size(), 20u);
        // The battery's parameters are the run's: resume refuses to change them.
        for (const char* change :
            { " --ising-L 16", " --ising-reps 4", " --ising-lanes 4", " --battery ising" }) {
            const auto refused = run_rngvet("run --resume 1 --db " + db + change);
            EXPECT_EQ(refused.status, 2) << change;
            EXPECT_EQ(rngvet_test::count_lines(refused.err), 1) << refused.err;
            EXPECT_EQ(stats_of(db, 1).size(), 20u);
        }
        const auto resumed = run_rngvet("run --resume 1 --db " + db);
        ASSERT_EQ(resumed.status, 0) << resumed.err;
        EXPECT_EQ(rngvet::Store(db).run(1)->status, rngvet::RunStatus::complete);
        const auto again = stats_of(db, 1);
        ASSERT_EQ(again.size(), 30u);
        for (const auto& [index, s] : whole)
            EXPECT_TRUE(same_bits(again.at(index).pvalue, s.pvalue)) << mode << ": " << s.test_name;
    }
}

TEST(IsingCli, BadParametersAreRefusedWithOneLineAndNothingStored)
{
    const std::string db = fresh("ising_refused.sqlite");
    for (const std::string bad : { "--battery 'ising(L=7)'", "--battery 'ising(L=2)'",
             "--battery 'ising(K=0)'", "--battery 'ising(K=-1)'", "--battery 'ising(K=abc)'",
             "--battery 'ising(reps=0)'", "--battery 'ising(steps=1000)'",
             "--battery 'ising(temperature=2)'", "--battery ising --ising-L 15",
             "--battery ising --ising-L 0", "--battery ising --ising-K 0",
             "--battery ising --ising-K -0.5", "--battery ising --ising-reps 0",
             "--battery ising --ising-steps 1023", "--battery mcpi --ising-L 8",
             "--battery 'ising(L=8)' --ising-L 8", "--battery ising --ising-lanes 0",
             "--battery ising --ising-lanes 65537", "--battery ising --ising-lanes four",
             "--battery 'ising(lanes=0)'", "--battery 'ising(lanes=4)' --ising-lanes 4",
             "--battery ising --ising-own 2", "--battery ising --ising-own yes",
             "--battery 'ising(own=1)'", "--battery ising --ising-lanes 4 --ising-own 1",
             "--battery 'ising(reps=4,lanes=4,own=1)'",
             "--battery 'ising(reps=4,lanes=4,own=1)' --instances 4 --layout block:16",
             "--battery 'ising(reps=4,lanes=4,own=1)' --instances 8",
             "--battery 'ising(reps=100)'" }) {
        const auto r = run_rngvet("run --generator mt19937 --seed 1 " + bad + " --db " + db);
        EXPECT_EQ(r.status, 2) << bad;
        EXPECT_EQ(rngvet_test::count_lines(r.err), 1) << bad << ": " << r.err;
        EXPECT_FALSE(std::filesystem::exists(db)) << bad;
    }
}

TEST(IsingCli, CampaignMergesToTheShardedRunAndTheReportShowsIt)
{
    const std::string ini = fresh("ising_campaign.ini");
    std::ofstream(ini) << "[campaign]\nname = ising-check\n"
                          "battery = ising(L=8,therm=256,steps=2048,reps=3)\n"
                          "shards = 2\nseeds = 1 2\n[configuration mt]\ngenerator = mt19937\n";
    const std::string dir = fresh("ising_campaign_dir");
    auto r = run_rngvet("campaign run " + ini + " --jobs 2 --out " + dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string db = dir + "/campaign.sqlite";
    rngvet::Store store(db);
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 2u);
    for (const auto& run : runs) {
        EXPECT_EQ(run.battery, "ising(L=8,K=0.4406867935097715,therm=256,steps=2048,reps=3)");
        EXPECT_EQ(run.status, rngvet::RunStatus::complete);
    }
    const std::string whole = fresh("ising_campaign_whole.sqlite");
    r = run_rngvet("run --generator mt19937 --seed 2 --battery ising --ising-L 8 --ising-therm "
                   "256 --ising-steps 2048 --ising-reps 3 --mode sharded --jobs 2 --fail-on fail "
                   "--db "
        + whole);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto reference = stats_of(whole, 1);
    ASSERT_EQ(reference.size(), 30u);
    for (const auto& run : runs) {
        if (run.seed != "2") continue;
        const auto merged = stats_of(db, run.run_id);
        ASSERT_EQ(merged.size(), reference.size());
        for (const auto& [index, s] : reference)
            EXPECT_TRUE(same_bits(merged.at(index).pvalue, s.pvalue)) << s.test_name;
    }
    // The per-run sections (provenance, every p-value) are in a campaign report with --runs.
    r = run_rngvet("report --runs --db " + db);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(
        r.out.find("Ising (L = 8, K = 0.4406867935097715, therm = 256, steps = 2048, reps = 3)"),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("| Battery code | rngvet ising 1 |"), std::string::npos);
    EXPECT_NE(r.out.find("Ising Swendsen-Wang, C rep 3"), std::string::npos);
}

} // namespace

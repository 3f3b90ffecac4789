#include "mcpi.hpp"

#include "catalogue.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <stdexcept>

extern "C" {
#include <testu01/fbar.h>
}

namespace rngvet {
namespace {

__extension__ typedef unsigned __int128 u128;

constexpr double pi = 3.14159265358979323846;

// ln Phi(z) and ln (1 - Phi(z)) = ln Phi(-z), each from erfc so that neither tail loses its
// precision; bounded below so that a replication at z = 40 gives a large finite statistic.
double log_phi(double z)
{
    return std::log(std::max(0.5 * std::erfc(-z / std::sqrt(2.0)), DBL_MIN));
}

double two_sided(double z)
{
    return std::erfc(std::fabs(z) / std::sqrt(2.0));
}

} // namespace

int mcpi_dimension(int test)
{
    if (test == 1) return 2;
    if (test == 2) return 3;
    throw std::out_of_range("mcpi has no test " + std::to_string(test) + " (tests are 1 to 2)");
}

double mcpi_hit_probability(int dimension)
{
    if (dimension == 2) return pi / 4;
    if (dimension == 3) return pi / 6;
    throw std::out_of_range("mcpi has no points of dimension " + std::to_string(dimension));
}

bool mcpi_inside(const std::uint64_t* x, int dimension)
{
    // sum x_k^2 < 2^128, i.e. sum x_k^2 <= 2^128 - 1, without overflow: subtract each square
    // from the room left.
    u128 room = ~u128(0);
    for (int k = 0; k < dimension; ++k) {
        const u128 square = u128(x[k]) * x[k];
        if (square > room) return false;
        room -= square;
    }
    return true;
}

std::vector<double> McpiStatistics::pvalues() const
{
    std::vector<double> out = { p_total, p_chi2, p_ad };
    out.insert(out.end(), p.begin(), p.end());
    return out;
}

McpiStatistics mcpi_statistics(
    const std::vector<std::uint64_t>& hits, std::uint64_t points, int dimension)
{
    if (hits.empty() || points == 0)
        throw std::invalid_argument("mcpi: no replications or no points");
    const double p = mcpi_hit_probability(dimension);
    const double n = static_cast<double>(points);
    const double reps = static_cast<double>(hits.size());
    const double sd = std::sqrt(n * p * (1 - p));
    McpiStatistics s;
    double total = 0;
    for (std::uint64_t h : hits) {
        total += static_cast<double>(h);
        const double z = (static_cast<double>(h) - n * p) / sd;
        s.z.push_back(z);
        s.p.push_back(two_sided(z));
        s.chi2 += z * z;
    }
    s.z_total = (total - reps * n * p) / (std::sqrt(reps) * sd);
    s.p_total = two_sided(s.z_total);
    s.p_chi2 = fbar_ChiSquare2(static_cast<long>(hits.size()), 12, s.chi2);

    // Anderson-Darling of U_i = Phi(z_i): A^2 = -R - (1/R) sum (2i - 1) (ln U_(i) +
    // ln(1 - U_(R+1-i))), with U sorted ascending.
    std::vector<double> sorted = s.z;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t r = sorted.size();
    double sum = 0;
    for (std::size_t i = 0; i < r; ++i)
        sum += static_cast<double>(2 * i + 1) * (log_phi(sorted[i]) + log_phi(-sorted[r - 1 - i]));
    s.ad = -reps - sum / reps;
    s.p_ad = fbar_AndersonDarling(static_cast<long>(r), s.ad);
    return s;
}

std::vector<std::string> mcpi_statistic_names(int test, int reps)
{
    const std::string prefix = "MCPi " + std::to_string(mcpi_dimension(test)) + "-d, ";
    std::vector<std::string> names
        = { prefix + "all points", prefix + "ChiSq of z", prefix + "AD of Phi(z)" };
    for (int i = 1; i <= reps; ++i)
        names.push_back(prefix + "rep " + std::to_string(i));
    return names;
}

std::vector<std::uint64_t> mcpi_count(
    unif01_Gen* gen, std::uint64_t points, int reps, int dimension)
{
    std::vector<std::uint64_t> hits;
    std::uint64_t x[3];
    for (int rep = 0; rep < reps; ++rep) {
        std::uint64_t h = 0;
        for (std::uint64_t i = 0; i < points; ++i) {
            bool below_one = true;
            for (int k = 0; k < dimension; ++k) {
                // u = x * 2^-bits with bits <= 53 is exact in a double, and so is u * 2^64, an
                // integer below 2^64. A coordinate of 1 or more (a view that rounds up to 1)
                // puts the point outside.
                const double u = gen->GetU01(gen->param, gen->state);
                below_one = below_one && u < 1.0;
                x[k] = below_one ? static_cast<std::uint64_t>(u * 18446744073709551616.0) : 0;
            }
            h += below_one && mcpi_inside(x, dimension);
        }
        hits.push_back(h);
    }
    return hits;
}

BatteryResult run_mcpi(unif01_Gen* gen, const BatteryCatalogue& battery,
    const std::vector<int>& tests, const std::string& log_path)
{
    const std::vector<int> selected = battery.selected(tests);
    BatteryResult result;
    result.testu01_version = mcpi_version;
    std::string log = "mcpi on " + std::string(gen->name) + ": " + std::to_string(battery.points)
        + " points x " + std::to_string(battery.reps) + " replications per test\n";
    const std::clock_t start = std::clock();
    for (int test : selected) {
        // The position of the test's first statistic in the battery.
        int index = 0;
        for (const TestEntry& t : battery.tests)
            if (t.number < battery.test(test).number) index += t.statistics;
        const int d = mcpi_dimension(test);
        const auto hits = mcpi_count(gen, battery.points, battery.reps, d);
        const McpiStatistics s = mcpi_statistics(hits, battery.points, d);
        const auto names = mcpi_statistic_names(test, battery.reps);
        const auto pvalues = s.pvalues();
        for (std::size_t k = 0; k < pvalues.size(); ++k)
            result.statistics.push_back(
                { index + static_cast<int>(k) + 1, test, names[k], pvalues[k] });

        char line[256];
        const double p = mcpi_hit_probability(d);
        const double factor = d == 2 ? 4 : 6;
        std::snprintf(
            line, sizeof line, "test %d: %d-d points, hit probability %.17g\n", test, d, p);
        log += line;
        std::uint64_t total = 0;
        for (std::size_t i = 0; i < hits.size(); ++i) {
            total += hits[i];
            std::snprintf(line, sizeof line,
                "  rep %3zu: hits %llu, pi estimate %.10f, z = %+.4f, p = %.4g\n", i + 1,
                static_cast<unsigned long long>(hits[i]),
                factor * static_cast<double>(hits[i]) / static_cast<double>(battery.points), s.z[i],
                s.p[i]);
            log += line;
        }
        std::snprintf(line, sizeof line,
            "  all:      hits %llu, pi estimate %.10f, z = %+.4f, p = %.4g\n"
            "  ChiSq of z: %.6g on %d degrees of freedom, p = %.4g\n"
            "  AD of Phi(z): A2 = %.6g, p = %.4g\n",
            static_cast<unsigned long long>(total),
            factor * static_cast<double>(total)
                / (static_cast<double>(battery.points) * static_cast<double>(battery.reps)),
            s.z_total, s.p_total, s.chi2, battery.reps, s.p_chi2, s.ad, s.p_ad);
        log += line;
    }
    result.cpu_seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    if (!log_path.empty()) {
        std::ofstream dst(log_path, std::ios::binary);
        dst << log;
        if (!dst.flush()) throw std::runtime_error("cannot write mcpi's log to '" + log_path + "'");
    }
    return result;
}

} // namespace rngvet

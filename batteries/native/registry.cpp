#include "families.hpp"

#include <algorithm>

namespace rngvet::native {

const std::vector<NativeTest>& all_tests()
{
    static const std::vector<NativeTest> tests = [] {
        std::vector<NativeTest> all;
        for (auto family : { birthday_spacings_tests, collision_tests, gap_tests, max_oft_tests,
                 matrix_rank_tests, hamming_indep_tests, random_walk_tests, sstring_bits_tests,
                 smarsa_more_tests, svaria_more_tests, linear_comp_tests, spectral_tests,
                 sknuth_order_tests, bit_runs_tests, close_pairs_tests }) {
            const std::vector<NativeTest> rows = family();
            all.insert(all.end(), rows.begin(), rows.end());
        }
        std::stable_sort(all.begin(), all.end(), [](const NativeTest& a, const NativeTest& b) {
            const std::string x = a.battery, y = b.battery;
            return x != y ? x < y : a.number < b.number;
        });
        return all;
    }();
    return tests;
}

const NativeTest* find_test(const std::string& battery, int number)
{
    for (const NativeTest& t : all_tests())
        if (battery == t.battery && number == t.number) return &t;
    return nullptr;
}

} // namespace rngvet::native

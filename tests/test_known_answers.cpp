// The known-answer table (validators/known_answers.txt, embedded) on every backend: one test per
// row and backend, the integer outputs after the row's skip compared bit for bit with the
// row's values. The reference (cpu) and every kernel backend built run the same rows; a backend
// not available here is skipped with the reason, unless $RNGVET_REQUIRE_BACKENDS lists it.
#include "tests/support.hpp"

#include <gtest/gtest.h>
#include <tuple>

namespace rngvet {
namespace {

using rngvet_test::same_words;

std::vector<std::size_t> row_indices()
{
    std::vector<std::size_t> rows(known_answers().size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i] = i;
    return rows;
}

std::vector<std::string> every_backend()
{
    std::vector<std::string> backends = { "cpu" };
    for (const std::string& b : rngvet_test::kernel_backends())
        backends.push_back(b);
    return backends;
}

class KnownAnswerRow : public testing::TestWithParam<std::tuple<std::size_t, std::string>> {
protected:
    void SetUp() override { rngvet_test::skip_unless_available(std::get<1>(GetParam())); }
    const KnownAnswer& row() const { return known_answers().at(std::get<0>(GetParam())); }
    const std::string& backend() const { return std::get<1>(GetParam()); }
};

// Read in small launches, so that the rows with a skip start inside a launch on the devices;
// and read from the stream's start with the skipped numbers discarded in mid-stream
// (Stream::discard) instead of skipped by the configuration.
TEST_P(KnownAnswerRow, BackendReproducesTheRowBitForBit)
{
    const KnownAnswer& r = row();
    SCOPED_TRACE(r.label() + " on " + backend());
    if (!runs_on(traits(parse_generator(r.generator)), parse_backend(backend()))) {
        // No kernel on this backend: refused in one line, before anything runs.
        try {
            (void)make_backend_stream(r.configuration(backend()));
            ADD_FAILURE() << r.generator << " ran on " << backend();
        } catch (const InputError& e) {
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("runs on cpu and openmp"), std::string::npos)
                << e.what();
        }
        return;
    }
    BackendOptions options;
    options.launch_numbers = 4096;
    auto skipped = make_backend_stream(r.configuration(backend()), options);
    std::vector<std::uint64_t> got(r.values.size());
    skipped->fill(got.data(), got.size());
    EXPECT_TRUE(same_words(r.values, got)) << "skipped by the configuration";

    KnownAnswer from_start = r;
    from_start.skip = 0;
    auto discarded = make_backend_stream(from_start.configuration(backend()), options);
    discarded->discard(r.skip);
    discarded->fill(got.data(), got.size());
    EXPECT_TRUE(same_words(r.values, got)) << "discarded in mid-stream";
}

INSTANTIATE_TEST_SUITE_P(Table, KnownAnswerRow,
    testing::Combine(testing::ValuesIn(row_indices()), testing::ValuesIn(every_backend())),
    [](const testing::TestParamInfo<KnownAnswerRow::ParamType>& param_info) {
        const KnownAnswer& r = known_answers().at(std::get<0>(param_info.param));
        return rngvet_test::test_name_part(r.generator) + "_line" + std::to_string(r.line) + "_"
            + std::get<1>(param_info.param);
    });

// What the rows must cover: every generator family with published values, and for each the
// start of a stream and a position after a skip.
TEST(KnownAnswerTable, CoversEveryFamilyFromTheStartAndAfterASkip)
{
    for (const char* g : { "ranmar24", "ranmar48", "mtdc", "mt19937", "r250", "r250gsl" }) {
        SCOPED_TRACE(g);
        const auto rows = rngvet_test::known_answers_of(g);
        EXPECT_FALSE(rows.empty());
        const bool from_start
            = std::any_of(rows.begin(), rows.end(), [](const KnownAnswer& r) { return !r.skip; });
        EXPECT_TRUE(from_start);
    }
    for (const char* g : { "ranmar24", "ranmar48", "mt19937", "r250", "r250gsl" }) {
        const auto rows = rngvet_test::known_answers_of(g);
        EXPECT_TRUE(std::any_of(rows.begin(), rows.end(), [](const KnownAnswer& r) {
            return r.skip;
        })) << g;
    }
}

} // namespace
} // namespace rngvet

// The DC Mersenne Twister engine (generators/mt.hpp), its parameter files
// (generators/mt_params.hpp) and SHA-256 (generators/sha256.hpp).
// Known answers: the rows of validators/known_answers.txt (with their sources) through the
// engine and the shipped parameter files; FIPS 180-4 examples.
#include "generators/error.hpp"
#include "generators/mt.hpp"
#include "generators/mt_params.hpp"
#include "generators/sha256.hpp"
#include "tests/support.hpp"

#include <cstdint>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

extern "C" {
#include <testu01/ugfsr.h>
#include <testu01/unif01.h>
}

#ifndef RNGVET_DATA_DIR
#error "define RNGVET_DATA_DIR (the repository's generators/params folder)"
#endif

namespace {

using namespace rngvet;

const std::string data_dir = RNGVET_DATA_DIR;
const std::string sdk_path = data_dir + "/MersenneTwister.dat";
const std::string fixstars_path = data_dir + "/mt521_fixstars32.txt";

std::string read_bytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::vector<std::uint32_t> first_outputs(const MtParams& prm, std::uint32_t seed, int n)
{
    static MtState s; // large; one per test binary is enough
    mt_seed(s, prm, seed);
    std::vector<std::uint32_t> out;
    for (int i = 0; i < n; ++i)
        out.push_back(mt_next(s, prm));
    return out;
}

// The table's mtdc rows whose parameter set has exponent p.
std::vector<KnownAnswer> dc_rows(int p)
{
    std::vector<KnownAnswer> rows;
    for (const KnownAnswer& row : rngvet_test::known_answers_of("mtdc"))
        if (mtdc_param_set(row.configuration())->p == p) rows.push_back(row);
    return rows;
}

// A DC row through the engine with the parameters `prm` (from a shipped file).
void expect_row(const KnownAnswer& row, const MtParams& prm)
{
    ASSERT_EQ(row.seed.size(), 1u);
    const std::vector<std::uint32_t> got = first_outputs(prm,
        static_cast<std::uint32_t>(row.seed[0]), static_cast<int>(row.skip + row.values.size()));
    EXPECT_EQ(
        std::vector<std::uint64_t>(got.begin() + static_cast<std::ptrdiff_t>(row.skip), got.end()),
        row.values);
}

// Expects a call to throw InputError whose message contains `part`.
template <class F> void expect_input_error(F f, const std::string& part)
{
    try {
        f();
        ADD_FAILURE() << "no exception; expected one mentioning '" << part << "'";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "one line expected";
    }
}

TEST(MtEngine, StructsArePlainData)
{
    static_assert(std::is_trivially_copyable_v<MtState>);
    static_assert(std::is_trivially_copyable_v<MtParams>);
    static_assert(std::is_standard_layout_v<MtState>);
    EXPECT_GE(mt_max_nn, 44497 / 32 + 1);
}

TEST(MtEngine, DcLayoutFromExponent)
{
    // p, then the words, the middle position, the bits of the incomplete word and its masks.
    const struct {
        int p, nn, mm, rr;
        std::uint32_t umask, lmask;
    } layouts[]
        = { { 521, 17, 8, 23, 0xFF800000u, 0x007FFFFFu }, { 607, 19, 9, 1, 0xFFFFFFFEu, 0x1u } };
    for (const auto& l : layouts) {
        SCOPED_TRACE(l.p);
        const MtParams a = mt_params_for(l.p, 0, 0, 0);
        EXPECT_EQ(a.nn, l.nn);
        EXPECT_EQ(a.mm, l.mm);
        EXPECT_EQ(a.rr, l.rr);
        EXPECT_EQ(a.umask, l.umask);
        EXPECT_EQ(a.lmask, l.lmask);
    }
    const MtParams b = mt_params_for(607, 0, 0, 0);
    EXPECT_EQ(b.shift0, 12);
    EXPECT_EQ(b.shiftB, 7);
    EXPECT_EQ(b.shiftC, 15);
    EXPECT_EQ(b.shift1, 18);
    EXPECT_EQ(mt_exponent(b), 607);
    EXPECT_EQ(mt_params_for(44497, 0, 0, 0).nn, 1391);
}

// mt19937's rows of the known-answer table (mt19937ar.out): init_genrand(5489)'s first outputs
// and its 10000th, and init_by_array({0x123, 0x234, 0x345, 0x456}), through the engine.
TEST(MtEngine, Mt19937ReachesEveryRowOfTheKnownAnswerTable)
{
    const MtParams prm = mt19937_params();
    const auto rows = rngvet_test::known_answers_of("mt19937");
    ASSERT_EQ(rows.size(), 3u);
    for (const KnownAnswer& row : rows) {
        SCOPED_TRACE(row.label());
        std::vector<std::uint32_t> got;
        if (row.seed.size() == 1) {
            got = first_outputs(prm, static_cast<std::uint32_t>(row.seed[0]),
                static_cast<int>(row.skip + row.values.size()));
            got.erase(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(row.skip));
        } else {
            static MtState s;
            std::vector<std::uint32_t> key(row.seed.begin(), row.seed.end());
            mt19937_init_by_array(s, prm, key.data(), static_cast<int>(key.size()));
            for (std::uint64_t i = 0; i < row.skip + row.values.size(); ++i)
                got.push_back(mt_next(s, prm));
            got.erase(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(row.skip));
        }
        EXPECT_EQ(std::vector<std::uint64_t>(got.begin(), got.end()), row.values);
    }
    EXPECT_EQ(rngvet_test::known_answer("mt19937", "5489", 0).values.size(), 5u);
    EXPECT_EQ(rngvet_test::known_answer("mt19937", "5489", 9999).values.size(), 1u);
    EXPECT_EQ(rngvet_test::known_answer("mt19937", "0x123,0x234,0x345,0x456").values.size(), 10u);
}

// TestU01's ugfsr_CreateMT19937_98(seed) (ugfsr.c) fills its 624 words with Knuth's
// X[0] = seed, X[j] = 69069 X[j-1] mod 2^32, returns the tempered words X[0..623] first and
// only then runs the recurrence. Its GetBits is (unsigned long)(y / (2^32-1) * 2^32), which
// equals y for every y < 2^32 - 1.
TEST(MtEngine, Mt19937MatchesTestU01)
{
    const MtParams prm = mt19937_params();
    for (unsigned long seed : { 4357ul, 19650218ul }) {
        SCOPED_TRACE(seed);
        static MtState s;
        s.st[0] = static_cast<std::uint32_t>(seed);
        for (int j = 1; j < prm.nn; ++j)
            s.st[j] = 69069u * s.st[j - 1];
        s.k = 0;
        unif01_Gen* gen = ugfsr_CreateMT19937_98(seed);
        for (int i = 0; i < prm.nn; ++i) {
            ASSERT_EQ(gen->GetBits(gen->param, gen->state), mt_temper(prm, s.st[i])) << "i=" << i;
        }
        int mismatches = 0;
        for (int i = 0; i < 100000; ++i) {
            const std::uint32_t y = mt_next(s, prm);
            const unsigned long expected
                = static_cast<unsigned long>(static_cast<double>(y) / 4294967295.0 * 4294967296.0);
            if (gen->GetBits(gen->param, gen->state) != expected) ++mismatches;
        }
        ugfsr_DeleteGen(gen);
        EXPECT_EQ(mismatches, 0);
    }
}

TEST(MtEngine, NvidiaSdkMt607KnownAnswers)
{
    const MtParamSet set = load_param_file(sdk_path);
    ASSERT_EQ(set.sets.size(), 4096u);
    EXPECT_EQ(set.p, 607);
    EXPECT_EQ(set.sets[0].aaa, 0xD7AB0000u);
    EXPECT_EQ(set.sets[0].maskB, 0xA9766B80u);
    EXPECT_EQ(set.sets[0].maskC, 0xEFD38000u);
    for (std::size_t i = 0; i < set.sets.size(); ++i) {
        ASSERT_EQ(set.sets[i].aaa & 0xFFFFu, i) << "low 16 bits of matrix_a are the index";
    }
    // The table's p=607 rows are SDK sets 0, 1 and 4095 (the index in matrix_a's low 16 bits),
    // each seeded 777 as the SDK seeds them.
    std::set<std::uint32_t> ids;
    for (const KnownAnswer& row : dc_rows(607)) {
        SCOPED_TRACE(row.label());
        const MtParams written = mtdc_param_set(row.configuration())->sets.at(0);
        const std::uint32_t id = written.aaa & 0xFFFFu;
        ASSERT_LT(id, set.sets.size());
        ids.insert(id);
        EXPECT_EQ(set.sets[id].aaa, written.aaa);
        EXPECT_EQ(set.sets[id].maskB, written.maskB);
        EXPECT_EQ(set.sets[id].maskC, written.maskC);
        EXPECT_EQ(row.seed, (std::vector<std::int64_t>{ 777 }));
        expect_row(row, set.sets[id]);
    }
    EXPECT_EQ(ids, (std::set<std::uint32_t>{ 0, 1, 4095 }));
}

TEST(MtEngine, FixstarsMt521KnownAnswers)
{
    const MtParamSet set = builtin_param_set("fixstars-mt521");
    ASSERT_EQ(set.sets.size(), 32u);
    // The table's p=521 rows are the book's generators gid 0 and 1, seeded 0x33ff * gid.
    std::set<std::size_t> gids;
    for (const KnownAnswer& row : dc_rows(521)) {
        SCOPED_TRACE(row.label());
        const MtParams written = mtdc_param_set(row.configuration())->sets.at(0);
        std::size_t gid = set.sets.size();
        for (std::size_t i = 0; i < set.sets.size(); ++i)
            if (set.sets[i].aaa == written.aaa && set.sets[i].maskB == written.maskB
                && set.sets[i].maskC == written.maskC)
                gid = i;
        ASSERT_LT(gid, set.sets.size()) << "not one of the book's sets";
        gids.insert(gid);
        EXPECT_EQ(row.seed, (std::vector<std::int64_t>{ static_cast<std::int64_t>(0x33ff * gid) }));
        expect_row(row, set.sets[gid]);
    }
    EXPECT_EQ(gids, (std::set<std::size_t>{ 0, 1 }));
}

TEST(Sha256, Fips180Examples)
{
    EXPECT_EQ(sha256_hex(std::string("abc")),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_hex(std::string()),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex(std::string("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, ChunkedEqualsOneShot)
{
    std::string data;
    for (int i = 0; i < 1000; ++i)
        data += static_cast<char>(i * 37);
    for (std::size_t chunk : { 1u, 3u, 63u, 64u, 65u, 200u }) {
        Sha256 h;
        for (std::size_t at = 0; at < data.size(); at += chunk) {
            h.update(data.data() + at, std::min(chunk, data.size() - at));
        }
        EXPECT_EQ(h.hex_digest(), sha256_hex(data)) << "chunk " << chunk;
    }
}

TEST(Sha256, SdkFileKnownHash)
{
    EXPECT_EQ(load_param_file(sdk_path).sha256,
        "97281dde675cc4c0f11720fb44ab8079f77a86a9b4850bc98e52287f71741bf8");
}

TEST(MtParams, BuiltinSdkSetIsTheShippedFileByteForByte)
{
    const MtParamSet builtin = builtin_param_set("nvidia-sdk-mt607");
    EXPECT_EQ(builtin.sha256, "97281dde675cc4c0f11720fb44ab8079f77a86a9b4850bc98e52287f71741bf8");
    EXPECT_EQ(builtin.source, "nvidia-sdk-mt607");
    EXPECT_EQ(builtin.p, 607);
    ASSERT_EQ(builtin.sets.size(), 4096u);
    EXPECT_EQ(builtin.sets[0].aaa, 0xD7AB0000u);
    EXPECT_EQ(builtin.sets[0].maskB, 0xA9766B80u);
    EXPECT_EQ(builtin.sets[0].maskC, 0xEFD38000u);
    EXPECT_EQ(load_param_set("nvidia-sdk-mt607").sha256, load_param_file(sdk_path).sha256);
}

TEST(MtParams, BuiltinFixstarsIsTheShippedFileByteForByte)
{
    const MtParamSet builtin = builtin_param_set("fixstars-mt521");
    const MtParamSet file = load_param_file(fixstars_path);
    EXPECT_EQ(builtin.sha256, sha256_hex(read_bytes(fixstars_path)));
    EXPECT_EQ(builtin.sha256, file.sha256);
    EXPECT_EQ(builtin.source, "fixstars-mt521");
    EXPECT_EQ(builtin.p, 521);
    ASSERT_EQ(builtin.sets.size(), file.sets.size());
    for (std::size_t i = 0; i < builtin.sets.size(); ++i) {
        EXPECT_EQ(builtin.ids[i], i);
        EXPECT_EQ(builtin.sets[i].aaa, file.sets[i].aaa);
        EXPECT_EQ(builtin.sets[i].maskB, file.sets[i].maskB);
        EXPECT_EQ(builtin.sets[i].maskC, file.sets[i].maskC);
        EXPECT_EQ(builtin.sets[i].nn, 17);
    }
    EXPECT_EQ(builtin.sets[31].aaa, 0xd3873adfu);
    EXPECT_EQ(builtin.sets[31].maskB, 0x773d5b80u);
    EXPECT_EQ(builtin.sets[31].maskC, 0xffd58000u);
    expect_input_error([] { builtin_param_set("no-such-set"); }, "no-such-set");
}

TEST(MtParams, TextFormatRoundTrip)
{
    const MtParamSet a = builtin_param_set("fixstars-mt521");
    const std::string text
        = format_param_text(a, { "test file" }, "dc_seed=7", { "first", "", "third" });
    const MtParamSet b = parse_param_text(text, "roundtrip");
    EXPECT_EQ(b.p, 521);
    EXPECT_EQ(b.ids, a.ids);
    ASSERT_EQ(b.sets.size(), a.sets.size());
    for (std::size_t i = 0; i < a.sets.size(); ++i) {
        EXPECT_EQ(b.sets[i].aaa, a.sets[i].aaa);
        EXPECT_EQ(b.sets[i].maskB, a.sets[i].maskB);
        EXPECT_EQ(b.sets[i].maskC, a.sets[i].maskC);
    }
    EXPECT_EQ(b.sha256, sha256_hex(text));
}

TEST(MtParams, MalformedFilesAreRejectedWithAClearMessage)
{
    const std::string sdk = read_bytes(sdk_path);
    expect_input_error([&] { parse_sdk_dat(sdk.substr(0, 100), "t.dat"); },
        "t.dat: size 100 bytes is not a multiple of 16");
    expect_input_error(
        [&] { parse_sdk_dat(sdk.substr(0, 65535), "t.dat"); }, "not a multiple of 16");
    expect_input_error([&] { parse_sdk_dat("", "e.dat"); }, "e.dat: empty file");
    EXPECT_EQ(parse_sdk_dat(sdk.substr(0, 32), "two.dat").sets.size(), 2u);

    const std::string good = "p=521 w=32\n0 cef725c0 a5b6dd80 ffd58000\n";
    EXPECT_EQ(parse_param_text(good, "g").sets.size(), 1u);
    expect_input_error(
        [] { parse_param_text("0 cef725c0 a5b6dd80 ffd58000\n", "np"); }, "np: no p=");
    expect_input_error([] { parse_param_text("p=521\n# c\n0 cef725c0 a5b6dd8g ffd58000\n", "x"); },
        "x:3: malformed parameter line");
    expect_input_error([] { parse_param_text("p=521\n0 cef725c0 a5b6dd80\n", "x"); }, "x:2:");
    expect_input_error(
        [] { parse_param_text("p=521\n0 1cef725c0 a5b6dd80 ffd58000\n", "x"); }, "x:2:");
    expect_input_error([] { parse_param_text("p=521 w=31\n0 cef725c0 a5b6dd80 ffd58000\n", "x"); },
        "w=31 is not supported");
    expect_input_error([] { parse_param_text("p=500\n0 cef725c0 a5b6dd80 ffd58000\n", "x"); },
        "x:1: p=500 is not a supported Mersenne exponent");
    expect_input_error([] { parse_param_text("p=521 mm=9\n0 cef725c0 a5b6dd80 ffd58000\n", "x"); },
        "mm=9 does not match");
    expect_input_error(
        [] { parse_param_text("p=521\n0 cef725c0 a5b6dd80 ffd58000\np=607\n", "x"); },
        "x:3: header line after the first parameter set");
    expect_input_error([] { parse_param_text("p=521 p=607\n", "x"); }, "contradicts");
    expect_input_error([] { parse_param_text("# p=521\n", "x"); }, "x: no parameter sets");
    expect_input_error(
        [] { parse_param_text("p=521 junk\n0 1 2 3\n", "x"); }, "malformed header token 'junk'");
    expect_input_error(
        [] { load_param_file("/nonexistent/params.txt"); }, "cannot open /nonexistent/params.txt");
}

} // namespace

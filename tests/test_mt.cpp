// The DC Mersenne Twister engine (generators/mt.hpp), its parameter files
// (generators/mt_params.hpp) and SHA-256 (generators/sha256.hpp).
// Known answers: validators/known_answers.txt (with their sources); FIPS 180-4 examples.
#include "generators/error.hpp"
#include "generators/mt.hpp"
#include "generators/mt_params.hpp"
#include "generators/sha256.hpp"

#include <cstdint>
#include <fstream>
#include <gtest/gtest.h>
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
    const MtParams a = mt_params_for(521, 0, 0, 0);
    EXPECT_EQ(a.nn, 17);
    EXPECT_EQ(a.mm, 8);
    EXPECT_EQ(a.rr, 23);
    EXPECT_EQ(a.umask, 0xFF800000u);
    EXPECT_EQ(a.lmask, 0x007FFFFFu);
    const MtParams b = mt_params_for(607, 0, 0, 0);
    EXPECT_EQ(b.nn, 19);
    EXPECT_EQ(b.mm, 9);
    EXPECT_EQ(b.rr, 1);
    EXPECT_EQ(b.umask, 0xFFFFFFFEu);
    EXPECT_EQ(b.lmask, 0x1u);
    EXPECT_EQ(b.shift0, 12);
    EXPECT_EQ(b.shiftB, 7);
    EXPECT_EQ(b.shiftC, 15);
    EXPECT_EQ(b.shift1, 18);
    EXPECT_EQ(mt_exponent(b), 607);
    EXPECT_EQ(mt_params_for(44497, 0, 0, 0).nn, 1391);
}

TEST(MtEngine, Mt19937InitGenrandKnownAnswers)
{
    const MtParams prm = mt19937_params();
    const std::vector<std::uint32_t> expected
        = { 3499211612u, 581869302u, 3890346734u, 3586334585u, 545404204u };
    const auto got = first_outputs(prm, 5489u, 10000);
    EXPECT_EQ(std::vector<std::uint32_t>(got.begin(), got.begin() + 5), expected);
    EXPECT_EQ(got[9999], 4123659995u);
}

TEST(MtEngine, Mt19937InitByArrayKnownAnswers)
{
    const MtParams prm = mt19937_params();
    static MtState s;
    const std::uint32_t key[4] = { 0x123, 0x234, 0x345, 0x456 };
    mt19937_init_by_array(s, prm, key, 4);
    const std::vector<std::uint32_t> expected = { 1067595299u, 955945823u, 477289528u, 4107218783u,
        4228976476u, 3344332714u, 3355579695u, 227628506u, 810200273u, 2591290167u };
    std::vector<std::uint32_t> got;
    for (int i = 0; i < 10; ++i)
        got.push_back(mt_next(s, prm));
    EXPECT_EQ(got, expected);
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
    EXPECT_EQ(first_outputs(set.sets[0], 777u, 6),
        (std::vector<std::uint32_t>{
            266438323u, 3738112288u, 410106672u, 3516699363u, 2828855469u, 758469217u }));
    EXPECT_EQ(first_outputs(set.sets[1], 777u, 6),
        (std::vector<std::uint32_t>{
            84377738u, 53293241u, 1574281272u, 3351025515u, 2753163148u, 2769445992u }));
    EXPECT_EQ(first_outputs(set.sets[4095], 777u, 6),
        (std::vector<std::uint32_t>{
            390570138u, 3841073232u, 2823469249u, 2277279595u, 1712970508u, 3776344425u }));
}

TEST(MtEngine, FixstarsMt521KnownAnswers)
{
    const MtParamSet set = builtin_param_set("fixstars-mt521");
    ASSERT_EQ(set.sets.size(), 32u);
    EXPECT_EQ(first_outputs(set.sets[0], 0x33ffu * 0u, 6),
        (std::vector<std::uint32_t>{
            3435822361u, 2593142105u, 1380007438u, 1855630689u, 2791445388u, 3267650319u }));
    EXPECT_EQ(first_outputs(set.sets[1], 0x33ffu * 1u, 6),
        (std::vector<std::uint32_t>{
            941032305u, 3457884119u, 3029038885u, 1246296401u, 4195980896u, 2037642049u }));
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

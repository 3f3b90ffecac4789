// The verdict of one p-value, defined once: every C++ check, the store's SQL view `pvalues`,
// library/verdicts.cpp's query and the prose of reports and help texts derive from these two
// levels (L'Ecuyer & Simard's conventions, TestU01's gofw_Suspectp).
//
//   pass     inside [suspect_level, 1 - suspect_level]   = [0.001, 0.999]
//   suspect  outside it, but inside [failure_level, 1 - failure_level]
//   fail     outside [failure_level, 1 - failure_level] = [1e-10, 1 - 1e-10] ("clear failure")
//
// The SQL conditions compute `1 - level` in double arithmetic as the C++ checks do, so the view
// and the C++ code agree on every p-value.
#pragma once

#include "generators/words.hpp"

#include <charconv>
#include <optional>
#include <string>

namespace rngvet {

inline constexpr double suspect_level = 0.001;
inline constexpr double failure_level = 1e-10;
// The probability that one p-value of a sound generator is suspect: 2 x 0.001 = 0.002.
inline constexpr double suspect_probability = 2 * suspect_level;

// TestU01 1.2.3 leaves -1 in place of the p-values of a test it stopped because the stream made
// it impossible (bbattery.c: "That test was not done: pVal = -1"). sstring_Run stops so when a
// run of n equal bits begins (n = 2 x 10^9 bits in BigCrush): the bits it reads are constant, as
// those beyond a 24-bit generator's resolution are. The native engine stops where TestU01 does
// and stores the same -1. It is stored as it came, and it is a clear failure (it lies below
// failure_level, in the store's view as in C++). Reports write it "not done (-1)".
inline constexpr double not_done_pvalue = -1.0;
constexpr bool is_not_done(double p)
{
    return p == not_done_pvalue;
}

// p outside [0.001, 0.999] (failures included).
constexpr bool is_suspect(double p)
{
    return p < suspect_level || p > 1 - suspect_level;
}
// p outside [1e-10, 1 - 1e-10].
constexpr bool is_failure(double p)
{
    return p < failure_level || p > 1 - failure_level;
}

// A p-value's verdict, and the words for it: the pvalues view's verdict column, reports, help.
enum class PValueVerdict { pass, suspect, fail };
inline constexpr Term<PValueVerdict> pvalue_verdict_terms[] = {
    { PValueVerdict::pass, "pass", "" },
    { PValueVerdict::suspect, "suspect", "" },
    { PValueVerdict::fail, "fail", "" },
};
constexpr const char* to_text(PValueVerdict v)
{
    return term_text(pvalue_verdict_terms, v);
}
inline std::optional<PValueVerdict> pvalue_verdict_from_text(const std::string& text)
{
    return term_value(pvalue_verdict_terms, text);
}

// Verdict of one p-value: fail beyond the failure level, suspect beyond the suspect level.
constexpr PValueVerdict verdict(double p)
{
    return is_failure(p) ? PValueVerdict::fail
        : is_suspect(p)  ? PValueVerdict::suspect
                         : PValueVerdict::pass;
}

// The shortest decimal text that reads back as v: "0.001", "1e-10", "0.999".
inline std::string shortest_decimal(double v)
{
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    return std::string(buf, end);
}

// "[0.001, 0.999]" and "[1e-10, 1 - 1e-10]", as reports and help texts write the intervals.
inline std::string suspect_interval()
{
    return "[" + shortest_decimal(suspect_level) + ", " + shortest_decimal(1 - suspect_level) + "]";
}
inline std::string failure_interval()
{
    return "[" + shortest_decimal(failure_level) + ", 1 - " + shortest_decimal(failure_level) + "]";
}

// SQL conditions on a p-value column, e.g. "s.pvalue < 0.001 OR s.pvalue > 1 - 0.001".
inline std::string sql_is_suspect(const std::string& column)
{
    return column + " < " + shortest_decimal(suspect_level) + " OR " + column + " > 1 - "
        + shortest_decimal(suspect_level);
}
// SQL condition on a stored p-value column: a value that no test stores (not a number in
// [0, 1], and not TestU01's not_done_pvalue).
inline std::string sql_is_impossible(const std::string& column)
{
    return "(typeof(" + column + ") NOT IN ('real', 'integer') OR ((" + column + " < 0 OR " + column
        + " > 1) AND " + column + " <> " + shortest_decimal(not_done_pvalue) + "))";
}
inline std::string sql_is_failure(const std::string& column)
{
    return column + " < " + shortest_decimal(failure_level) + " OR " + column + " > 1 - "
        + shortest_decimal(failure_level);
}

} // namespace rngvet

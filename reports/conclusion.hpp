// What a report's reader may conclude from the stored runs, generated from them: what the
// batteries run can and cannot certify, which bits of the generator TestU01 read, how many seeds
// each result rests on, the start check of rngvet validate, and the command to run next.
// See docs/reports.md ("What to conclude").
#pragma once

#include "classify.hpp"
#include "store.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rngvet {

// What TestU01 read of a generator's outputs, from the generator's name (runs.generator) and
// the configuration's canonical name (its ";view=" option): e.g. "the top 32 of the
// generator's 48 bits (view top32): bits 33-48 (the low 16) were never read". Empty when the
// generator is not known to this build.
std::string bits_read_text(const std::string& generator, const std::string& config);

// The command-line words of a stored run's configuration (runs.options, one word per line),
// without the options at their defaults, each quoted for a POSIX shell where it needs it.
// seed_word replaces the --seed value when not empty (e.g. "\"$seed\"").
std::string configuration_arguments(const std::string& options, const std::string& seed_word = "");

// Seeds of the configuration's generator not among `used`, `count` of them: RANMAR's
// (IJ + 1553 k mod 31329, KL + 2671 k mod 30082) from the first used seed (the rule of
// docs/findings.md), single-number seeds counting up from the largest used. Empty for streams
// without seeds (stdin32, file:).
std::vector<std::string> further_seeds(
    const std::string& generator, const std::vector<std::string>& used, int count);

// One configuration family (a configuration name with its seed replaced by '*', whatever the
// battery) as the conclusion describes it.
struct FamilyConclusion {
    std::string family;
    std::string label; // the campaign's name of the configuration ("" outside campaigns)
    std::vector<const ConfigurationSummary*> batteries; // its configurations, one per battery
    bool defective = false;
    int seeds = 0; // seeds of the strongest battery run (the defective one when defective)
    std::string text; // the markdown bullet
    std::string next_command; // "" when nothing is proposed
};

// The conclusion per family, in the order the families first appear in the comparison.
// `labels` maps run ids to the campaign's configuration names (Store::campaign_labels).
std::vector<FamilyConclusion> conclude(const Comparison& comparison,
    const std::vector<RunRecord>& runs, const std::vector<StartCheckRecord>& start_checks,
    const std::string& db_label);

// The "## What to conclude" section, first in the report.
std::string render_conclusion(const Comparison& comparison, const std::vector<RunRecord>& runs,
    const std::vector<StartCheckRecord>& start_checks, const std::string& db_label);

// The "## Start checks" section: every stored start check (empty when none is stored).
std::string render_start_checks(const std::vector<StartCheckRecord>& start_checks);

// Names each configuration after its campaign's configuration (ConfigurationSummary::label)
// when all its runs share one.
void label_configurations(
    Comparison& comparison, const std::map<std::int64_t, std::string>& labels);

} // namespace rngvet

// The command line's help against its parsers: every value each option's parser accepts is
// named in that option's --help (written from the parser's own table), every form a --help
// names ("block:K") is accepted by a parser, `rngvet list` gives the same tables to the bash
// completion, and names of batteries, generators and backends are read in any case and stored
// in their canonical lower case.
#include "batteries/battery_choice.hpp"
#include "batteries/engine.hpp"
#include "batteries/registry.hpp"
#include "campaigns/campaign.hpp"
#include "generators/configuration_options.hpp"
#include "generators/gf2poly.hpp"
#include "options.hpp"
#include "reports/gate.hpp"
#include "tests/support.hpp"

#include <functional>
#include <gtest/gtest.h>
#include <regex>

namespace {

using namespace rngvet_test;
using rngvet::Word;
using rngvet::Words;

std::string help_of(const std::string& command)
{
    const CliResult r = run_rngvet(command + " --help");
    EXPECT_EQ(r.status, 0) << command << ": " << r.err;
    return r.out;
}

// The description of `--option` in a --help (in the options block, after the usage): its lines,
// from the option's own to the next option's, joined with single spaces, the option column left
// out.
std::string option_help(const std::string& help, const std::string& option)
{
    std::istringstream lines(help);
    std::string text;
    bool inside = false, options = false;
    // Boost's option column, two spaces in: "  --layout arg", "  -g [ --generator ] arg (=x)"
    // (a description's own lines are indented further).
    const std::regex starts_option(R"(^  (-\w \[ )?--[\w-]+)");
    const std::regex own("^  (-\\w \\[ )?--" + option + "( |$)");
    for (std::string line; std::getline(lines, line);) {
        if (!options) {
            options = line.size() > 9 && line.compare(line.size() - 9, 9, " options:") == 0;
            continue;
        }
        if (std::regex_search(line, starts_option)) {
            if (inside) break;
            inside = std::regex_search(line, own);
            if (!inside) continue;
            const std::smatch m = [&] {
                std::smatch s;
                std::regex_search(
                    line, s, std::regex(R"(^  (-\w \[ )?--[\w-]+( \])?( arg)?( \(=[^)]*\))?\s*)"));
                return s;
            }();
            line = line.substr(static_cast<std::size_t>(m.length(0)));
        }
        if (!inside) continue;
        std::istringstream words(line);
        for (std::string w; words >> w;)
            text += (text.empty() ? "" : " ") + w;
    }
    return text;
}

// A value in the words a parser reads: a form's placeholder ("block:K") becomes a number.
std::string instance(const Word& w)
{
    const std::string prefix = rngvet::word_prefix(w);
    return prefix.empty() ? std::string(w.form) : prefix + "3";
}

struct Vocabulary {
    std::vector<std::string> commands; // whose --help names it
    std::string option;
    const Words& words;
    std::function<void(const std::string&)> parse; // throws InputError for a bad value
};

std::vector<Vocabulary> vocabularies()
{
    using namespace rngvet;
    const std::vector<std::string> configuration = { "run", "generate", "validate" };
    return {
        { configuration, "layout", layout_words(), [](const std::string& t) { parse_layout(t); } },
        { configuration, "seeding", seeding_words(),
            [](const std::string& t) { parse_seeding(t); } },
        { configuration, "zero", zero_words(), [](const std::string& t) { parse_zero_policy(t); } },
        { configuration, "backend", backend_words(),
            [](const std::string& t) { parse_backend(t); } },
        { configuration, "view", view_words(), [](const std::string& t) { parse_view(t); } },
        { configuration, "params", builtin_param_set_words(),
            [](const std::string& t) { builtin_param_set(t); } },
        { { "run" }, "engine", engine_words(), [](const std::string& t) { parse_engine(t); } },
        { { "run" }, "mode", cli::mode_words(),
            [](const std::string& t) { cli::check_word(cli::mode_words(), t, "mode"); } },
        { { "run" }, "prefetch", cli::prefetch_words(),
            [](const std::string& t) { cli::check_word(cli::prefetch_words(), t, "prefetch"); } },
        { { "bench" }, "prefetch", cli::feed_prefetch_words(),
            [](const std::string& t) {
                cli::check_word(cli::feed_prefetch_words(), t, "prefetch");
            } },
        { { "run", "report", "campaign merge" }, "fail-on", fail_on_words(),
            [](const std::string& t) { parse_fail_on(t); } },
        { { "generate" }, "format", cli::format_words(), nullptr },
        { { "dc create" }, "compat", cli::dc_compat_words(), nullptr },
    };
}

// Every value of every table is named in the help of its option, in each command that has the
// option, and the parser accepts it; a word beside them is refused naming the table.
TEST(Help, EveryValueOfEveryOptionIsInItsHelpAndAccepted)
{
    for (const Vocabulary& v : vocabularies()) {
        ASSERT_FALSE(v.words.empty()) << v.option;
        for (const std::string& command : v.commands) {
            const std::string help = option_help(help_of(command), v.option);
            ASSERT_FALSE(help.empty()) << command << " --help has no --" << v.option;
            for (const Word& w : v.words)
                EXPECT_NE(help.find(w.form), std::string::npos)
                    << command << " --" << v.option << " does not name " << w.form << ": " << help;
        }
        if (!v.parse) continue;
        for (const Word& w : v.words)
            EXPECT_NO_THROW(v.parse(instance(w))) << "--" << v.option << " " << instance(w);
        try {
            v.parse("no-such-value");
            ADD_FAILURE() << "--" << v.option << " accepted no-such-value";
        } catch (const rngvet::InputError& e) {
            // The message names every value of the table.
            for (const Word& w : v.words)
                EXPECT_NE(std::string(e.what()).find(w.form), std::string::npos) << e.what();
        }
    }
}

// The values the parsers of rngvet generate and rngvet dc create read themselves, through the
// binary: each is accepted, another is refused naming them.
TEST(Help, FormatsAndCompatModesAreAcceptedByTheBinary)
{
    for (const Word& w : rngvet::cli::format_words()) {
        const CliResult r
            = run_rngvet("generate --generator ranmar24 --seed 1,1 --count 2 --format "
                + std::string(w.form) + " --out " + fresh("help_format.out"));
        EXPECT_EQ(r.status, 0) << w.form << ": " << r.err;
    }
    const CliResult bad
        = run_rngvet("generate --generator ranmar24 --seed 1,1 --count 2 --format u64");
    EXPECT_EQ(bad.status, 2);
    for (const Word& w : rngvet::cli::format_words())
        EXPECT_NE(bad.err.find(w.form), std::string::npos) << bad.err;
    for (const Word& w : rngvet::cli::dc_compat_words()) {
        const CliResult r = run_rngvet("dc create --p 521 --count 1 --seed 1 --threads 1 --compat "
            + std::string(w.form) + " --out " + fresh("help_compat.txt"));
        EXPECT_EQ(r.status, 0) << w.form << ": " << r.err;
    }
}

// Each form a --help names anywhere ("block:K", "split:S", "file:PATH") is one a parser reads,
// with a value in place of its placeholder.
TEST(Help, EveryFormNamedInHelpIsAccepted)
{
    const auto accepted = [](const std::string& text) {
        for (const std::function<void()>& parse :
            std::vector<std::function<void()>>{ [&] { rngvet::parse_layout(text); },
                [&] { rngvet::parse_seeding(text); }, [&] { rngvet::parse_generator(text); } }) {
            try {
                parse();
                return true;
            } catch (const rngvet::InputError&) {
            }
        }
        return false;
    };
    int forms = 0;
    const std::regex form(R"(\b([a-z][a-z0-9-]*):([A-Z]+)\b)");
    for (const std::string command : { "run", "generate", "validate", "bench" }) {
        const std::string help = help_of(command);
        for (auto m = std::sregex_iterator(help.begin(), help.end(), form);
             m != std::sregex_iterator(); ++m) {
            ++forms;
            const std::string text = (*m)[1].str() + ":3";
            EXPECT_TRUE(accepted(text))
                << command << " --help names " << (*m)[0] << ", but " << text << " is refused";
        }
    }
    EXPECT_GE(forms, 5); // block:K, request:R, stride:S, split:S, file:PATH at least
}

// The names of the registries: every generator and battery in the help of --generator and
// --battery, every built-in parameter set in --params, every Mersenne exponent dc create takes.
TEST(Help, RegistriesAreNamedInHelp)
{
    for (const std::string command : { "run", "generate", "validate" }) {
        const std::string help = option_help(help_of(command), "generator");
        for (const rngvet::GeneratorTraits& g : rngvet::generator_registry())
            EXPECT_NE(help.find(g.name), std::string::npos) << command << ": " << g.name;
    }
    const std::string battery = option_help(help_of("run"), "battery");
    for (const rngvet::BatteryFamily& f : rngvet::battery_registry())
        EXPECT_NE(battery.find(f.name), std::string::npos) << f.name << ": " << battery;
    const std::string p = option_help(help_of("dc create"), "p");
    for (const int e : rngvet::mersenne_exponents())
        if (e >= 521) {
            EXPECT_NE(p.find(std::to_string(e)), std::string::npos) << e << ": " << p;
        }
    const std::string verify = option_help(help_of("dc verify"), "params");
    for (const Word& w : rngvet::builtin_param_set_words())
        EXPECT_NE(verify.find(w.form), std::string::npos) << w.form << ": " << verify;
}

// `rngvet list` names every table in its "option values:" section, which the bash completion
// reads.
TEST(Help, ListGivesEveryTableToTheCompletion)
{
    const CliResult r = run_rngvet("list");
    ASSERT_EQ(r.status, 0) << r.err;
    for (const Vocabulary& v : vocabularies()) {
        const std::string line = "  --" + v.option + ": ";
        const std::size_t at = r.out.find(line, r.out.find("option values:\n"));
        ASSERT_NE(at, std::string::npos) << v.option << "\n" << r.out;
        const std::string values = r.out.substr(at, r.out.find('\n', at) - at);
        for (const Word& w : v.words)
            EXPECT_NE(values.find(w.form), std::string::npos) << values;
    }
}

// The bash completion, sourced and run against this build's binary: the values of --backend
// (auto included), --params (the built-in sets), --battery (mcpi included), --layout and
// --seeding (their forms as "block:", "split:").
TEST(Help, BashCompletionOffersEveryTableValue)
{
    const std::string script = std::string(RNGVET_SOURCE_DIR) + "/packaging/rngvet.bash-completion";
    const auto complete = [&](const std::string& option) {
        const std::string out = fresh("help_completion.txt");
        const std::string cmd = "bash -c 'source " + script + "; COMP_WORDS=(" RNGVET_BINARY " run "
            + option + " \"\"); COMP_CWORD=3; _rngvet; printf \"%s\\n\" \"${COMPREPLY[@]}\"' > "
            + out;
        EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
        std::set<std::string> words;
        std::istringstream in(slurp(out));
        for (std::string w; std::getline(in, w);)
            words.insert(w);
        return words;
    };
    const auto expect_all = [&](const std::string& option, const Words& words) {
        const std::set<std::string> got = complete(option);
        for (const Word& w : words) {
            const std::string prefix = rngvet::word_prefix(w);
            const std::string want = prefix.empty() ? std::string(w.form) : prefix;
            EXPECT_TRUE(got.count(want)) << option << " does not complete to " << want;
        }
    };
    for (const Vocabulary& v : vocabularies())
        expect_all("--" + v.option, v.words);
    const std::set<std::string> batteries = complete("--battery");
    for (const rngvet::BatteryFamily& f : rngvet::battery_registry())
        EXPECT_TRUE(batteries.count(f.name)) << "--battery does not complete to " << f.name;
    EXPECT_TRUE(complete("-g").count("file:"));
}

// Battery, generator and backend names in any case: the run is stored under the canonical
// lower-case names, exactly as if they had been written so.
TEST(Help, NamesAreReadInAnyCaseAndStoredInLowerCase)
{
    EXPECT_EQ(rngvet::catalogue_for("SmallCrush").name, "smallcrush");
    EXPECT_EQ(rngvet::catalogue_for("BIGCRUSH").name, "bigcrush");
    EXPECT_EQ(rngvet::catalogue_for("Rabbit(nb=2^20)").name, "rabbit(nb=1048576)");
    EXPECT_EQ(rngvet::catalogue_for("MCPI(points=10^6,reps=4)").name,
        rngvet::catalogue_for("mcpi(points=10^6,reps=4)").name);
    EXPECT_EQ(rngvet::parse_backend("CUDA"), rngvet::Backend::cuda);
    EXPECT_EQ(rngvet::parse_backend("Auto"), rngvet::Backend::automatic);
    EXPECT_EQ(rngvet::to_string(rngvet::parse_generator("RANMAR48x")), "ranmar48x");
    // file: keeps its path as written.
    EXPECT_EQ(rngvet::to_string(rngvet::parse_generator("File:/Tmp/X")), "file:/Tmp/X");
    EXPECT_THROW(rngvet::catalogue_for("SmallCrushes"), rngvet::InputError);

    const std::string db = fresh("help_case.sqlite");
    const CliResult r = run_rngvet("run --generator RANMAR48 --seed 1802,9373 --backend CPU "
                                   "--battery SmallCrush --tests 1 --db "
        + db);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto runs = rngvet::Store(db).runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].battery, "smallcrush");
    EXPECT_EQ(runs[0].config, "ranmar48/1/single/increment/1802,9373");
    // The options of a battery's parameters go with its name in any case.
    const CliResult rabbit = run_rngvet("run --generator ranmar48 --seed 1802,9373 --battery "
                                        "Rabbit --nb 1048576 --tests 1 --db "
        + db);
    ASSERT_EQ(rabbit.status, 0) << rabbit.err;
    EXPECT_EQ(rngvet::Store(db).runs().back().battery, "rabbit(nb=1048576)");
}

// A campaign file reads the names in any case too, and an external stream is refused however
// it is written.
TEST(Help, CampaignFilesReadNamesInAnyCase)
{
    const std::string head = "[campaign]\nname = c\nbattery = SmallCrush\nseeds = 1802,9373\n";
    const rngvet::campaigns::Campaign c = rngvet::campaigns::parse_campaign(head
            + "[configuration a]\ngenerator = RANMAR48\n"
              "backend = CPU\n",
        "c.ini", "");
    EXPECT_EQ(c.battery, "smallcrush");
    for (const std::string external : { "STDIN32", "File:/dev/zero" }) {
        try {
            rngvet::campaigns::parse_campaign(
                head + "[configuration a]\ngenerator = " + external + "\n", "c.ini", "");
            ADD_FAILURE() << external << " was accepted";
        } catch (const rngvet::InputError& e) {
            EXPECT_NE(std::string(e.what()).find("can only run serially"), std::string::npos)
                << e.what();
        }
    }
}

// Every key the campaign parser takes, in each section, is described in rngvet-campaign(5) (a
// ".BI key" line, hyphens as \-); the [configuration NAME] keys are the schema's rows read in
// campaign files, and the seeds.
TEST(Help, CampaignKeysAreDescribedInTheirManPage)
{
    const std::string page
        = slurp(std::string(RNGVET_SOURCE_DIR) + "/packaging/man/rngvet-campaign.5");
    ASSERT_FALSE(page.empty());
    std::size_t keys = 0;
    for (const std::string kind : { "campaign", "configuration", "slurm" })
        for (const std::string& key : rngvet::campaigns::section_keys(kind)) {
            ++keys;
            std::string roff;
            for (char c : key)
                roff += c == '-' ? std::string("\\-") : std::string(1, c);
            EXPECT_NE(page.find("\n.BI " + roff + " "), std::string::npos)
                << "rngvet-campaign(5) does not describe [" << kind << "] " << key;
        }
    EXPECT_GE(keys, 31u);
    std::vector<std::string> configuration = rngvet::campaigns::section_keys("configuration");
    for (const rngvet::ConfigurationOption& row : rngvet::configuration_options())
        EXPECT_EQ(std::count(configuration.begin(), configuration.end(), row.name),
            (row.places & rngvet::in_campaign_file) ? 1 : 0)
            << row.name;
}

// The schema's rows are the configuration options of rngvet run, generate and validate, in the
// rows' order, each with its own help; a campaign file and librngvet read theirs (an unknown
// key or option is refused naming exactly those).
TEST(Help, TheSchemaRowsAreTheConfigurationOptionsEverywhere)
{
    for (const std::string command : { "run", "generate", "validate" }) {
        const std::string help = help_of(command);
        std::size_t last = help.find(" options:");
        for (const rngvet::ConfigurationOption& row : rngvet::configuration_options()) {
            if (!(row.places & rngvet::on_command_line)) continue;
            const std::string described = option_help(help, row.name);
            EXPECT_EQ(described, row.help()) << command << " --" << row.name;
            const std::size_t at = help.find(std::string("--") + row.name + " ", last);
            ASSERT_NE(at, std::string::npos) << command << " --" << row.name;
            EXPECT_GT(at, last) << command << ": --" << row.name << " out of the rows' order";
            last = at;
        }
    }
    const std::string head = "[campaign]\nname = c\nbattery = SmallCrush\nseeds = 1802,9373\n"
                             "[configuration a]\ngenerator = ranmar48\n";
    try {
        (void)rngvet::campaigns::parse_campaign(head + "colour = red\n", "c.ini", "");
        ADD_FAILURE() << "an unknown key was accepted";
    } catch (const rngvet::InputError& e) {
        std::string valid;
        for (const std::string& key : rngvet::campaigns::section_keys("configuration"))
            valid += (valid.empty() ? "" : ", ") + key;
        EXPECT_EQ(std::string(e.what()),
            "c.ini:7: unknown key 'colour' in [configuration a] (valid: " + valid + ")");
    }
    EXPECT_EQ(rngvet::configuration_option_names(rngvet::in_library_options, "--"),
        "--generator, --seed, --params, --param-id, --instances, --layout, --seeding, --zero, "
        "--skip, --backend, --view");
}

// The options rngvet run shares with a campaign file's [campaign] section are the battery
// choice's rows: rngvet run's --battery, --tests and --engine with the rows' help, the
// [campaign] keys, and a campaign task's run arguments after its configuration's.
TEST(Help, TheBatteryChoiceRowsAreRunOptionsAndCampaignKeys)
{
    const std::string help = help_of("run");
    const std::vector<std::string> keys = rngvet::campaigns::section_keys("campaign");
    for (const rngvet::BatteryChoiceOption& row : rngvet::battery_choice_options()) {
        EXPECT_EQ(option_help(help, row.name), row.help()) << row.name;
        EXPECT_EQ(std::count(keys.begin(), keys.end(), row.name), 1) << row.name;
    }
    const rngvet::campaigns::Campaign c = rngvet::campaigns::parse_campaign(
        "[campaign]\nname = c\nbattery = Crush\ntests = 2,1\nengine = native\n"
        "seeds = 1802,9373\nshards = 2\n[configuration a]\ngenerator = ranmar48\n",
        "c.ini", "");
    const std::vector<rngvet::campaigns::CampaignTask> tasks = rngvet::campaigns::expand(c);
    ASSERT_EQ(tasks.size(), 2u);
    for (const rngvet::campaigns::CampaignTask& t : tasks) {
        std::vector<std::string> want
            = rngvet::campaigns::run_options(c.configurations[0].keys, "1802,9373");
        want.insert(want.end(),
            { "--battery", "crush", "--tests", std::to_string(t.tests.at(0)), "--engine",
                "native" });
        EXPECT_EQ(t.run_arguments, want);
    }
}

} // namespace

#include "known_answers.hpp"

#include "generators/error.hpp"

#include <sstream>

namespace rngvet {
namespace {

const char* const embedded_table =
#include "known_answers.inc"
    ;

} // namespace

Configuration KnownAnswer::configuration(const std::string& backend) const
{
    ConfigurationText text;
    text.generator = generator;
    text.params = params;
    text.seed = seed_string(seed);
    text.skip = skip;
    text.backend = backend;
    return resolve_configuration(text);
}

std::string KnownAnswer::label() const
{
    std::string s = generator;
    if (!params.empty()) s += " " + params;
    s += " seed " + seed_string(seed);
    if (skip) s += " skip " + std::to_string(skip);
    return s + " (known_answers.txt line " + std::to_string(line) + ")";
}

std::vector<KnownAnswer> parse_known_answers(const std::string& text)
{
    std::vector<KnownAnswer> rows;
    std::istringstream in(text);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const auto hash = line.find('#');
        if (hash != std::string::npos) line.erase(hash);
        std::istringstream fields(line);
        KnownAnswer row;
        std::string params, seed, skip;
        if (!(fields >> row.generator)) continue;
        if (!(fields >> params >> seed >> skip))
            throw InputError("known_answers.txt line " + std::to_string(number)
                + ": expected generator, parameters, seed, skip, values");
        row.line = number;
        row.params = params == "-" ? "" : params;
        row.seed = parse_seed(seed.rfind("array:", 0) == 0 ? seed.substr(6) : seed);
        row.skip = static_cast<std::uint64_t>(parse_seed(skip).at(0));
        std::string v;
        while (fields >> v)
            row.values.push_back(static_cast<std::uint64_t>(parse_seed(v).at(0)));
        if (row.values.empty())
            throw InputError("known_answers.txt line " + std::to_string(number) + ": no values");
        rows.push_back(row);
    }
    return rows;
}

const std::vector<KnownAnswer>& known_answers()
{
    static const std::vector<KnownAnswer> rows = parse_known_answers(embedded_table);
    return rows;
}

} // namespace rngvet

// What the other campaign files share: a configuration from its keys and the rngvet run options
// that give it, text helpers (shell quoting, id ranges, durations) and new campaign ids. The file
// format is campaign_file.cpp's, the INI reader ini.cpp's, planning plan.cpp's, the task table
// task_table.cpp's and the Slurm scripts slurm.cpp's.
#include "campaign.hpp"

#include "generators/configuration_options.hpp"
#include "kernels/backend.hpp"

#include <cstdio>
#include <ctime>
#include <random>

namespace rngvet::campaigns {

Configuration configuration_of(const ConfigurationKeys& keys, const std::string& seed)
{
    ConfigurationText text = keys;
    text.seed = seed;
    return resolve_configuration_here(text);
}

std::vector<std::string> run_options(const ConfigurationKeys& keys, const std::string& seed)
{
    // A plugin's library as it was when the campaign was planned (keys.library_sha256, which
    // campaign_file.cpp fills in): a task refuses another.
    ConfigurationText text = keys;
    text.seed = seed;
    return configuration_arguments(text);
}

std::string join_ints(const std::vector<int>& values)
{
    std::string s;
    for (std::size_t i = 0; i < values.size(); ++i)
        s += (i ? "," : "") + std::to_string(values[i]);
    return s;
}

std::string id_ranges(const std::vector<int>& ids)
{
    std::string s;
    for (std::size_t i = 0; i < ids.size();) {
        std::size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
            ++j;
        s += (s.empty() ? "" : ",") + std::to_string(ids[i]);
        if (j > i) s += "-" + std::to_string(ids[j]);
        i = j + 1;
    }
    return s;
}

std::string shell_quote(const std::string& word)
{
    if (!word.empty()
        && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                  "0123456789-_./,:=+@%")
            == std::string::npos)
        return word;
    std::string out = "'";
    for (char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string clock_time(double seconds)
{
    const long s = static_cast<long>(seconds + 0.5);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%02ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

std::string new_campaign_id(const std::string& name)
{
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char when[32];
    std::strftime(when, sizeof when, "%Y%m%dT%H%M%SZ", &utc);
    std::random_device device;
    char tag[16];
    std::snprintf(tag, sizeof tag, "%06x", static_cast<unsigned>(device() & 0xffffffu));
    return name + "-" + when + "-" + tag;
}

} // namespace rngvet::campaigns

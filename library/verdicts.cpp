// rngvet_stored_verdicts: what an rngvet database holds for a configuration, per battery and
// over every seed of it. Reads the store's tables directly (docs/store.md), read-only.
#include "generators/configuration.hpp"
#include "generators/error.hpp"
#include "internal.hpp"
#include "reports/store.hpp" // store_schema_version
#include "reports/verdict.hpp"
#include "rngvet/rngvet.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <sqlite3.h>
#include <string>
#include <vector>

namespace {

struct BatterySeeds {
    std::set<std::string> seeds, failed, suspect;
    std::vector<long long> run_ids;
    int this_seed_runs = 0;
    // The worst verdict of this seed's runs (pass < suspect < fail); nullopt for no run.
    std::optional<rngvet::PValueVerdict> this_seed;
};

void copy_text(char* to, std::size_t size, const std::string& from)
{
    std::snprintf(to, size, "%s", from.c_str());
}

} // namespace

extern "C" int rngvet_stored_verdicts(const char* database, const char* configuration,
    rngvet_battery_verdict* verdicts, size_t capacity, size_t* count)
{
    if (count) *count = 0;
    if (!database || !configuration || !count || (capacity > 0 && !verdicts)) {
        rngvet::library::set_last_error("rngvet_stored_verdicts: a NULL argument");
        return RNGVET_ERROR_INPUT;
    }
    // The configuration's canonical name; one that does not parse is an input error.
    std::string name;
    try {
        std::string backend;
        name = rngvet::canonical_name(
            rngvet::library::configuration_from_text(configuration, backend));
    } catch (const std::exception& e) {
        rngvet::library::set_last_error(e.what());
        return RNGVET_ERROR_INPUT;
    }
    const std::string family = rngvet::seed_family(name);

    sqlite3* db = nullptr;
    if (sqlite3_open_v2(database, &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        const std::string why = "cannot open database '" + std::string(database)
            + "': " + (db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        rngvet::library::set_last_error(why);
        return RNGVET_ERROR_STORE;
    }
    sqlite3_busy_timeout(db, 30000);
    // The schema this build reads, as rngvet status reads it: an older store needs the upgrade
    // a writing command makes, a newer one is not read by guesswork.
    {
        sqlite3_stmt* v = nullptr;
        int version = -1;
        if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &v, nullptr) == SQLITE_OK
            && sqlite3_step(v) == SQLITE_ROW)
            version = sqlite3_column_int(v, 0);
        sqlite3_finalize(v);
        if (version != rngvet::store_schema_version) {
            const std::string why = "'" + std::string(database) + "' has schema version "
                + std::to_string(version) + "; this rngvet reads version "
                + std::to_string(rngvet::store_schema_version)
                + (version > 0 && version < rngvet::store_schema_version
                        ? " (open it once with a command that writes, e.g. rngvet run --resume)"
                        : "");
            sqlite3_close(db);
            rngvet::library::set_last_error(why);
            return RNGVET_ERROR_STORE;
        }
    }
    // Failures, then suspect values (failures included), by the thresholds of verdict.hpp.
    const std::string sql = "SELECT r.run_id, r.config, r.seed, r.battery,"
                            " (SELECT count(*) FROM statistics s WHERE s.run_id = r.run_id"
                            "   AND ("
        + rngvet::sql_is_failure("s.pvalue")
        + ")),"
          " (SELECT count(*) FROM statistics s WHERE s.run_id = r.run_id"
          "   AND ("
        + rngvet::sql_is_suspect("s.pvalue")
        + "))"
          " FROM runs r WHERE r.status = '"
        + rngvet::to_text(rngvet::RunStatus::complete) + "' ORDER BY r.run_id";
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
        const std::string why
            = "'" + std::string(database) + "' is not an rngvet database: " + sqlite3_errmsg(db);
        sqlite3_close(db);
        rngvet::library::set_last_error(why);
        return RNGVET_ERROR_STORE;
    }
    std::map<std::string, BatterySeeds> batteries;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const auto text = [&](int i) {
            const unsigned char* t = sqlite3_column_text(st, i);
            return t ? std::string(reinterpret_cast<const char*>(t)) : std::string();
        };
        const std::string config = text(1);
        if (rngvet::seed_family(config) != family) continue;
        BatterySeeds& b = batteries[text(3)];
        const std::string seed = text(2);
        const long long fails = sqlite3_column_int64(st, 4);
        const long long suspects = sqlite3_column_int64(st, 5);
        b.seeds.insert(seed);
        if (fails > 0) b.failed.insert(seed);
        if (suspects > 0) b.suspect.insert(seed);
        b.run_ids.push_back(sqlite3_column_int64(st, 0));
        if (config == name) {
            ++b.this_seed_runs;
            const rngvet::PValueVerdict worst = fails > 0 ? rngvet::PValueVerdict::fail
                : suspects > 0                            ? rngvet::PValueVerdict::suspect
                                                          : rngvet::PValueVerdict::pass;
            b.this_seed = b.this_seed ? std::max(*b.this_seed, worst) : worst;
        }
    }
    const bool ok = rc == SQLITE_DONE;
    const std::string why
        = ok ? "" : "reading '" + std::string(database) + "': " + sqlite3_errmsg(db);
    sqlite3_finalize(st);
    sqlite3_close(db);
    if (!ok) {
        rngvet::library::set_last_error(why);
        return RNGVET_ERROR_STORE;
    }
    std::size_t i = 0;
    for (const auto& [battery, b] : batteries) {
        if (i < capacity) {
            rngvet_battery_verdict& v = verdicts[i];
            std::memset(&v, 0, sizeof v);
            copy_text(v.battery, sizeof v.battery, battery);
            v.seeds = static_cast<int>(b.seeds.size());
            v.seeds_failed = static_cast<int>(b.failed.size());
            int suspect_only = 0;
            for (const std::string& seed : b.suspect)
                suspect_only += b.failed.count(seed) == 0;
            v.seeds_suspect = suspect_only;
            v.this_seed_runs = b.this_seed_runs;
            copy_text(v.this_seed, sizeof v.this_seed,
                b.this_seed ? rngvet::to_text(*b.this_seed) : "none");
            std::string ids;
            for (long long id : b.run_ids) {
                const std::string next = (ids.empty() ? "" : ",") + std::to_string(id);
                if (ids.size() + next.size() + 4 >= sizeof v.run_ids) {
                    ids += ",...";
                    break;
                }
                ids += next;
            }
            copy_text(v.run_ids, sizeof v.run_ids, ids);
        }
        ++i;
    }
    *count = batteries.size();
    rngvet::library::set_last_error("");
    return RNGVET_OK;
}

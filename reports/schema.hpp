// The store's tables as data: each table one list of columns (name, SQL type and constraints, the
// schema version whose migration added it, the record member it holds), from which the
// migrations, the inserts, the selects and the row copies of the campaign merge are all written.
// A new column is one row at the end of its table's list (with the next schema version); a new
// table is one Table and one line in for_each_table.
#pragma once

#include "batteries/records.hpp"
#include "sql.hpp"
#include "store_records.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace rngvet::schema {

// The record member a column holds: none (std::monostate) for a column its record has no member
// for, such as the run a test or statistic belongs to (the caller's key) or the campaign tables'
// columns (written by the merge's own SQL).
template <class R>
using Member = std::variant<std::monostate, std::string R::*, int R::*, std::int64_t R::*,
    std::uint64_t R::*, double R::*, bool R::*, RunStatus R::*, RunMode R::*>;

template <class R> struct Column {
    const char* name;
    const char* definition; // SQL type and constraints, as CREATE TABLE and ADD COLUMN take them
    int since; // the schema version whose migration added it
    Member<R> member;
};

// A table holding no record of its own.
struct NoRecord { };

template <class R> struct Table {
    const char* name;
    int since; // the schema version whose migration created it
    // In the table's order: the columns it was created with, then those added, in the order
    // they were added. A shipped column is never moved, changed or removed.
    std::vector<Column<R>> columns;
    const char* constraints = ""; // what follows the columns in CREATE TABLE ("" for nothing)
};

const Table<RunRecord>& runs();
const Table<Statistic>& statistics();
const Table<TestRecord>& tests();
const Table<BenchRecord>& bench();
const Table<StartCheckRecord>& start_checks();
const Table<CampaignStamp>& campaign_stamp();
const Table<NoRecord>& campaign_runs();
const Table<NoRecord>& campaign_tasks();

// Calls f on every table, in the order the migrations create them.
template <class F> void for_each_table(F&& f)
{
    f(runs());
    f(statistics());
    f(tests());
    f(bench());
    f(campaign_stamp());
    f(campaign_runs());
    f(campaign_tasks());
    f(start_checks());
}

// A column's name, definition and version, whatever its table's record.
struct ColumnInfo {
    std::string name;
    std::string definition;
    int since;
};
// The columns of table `name` (empty for no table of that name).
std::vector<ColumnInfo> columns_of(const std::string& table);

// The tables created and the columns added by the migration to schema `version`.
std::string migration_tables(int version);

// SQLite assigns it on insert (a rowid: runs.run_id, bench.bench_id) when it is a record's id.
template <class R> bool assigned(const Column<R>& c)
{
    return !std::holds_alternative<std::monostate>(c.member)
        && std::strncmp(c.definition, "INTEGER PRIMARY KEY", 19) == 0;
}

// A text column that may be NULL stores an empty member as NULL (runs.finished_at).
template <class R> bool empty_is_null(const Column<R>& c)
{
    return std::strstr(c.definition, "NOT NULL") == nullptr;
}

template <class R, class Keep> std::string names(const Table<R>& t, Keep keep)
{
    std::string out;
    for (const Column<R>& c : t.columns)
        if (keep(c)) out += (out.empty() ? "" : ", ") + std::string(c.name);
    return out;
}

// Binds column c of record r to parameter i.
template <class R> void bind(sql::Statement& q, int i, const Column<R>& c, const R& r)
{
    std::visit(
        [&](auto member) {
            using M = decltype(member);
            if constexpr (std::is_same_v<M, std::monostate>) {
                q.bind_null(i);
            } else {
                const auto& v = r.*member;
                using V = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<V, std::string>) {
                    if (v.empty() && empty_is_null(c))
                        q.bind_null(i);
                    else
                        q.bind(i, v);
                } else if constexpr (std::is_same_v<V, double>) {
                    q.bind(i, v);
                } else if constexpr (std::is_enum_v<V>) {
                    q.bind(i, std::string(to_text(v))); // the term's text
                } else {
                    q.bind(i, static_cast<std::int64_t>(v));
                }
            }
        },
        c.member);
}

// Sets the member of column c of r from result column i.
template <class R> void read(sql::Statement& q, int i, const Column<R>& c, R& r)
{
    std::visit(
        [&](auto member) {
            using M = decltype(member);
            if constexpr (!std::is_same_v<M, std::monostate>) {
                auto& v = r.*member;
                using V = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<V, std::string>)
                    v = q.text(i);
                else if constexpr (std::is_same_v<V, double>)
                    v = q.real(i);
                else if constexpr (std::is_enum_v<V>) {
                    // A typed word (RunStatus, RunMode): one of its table's terms, or the row
                    // is refused.
                    const std::string text = q.text(i);
                    const auto value = term_value(terms_of(V{}), text);
                    if (!value)
                        throw InputError("its stored " + std::string(c.name) + " '" + text
                            + "' is damaged (not " + term_alternatives(terms_of(V{})) + ")");
                    v = *value;
                } else
                    v = static_cast<V>(q.integer(i));
            }
        },
        c.member);
}

// Inserts record r into table t, its columns without a member bound to `key` (the run a test
// or statistic belongs to); returns the new row's id.
template <class R>
std::int64_t insert(sqlite3* db, const Table<R>& t, const R& r, std::int64_t key = 0)
{
    const auto kept = [](const Column<R>& c) { return !assigned(c); };
    std::string values;
    int n = 0;
    for (const Column<R>& c : t.columns)
        if (kept(c)) {
            ++n;
            values += (n > 1 ? ", ?" : "?") + std::to_string(n);
        }
    sql::Statement q(db,
        std::string("INSERT INTO ") + t.name + " (" + names(t, kept) + ") VALUES (" + values + ")");
    int i = 0;
    for (const Column<R>& c : t.columns) {
        if (!kept(c)) continue;
        ++i;
        if (std::holds_alternative<std::monostate>(c.member))
            q.bind(i, key);
        else
            bind(q, i, c, r);
    }
    q.step();
    return sqlite3_last_insert_rowid(db);
}

// Where select reads table t: the store's own (schema "main", the current version), or the same
// table of a store attached as `schema` (campaigns/merge.cpp's task database) of `version`, whose
// columns newer than that version are not read: their members keep the record's defaults.
struct Source {
    std::string schema = "main";
    int version = store_schema_version;
};

// The rows of table t that `where` (SQL after WHERE, ?1 bound to `key`) selects, in `order`.
// A value its member cannot hold is an InputError naming the row as `row` and its first column
// ("run 3 cannot be read: ..."); with `unreadable` given, that row is left out and the message
// added there instead.
template <class R>
std::vector<R> select(sqlite3* db, const Table<R>& t, const std::string& where, std::int64_t key,
    const std::string& order, const char* row = "row", const Source& from = {},
    std::vector<std::string>* unreadable = nullptr)
{
    const auto held = [&](const Column<R>& c) {
        return !std::holds_alternative<std::monostate>(c.member) && c.since <= from.version;
    };
    sql::Statement q(db,
        "SELECT " + names(t, held) + " FROM " + from.schema + "." + t.name
            + (where.empty() ? "" : " WHERE " + where)
            + (order.empty() ? "" : " ORDER BY " + order));
    if (where.find("?1") != std::string::npos) q.bind(1, key);
    std::vector<R> out;
    while (q.step()) {
        R r;
        int i = 0;
        try {
            for (const Column<R>& c : t.columns)
                if (held(c)) read(q, i++, c, r);
        } catch (const InputError& e) {
            const std::string why
                = std::string(row) + " " + q.text(0) + " cannot be read: " + e.what();
            if (!unreadable) throw InputError(why);
            unreadable->push_back(why);
            continue;
        }
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace rngvet::schema

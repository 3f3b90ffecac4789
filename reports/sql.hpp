// The store's SQL primitives: a prepared statement that finalises itself, a transaction that
// rolls back unless committed, another store attached read-only under a schema name. Used by
// the store (store.cpp) and by code that owns SQL of its own on a store's connection (the
// campaign merge, campaigns/merge.cpp). Errors: InputError, or std::runtime_error for a full
// disk or an I/O error (a fault of the machine, not of the input).
#pragma once

#include "generators/error.hpp"

#include <cstdint>
#include <sqlite3.h>
#include <stdexcept>
#include <string>

namespace rngvet::sql {

// How long a connection waits for another one's lock before it gives up.
inline constexpr int busy_timeout_ms = 30000;

// The file: URI of a path, every byte but the unreserved ones and '/' percent-encoded, so that
// no path reads as a URI's query or fragment; `read_only` adds mode=ro, which opens nothing
// for writing (a task database on a read-only copy of a campaign).
std::string uri(const std::string& path, bool read_only);

void exec(sqlite3* db, const char* sql);

class Statement {
public:
    Statement(sqlite3* db, const char* sql);
    Statement(sqlite3* db, const std::string& sql)
        : Statement(db, sql.c_str())
    {
    }
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int i, const std::string& v)
    {
        check(sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
        return *this;
    }
    Statement& bind(int i, std::int64_t v)
    {
        check(sqlite3_bind_int64(stmt_, i, v));
        return *this;
    }
    Statement& bind(int i, double v)
    {
        check(sqlite3_bind_double(stmt_, i, v));
        return *this;
    }
    Statement& bind_null(int i)
    {
        check(sqlite3_bind_null(stmt_, i));
        return *this;
    }

    void reset()
    {
        sqlite3_reset(stmt_);
        sqlite3_clear_bindings(stmt_);
    }
    // Returns true while a row is available.
    bool step();
    std::string text(int col)
    {
        const auto* p = sqlite3_column_text(stmt_, col);
        return p ? reinterpret_cast<const char*>(p) : "";
    }
    std::int64_t integer(int col) { return sqlite3_column_int64(stmt_, col); }
    double real(int col) { return sqlite3_column_double(stmt_, col); }

private:
    void check(int rc)
    {
        if (rc != SQLITE_OK)
            throw InputError(std::string("database error: ") + sqlite3_errmsg(db_));
    }
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE (the write lock) on construction; rolls back unless committed.
class Transaction {
public:
    explicit Transaction(sqlite3* db)
        : db_(db)
    {
        exec(db_, "BEGIN IMMEDIATE");
    }
    ~Transaction()
    {
        if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit()
    {
        exec(db_, "COMMIT");
        done_ = true;
    }

private:
    sqlite3* db_;
    bool done_ = false;
};

// The store at `path` attached read-only as schema `name`. ATTACH cannot run inside a
// transaction: construct this before one and it detaches after the transaction has ended,
// whether it committed or rolled back.
class Attached {
public:
    Attached(sqlite3* db, const std::string& path, const std::string& name);
    ~Attached();
    Attached(const Attached&) = delete;
    Attached& operator=(const Attached&) = delete;

private:
    sqlite3* db_;
    std::string name_;
};

// The first column of the first row of `sql`, with ?1 and ?2 bound to `a` and `b` (unless 0).
std::int64_t single_integer(sqlite3* db, const char* sql, std::int64_t a = 0, std::int64_t b = 0);

} // namespace rngvet::sql

#include "sql.hpp"

#include <cctype>
#include <cstdio>

namespace rngvet::sql {

std::string uri(const std::string& path, bool read_only)
{
    std::string out = path.empty() || path[0] != '/' ? "file:" : "file://";
    for (const char ch : path) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
            out += ch;
        } else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            out += hex;
        }
    }
    return read_only ? out + "?mode=ro" : out;
}

void exec(sqlite3* db, const char* sql)
{
    char* message = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
        std::string m = message ? message : sqlite3_errmsg(db);
        sqlite3_free(message);
        if (rc == SQLITE_FULL || rc == SQLITE_IOERR)
            throw std::runtime_error("database error: " + m);
        throw InputError("database error: " + m);
    }
}

Statement::Statement(sqlite3* db, const char* sql)
    : db_(db)
{
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
        throw InputError(std::string("database error: ") + sqlite3_errmsg(db));
}

bool Statement::step()
{
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    // A full disk or an I/O error is a fault of the machine, not of the input.
    if (rc == SQLITE_FULL || rc == SQLITE_IOERR)
        throw std::runtime_error(std::string("database error: ") + sqlite3_errmsg(db_));
    throw InputError(std::string("database error: ") + sqlite3_errmsg(db_));
}

Attached::Attached(sqlite3* db, const std::string& path, const std::string& name)
    : db_(db)
    , name_(name)
{
    Statement q(db, "ATTACH DATABASE ?1 AS " + name);
    q.bind(1, uri(path, true));
    q.step();
}

Attached::~Attached()
{
    sqlite3_exec(db_, ("DETACH DATABASE " + name_).c_str(), nullptr, nullptr, nullptr);
}

std::int64_t single_integer(sqlite3* db, const char* sql, std::int64_t a, std::int64_t b)
{
    Statement q(db, sql);
    if (a) q.bind(1, a);
    if (b) q.bind(2, b);
    q.step();
    return q.integer(0);
}

} // namespace rngvet::sql

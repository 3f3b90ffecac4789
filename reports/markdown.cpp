#include "markdown.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace rngvet {

using markdown::printf_string;

std::string format_pvalue(double p)
{
    if (p < 1e-300) return "eps";
    if (p >= 1.0 - 1e-15) return "1 - eps1";
    if (p > 1.0 - 1e-4) return "1 - " + printf_string("%.1e", 1.0 - p);
    if (p < 0.01) return printf_string("%.1e", p);
    if (p > 0.99) return printf_string("%.4f", p);
    return printf_string("%.2f", p);
}

std::string format_probability(double p)
{
    if (p < 1e-300) return "< 1e-300";
    if (p >= 0.01) return printf_string("%.2f", p);
    return printf_string("%.1e", p);
}

} // namespace rngvet

namespace rngvet::markdown {

std::string cell(const std::string& s)
{
    std::string out;
    for (char c : s) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n' || c == '\r')
            out += ' ';
        else
            out += c;
    }
    return out;
}

std::string code(const std::string& s)
{
    std::string inner = cell(s);
    std::replace(inner.begin(), inner.end(), '`', '\'');
    return "`" + inner + "`";
}

std::string printf_string(const char* format, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

namespace {

void line(std::ostream& o, const std::vector<std::string>& cells)
{
    o << "|";
    for (const auto& c : cells)
        o << " " << c << " |";
    o << "\n";
}

} // namespace

Table::Table(std::vector<std::string> header, std::string align)
    : header_(std::move(header))
    , align_(std::move(align))
{
    if (align_.size() != header_.size())
        throw std::logic_error("markdown table: alignment does not match the header");
}

void Table::row(std::vector<std::string> cells)
{
    if (cells.size() != header_.size())
        throw std::logic_error("markdown table: row width does not match the header");
    rows_.push_back(std::move(cells));
}

std::string Table::str() const
{
    std::ostringstream o;
    line(o, header_);
    o << "|";
    for (char a : align_)
        o << (a == 'r' ? "---:|" : a == 'c' ? ":---:|" : "---|");
    o << "\n";
    for (const auto& r : rows_)
        line(o, r);
    o << "\n";
    return o.str();
}

} // namespace rngvet::markdown

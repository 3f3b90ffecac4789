#include "markdown.hpp"

#include "verdict.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace rngvet {

using markdown::printf_string;

std::string format_pvalue(double p)
{
    if (is_not_done(p)) return "not done (-1)";
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

std::string valid_utf8(const std::string& text)
{
    static const std::string replacement = "\xEF\xBF\xBD"; // U+FFFD
    std::string out;
    out.reserve(text.size());
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    std::size_t i = 0;
    while (i < text.size()) {
        const unsigned char b = byte(i);
        // The well-formed sequences of Unicode's table 3-7: the length, and the range of the
        // second byte (the others are 0x80-0xBF).
        std::size_t length = 0;
        unsigned char low = 0x80, high = 0xBF;
        if (b < 0x80)
            length = 1;
        else if (b >= 0xC2 && b <= 0xDF)
            length = 2;
        else if (b == 0xE0)
            length = 3, low = 0xA0;
        else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF)
            length = 3;
        else if (b == 0xED)
            length = 3, high = 0x9F;
        else if (b == 0xF0)
            length = 4, low = 0x90;
        else if (b >= 0xF1 && b <= 0xF3)
            length = 4;
        else if (b == 0xF4)
            length = 4, high = 0x8F;
        bool ok = length > 0 && i + length <= text.size();
        for (std::size_t k = 1; ok && k < length; ++k) {
            const unsigned char c = byte(i + k);
            ok = k == 1 ? c >= low && c <= high : c >= 0x80 && c <= 0xBF;
        }
        if (ok) {
            out.append(text, i, length);
            i += length;
        } else {
            out += replacement;
            ++i;
        }
    }
    return out;
}

std::string xml_escape(const std::string& text)
{
    const std::string utf8 = valid_utf8(text);
    std::string out;
    for (std::size_t i = 0; i < utf8.size(); ++i) {
        const char ch = utf8[i];
        const auto c = static_cast<unsigned char>(ch);
        switch (ch) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        case '\n':
            out += "&#10;";
            break;
        case '\r':
            out += "&#13;";
            break;
        case '\t':
            out += "&#9;";
            break;
        default:
            if (c < 0x20) {
                out += "\xEF\xBF\xBD";
            } else if (c == 0xEF && i + 2 < utf8.size() && utf8[i + 1] == '\xBF'
                && (utf8[i + 2] == '\xBE' || utf8[i + 2] == '\xBF')) {
                out += "\xEF\xBF\xBD";
                i += 2;
            } else {
                out += ch;
            }
        }
    }
    return out;
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

// Text for the reports: p-values and probabilities as the reports write them, valid UTF-8, XML
// text, the files written beside a report; markdown's escaping of table cells and code spans, and a
// GitHub-flavoured table whose rows always have the header's column count. One definition for every
// report.
#pragma once

#include <string>
#include <vector>

namespace rngvet {

// A p-value as TestU01's summaries write it: "eps" below 1e-300, "1 - eps1" above 1 - 1e-15,
// "1 - 4.2e-5" close to 1, scientific notation below 0.01, otherwise fixed.
std::string format_pvalue(double p);

// A probability that is not a TestU01 p-value (binomial tails, corrected levels): "< 1e-300",
// "0.42", "3.7e-05".
std::string format_probability(double p);

// Text as valid UTF-8: each byte that does not begin a well-formed sequence becomes U+FFFD.
std::string valid_utf8(const std::string& text);

// Text for an XML 1.0 attribute or element (the SVG plots, the JUnit report): valid UTF-8,
// markup characters as entities, line breaks and tabs as character references (kept in
// attributes), and the characters XML 1.0 cannot hold (C0 controls, U+FFFE, U+FFFF) as U+FFFD.
std::string xml_escape(const std::string& text);

struct ReportFile {
    std::string name; // a plain file name, to be written beside the markdown
    std::string content;
};

} // namespace rngvet

namespace rngvet::markdown {

// A table cell's text: a bare pipe becomes "\|", a line break (\n or \r) a space.
std::string cell(const std::string& s);
// A code span: the cell's text between backticks, a backtick inside becoming "'".
std::string code(const std::string& s);
// snprintf of one double, e.g. printf_string("%.2f", 0.125) = "0.13".
std::string printf_string(const char* format, double v);

class Table {
public:
    // align: one letter a column, 'l', 'r' or 'c'. Throws std::logic_error when the counts
    // differ (here or in row()).
    Table(std::vector<std::string> header, std::string align);
    void row(std::vector<std::string> cells);
    std::string str() const; // header, alignment row, rows, then a blank line

private:
    std::vector<std::string> header_;
    std::string align_;
    std::vector<std::vector<std::string>> rows_;
};

} // namespace rngvet::markdown

#include "svg.hpp"

#include "markdown.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace rngvet {
namespace {

// Rough advance of one character of an 11 px sans-serif font; used only to size margins.
constexpr double char_width = 6.4;
constexpr int cell_size = 22;

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string fmt(const char* format, double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string shorten(const std::string& s, std::size_t max)
{
    return s.size() <= max ? s : s.substr(0, max - 3) + "...";
}

std::string rgb(double r, double g, double b)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", static_cast<int>(std::lround(r)),
        static_cast<int>(std::lround(g)), static_cast<int>(std::lround(b)));
    return buf;
}

// 0 is white; any positive value starts at a light orange so that one suspect seed in ten
// stays visible, and 1 is dark red.
std::string heat_colour(double v)
{
    if (!(v > 0)) return "#ffffff";
    v = std::min(1.0, v);
    return rgb(253 + (178 - 253) * v, 212 + (24 - 212) * v, 158 + (43 - 158) * v);
}

const char* const resolution_colour = "#92c5de";
const char* const missing_colour = "#e0e0e0";

std::string header(double width, double height)
{
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\""
      << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
      << "\" font-family=\"sans-serif\" font-size=\"11\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
    return o.str();
}

} // namespace

std::string heat_map_svg(const HeatMap& map)
{
    const std::size_t rows = map.row_labels.size(), cols = map.column_labels.size();
    if (map.cells.size() != rows)
        throw std::invalid_argument("heat_map_svg: row count does not match the labels");
    for (const auto& row : map.cells)
        if (row.size() != cols)
            throw std::invalid_argument("heat_map_svg: column count does not match the labels");

    std::size_t row_chars = 0, col_chars = 0;
    for (const auto& l : map.row_labels)
        row_chars = std::max(row_chars, shorten(l, 70).size());
    for (const auto& l : map.column_labels)
        col_chars = std::max(col_chars, shorten(l, 40).size());
    const double left = 12 + char_width * static_cast<double>(row_chars);
    const double top = 34 + char_width * static_cast<double>(col_chars) * 0.87 + 8;
    const double grid_w = static_cast<double>(cols * cell_size);
    const double grid_h = static_cast<double>(rows * cell_size);
    const double legend_y = top + grid_h + 20;
    // Rotated column labels reach to the right of their column by cos(60 deg) of their length.
    const double width
        = std::max(left + grid_w + 20 + char_width * static_cast<double>(col_chars) * 0.5, 620.0);
    const double height = legend_y + 44;

    std::ostringstream o;
    o << header(width, height);
    o << "<text x=\"8\" y=\"18\" font-size=\"14\" font-weight=\"bold\">" << xml_escape(map.title)
      << "</text>\n";
    for (std::size_t c = 0; c < cols; ++c) {
        const double x = left + static_cast<double>(c * cell_size) + cell_size / 2.0;
        const double y = top - 6;
        o << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" transform=\"rotate(-60 " << num(x)
          << " " << num(y) << ")\">" << xml_escape(shorten(map.column_labels[c], 40))
          << "</text>\n";
    }
    for (std::size_t r = 0; r < rows; ++r) {
        const double y = top + static_cast<double>(r * cell_size);
        o << "<text x=\"" << num(left - 6) << "\" y=\"" << num(y + cell_size / 2.0 + 4)
          << "\" text-anchor=\"end\">" << xml_escape(shorten(map.row_labels[r], 70)) << "</text>\n";
        for (std::size_t c = 0; c < cols; ++c) {
            const HeatCell& cell = map.cells[r][c];
            const double x = left + static_cast<double>(c * cell_size);
            std::string fill = missing_colour;
            if (cell.kind == HeatCell::Kind::value) fill = heat_colour(cell.value);
            if (cell.kind == HeatCell::Kind::resolution) fill = resolution_colour;
            o << "<rect class=\"cell\" x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\""
              << cell_size << "\" height=\"" << cell_size << "\" fill=\"" << fill
              << "\" stroke=\"#bbbbbb\" stroke-width=\"0.5\">";
            if (!cell.tooltip.empty()) o << "<title>" << xml_escape(cell.tooltip) << "</title>";
            o << "</rect>\n";
            if (!cell.text.empty() && cell.text.size() <= 3) {
                const bool dark = cell.kind == HeatCell::Kind::value && cell.value > 0.6;
                o << "<text x=\"" << num(x + cell_size / 2.0) << "\" y=\""
                  << num(y + cell_size / 2.0 + 3.5) << "\" text-anchor=\"middle\" font-size=\"9\""
                  << (dark ? " fill=\"#ffffff\"" : "") << ">" << xml_escape(cell.text)
                  << "</text>\n";
            }
        }
    }

    // Legend: the colour scale, then the two special kinds of cell.
    o << "<text class=\"legend\" x=\"8\" y=\"" << num(legend_y + 12) << "\">"
      << xml_escape(map.value_label) << ":</text>\n";
    double x = 8 + char_width * static_cast<double>(map.value_label.size() + 2);
    for (int i = 0; i <= 4; ++i) {
        const double v = i / 4.0;
        o << "<rect class=\"legend\" x=\"" << num(x) << "\" y=\"" << num(legend_y)
          << "\" width=\"16\" "
          << "height=\"16\" fill=\"" << heat_colour(v) << "\" stroke=\"#bbbbbb\"/>";
        o << "<text class=\"legend\" x=\"" << num(x + 20) << "\" y=\"" << num(legend_y + 12)
          << "\">" << fmt("%.2f", v) << "</text>\n";
        x += 56;
    }
    const double y2 = legend_y + 22;
    o << "<rect class=\"legend\" x=\"8\" y=\"" << num(y2) << "\" width=\"16\" height=\"16\" fill=\""
      << resolution_colour << "\" stroke=\"#bbbbbb\"/><text class=\"legend\" x=\"28\" y=\""
      << num(y2 + 12) << "\">expected (reads beyond the resolution)</text>\n";
    o << "<rect class=\"legend\" x=\"280\" y=\"" << num(y2)
      << "\" width=\"16\" height=\"16\" fill=\"" << missing_colour
      << "\" stroke=\"#bbbbbb\"/><text class=\"legend\" x=\"300\" y=\"" << num(y2 + 12)
      << "\">not run</text>\n";
    o << "</svg>\n";
    return o.str();
}

std::vector<int> histogram_counts(const std::vector<double>& values, int bins)
{
    if (bins < 1) throw std::invalid_argument("histogram_counts: bins < 1");
    std::vector<int> counts(static_cast<std::size_t>(bins), 0);
    for (double v : values) {
        const double clamped = std::min(1.0, std::max(0.0, v));
        const int b = std::min(bins - 1, static_cast<int>(clamped * bins));
        ++counts[static_cast<std::size_t>(b)];
    }
    return counts;
}

std::string histogram_svg(const Histogram& h)
{
    if (h.bins < 1) throw std::invalid_argument("histogram_svg: bins < 1");
    const std::vector<int> counts = histogram_counts(h.values, h.bins);
    const double expected = static_cast<double>(h.values.size()) / h.bins;
    const double top_count = std::max(1.0,
        std::max(expected, static_cast<double>(*std::max_element(counts.begin(), counts.end()))));
    const double x0 = 50, x1 = 350, y0 = 36, y1 = 206, width = 370, height = 250;
    const double bar_w = (x1 - x0) / h.bins;
    auto y_of = [&](double c) { return y1 - (y1 - y0) * c / (top_count * 1.1); };

    std::ostringstream o;
    o << header(width, height);
    o << "<text x=\"8\" y=\"16\" font-size=\"12\" font-weight=\"bold\">"
      << xml_escape(shorten(h.title, 58)) << "</text>\n";
    for (int b = 0; b < h.bins; ++b) {
        const double c = counts[static_cast<std::size_t>(b)];
        const double x = x0 + b * bar_w;
        o << "<rect class=\"bar\" x=\"" << num(x + 1) << "\" y=\"" << num(y_of(c)) << "\" width=\""
          << num(bar_w - 2) << "\" height=\"" << num(y1 - y_of(c)) << "\" fill=\"#4393c3\">"
          << "<title>" << c << " in [" << fmt("%.3g", static_cast<double>(b) / h.bins) << ", "
          << fmt("%.3g", static_cast<double>(b + 1) / h.bins) << ")</title></rect>\n";
    }
    o << "<line x1=\"" << num(x0) << "\" y1=\"" << num(y_of(expected)) << "\" x2=\"" << num(x1)
      << "\" y2=\"" << num(y_of(expected)) << "\" stroke=\"#b2182b\" stroke-dasharray=\"5,3\"/>\n";
    o << "<text x=\"" << num(x1) << "\" y=\"" << num(y_of(expected) - 4)
      << "\" text-anchor=\"end\" fill=\"#b2182b\">uniform</text>\n";
    o << "<line x1=\"" << num(x0) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x1) << "\" y2=\""
      << num(y1) << "\" stroke=\"#000000\"/>\n";
    o << "<line x1=\"" << num(x0) << "\" y1=\"" << num(y0) << "\" x2=\"" << num(x0) << "\" y2=\""
      << num(y1) << "\" stroke=\"#000000\"/>\n";
    for (double t : { 0.0, 0.5, 1.0 })
        o << "<text x=\"" << num(x0 + t * (x1 - x0)) << "\" y=\"" << num(y1 + 14)
          << "\" text-anchor=\"middle\">" << fmt("%.1f", t) << "</text>\n";
    o << "<text x=\"" << num((x0 + x1) / 2) << "\" y=\"" << num(y1 + 30)
      << "\" text-anchor=\"middle\">" << xml_escape(h.x_label) << "</text>\n";
    o << "<text x=\"" << num(x0 - 6) << "\" y=\"" << num(y1 + 4)
      << "\" text-anchor=\"end\">0</text>\n";
    o << "<text x=\"" << num(x0 - 6) << "\" y=\"" << num(y_of(top_count) + 4)
      << "\" text-anchor=\"end\">" << static_cast<long>(std::lround(top_count)) << "</text>\n";
    o << "<text x=\"14\" y=\"" << num((y0 + y1) / 2) << "\" transform=\"rotate(-90 14 "
      << num((y0 + y1) / 2) << ")\" text-anchor=\"middle\">" << xml_escape(h.y_label)
      << "</text>\n";
    o << "</svg>\n";
    return o.str();
}

} // namespace rngvet

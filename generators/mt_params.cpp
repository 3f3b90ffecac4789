#include "mt_params.hpp"

#include "error.hpp"
#include "gf2poly.hpp"
#include "input_file.hpp"
#include "sha256.hpp"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace rngvet {

namespace {

// The built-in parameter files, byte for byte (generated from params/; README.md there).
const unsigned char fixstars_mt521_bytes[] = {
#include "mt521_fixstars32.txt.inc"
};
const unsigned char nvidia_sdk_mt607_bytes[] = {
#include "MersenneTwister.dat.inc"
};

template <std::size_t N> std::string bytes_of(const unsigned char (&bytes)[N])
{
    return std::string(reinterpret_cast<const char*>(bytes), N);
}

[[noreturn]] void fail(const std::string& source, const std::string& what)
{
    throw InputError(source + ": " + what);
}

[[noreturn]] void fail_at(const std::string& source, int line, const std::string& what)
{
    throw InputError(source + ":" + std::to_string(line) + ": " + what);
}

std::uint32_t load_le32(const std::string& bytes, std::size_t at)
{
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) {
        v = (v << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
    }
    return v;
}

std::vector<std::string> split_whitespace(const std::string& s)
{
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string token; in >> token;)
        out.push_back(token);
    return out;
}

// Parses all of `token` as an unsigned number in `base` (16 allows a 0x prefix) that is
// at most `max`; false when it is not one.
bool parse_unsigned(std::string token, int base, std::uint64_t max, std::uint64_t& out)
{
    if (base == 16 && token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) {
        token = token.substr(2);
    }
    if (token.empty() || token.size() > 20) return false;
    std::uint64_t v = 0;
    for (char ch : token) {
        int digit;
        if (ch >= '0' && ch <= '9') {
            digit = ch - '0';
        } else if (base == 16 && std::isxdigit(static_cast<unsigned char>(ch))) {
            digit = std::tolower(static_cast<unsigned char>(ch)) - 'a' + 10;
        } else {
            return false;
        }
        v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(digit);
        if (v > max) return false;
    }
    out = v;
    return true;
}

// Layout keys a text header may state; masks are hex, the rest decimal.
bool is_layout_key(const std::string& key)
{
    static const char* const keys[] = { "p", "ww", "mm", "nn", "rr", "wmask", "umask", "lmask",
        "shift0", "shift1", "shiftB", "shiftC" };
    for (const char* k : keys) {
        if (key == k) return true;
    }
    return false;
}

bool is_mask_key(const std::string& key)
{
    return key.size() == 5 && key.substr(1) == "mask";
}

// The layout values collected from a text file's header.
struct Header {
    std::map<std::string, std::uint64_t> values;
    std::map<std::string, int> line_of;
    std::map<std::string, std::string> provenance; // creator, dc_seed (header line only)

    // Records key=value; `from_comment` tokens are only read for layout keys and may carry
    // punctuation around them, as in "(w=32, p=521).".
    void add_token(std::string token, bool from_comment, const std::string& source, int line)
    {
        if (from_comment) {
            while (!token.empty() && token.front() == '(')
                token.erase(token.begin());
            while (!token.empty() && std::strchr(",.;:)", token.back()))
                token.pop_back();
        }
        const std::size_t eq = token.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == token.size()) {
            if (from_comment) return;
            fail_at(source, line, "malformed header token '" + token + "' (expected key=value)");
        }
        std::string key = token.substr(0, eq);
        if (key == "w") key = "ww";
        if (!from_comment && (key == "creator" || key == "dc_seed")) {
            provenance[key] = token.substr(eq + 1);
            return;
        }
        if (!is_layout_key(key)) return;
        std::uint64_t v = 0;
        if (!parse_unsigned(token.substr(eq + 1), is_mask_key(key) ? 16 : 10, 0xFFFFFFFFull, v)) {
            if (from_comment) return;
            fail_at(source, line, "bad value in header token '" + token + "'");
        }
        const auto it = values.find(key);
        if (it != values.end() && it->second != v) {
            fail_at(
                source, line, "'" + token + "' contradicts line " + std::to_string(line_of[key]));
        }
        values[key] = v;
        line_of[key] = line;
    }

    // Checks every stated layout value against DC's layout for p.
    void check_layout(const MtParams& derived, const std::string& source) const
    {
        const std::map<std::string, std::uint64_t> expected
            = { { "ww", 32 }, { "mm", static_cast<std::uint64_t>(derived.mm) },
                  { "nn", static_cast<std::uint64_t>(derived.nn) },
                  { "rr", static_cast<std::uint64_t>(derived.rr) }, { "wmask", derived.wmask },
                  { "umask", derived.umask }, { "lmask", derived.lmask },
                  { "shift0", static_cast<std::uint64_t>(derived.shift0) },
                  { "shift1", static_cast<std::uint64_t>(derived.shift1) },
                  { "shiftB", static_cast<std::uint64_t>(derived.shiftB) },
                  { "shiftC", static_cast<std::uint64_t>(derived.shiftC) } };
        for (const auto& [key, want] : expected) {
            const auto it = values.find(key);
            if (it == values.end() || it->second == want) continue;
            if (key == "ww") {
                fail_at(source, line_of.at(key),
                    "w=" + std::to_string(it->second) + " is not supported (only w=32)");
            }
            fail_at(source, line_of.at(key),
                key + "=" + std::to_string(it->second) + " does not match DC's layout for p="
                    + std::to_string(values.at("p")) + " (expected " + std::to_string(want) + ")");
        }
    }
};

std::string format_hex32(std::uint32_t v)
{
    char buf[9];
    std::snprintf(buf, sizeof buf, "%08x", v);
    return buf;
}

bool ends_with_dat(const std::string& path)
{
    if (path.size() < 4) return false;
    std::string ext = path.substr(path.size() - 4);
    for (char& ch : ext)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return ext == ".dat";
}

} // namespace

MtParamSet parse_sdk_dat(const std::string& bytes, const std::string& source)
{
    if (bytes.empty()) fail(source, "empty file, no parameter records");
    if (bytes.size() % 16 != 0) {
        fail(source,
            "size " + std::to_string(bytes.size())
                + " bytes is not a multiple of 16 (truncated? SDK records are 4 "
                  "little-endian uint32)");
    }
    MtParamSet out;
    out.source = source;
    out.p = sdk_dat_p;
    out.sha256 = sha256_hex(bytes);
    const std::size_t records = bytes.size() / 16;
    for (std::size_t i = 0; i < records; ++i) {
        const std::uint32_t aaa = load_le32(bytes, 16 * i);
        const std::uint32_t mask_b = load_le32(bytes, 16 * i + 4);
        const std::uint32_t mask_c = load_le32(bytes, 16 * i + 8);
        out.sets.push_back(mt_params_for(sdk_dat_p, aaa, mask_b, mask_c));
        out.ids.push_back(static_cast<std::uint32_t>(i));
    }
    return out;
}

MtParamSet parse_param_text(const std::string& text, const std::string& source)
{
    Header header;
    struct Row {
        std::uint32_t id, aaa, mask_b, mask_c;
    };
    std::vector<Row> rows;
    std::istringstream in(text);
    int line_no = 0;
    for (std::string line; std::getline(in, line);) {
        ++line_no;
        const std::size_t hash = line.find('#');
        const std::string body = line.substr(0, hash);
        const std::vector<std::string> tokens = split_whitespace(body);
        if (tokens.empty()) {
            if (hash != std::string::npos && rows.empty()) {
                for (const auto& t : split_whitespace(line.substr(hash + 1))) {
                    header.add_token(t, true, source, line_no);
                }
            }
            continue;
        }
        if (tokens[0].find('=') != std::string::npos) {
            if (!rows.empty())
                fail_at(source, line_no, "header line after the first parameter set");
            for (const auto& t : tokens)
                header.add_token(t, false, source, line_no);
            continue;
        }
        std::uint64_t v[4];
        const bool ok = tokens.size() == 4 && parse_unsigned(tokens[0], 10, 0xFFFFFFFFull, v[0])
            && parse_unsigned(tokens[1], 16, 0xFFFFFFFFull, v[1])
            && parse_unsigned(tokens[2], 16, 0xFFFFFFFFull, v[2])
            && parse_unsigned(tokens[3], 16, 0xFFFFFFFFull, v[3]);
        if (!ok) {
            fail_at(source, line_no,
                "malformed parameter line '" + body
                    + "' (expected: id aaa maskB maskC, id decimal, the rest hex)");
        }
        rows.push_back({ static_cast<std::uint32_t>(v[0]), static_cast<std::uint32_t>(v[1]),
            static_cast<std::uint32_t>(v[2]), static_cast<std::uint32_t>(v[3]) });
    }
    const auto p_it = header.values.find("p");
    if (p_it == header.values.end())
        fail(source, "no p=<exponent> in the header (e.g. 'p=521 w=32')");
    const int p = static_cast<int>(p_it->second);
    if (!is_mersenne_exponent(p) || p < 32 || p / 32 + 1 > mt_max_nn) {
        fail_at(source, header.line_of.at("p"),
            "p=" + std::to_string(p) + " is not a supported Mersenne exponent (521 .. 44497)");
    }
    header.check_layout(mt_params_for(p, 0, 0, 0), source);
    if (rows.empty()) fail(source, "no parameter sets");

    MtParamSet out;
    out.source = source;
    out.p = p;
    out.sha256 = sha256_hex(text);
    if (header.provenance.count("creator")) out.creator = header.provenance["creator"];
    if (header.provenance.count("dc_seed")) out.dc_seed = header.provenance["dc_seed"];
    for (const Row& r : rows) {
        out.sets.push_back(mt_params_for(p, r.aaa, r.mask_b, r.mask_c));
        out.ids.push_back(r.id);
    }
    return out;
}

MtParamSet load_param_file(const std::string& path)
{
    const std::string bytes = read_input_file(path, "parameter file");
    const bool binary = ends_with_dat(path) || bytes.find('\0') != std::string::npos;
    return binary ? parse_sdk_dat(bytes, path) : parse_param_text(bytes, path);
}

const Words& builtin_param_set_words()
{
    static const Words words = {
        { "fixstars-mt521", "the OpenCL book's 32 MT521 sets" },
        { "nvidia-sdk-mt607", "the NVIDIA CUDA SDK's 4096 MT607 sets" },
    };
    return words;
}

std::vector<std::string> builtin_param_set_names()
{
    std::vector<std::string> names;
    for (const Word& w : builtin_param_set_words())
        names.emplace_back(w.form);
    return names;
}

MtParamSet builtin_param_set(const std::string& name)
{
    if (name == "fixstars-mt521") return parse_param_text(bytes_of(fixstars_mt521_bytes), name);
    if (name == "nvidia-sdk-mt607") return parse_sdk_dat(bytes_of(nvidia_sdk_mt607_bytes), name);
    throw InputError("unknown built-in parameter set '" + name
        + "' (known: " + word_list(builtin_param_set_words()) + ")");
}

MtParamSet load_param_set(const std::string& name_or_path)
{
    for (const auto& name : builtin_param_set_names()) {
        if (name == name_or_path) return builtin_param_set(name);
    }
    return load_param_file(name_or_path);
}

std::string format_param_text(const MtParamSet& set, const std::vector<std::string>& comments,
    const std::string& extra_header, const std::vector<std::string>& set_comments)
{
    std::ostringstream out;
    for (const auto& c : comments)
        out << "# " << c << "\n";
    out << "p=" << set.p << " w=32";
    if (!extra_header.empty()) out << " " << extra_header;
    out << "\n";
    for (std::size_t i = 0; i < set.sets.size(); ++i) {
        const MtParams& prm = set.sets[i];
        out << set.ids[i] << " " << format_hex32(prm.aaa) << " " << format_hex32(prm.maskB) << " "
            << format_hex32(prm.maskC);
        if (i < set_comments.size() && !set_comments[i].empty()) out << "  # " << set_comments[i];
        out << "\n";
    }
    return out.str();
}

} // namespace rngvet

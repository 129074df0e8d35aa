// The fast YAML reader (cli/scenario/src/loader_doc_fast.cpp) against yaml-cpp, node by node:
// for every text it accepts, its tree must be the one yaml-cpp builds (kinds, scalar bytes,
// plain, quoted or tagged, the line and column of every node and key). The texts: every YAML
// file of the repository, the swarm generator's scenarios, hand-written edge cases, and
// systematic mutations of all of these. Then the loader's results and error messages, with the
// fast reader on and off, byte for byte.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "harness_test_util.h"
#include "loader_doc.h"
#include "loader_yaml.h"
#include "scenario/loader.h"
#include "scenario/writer.h"
#include "swarm/generate.h"

namespace yaml_reader_test {

namespace fs = std::filesystem;
using fx::harness::detail::Doc;

// ---- comparing trees ---------------------------------------------------------------------------

const char* kind_name(Doc::Kind k) {
    switch (k) {
    case Doc::Kind::kNull:
        return "null";
    case Doc::Kind::kScalar:
        return "scalar";
    case Doc::Kind::kSequence:
        return "sequence";
    case Doc::Kind::kMap:
        return "mapping";
    }
    return "?";
}

std::string mark_text(int line, int column) {
    return std::to_string(line) + ":" + std::to_string(column);
}

/// The first difference between a Doc's node and yaml-cpp's (YAML::LoadAll), or "". Marks are
/// compared for every node but nulls (the loader reports a null at its key).
std::string diff_yaml(const Doc& d, uint32_t id, const YAML::Node& y, const std::string& at) {
    const Doc::Node& n = d.nodes[id];
    const Doc::Kind yk = y.IsNull()       ? Doc::Kind::kNull
                         : y.IsScalar()   ? Doc::Kind::kScalar
                         : y.IsSequence() ? Doc::Kind::kSequence
                                          : Doc::Kind::kMap;
    if (!y.IsDefined()) return at + ": yaml-cpp's node is undefined";
    if (n.kind != yk) return at + ": " + kind_name(n.kind) + " against yaml-cpp's " + kind_name(yk);
    if (n.kind == Doc::Kind::kNull) return "";
    if (n.line != y.Mark().line || n.column != y.Mark().column)
        return at + ": at " + mark_text(n.line, n.column) + " against yaml-cpp's " +
               mark_text(y.Mark().line, y.Mark().column);
    if (n.kind == Doc::Kind::kScalar) {
        if (n.text != y.Scalar()) return at + ": '" + n.text + "' against '" + y.Scalar() + "'";
        const Doc::Style ys = y.Tag() == "?"   ? Doc::Style::kPlain
                              : y.Tag() == "!" ? Doc::Style::kQuoted
                                               : Doc::Style::kTagged;
        if (n.style != ys) return at + ": style differs (yaml-cpp's tag '" + y.Tag() + "')";
        return "";
    }
    if (n.count != y.size())
        return at + ": " + std::to_string(n.count) + " children against " +
               std::to_string(y.size());
    size_t i = 0;
    for (auto it = y.begin(); it != y.end(); ++it, ++i) {
        std::string r;
        if (n.kind == Doc::Kind::kSequence) {
            r = diff_yaml(d, d.kids[n.first + i], *it, at + "[" + std::to_string(i) + "]");
        } else {
            r = diff_yaml(d, d.kids[n.first + 2 * i], it->first, at + ".key" + std::to_string(i));
            if (r.empty())
                r = diff_yaml(d, d.kids[n.first + 2 * i + 1], it->second,
                              at + ".value" + std::to_string(i));
        }
        if (!r.empty()) return r;
    }
    return "";
}

/// The first difference between two Docs' nodes, or "" (marks of nulls not compared).
std::string diff_docs(const Doc& a, uint32_t ia, const Doc& b, uint32_t ib, const std::string& at) {
    const Doc::Node& x = a.nodes[ia];
    const Doc::Node& y = b.nodes[ib];
    if (x.kind != y.kind) return at + ": " + kind_name(x.kind) + " against " + kind_name(y.kind);
    if (x.kind == Doc::Kind::kNull) return "";
    if (x.line != y.line || x.column != y.column)
        return at + ": at " + mark_text(x.line, x.column) + " against " +
               mark_text(y.line, y.column);
    if (x.kind == Doc::Kind::kScalar)
        return x.text == y.text && x.style == y.style
                   ? ""
                   : at + ": '" + x.text + "' against '" + y.text + "'";
    if (x.count != y.count) return at + ": sizes differ";
    const uint32_t kids = x.kind == Doc::Kind::kMap ? 2 * x.count : x.count;
    for (uint32_t k = 0; k < kids; ++k) {
        const std::string r =
            diff_docs(a, a.kids[x.first + k], b, b.kids[y.first + k], at + "/" + std::to_string(k));
        if (!r.empty()) return r;
    }
    return "";
}

struct Tally {
    int accepted = 0;
    int declined = 0;
    std::vector<std::string> failures; ///< text, then what differs
};

/// Reads `text` both ways. Declined: nothing to compare. Accepted: yaml-cpp must accept it too
/// (its walk first: that is what makes YAML::LoadAll safe from jbeder/yaml-cpp issue 1040), with
/// the same tree, as the Doc its events build and as YAML::LoadAll's nodes.
void check_text(const std::string& text, Tally* tally) {
    Doc fast;
    if (!fx::harness::detail::read_fast(fx::harness::detail::yaml_input(text), &fast)) {
        ++tally->declined;
        return;
    }
    ++tally->accepted;
    auto failed = [&](const std::string& what) {
        std::string shown; // carriage returns shown
        for (const char c : text)
            shown += c == '\r' ? std::string("\\r") : std::string(1, c);
        tally->failures.push_back("----- text:\n" + shown + "\n----- " + what);
    };
    Doc slow;
    try {
        fx::harness::detail::read_with_yaml_cpp("t.yaml", text, &slow);
    } catch (const fx::harness::detail::Failure& f) {
        return failed("the fast reader accepted what yaml-cpp refuses: " + f.error.to_string());
    }
    if (slow.documents != 1 || fast.documents != 1)
        return failed("documents: " + std::to_string(slow.documents));
    if (std::string d = diff_docs(fast, fast.root, slow, slow.root, "root"); !d.empty())
        return failed("against yaml-cpp's events: " + d);
    const std::vector<YAML::Node> docs = YAML::LoadAll(fx::harness::detail::yaml_input(text));
    if (docs.size() != 1) return failed("YAML::LoadAll: " + std::to_string(docs.size()));
    if (std::string d = diff_yaml(fast, fast.root, docs[0], "root"); !d.empty())
        return failed("against YAML::LoadAll: " + d);
}

void report(const Tally& t) {
    for (size_t i = 0; i < std::min<size_t>(t.failures.size(), 3); ++i)
        UNSCOPED_INFO(t.failures[i]);
    INFO("accepted " << t.accepted << ", declined " << t.declined << ", failures "
                     << t.failures.size());
    CHECK(t.failures.empty());
}

// ---- the texts ---------------------------------------------------------------------------------

fs::path repo_root() {
    return fs::path(FX_SCENARIOS_DIR).parent_path();
}

/// Every .yaml and .yml file under scenarios/ and tests/, in path order.
std::vector<fs::path> yaml_files() {
    std::vector<fs::path> out;
    for (const char* dir : {"scenarios", "tests"}) {
        for (const auto& e : fs::recursive_directory_iterator(repo_root() / dir)) {
            const std::string ext = e.path().extension().string();
            if (e.is_regular_file() && (ext == ".yaml" || ext == ".yml")) out.push_back(e.path());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> swarm_texts(int runs) {
    std::vector<std::string> out;
    for (int i = 0; i < runs; ++i) {
        fx::harness::swarm::GeneratedRun run;
        std::string error;
        REQUIRE(fx::harness::swarm::generate_run(11, i, fx::harness::swarm::kAllFeatures, false,
                                                 &run, &error));
        out.push_back(run.yaml);
    }
    return out;
}

/// The first `lines` lines of a text (the mutations' subject: small texts keep yaml-cpp fast).
std::string head(const std::string& text, int lines) {
    size_t at = 0;
    for (int i = 0; i < lines && at < text.size(); ++i) {
        const size_t nl = text.find('\n', at);
        at = nl == std::string::npos ? text.size() : nl + 1;
    }
    return text.substr(0, at);
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
/// the mutations are the same on every run and every machine.
struct Rng {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15u);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        return z ^ (z >> 31);
    }
    size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }
};

/// What a mutation inserts: YAML's indicators, blanks, breaks, escapes, non-ASCII text.
const std::vector<std::string> kInserts = {
    " ",     "  ",     "\n",    "\n  ", ":",   ": ",     "-",       "- ",         "#",       " #",
    "\"",    "'",      "''",    "\\",   "\\n", "\\x",    "\\u00e9", "[",          "]",       "{",
    "}",     ",",      ", ",    "\t",   "&a ", "*a",     "!t ",     "!",          "|",       ">",
    "|-\n",  ">+\n  ", "? ",    "?",    "%",   "@",      "`",       "~",          "null",    "Null",
    "---\n", "...\n",  "--- ",  "\r\n", "é",   "€",      "x",       "0",          ".",       "-1",
    "\n- ",  "\n  - ", "\n   ", "[]",   "{}",  "{a: 1}", "[1, 2]",  "\"a\\\"b\"", "'it''s'",
};

/// One mutation of `text` at a random place: delete, insert, duplicate or replace bytes, or
/// change a line's indentation.
std::string mutate(const std::string& text, Rng& rng) {
    std::string t = text;
    const size_t p = rng.below(t.size() + 1);
    switch (rng.below(6)) {
    case 0: // delete one to three bytes
        t.erase(std::min(p, t.size()), 1 + rng.below(3));
        break;
    case 1: // insert
    case 2:
        t.insert(p, kInserts[rng.below(kInserts.size())]);
        break;
    case 3: // duplicate a span
        if (p < t.size()) t.insert(p, t.substr(p, 1 + rng.below(8)));
        break;
    case 4: // replace a byte
        if (p < t.size()) t.replace(p, 1, kInserts[rng.below(kInserts.size())]);
        break;
    default: { // indent or unindent a line
        const size_t ls = t.rfind('\n', p == 0 ? 0 : p - 1);
        const size_t at = ls == std::string::npos || p == 0 ? 0 : ls + 1;
        if (rng.below(2) == 0)
            t.insert(at, std::string(1 + rng.below(3), ' '));
        else if (at < t.size() && t[at] == ' ')
            t.erase(at, 1);
        break;
    }
    }
    return t;
}

/// Random texts in and around the subset (block mappings and sequences at random indentation,
/// flows over several lines, every block scalar header, multi-line quoted and plain scalars,
/// comments and blank lines), for the structures the repository's files seldom hold.
struct Generator {
    Rng rng;

    std::string scalar() {
        static const std::vector<std::string> v = {
            "1",           "-2.5",        "abc",        "a b",    "x#y",
            "x #c",        "~",           "null",       "'q'",    "'it''s'",
            "\"d\\n\\t\"", "\"\\u00e9\"", "é",          "a:b",    "-x",
            ".5",          "\"m\n  l\"",  "'m\n\n  l'", "a\n  b", "\"e \\\n  n\"",
            "x  ",         "(p)",         "a,b",        "a]b",    "\"\"",
            "''"};
        return v[rng.below(v.size())];
    }
    std::string flow(int depth) {
        if (depth > 2 || rng.below(3) == 0) return scalar();
        const bool map = rng.below(2) == 0;
        std::string s = map ? "{" : "[";
        const size_t n = rng.below(4);
        for (size_t i = 0; i < n; ++i) {
            if (i > 0) s += rng.below(4) == 0 ? ",\n  " : ", ";
            if (map)
                s += (rng.below(2) == 0 ? "k" : "'k'") + std::to_string(i) +
                     (rng.below(5) == 0 ? " :" : ":") + (rng.below(6) == 0 ? "\n " : " ");
            s += flow(depth + 1);
        }
        return s + (rng.below(8) == 0 ? "\n" : "") + (map ? "}" : "]");
    }
    std::string block_scalar(int indent) {
        static const std::vector<std::string> headers = {"|",  ">",  "|-",  ">-",  "|+",
                                                         ">+", "|2", ">1-", "|+1", "| # c"};
        std::string s = headers[rng.below(headers.size())] + "\n";
        for (size_t i = 0, n = rng.below(6); i < n; ++i) {
            switch (rng.below(4)) {
            case 0:
                s += "\n";
                break;
            case 1:
                s += std::string(indent + 2 + rng.below(3), ' ') + "more\n";
                break;
            case 2:
                s += std::string(rng.below(3), ' ') + "\n";
                break;
            default:
                s += std::string(indent + 2, ' ') + "text\n";
                break;
            }
        }
        return s;
    }
    void block(std::string& out, int indent, int depth) {
        const bool seq = depth > 0 && rng.below(3) == 0;
        for (size_t i = 0, n = 1 + rng.below(4); i < n; ++i) {
            const std::string pad(indent, ' ');
            if (rng.below(8) == 0) out += pad + "# comment\n";
            if (rng.below(10) == 0) out += "\n";
            out += pad + (seq ? "- " : "k" + std::to_string(i) + ": ");
            if (seq && rng.below(3) == 0) out += "k: ";
            switch (rng.below(7)) {
            case 0:
                out.back() = '\n';
                if (depth < 4)
                    block(out, indent + (seq ? 2 : 1 + static_cast<int>(rng.below(3))), depth + 1);
                break;
            case 1: // a sequence at its key's column
                out.back() = '\n';
                out += pad + "- " + scalar() + "\n" + pad + "- x\n";
                break;
            case 2:
                out += block_scalar(indent);
                break;
            case 3:
                out += flow(0) + "\n";
                break;
            case 4:
                out.back() = '\n';
                break;
            default:
                out += scalar() + (rng.below(6) == 0 ? " # c" : "") + "\n";
                break;
            }
        }
    }
};

// ---- the tests ---------------------------------------------------------------------------------

/// Hand-written texts: each reads to yaml-cpp's tree or declines; `must` ones must be read (the
/// constructs the fast reader claims). They are also the mutations' smallest subjects.
struct Case {
    const char* text;
    bool must;
};
const Case kCases[] = {
    {"a: 1\nb: [1, -2.5, x]\nc: {d: e, 'f': \"g\"}\n", true},
    {"a: |\n  line 1\n\n   more\n  last\n\n\nb: 1\n", true},
    {"a: >\n  folded\n  text\n\n  para\n    indented\n  back\nb: 1\n", true},
    {"a: |-\n  x\n\n", true},
    {"a: |+\n  x\n\n", true},
    {"a: >2-\n    x\n   y\n", true},
    {"a: |\n", true},
    {"a: |\n  x", true},
    {"a: \"multi\n  line\n\n  text \\\n  joined\"\nb: 'it''s\n  folded'\n", true},
    {"a: \"\\x41\\u00e9\\U0001F600\\t\\n\\\\\\\"\\/\\0\\e\\N\\_\\L\\P\"\n", true},
    {"a: \"\\q\"\n", false},
    {"a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: 'null'\ng: nul\n", true},
    {"- a\n", false},
    {"a:\n- 1\n- 2\nb:\n  - x: 1\n    y: 2\n  -\n  - - z\n", false},
    {"a:\n- 1\n- 2\nb:\n  - x: 1\n    y: 2\n  -\n  - z\n", true},
    {"a: [1,\n  2,\n3]\nb: {x: 1,\n  y: [a,\n b]}\n", true},
    {"a: [1\n  , 2]\nb: [x\n  y]\n", true},
    {"a: plain # comment\n  # deeper comment\nb: x#y\nc: 'q' # c\n", true},
    {"a: multi\n  line plain\nb: x\n", true},
    {"a: x\n  b: y\n", false},
    {"---\na: 1\n...\n", true},
    {"--- # c\na: 1\n...\n# end\n", true},
    {"a: 1\n---\nb: 2\n", false},
    {"\"quoted key\": 1\n'k2' : 2\n", true},
    {"a: &x 1\nb: *x\n", false},
    {"a: !t 1\n", false},
    {"? a\n: 1\n", false},
    {"a: 1\n b: 2\n", false},
    {"a:\n  b: 1\n c: 2\n", false},
    {"a: é€😀\n'é': \"€\"\n", true},
    {"a: {b: }\n", false},
    {"a: [1, 2,]\n", false},
    {"a: [1] x\n", false},
    {"a, b: 1\n", true},
    {"a: b: c\n", false},
    {"a: \"open\n", false},
    {"a:\tb\n", false},
    {"a: 1\r\nb: 2\r\n", true},
    {"a: 1\rb: 2\r", false},
    {"a: \"x\r\n  y\"\r\nb:\r\n  - [1,\r\n 2]\r\n", true},
};

TEST_CASE("yaml reader: every YAML file of the repository reads as yaml-cpp reads it") {
    Tally all;
    int scenarios = 0, scenarios_accepted = 0;
    for (const fs::path& p : yaml_files()) {
        const std::string text = fxtest::slurp(p.string());
        const int before = all.accepted;
        check_text(text, &all);
        const bool in_scenarios =
            p.lexically_relative(repo_root()).begin()->string() == "scenarios";
        scenarios += in_scenarios ? 1 : 0;
        scenarios_accepted += in_scenarios && all.accepted > before ? 1 : 0;
    }
    report(all);
    // The fast path is the common one: every bundled scenario but the few written otherwise.
    INFO(scenarios_accepted << " of " << scenarios << " scenarios read by the fast reader");
    CHECK(scenarios_accepted * 100 >= scenarios * 95);
}

TEST_CASE("yaml reader: every YAML file with Windows line breaks reads as yaml-cpp reads it") {
    // A checkout with core.autocrlf: every "\n" a "\r\n". The fast reader takes as many as
    // with "\n" (it reads them without the carriage returns), and yaml-cpp agrees on each.
    Tally lf, crlf;
    for (const fs::path& p : yaml_files()) {
        const std::string text = fxtest::slurp(p.string());
        std::string windows;
        for (const char c : text)
            windows += c == '\n' ? std::string("\r\n") : std::string(1, c);
        check_text(text, &lf);
        check_text(windows, &crlf);
    }
    report(crlf);
    CHECK(crlf.accepted == lf.accepted);
}

TEST_CASE("yaml reader: the swarm's scenarios read as yaml-cpp reads them") {
    Tally t;
    for (const std::string& text : swarm_texts(50))
        check_text(text, &t);
    report(t);
    CHECK(t.declined == 0);
}

TEST_CASE("yaml reader: edge cases read as yaml-cpp reads them, or decline") {
    Tally t;
    for (const Case& c : kCases) {
        const int before = t.accepted;
        check_text(c.text, &t);
        if (c.must) {
            INFO(c.text);
            CHECK(t.accepted > before);
        }
    }
    report(t);
    // Keys up to yaml-cpp's simple key limit (1024 bytes) and past it.
    for (size_t n : {size_t{999}, size_t{1023}, size_t{1024}, size_t{1025}, size_t{1100}})
        check_text(std::string(n, 'k') + ": 1\nb:\n  - " + std::string(n, 'k') + ": 1\n", &t);
    check_text("a:\n  - " + std::string(1030, 'k') + ": 1\n", &t);
    report(t);
}

TEST_CASE("yaml reader: mutated texts read as yaml-cpp reads them, or decline") {
    std::vector<std::string> texts;
    for (const fs::path& p : yaml_files())
        texts.push_back(head(fxtest::slurp(p.string()), 40));
    for (const std::string& s : swarm_texts(20))
        texts.push_back(head(s, 40));
    for (const Case& c : kCases) { // small: many mutations each
        for (int k = 0; k < 5; ++k)
            texts.push_back(c.text);
    }
    Rng rng{20260101};
    Tally t;
    for (const std::string& base : texts) {
        for (int m = 0; m < 8; ++m) {
            std::string text = mutate(base, rng);
            if (m % 2 == 1) text = mutate(text, rng); // and pairs of mutations
            check_text(text, &t);
        }
    }
    report(t);
    CHECK(t.accepted > 500); // the mutations exercise the fast reader, not only its declining
}

TEST_CASE("yaml reader: generated texts read as yaml-cpp reads them, or decline") {
    Generator g{Rng{5}};
    Tally t;
    for (int i = 0; i < 1500; ++i) {
        std::string text;
        g.block(text, 0, 0);
        if (g.rng.below(3) == 0) text.pop_back(); // no final line break
        check_text(text, &t);
        check_text(mutate(text, g.rng), &t);
    }
    report(t);
    CHECK(t.accepted > 1000);
}

TEST_CASE("yaml reader: the loader's results and messages are the same with or without it") {
    // Whole scenario files (their references resolve), mutated: each loads to the same scenario
    // or fails with the same file:line:column message whichever reader ran.
    std::vector<fs::path> files;
    for (const fs::path& p : yaml_files()) {
        if (p.lexically_relative(repo_root()).begin()->string() == "scenarios" &&
            fs::file_size(p) < 6000)
            files.push_back(p);
    }
    REQUIRE(files.size() > 20);
    Rng rng{7};
    int compared = 0, failed_loads = 0;
    for (size_t f = 0; f < files.size(); f += 3) {
        const std::string original = fxtest::slurp(files[f].string());
        for (int m = 0; m < 6; ++m) {
            const std::string text = m == 0 ? original : mutate(original, rng);
            fx::harness::LoadOptions fast, slow;
            fast.root = slow.root = repo_root().string();
            slow.fast_yaml_reader = false;
            fx::harness::Scenario a, b;
            fx::harness::LoadError ea, eb;
            const std::string display = files[f].lexically_relative(repo_root()).generic_string();
            const std::string dir = files[f].parent_path().string();
            const bool ok_a = fx::harness::load_scenario_text(text, display, dir, fast, &a, &ea);
            const bool ok_b = fx::harness::load_scenario_text(text, display, dir, slow, &b, &eb);
            INFO(text);
            REQUIRE(ok_a == ok_b);
            ++compared;
            if (!ok_a) {
                ++failed_loads;
                REQUIRE(ea.to_string() == eb.to_string());
                continue;
            }
            REQUIRE(a.digest == b.digest);
            REQUIRE(a.inputs == b.inputs);
            REQUIRE(fx::harness::scenario_to_yaml(a) == fx::harness::scenario_to_yaml(b));
        }
    }
    INFO(compared << " texts, " << failed_loads << " refused");
    CHECK(failed_loads > 20);
    CHECK(compared - failed_loads > 20);
}

} // namespace yaml_reader_test

// The fast reader of loader_doc.h: one pass over the subset of YAML that scenarios are written
// in, building the tree yaml-cpp 0.7.0 would build, positions included.
//
// The subset: one document (an optional leading `---`, trailing `...` lines), whose root is a
// block mapping at column 0; block mappings and sequences by indentation; flow sequences and
// mappings on one line or several; plain, single- and double-quoted scalars; `|` and `>` block
// scalars; comments. Anything else (anchors, aliases, tags, complex keys, directives, tabs,
// carriage returns, a second document, an empty value in a flow mapping, unusual indentation,
// any syntax error) declines, and yaml-cpp reads the text (parse_document).
//
// Scalars are read by a transcription of yaml-cpp's ScanScalar (src/scanscalar.cpp), its
// folding and chomping included, so that their bytes are yaml-cpp's; the structure around
// them follows yaml-cpp's scanner (src/scanner.cpp, scantoken.cpp) where it differs from the
// YAML specification: a plain scalar continues only on lines indented past its block
// collection's column, or past the column of the mapping yaml-cpp may open at the scalar (a
// sequence entry's text); a key's ':' is at most 1024 bytes after its start; positions count
// bytes from 0. tests/harness/yaml_reader_test.cpp compares its trees with yaml-cpp's.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <utility>
#include <vector>

#include "loader_doc.h"
#include "loader_doc_scan.h"

namespace fx::harness::detail {
namespace fast_yaml {
namespace {

/// Nesting beyond this declines (yaml-cpp's own limit, and its message, is 500 levels).
constexpr int kMaxDepth = 64;
/// A simple key's ':' at most this many bytes after the key's start (yaml-cpp: 1024).
constexpr size_t kMaxKeyBytes = 1000;

bool is_null_text(std::string_view t) { // yaml-cpp's IsNullString
    if (t.size() == 4) return t == "null" || t == "Null" || t == "NULL";
    return t.empty() || t == "~";
}

class FastReader : Cursor {
public:
    FastReader(std::string_view in, Doc* doc) : Cursor(in), doc_(doc) {}

    void read() {
        check_bytes();
        doc_->documents = 1;
        skip_to_content();
        if (col() == 0 && at(0) == '-' && at(1) == '-' && at(2) == '-' && ws_or_eof(at(3))) {
            pos_ += 3; // a leading `---`
            skip_to_content();
        }
        if (content_col() != 0) decline("the document is not a mapping at column 0");
        doc_->root = block_map(0, Doc::kNone);
        while (!eof()) { // only `...` lines (and comments) may follow
            if (!(col() == 0 && at(0) == '.' && at(1) == '.' && at(2) == '.' && ws_or_eof(at(3))))
                decline("a second document");
            pos_ += 3;
            skip_to_content();
        }
    }

private:
    Doc* doc_;
    int depth_ = 0;
    std::vector<uint32_t> pending_; ///< children of the open collections, innermost last

    bool block_entry() const { return at() == '-' && ws_or_eof(at(1)); }
    /// Where a plain scalar may start (a narrower set than yaml-cpp's).
    bool plain_start() const {
        const auto c = static_cast<unsigned char>(at());
        if (c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
            return true;
        if (c == '-') {
            const char d = at(1);
            return (d >= '0' && d <= '9') || d == '.' || (d >= 'a' && d <= 'z') ||
                   (d >= 'A' && d <= 'Z');
        }
        return std::strchr("._/~+$^=<;()\\", static_cast<char>(c)) != nullptr && c != 0;
    }

    /// Tabs, carriage returns (read_fast takes those of "\r\n" out first), control characters
    /// and byte order marks: yaml-cpp treats them in ways this reader does not copy (a tab ends
    /// where a simple key may start, a lone "\r" is a break, the first bytes choose an
    /// encoding).
    void check_bytes() const {
        if (n_ > 0) {
            const auto first = static_cast<unsigned char>(s_[0]);
            if (first == 0xEF || first == 0xFE || first == 0xFF) decline("a byte order mark");
        }
        for (size_t i = 0; i < n_; ++i) {
            const auto c = static_cast<unsigned char>(s_[i]);
            if (c < 0x20 && c != '\n') decline("a tab, carriage return or control character");
        }
    }

    /// Past spaces and a comment, up to the line break or the next character.
    void skip_blanks_and_comment() {
        while (at() == ' ')
            ++pos_;
        if (at() == '#') {
            while (!eof() && at() != '\n')
                ++pos_;
        }
    }

    /// Past spaces, comments and line breaks to the next line's first character; declines
    /// when something other than a comment follows a node on its line.
    void skip_to_content() {
        for (;;) {
            skip_blanks_and_comment();
            if (eof()) return;
            if (at() == '\n') {
                next_line();
                continue;
            }
            for (size_t i = line_start_; i < pos_; ++i) {
                if (s_[i] != ' ') decline("more after a node on its line");
            }
            return;
        }
    }
    /// The column of the content skip_to_content stopped at; -1 at the end of the input or
    /// at a document marker.
    int content_col() const { return eof() || (col() == 0 && doc_indicator()) ? -1 : col(); }

    /// In a flow collection: past spaces, line breaks and comments (yaml-cpp's
    /// ScanToNextToken), declining on a document marker or directive at column 0.
    void skip_flow_space() {
        for (;;) {
            skip_blanks_and_comment();
            if (at() != '\n') break;
            next_line();
            if (doc_indicator() || at() == '%') decline("a document marker inside a flow");
        }
        if (eof()) decline("end of file inside a flow");
    }

    // ---- the tree --------------------------------------------------------------------------
    uint32_t node(Doc::Kind kind, int line, int column) {
        const auto id = static_cast<uint32_t>(doc_->nodes.size());
        Doc::Node& n = doc_->nodes.emplace_back();
        n.kind = kind;
        n.line = line;
        n.column = column;
        return id;
    }
    uint32_t scalar(std::string text, Doc::Style style, int line, int column) {
        const bool null = style == Doc::Style::kPlain && is_null_text(text);
        const uint32_t id = node(null ? Doc::Kind::kNull : Doc::Kind::kScalar, line, column);
        doc_->nodes[id].style = style;
        if (!null) doc_->nodes[id].text = std::move(text);
        return id;
    }
    uint32_t null_node() { return node(Doc::Kind::kNull, line_, col()); }
    void enter() {
        if (++depth_ > kMaxDepth) decline("deep nesting");
    }
    void close(uint32_t id, size_t first) {
        Doc::Node& n = doc_->nodes[id];
        const size_t count = pending_.size() - first;
        n.first = static_cast<uint32_t>(doc_->kids.size());
        n.count = static_cast<uint32_t>(n.kind == Doc::Kind::kMap ? count / 2 : count);
        doc_->kids.insert(doc_->kids.end(), pending_.begin() + static_cast<ptrdiff_t>(first),
                          pending_.end());
        pending_.resize(first);
        --depth_;
    }

    // ---- scalars ---------------------------------------------------------------------------
    /// A plain scalar (ScanPlainScalar): `indent` is the column of the innermost block
    /// collection, or of the potential simple key yaml-cpp opens at the scalar, plus one.
    uint32_t plain(bool flow, int indent) {
        const int line = line_, column = col();
        ScalarParams p;
        p.end = flow ? End::kPlainFlow : End::kPlainBlock;
        p.indent = flow ? 0 : indent;
        p.fold = Fold::kFlow;
        p.eat_leading_ws = true;
        p.trim_trailing = true;
        p.chomp = Chomp::kStrip;
        p.on_doc = OnDoc::kBreak;
        return scalar(scan(p), Doc::Style::kPlain, line, column);
    }
    /// A single- or double-quoted scalar (ScanQuotedScalar), at its quote.
    uint32_t quoted() {
        const int line = line_, column = col();
        const bool single = at() == '\'';
        ++pos_;
        ScalarParams p;
        p.end = single ? End::kSingle : End::kDouble;
        p.eat_end = true;
        p.escape = single ? '\'' : '\\';
        p.fold = Fold::kFlow;
        p.eat_leading_ws = true;
        p.chomp = Chomp::kClip;
        p.on_doc = OnDoc::kThrow;
        return scalar(scan(p), Doc::Style::kQuoted, line, column);
    }
    /// A `|` or `>` block scalar (ScanBlockScalar); `top` is the innermost block collection's
    /// column.
    uint32_t block_scalar(int top) {
        const int line = line_, column = col();
        ScalarParams p;
        p.fold = at() == '>' ? Fold::kBlock : Fold::kNone;
        ++pos_;
        p.indent = 1;
        p.detect_indent = true;
        // Exp::Chomp: an indicator and a digit in either order, or one of them.
        auto indicator = [](char c) { return c == '+' || c == '-'; };
        auto digit = [](char c) { return c >= '0' && c <= '9'; };
        const int n = (indicator(at()) && digit(at(1))) || (digit(at()) && indicator(at(1))) ? 2
                      : indicator(at()) || digit(at())                                       ? 1
                                                                                             : 0;
        for (int i = 0; i < n; ++i) {
            const char c = s_[pos_++];
            if (c == '+') {
                p.chomp = Chomp::kKeep;
            } else if (c == '-') {
                p.chomp = Chomp::kStrip;
            } else {
                if (c == '0') decline("a zero indentation indicator");
                p.indent = c - '0';
                p.detect_indent = false;
            }
        }
        while (at() == ' ')
            ++pos_;
        if (at() == '#') {
            while (!eof() && at() != '\n')
                ++pos_;
        }
        if (!eof() && at() != '\n') decline("more after a block scalar's indicator");
        p.indent += top;
        return scalar(scan(p), Doc::Style::kQuoted, line, column);
    }

    // ---- structure ---------------------------------------------------------------------------
    /// A plain or quoted scalar in block context, and whether it is a simple key (a ':' and a
    /// blank follow on its line): then the cursor is at the ':'.
    uint32_t block_scalar_or_key(int indent, bool* is_key) {
        const size_t start = pos_;
        const int line = line_;
        uint32_t id = 0;
        if (at() == '"' || at() == '\'') {
            id = quoted();
            while (at() == ' ')
                ++pos_;
        } else if (plain_start()) {
            id = plain(false, indent);
        } else {
            decline("not a scalar, flow collection or block scalar");
        }
        *is_key = at() == ':' && ws_or_eof(at(1));
        if (*is_key && (line_ != line || pos_ - start > kMaxKeyBytes))
            decline("a key over several lines or too long for yaml-cpp");
        return id;
    }

    /// A block mapping whose first key starts at column `c0`, that key already read when
    /// `first_key` is set (the cursor then at its ':').
    uint32_t block_map(int c0, uint32_t first_key) {
        enter();
        const uint32_t id =
            first_key == Doc::kNone
                ? node(Doc::Kind::kMap, line_, c0)
                : node(Doc::Kind::kMap, doc_->nodes[first_key].line, doc_->nodes[first_key].column);
        const size_t first = pending_.size();
        uint32_t key = first_key;
        for (;;) {
            if (key == Doc::kNone) {
                bool is_key = false;
                key = block_scalar_or_key(c0 + 1, &is_key);
                if (!is_key) decline("a line in a mapping that is not a key");
            }
            ++pos_; // the ':'
            const uint32_t value = block_value(c0);
            pending_.push_back(key);
            pending_.push_back(value);
            key = Doc::kNone;
            const int c = content_col();
            if (c < c0) break;
            if (c > c0) decline("indentation that matches no open collection");
        }
        close(id, first);
        return id;
    }

    /// A block mapping's value, after its ':'; the cursor ends at the next content.
    uint32_t block_value(int c0) {
        while (at() == ' ')
            ++pos_;
        if (at() == '#' || at() == '\n' || eof()) {
            skip_to_content();
            const int c = content_col();
            if (c > c0) return block_node_on_own_line();
            if (c == c0 && block_entry()) return block_seq(c0);
            return null_node();
        }
        uint32_t id = 0;
        if (at() == '[' || at() == '{') {
            id = flow_collection();
        } else if (at() == '|' || at() == '>') {
            id = block_scalar(c0);
        } else {
            bool is_key = false;
            id = block_scalar_or_key(c0 + 1, &is_key);
            if (is_key) decline("a mapping on its key's line");
        }
        skip_to_content();
        return id;
    }

    /// A block collection starting at the first content of its line.
    uint32_t block_node_on_own_line() {
        if (block_entry()) return block_seq(col());
        return block_map(col(), Doc::kNone);
    }

    /// A block sequence whose first `-` is at column d.
    uint32_t block_seq(int d) {
        enter();
        const uint32_t id = node(Doc::Kind::kSequence, line_, d);
        const size_t first = pending_.size();
        for (;;) {
            ++pos_; // the '-'
            while (at() == ' ')
                ++pos_;
            uint32_t item = 0;
            if (at() == '#' || at() == '\n' || eof()) {
                skip_to_content();
                const int c = content_col();
                item = c > d ? block_node_on_own_line() : null_node();
            } else {
                item = seq_entry(d);
            }
            pending_.push_back(item);
            const int c = content_col();
            if (c == d && block_entry()) continue;
            if (c <= d) break; // the caller decides what the line is
            decline("indentation that matches no open collection");
        }
        close(id, first);
        return id;
    }

    /// A sequence entry's content on the `-` line; the cursor ends at the next content.
    uint32_t seq_entry(int d) {
        const int e = col();
        if (block_entry()) decline("a sequence in a sequence's entry");
        if (at() == '[' || at() == '{') {
            const uint32_t id = flow_collection();
            skip_to_content();
            return id;
        }
        if (at() == '|' || at() == '>') {
            const uint32_t id = block_scalar(d);
            skip_to_content();
            return id;
        }
        bool is_key = false;
        const uint32_t id = block_scalar_or_key(e + 1, &is_key);
        if (is_key) return block_map(e, id); // a compact mapping: `- key: value`
        skip_to_content();
        return id;
    }

    /// `[...]` or `{...}`, on one line or several.
    uint32_t flow_collection() {
        enter();
        const bool is_map = at() == '{';
        const char close_char = is_map ? '}' : ']';
        const uint32_t id = node(is_map ? Doc::Kind::kMap : Doc::Kind::kSequence, line_, col());
        const size_t first = pending_.size();
        ++pos_;
        skip_flow_space();
        if (at() == close_char) {
            ++pos_;
            close(id, first);
            return id;
        }
        for (;;) {
            if (is_map) {
                const size_t start = pos_;
                const int line = line_;
                const bool was_quoted = at() == '"' || at() == '\'';
                if (!was_quoted && !plain_start()) decline("not a key in a flow mapping");
                const uint32_t key = was_quoted ? quoted() : plain(true, 0);
                if (was_quoted) {
                    while (at() == ' ')
                        ++pos_;
                }
                // After a quoted key any ':' is its indicator (yaml-cpp's JSON-like flow).
                if (at() != ':' || line_ != line || pos_ - start > kMaxKeyBytes)
                    decline("a flow mapping's key without ':' on its line");
                if (!was_quoted && !ws_or_eof(at(1))) decline("an empty value in a flow mapping");
                ++pos_;
                skip_flow_space();
                if (at() == ',' || at() == '}') decline("an empty value in a flow mapping");
                pending_.push_back(key);
            }
            pending_.push_back(flow_node());
            skip_flow_space();
            if (at() == close_char) {
                ++pos_;
                break;
            }
            if (at() != ',') decline("neither ',' nor the end of a flow collection");
            ++pos_;
            skip_flow_space();
            if (at() == close_char || at() == ',') decline("an empty entry in a flow collection");
        }
        close(id, first);
        return id;
    }

    uint32_t flow_node() {
        if (at() == '[' || at() == '{') return flow_collection();
        if (at() == '"' || at() == '\'') return quoted();
        if (!plain_start()) decline("not a scalar or collection in a flow");
        return plain(true, 0);
    }
};

} // namespace
} // namespace fast_yaml

namespace {

bool read_lf(std::string_view input, Doc* out, std::string* why) {
    *out = Doc{};
    out->nodes.reserve(input.size() / 4);
    out->kids.reserve(input.size() / 4);
    try {
        fast_yaml::FastReader(input, out).read();
    } catch (const fast_yaml::Decline& d) {
        if (why != nullptr) *why = d.why;
        return false;
    }
    return true;
}

} // namespace

bool read_fast(std::string_view input, Doc* out, std::string* why) {
    // "\r\n" is one line break to yaml-cpp, as "\n" is (scenarios checked out on Windows): a
    // carriage return before a line feed only ever ends a line, so the text without it has the
    // same tree, lines and columns. Any other carriage return is left in, and declines
    // (check_bytes).
    if (input.find("\r\n") == std::string_view::npos) return read_lf(input, out, why);
    std::string lf;
    lf.reserve(input.size());
    for (size_t i = 0; i < input.size(); ++i) {
        if (!(input[i] == '\r' && i + 1 < input.size() && input[i + 1] == '\n')) lf += input[i];
    }
    return read_lf(lf, out, why);
}

} // namespace fx::harness::detail

// Private to the loader: the YAML document as the loader walks it, and the two readers that
// build it (docs/scenarios.md, "How scenarios are read").
//
// The tree holds what the loader can observe of yaml-cpp's nodes and nothing else: each node's
// kind, a scalar's bytes and whether it was plain, quoted or tagged, and its position. A fast
// reader (loader_doc_fast.cpp) builds it in one pass for the subset of YAML that scenarios are
// written in; for any other text, and whenever it is not certain, it declines and yaml-cpp
// reads the text exactly as it always did (loader_doc_yaml.cpp), its events building the same
// tree. tests/harness/yaml_reader_test.cpp compares the two readers node by node.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fx::harness::detail {

struct Doc {
    static constexpr uint32_t kNone = 0xFFFFFFFFu;
    enum class Kind : uint8_t { kNull, kScalar, kSequence, kMap };
    /// A scalar's tag in yaml-cpp's terms: "?" plain, "!" quoted (or the bare tag `!`), any
    /// other tag.
    enum class Style : uint8_t { kPlain, kQuoted, kTagged };
    struct Node {
        Kind kind = Kind::kNull;
        Style style = Style::kPlain;
        /// 0-based line and column (bytes) of the node's start, as yaml-cpp's Mark. Unspecified
        /// for null nodes (the loader reports a null at its key), but for a second document's.
        int line = 0, column = 0;
        /// Children in `kids`: a sequence's items, or a mapping's key and value pairs
        /// (count: items or pairs). A node reached by an alias is shared, never copied.
        uint32_t first = 0, count = 0;
        std::string text; ///< a scalar's bytes, escapes undone
    };
    std::vector<Node> nodes;
    std::vector<uint32_t> kids;
    uint32_t root = kNone; ///< the first document's root; kNone: the text has no document
    int documents = 0;
    int second_line = 0, second_column = 0; ///< the second document's root (0-based)
};

/// A node of a Doc by reference (the Doc outlives it); the default one is nothing (null).
class DocRef {
public:
    DocRef() = default;
    DocRef(const Doc* doc, uint32_t id) : doc_(doc), id_(id) {}

    bool is_null() const { return doc_ == nullptr || node().kind == Doc::Kind::kNull; }
    bool is_scalar() const { return doc_ != nullptr && node().kind == Doc::Kind::kScalar; }
    bool is_sequence() const { return doc_ != nullptr && node().kind == Doc::Kind::kSequence; }
    bool is_map() const { return doc_ != nullptr && node().kind == Doc::Kind::kMap; }
    Doc::Style style() const { return doc_ == nullptr ? Doc::Style::kPlain : node().style; }
    /// A scalar's text; empty for anything else.
    const std::string& scalar() const;
    int line() const { return doc_ == nullptr ? 0 : node().line; }
    int column() const { return doc_ == nullptr ? 0 : node().column; }
    /// Items of a sequence, pairs of a mapping; 0 for anything else.
    size_t size() const { return is_sequence() || is_map() ? node().count : 0; }
    /// A sequence's item i (nothing when out of range).
    DocRef item(size_t i) const;
    /// A mapping's key and value of pair i.
    DocRef key(size_t i) const { return kid(2 * i); }
    DocRef value(size_t i) const { return kid(2 * i + 1); }
    /// A mapping has a scalar key (plain, quoted or tagged) of this text (yaml-cpp's
    /// `node[name]` on a const node).
    bool has_key(std::string_view name) const;

private:
    const Doc* doc_ = nullptr;
    uint32_t id_ = 0;
    const Doc::Node& node() const { return doc_->nodes[id_]; }
    DocRef kid(size_t k) const {
        return DocRef(doc_, doc_->kids[static_cast<size_t>(node().first) + k]);
    }
};

/// What yaml-cpp is given for a scenario's text: an explicit document end marker is appended
/// after a last line break, which changes nothing in a valid document and makes a quoted
/// string left open at the end of the file an error (parse_document).
std::string yaml_input(const std::string& text);

/// The fast reader: fills *out and returns true when `input` (yaml_input's) is in the subset it
/// reads and the tree is the one yaml-cpp would build; false (with *why, the first thing it was
/// not certain about) otherwise, *out then unspecified.
bool read_fast(std::string_view input, Doc* out, std::string* why = nullptr);

/// yaml-cpp's two passes over `text` (a walk that stops on jbeder/yaml-cpp issue 1040, then the
/// documents), its events building *out. Syntax errors fail as "YAML syntax error: ..." at their
/// position in `file` (a thrown Failure).
void read_with_yaml_cpp(const std::string& file, const std::string& text, Doc* out);

/// The scenario's document: the fast reader when `fast` and it accepts the text, else yaml-cpp.
void parse_document(const std::string& file, const std::string& text, bool fast, Doc* out);

} // namespace fx::harness::detail

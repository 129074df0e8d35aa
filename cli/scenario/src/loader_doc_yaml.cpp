// The scenario's document through yaml-cpp (loader_doc.h): the reader of every text the fast
// reader declines, and the one whose messages are the loader's syntax errors.
#include <algorithm>
#include <cstddef>
#include <sstream>
#include <utility>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>
#if __has_include(<yaml-cpp/depthguard.h>)
#include <yaml-cpp/depthguard.h> // YAML::DeepRecursion (yaml-cpp >= 0.7)
#endif

#include "loader_doc.h"
#include "loader_yaml.h"

namespace fx::harness::detail {

const std::string& DocRef::scalar() const {
    static const std::string kEmpty;
    return is_scalar() ? node().text : kEmpty;
}

DocRef DocRef::item(size_t i) const {
    if (!is_sequence() || i >= node().count) return {};
    return kid(i);
}

bool DocRef::has_key(std::string_view name) const {
    if (!is_map()) return false;
    for (size_t i = 0; i < node().count; ++i) {
        const DocRef k = key(i);
        if (k.is_scalar() && k.scalar() == name) return true;
    }
    return false;
}

std::string yaml_input(const std::string& text) {
    return !text.empty() && text.back() == '\n' ? text + "...\n" : text;
}

namespace {

/// Line `line0` (0-based) of the text, without its line break.
std::string_view line_of(std::string_view text, int line0) {
    size_t pos = 0;
    for (int l = 0; l < line0; ++l) {
        pos = text.find('\n', pos);
        if (pos == std::string_view::npos) return {};
        ++pos;
    }
    const size_t end = text.find('\n', pos);
    return text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
}

/// Walks the documents of a YAML text without building them, to find where the reader stops
/// moving. yaml-cpp 0.7.0 reads a ',' outside any flow collection as an empty document without
/// consuming it, so `YAML::LoadAll` loops for ever, allocating (jbeder/yaml-cpp issue 1040,
/// fixed upstream after 0.8.0): a document starting where the previous one started is that loop.
class DocumentWalk : public YAML::EventHandler {
public:
    bool stuck = false;
    YAML::Mark stuck_at;
    void OnDocumentStart(const YAML::Mark& mark) override {
        if (started_ && mark.pos == last_.pos) {
            stuck = true;
            stuck_at = mark;
        }
        started_ = true;
        last_ = mark;
    }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}

private:
    bool started_ = false;
    YAML::Mark last_;
};

/// Builds the Doc from the parser's events as yaml-cpp's NodeBuilder builds its nodes (what
/// YAML::LoadAll returns): an alias is the anchored node itself, shared, never expanded, so an
/// alias bomb costs its text here and is refused by the walk's node budget (Value::spend).
/// Anchors are numbered per document from 1, in the order the parser registers them.
class DocBuilder : public YAML::EventHandler {
public:
    explicit DocBuilder(Doc* doc) : doc_(doc) {}

    void OnDocumentStart(const YAML::Mark&) override {
        ++doc_->documents;
        anchors_.assign(1, Doc::kNone);
    }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        add(make(Doc::Kind::kNull, mark, anchor));
    }
    void OnAlias(const YAML::Mark&, YAML::anchor_t anchor) override { add(anchors_[anchor]); }
    void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  const std::string& value) override {
        const uint32_t id = make(Doc::Kind::kScalar, mark, anchor);
        Doc::Node& n = doc_->nodes[id];
        n.style = tag == "?"   ? Doc::Style::kPlain
                  : tag == "!" ? Doc::Style::kQuoted
                               : Doc::Style::kTagged;
        n.text = value;
        add(id);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override {
        open(make(Doc::Kind::kSequence, mark, anchor));
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override {
        open(make(Doc::Kind::kMap, mark, anchor));
    }
    void OnMapEnd() override { close(); }

private:
    struct Open {
        uint32_t id;
        size_t first; ///< its first child in pending_
    };
    Doc* doc_;
    std::vector<uint32_t> anchors_;
    std::vector<Open> open_;
    std::vector<uint32_t> pending_; ///< children of the open collections, innermost last

    uint32_t make(Doc::Kind kind, const YAML::Mark& mark, YAML::anchor_t anchor) {
        const auto id = static_cast<uint32_t>(doc_->nodes.size());
        Doc::Node& n = doc_->nodes.emplace_back();
        n.kind = kind;
        n.line = mark.line;
        n.column = mark.column;
        if (anchor != YAML::NullAnchor) {
            if (anchors_.size() <= anchor) anchors_.resize(anchor + 1, Doc::kNone);
            anchors_[anchor] = id;
        }
        return id;
    }
    void open(uint32_t id) { open_.push_back({id, pending_.size()}); }
    void close() {
        const Open o = open_.back();
        open_.pop_back();
        Doc::Node& n = doc_->nodes[o.id];
        const size_t count = pending_.size() - o.first;
        n.first = static_cast<uint32_t>(doc_->kids.size());
        n.count = static_cast<uint32_t>(n.kind == Doc::Kind::kMap ? count / 2 : count);
        doc_->kids.insert(doc_->kids.end(), pending_.begin() + static_cast<ptrdiff_t>(o.first),
                          pending_.end());
        pending_.resize(o.first);
        if (open_.empty())
            root(o.id);
        else
            pending_.push_back(o.id);
    }
    void add(uint32_t id) {
        if (open_.empty())
            root(id);
        else
            pending_.push_back(id);
    }
    void root(uint32_t id) {
        if (doc_->documents == 1) doc_->root = id;
        if (doc_->documents == 2) {
            doc_->second_line = doc_->nodes[id].line;
            doc_->second_column = doc_->nodes[id].column;
        }
    }
};

} // namespace

void read_with_yaml_cpp(const std::string& file, const std::string& text, Doc* out) {
    *out = Doc{};
    // yaml-cpp accepts a quoted string left open up to the end of the file when the file ends
    // with a line break (it throws "illegal EOF in scalar" only without one). An explicit
    // document end marker after the last line changes nothing in a valid document and makes
    // that open quote an error, at the end of the file.
    const bool sentinel = !text.empty() && text.back() == '\n';
    const int end_line0 = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    auto fail = [&](const YAML::Mark& mark, std::string message) {
        if (message == YAML::ErrorMsg::EOF_IN_SCALAR ||
            (sentinel && message == YAML::ErrorMsg::DOC_IN_SCALAR && mark.line == end_line0)) {
            message = "end of file inside a quoted string (a closing quote is missing)";
        }
        const std::string_view line = line_of(text, mark.line);
        const std::string_view indent =
            line.substr(0, std::min(line.find_first_not_of(" \t"), line.size()));
        if (indent.find('\t') != std::string_view::npos)
            message += " (a tab in the indentation: YAML indents with spaces)";
        fail_at(file, mark.line + 1, mark.column + 1, "", "YAML syntax error: " + message);
    };
    try {
        const std::string input = yaml_input(text);
        {
            std::istringstream in(input);
            YAML::Parser parser(in);
            DocumentWalk walk;
            while (!walk.stuck && parser.HandleNextDocument(walk)) {
            }
            if (walk.stuck) {
                const char c = static_cast<size_t>(walk.stuck_at.pos) < input.size()
                                   ? input[walk.stuck_at.pos]
                                   : ' ';
                fail(walk.stuck_at,
                     c == ',' ? "unexpected ',' outside a flow sequence [...] or flow mapping {...}"
                              : "unexpected " + shown(std::string_view(&c, 1), 0));
            }
        }
        // What YAML::LoadAll does, with the Doc's builder in place of yaml-cpp's NodeBuilder.
        std::istringstream in(input);
        YAML::Parser parser(in);
        DocBuilder builder(out);
        while (parser.HandleNextDocument(builder)) {
        }
#if __has_include(<yaml-cpp/depthguard.h>)
    } catch (const YAML::DeepRecursion& e) {
        // yaml-cpp's own guard against running out of stack ("bad file" in its words).
        fail(e.mark, "nesting deeper than " + std::to_string(e.depth() - 1) +
                         " levels of sequences and mappings (the YAML reader's limit)");
#endif
    } catch (const YAML::ParserException& e) {
        fail(e.mark, e.msg);
    } catch (const YAML::Exception& e) {
        fail_at(file, e.mark.line + 1, e.mark.column + 1, "", "YAML error: " + e.msg);
    }
}

void parse_document(const std::string& file, const std::string& text, bool fast, Doc* out) {
    if (fast && read_fast(yaml_input(text), out)) return;
    read_with_yaml_cpp(file, text, out);
}

} // namespace fx::harness::detail

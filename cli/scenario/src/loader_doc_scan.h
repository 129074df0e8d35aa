// Private to the fast YAML reader (loader_doc_fast.cpp): its cursor over the text, and the
// scalars read as yaml-cpp 0.7.0 reads them (loader_doc_scan.cpp transcribes its ScanScalar,
// src/scanscalar.cpp, and Exp::Escape, src/exp.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace fx::harness::detail::fast_yaml {

/// Thrown when the reader is not certain to build yaml-cpp's tree; caught by read_fast.
struct Decline {
    const char* why;
};
[[noreturn]] inline void decline(const char* why) {
    throw Decline{why};
}

/// What yaml-cpp's stream reads past the end of its input.
constexpr char kEof = 0x04;

// yaml-cpp's ScanScalarParams, its `end` expressions named.
enum class End {
    kPlainBlock, ///< ScanScalarEnd: ':' and a blank, or a blank and '#'
    kPlainFlow, ///< ScanScalarEndInFlow: also ",?[]{}", and ':' before ",]}"
    kDouble, ///< '"'
    kSingle, ///< '\'' not followed by another
    kEofOnly, ///< block scalars: only the end of the input
};
enum class Fold { kNone, kBlock, kFlow };
enum class Chomp { kStrip, kClip, kKeep };
enum class OnDoc { kNone, kBreak, kThrow }; ///< at a document marker in column 0

struct ScalarParams {
    End end = End::kEofOnly;
    bool eat_end = false;
    int indent = 0;
    bool detect_indent = false;
    bool eat_leading_ws = false;
    char escape = 0;
    Fold fold = Fold::kNone;
    bool trim_trailing = false;
    Chomp chomp = Chomp::kClip;
    OnDoc on_doc = OnDoc::kNone;
    bool leading_spaces = false; ///< out: ended by a less indented line
};

/// A position in the text: byte offset, 0-based line and the offset where the line starts
/// (columns count bytes, as yaml-cpp's marks do). The text holds no tab, carriage return or
/// other control character but '\n' (read_fast declines those first).
class Cursor {
public:
    explicit Cursor(std::string_view text) : s_(text.data()), n_(text.size()) {}

    char at(size_t k = 0) const { return pos_ + k < n_ ? s_[pos_ + k] : kEof; }
    bool eof() const { return pos_ >= n_; }
    int col() const { return static_cast<int>(pos_ - line_start_); }
    void next_line() { // at a '\n'
        ++pos_;
        ++line_;
        line_start_ = pos_;
    }
    static bool blank(char c) { return c == ' ' || c == '\t'; }
    /// yaml-cpp's BlankOrBreak | Empty (Empty: the end of the input).
    static bool ws_or_eof(char c) { return c == ' ' || c == '\t' || c == '\n' || c == kEof; }
    /// `---` or `...` and a blank, a line break or the end (its column is the caller's).
    bool doc_indicator() const {
        return ((at(0) == '-' && at(1) == '-' && at(2) == '-') ||
                (at(0) == '.' && at(1) == '.' && at(2) == '.')) &&
               ws_or_eof(at(3));
    }

    /// ScanScalar from here: the scalar's bytes, the cursor after it (after its closing quote
    /// with p.eat_end).
    std::string scan(ScalarParams& p);

protected:
    const char* s_;
    size_t n_;
    size_t pos_ = 0;
    int line_ = 0;
    size_t line_start_ = 0;

private:
    int end_match(const ScalarParams& p) const;
    void escape(std::string& out, char esc);
};

} // namespace fx::harness::detail::fast_yaml

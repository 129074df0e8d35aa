// Private to the loader: walking the scenario's document (loader_doc.h) with key paths and
// positions, exact number and integer parsing with bounds, and the error values they raise.
//
// Errors travel as a thrown detail::Failure inside the loader only; load_scenario() catches it
// and returns it as a value (scenario/loader.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fx/vec3.h"
#include "loader_doc.h"
#include "scenario/loader.h"

namespace fx::harness::detail {

struct Failure {
    LoadError error;
};

/// Nodes the walk of one document may still visit (kMinNodeBudget, scenario/loader.h).
struct NodeBudget {
    int64_t total = 0;
    int64_t left = 0;
};

[[noreturn]] void fail_at(const std::string& file, int line, int column, std::string path,
                          std::string message);

/// Allowed range of a number, and how the message describes it.
struct Bound {
    Scalar lo, hi;
    bool lo_open = false; ///< lo itself excluded
    bool hi_open = false; ///< hi itself excluded
    const char* what; ///< "a coordinate from -1000000 to 1000000 metres"
    /// When set, values <= 0 are described by this instead ("a positive number of metres").
    const char* nonpositive_what = nullptr;
};

bool in_bound(Scalar v, const Bound& b);
/// The description of the expectation v failed (what or nonpositive_what).
const char* bound_what(Scalar v, const Bound& b);

// The bounds of docs/numeric.md (and docs/scenarios.md).
extern const Bound kCoordinate; ///< |x| <= 1e6 m
extern const Bound kSize; ///< [0.001, 1e5] m
extern const Bound
    kLength; ///< |x| <= kcc::kMaxSettingLengthMetres (settings lengths; validate() checks signs)
extern const Bound kAngle; ///< |a| <= 3600 deg
extern const Bound kSpeed; ///< |v| <= 1000 m/s
extern const Bound kAccel; ///< |a| <= 10000 m/s^2
extern const Bound kTurnRate; ///< |w| <= 36000 deg/s
extern const Bound kStick; ///< [-1, 1]
extern const Bound kDeadZone; ///< [0, 0.99]
extern const Bound kRampAngle; ///< (0, 90) deg
extern const Bound kFrameMs; ///< (0, 60000] ms
extern const Bound kAny; ///< any Scalar

/// Exact integer text: optional sign then decimal digits, no other character. False when the
/// text is not an integer or its magnitude exceeds 10^18.
bool parse_integer(std::string_view text, int64_t* out);

/// Text as quoted in a message: 'text', control, C1 and bidirectional characters escaped (\n,
/// \t, \xNN, \u202e; text::shown) so that an error stays one line, and cut to `max` characters with
/// "..." (0: not cut), so that a hostile value of megabytes is not echoed whole.
std::string shown(std::string_view text, size_t max = 60);

/// Levenshtein distance (bytes).
/// "unknown key 'k', did you mean 'x'?" or "unknown key 'k', expected one of: a, b, c".
std::string unknown_key_message(std::string_view key, const std::vector<std::string>& valid,
                                const char* what = "key");

/// A node of the document with its key path and the position to report it at.
struct Value {
    const std::string* file = nullptr;
    DocRef node;
    std::string path;
    int line = 1, column = 1; ///< 1-based: the node's mark, or its key's when the node is null
    /// Nodes the walk may still visit (aliases counted each time they are used); shared by
    /// every Value of a document; null: unlimited.
    NodeBudget* budget = nullptr;

    [[noreturn]] void fail(std::string message) const;
    /// Counts one visited node against the budget; fails when it is spent (an alias bomb).
    void spend() const;
    /// "a mapping", "a sequence", "nothing", "a quoted string", "'text'".
    std::string found() const;
    bool is_null() const { return node.is_null(); }

    /// A plain (unquoted) scalar's text; fails "expected <what>, found ..." otherwise.
    const std::string& plain(const std::string& what) const;
    /// Any scalar as text (quoted allowed); fails "expected <what>, found ..." otherwise.
    const std::string& text(const std::string& what) const;

    /// true or false (plain): "expected true or false, found ...".
    bool boolean() const;
    /// A number via fx::parse_decimal, then the bound.
    Scalar number(const Bound& b = kAny) const;
    /// An integer in [lo, hi]: "expected an integer from lo to hi, found ...".
    int64_t integer(int64_t lo, int64_t hi) const;
    Vec3 vec3(const Bound& b, const char* what = "a sequence of 3 numbers [x, y, z]") const;
    /// A sequence (of anything): "expected <what>, found ..." otherwise.
    void require_sequence(const std::string& what) const;
    size_t size() const { return node.size(); }
    Value item(size_t i) const;
};

/// A mapping with its keys checked against a list (unknown keys, duplicate keys).
class Map {
public:
    /// Fails when v is not a mapping ("expected <what>, found ..."), has a key that is not a
    /// plain scalar, a duplicate key, or a key not in `keys`.
    /// With defer_unknown, unknown keys are only reported by check_unknown() (so that a key
    /// such as `format:` can be checked first).
    Map(const Value& v, std::vector<std::string> keys, const std::string& what = "a mapping",
        bool defer_unknown = false);
    void check_unknown() const;

    bool has(std::string_view key) const;
    /// Required key: fails "missing required key 'key'" at the mapping.
    Value get(std::string_view key) const;
    std::optional<Value> opt(std::string_view key) const;
    /// The key's own position (for errors about the key as a whole).
    Value key_node(std::string_view key) const;
    const Value& self() const { return v_; }
    [[noreturn]] void fail(std::string message) const { v_.fail(std::move(message)); }

    struct Entry {
        std::string key;
        DocRef key_node;
        DocRef value;
    };
    const std::vector<Entry>& entries() const { return entries_; }

private:
    Value v_;
    std::vector<Entry> entries_;
    std::vector<std::string> keys_;
    Value make(const Entry& e) const;
};

/// Child path helpers.
std::string join(const std::string& parent, std::string_view key);
std::string index(const std::string& parent, size_t i);

} // namespace fx::harness::detail

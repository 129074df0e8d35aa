#include "loader_yaml.h"

#include "kcc/scenario_limits.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <utility>

#include "fx/decimal.h"
#include "kcc/settings.h"
#include "records/text.h"

namespace fx::harness::detail {

void fail_at(const std::string& file, int line, int column, std::string path, std::string message) {
    Failure f;
    f.error.file = file;
    f.error.line = line;
    f.error.column = column;
    f.error.path = std::move(path);
    f.error.message = std::move(message);
    throw f;
}

bool in_bound(Scalar v, const Bound& b) {
    if (b.lo_open ? v <= b.lo : v < b.lo) return false;
    if (b.hi_open ? v >= b.hi : v > b.hi) return false;
    return true;
}

const char* bound_what(Scalar v, const Bound& b) {
    if (b.nonpositive_what != nullptr && v <= Scalar{}) return b.nonpositive_what;
    return b.what;
}

const Bound kCoordinate{Scalar::from_int(-kcc::limits::kMaxCoordinate),
                        Scalar::from_int(kcc::limits::kMaxCoordinate), false, false,
                        "a coordinate from -1000000 to 1000000 metres"};
const Bound kSize{Scalar::ratio(kcc::limits::kMinSizeMillimetres, 1000),
                  Scalar::from_int(kcc::limits::kMaxSize),
                  false,
                  false,
                  "a size from 0.001 to 100000 metres",
                  "a positive number of metres"};
const Bound kLength{Scalar::from_int(-kcc::kMaxSettingLengthMetres),
                    Scalar::from_int(kcc::kMaxSettingLengthMetres), false, false,
                    "a length from -1000 to 1000 metres"};
const Bound kAngle{Scalar::from_int(-kcc::limits::kMaxAngle),
                   Scalar::from_int(kcc::limits::kMaxAngle), false, false,
                   "an angle from -3600 to 3600 degrees"};
const Bound kSpeed{Scalar::from_int(-kcc::limits::kMaxSpeed),
                   Scalar::from_int(kcc::limits::kMaxSpeed), false, false,
                   "a speed from -1000 to 1000 m/s"};
const Bound kAccel{Scalar::from_int(-kcc::limits::kMaxAccel),
                   Scalar::from_int(kcc::limits::kMaxAccel), false, false,
                   "an acceleration from -10000 to 10000 m/s^2"};
const Bound kTurnRate{Scalar::from_int(-kcc::limits::kMaxTurnRate),
                      Scalar::from_int(kcc::limits::kMaxTurnRate), false, false,
                      "a turn rate from -36000 to 36000 deg/s"};
const Bound kStick{-Scalar::one(), Scalar::one(), false, false, "a number from -1 to 1"};
const Bound kDeadZone{Scalar{}, Scalar::ratio(kcc::limits::kMaxDeadZonePercent, 100), false, false,
                      "a number from 0 to 0.99"};
const Bound kRampAngle{Scalar{}, Scalar::from_int(90), true, true,
                       "an angle greater than 0 and less than 90 degrees"};
const Bound kFrameMs{Scalar{}, Scalar::from_int(60000), true, false,
                     "a frame time greater than 0 and at most 60000 milliseconds"};
const Bound kAny{Scalar::min_value(), Scalar::max_value(), false, false, "a number"};

bool parse_integer(std::string_view text, int64_t* out) {
    size_t i = 0;
    bool neg = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
        neg = text[i] == '-';
        ++i;
    }
    if (i == text.size()) return false;
    int64_t v = 0;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c < '0' || c > '9') return false;
        if (v > 100000000000000000) return false; // would exceed 10^18
        v = v * 10 + (c - '0');
    }
    if (v > 1000000000000000000) return false;
    *out = neg ? -v : v;
    return true;
}

std::string shown(std::string_view text, size_t max) {
    auto starts_char = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
    size_t chars = 0;
    for (const char c : text)
        chars += starts_char(c) ? 1 : 0;
    // Cut at a character boundary, keeping max - 3 characters and "...".
    const bool cut = max != 0 && chars > max;
    size_t keep = text.size();
    if (cut) {
        size_t n = 0;
        for (size_t i = 0; i < text.size(); ++i) {
            if (starts_char(text[i]) && n++ == max - 3) {
                keep = i;
                break;
            }
        }
    }
    // Control characters, C1 and bidirectional ones too (text::shown): one line, nothing a
    // terminal or a CI log acts on.
    return "'" + text::shown(text.substr(0, keep)) + (cut ? "...'" : "'");
}

std::string unknown_key_message(std::string_view key, const std::vector<std::string>& valid,
                                const char* what) {
    const std::string head = std::string("unknown ") + what + " " + shown(key);
    // Closest key within distance 2 (first in schema order on ties), else a prefix match.
    const std::string* pick = text::closest_word(key, valid);
    if (pick != nullptr) return head + ", did you mean '" + *pick + "'?";
    std::string list;
    for (const std::string& k : valid)
        list += (list.empty() ? "" : ", ") + k;
    return head + ", expected one of: " + list;
}

std::string join(const std::string& parent, std::string_view key) {
    std::string out;
    out.reserve(parent.size() + key.size() + 1);
    out += parent;
    if (!parent.empty()) out += '.';
    out += key;
    return out;
}
std::string index(const std::string& parent, size_t i) {
    char digits[24];
    const size_t n =
        static_cast<size_t>(std::to_chars(digits, digits + sizeof digits, i).ptr - digits);
    std::string out;
    out.reserve(parent.size() + n + 2);
    out += parent;
    out += '[';
    out.append(digits, n);
    out += ']';
    return out;
}

namespace {
Value at_node(const Value& parent, DocRef n, std::string path) {
    Value v;
    v.file = parent.file;
    v.budget = parent.budget;
    v.node = n;
    v.path = std::move(path);
    if (!n.is_null()) {
        v.line = n.line() + 1;
        v.column = n.column() + 1;
    } else {
        v.line = parent.line;
        v.column = parent.column;
    }
    return v;
}
} // namespace

void Value::fail(std::string message) const {
    fail_at(*file, line, column, path, std::move(message));
}

void Value::spend() const {
    if (budget == nullptr || --budget->left >= 0) return;
    fail("expected at most " + std::to_string(budget->total) +
         " nodes once aliases are expanded (one per byte of " + "the file, at least " +
         std::to_string(kMinNodeBudget) + "), found more: an alias may repeat content, " +
         "not multiply it");
}

std::string Value::found() const {
    if (is_null()) return "nothing";
    if (node.is_map()) return "a mapping";
    if (node.is_sequence()) return "a sequence";
    if (node.style() == Doc::Style::kQuoted) return "a quoted string";
    if (node.style() == Doc::Style::kTagged) return "a tagged value";
    return shown(node.scalar());
}

const std::string& Value::plain(const std::string& what) const {
    if (is_null() || !node.is_scalar() || node.style() != Doc::Style::kPlain)
        fail("expected " + what + ", found " + found());
    return node.scalar();
}

bool Value::boolean() const {
    const std::string& t = plain("true or false");
    if (t == "true") return true;
    if (t == "false") return false;
    fail("expected true or false, found " + found());
}

namespace {

/// The first character of `t` that text values may not hold once YAML's escapes are undone
/// ("\x1b", "\u202e", "\0"): text::acting_character's, the control characters (C0 other than
/// tab, line feed and carriage return, DEL, C1) and the bidirectional controls that reorder what a
/// terminal or an editor shows. Its code
/// point, or -1 when there is none; *invalid when the first problem is a byte that does not
/// start a UTF-8 character (the file's text was checked before; an escape cannot make one).
int64_t forbidden_character(std::string_view t, bool* invalid) {
    *invalid = false;
    size_t len = 1;
    for (size_t i = 0; i < t.size(); i += len) {
        const auto c = static_cast<unsigned char>(t[i]);
        const bool acting = text::acting_character(t, i, &len);
        if (c >= 0x80 && len == 1) { // not the start of well-formed UTF-8
            *invalid = true;
            return c;
        }
        if (acting && c != '\t' && c != '\n' && c != '\r') return text::code_point(t, i, len);
    }
    return -1;
}

} // namespace

const std::string& Value::text(const std::string& what) const {
    if (is_null() || !node.is_scalar()) fail("expected " + what + ", found " + found());
    const std::string& t = node.scalar();
    bool invalid = false;
    if (const int64_t cp = forbidden_character(t, &invalid); cp >= 0) {
        // Such a character would reach terminals and reports raw (list, verify, JUnit).
        static const char kHex[] = "0123456789ABCDEF";
        if (invalid) {
            fail("expected " + what + " as UTF-8 text, found the byte 0x" + kHex[cp >> 4] +
                 kHex[cp & 15]);
        }
        std::string u = "U+";
        for (int shift = cp > 0xFFFF ? 20 : 12; shift >= 0; shift -= 4)
            u += kHex[(cp >> shift) & 15];
        const bool bidi = cp >= 0x0600;
        fail("expected " + what + " without " + (bidi ? "bidirectional" : "control") +
             " characters, found " + u +
             (bidi ? " (it reorders how text is shown)"
                   : " (it could rewrite a terminal's output)"));
    }
    return t;
}

Scalar Value::number(const Bound& b) const {
    const std::string& t = plain("a number");
    const DecimalResult r = parse_decimal(t);
    if (!r.ok) {
        // parse_decimal may already say exactly this ("expected a number, found 'nan': ..."):
        // then its message stands alone; otherwise it explains ours in brackets.
        const std::string ours = "expected a number, found " + shown(t);
        fail(r.error.rfind(ours, 0) == 0 ? r.error : ours + " (" + r.error + ")");
    }
    if (!in_bound(r.value, b))
        fail(std::string("expected ") + bound_what(r.value, b) + ", found " + shown(t));
    return r.value;
}

int64_t Value::integer(int64_t lo, int64_t hi) const {
    const std::string what = "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
    const std::string& t = plain(what);
    int64_t v = 0;
    if (!parse_integer(t, &v) || v < lo || v > hi) fail("expected " + what + ", found " + shown(t));
    return v;
}

void Value::require_sequence(const std::string& what) const {
    if (is_null() || !node.is_sequence()) fail("expected " + what + ", found " + found());
}

Value Value::item(size_t i) const {
    Value v = at_node(*this, node.item(i), index(path, i));
    v.spend();
    return v;
}

Vec3 Value::vec3(const Bound& b, const char* what) const {
    require_sequence(what);
    if (node.size() != 3) {
        fail(std::string("expected ") + what + ", found " + std::to_string(node.size()) +
             (node.size() == 1 ? " item" : " items"));
    }
    return {item(0).number(b), item(1).number(b), item(2).number(b)};
}

Map::Map(const Value& v, std::vector<std::string> keys, const std::string& what, bool defer_unknown)
    : v_(v), keys_(std::move(keys)) {
    if (v.is_null() || !v.node.is_map()) v.fail("expected " + what + ", found " + v.found());
    // Duplicates: by a search of the entries so far in a small mapping (a scenario's are), by
    // an index of them in a large one (linear in the keys, not quadratic).
    constexpr size_t kSmallMap = 16;
    const size_t n = v.node.size();
    entries_.reserve(n);
    std::map<std::string, size_t> seen; // key -> index in entries_ (large mappings)
    for (size_t i = 0; i < n; ++i) {
        const Value k = at_node(v, v.node.key(i), v.path);
        k.spend();
        const std::string& name = k.plain("a key name");
        size_t first = entries_.size();
        if (n <= kSmallMap) {
            for (size_t j = 0; j < entries_.size() && first == entries_.size(); ++j)
                first = entries_[j].key == name ? j : first;
        } else {
            first = seen.emplace(name, entries_.size()).first->second;
        }
        if (first != entries_.size()) {
            k.fail("duplicate key " + shown(name) + " (first at line " +
                   std::to_string(entries_[first].key_node.line() + 1) + ")");
        }
        entries_.push_back({name, v.node.key(i), v.node.value(i)});
    }
    if (!defer_unknown) check_unknown();
}

void Map::check_unknown() const {
    for (const Entry& e : entries_) {
        if (std::find(keys_.begin(), keys_.end(), e.key) == keys_.end()) {
            at_node(v_, e.key_node, v_.path).fail(unknown_key_message(e.key, keys_));
        }
    }
}

Value Map::make(const Entry& e) const {
    // The value's position, or its key's when it is null (a key is never null: plain()).
    Value k;
    k.line = e.key_node.line() + 1;
    k.column = e.key_node.column() + 1;
    k.file = v_.file;
    k.budget = v_.budget;
    return at_node(k, e.value, join(v_.path, e.key));
}

bool Map::has(std::string_view key) const {
    return std::any_of(entries_.begin(), entries_.end(),
                       [&](const Entry& e) { return e.key == key; });
}

std::optional<Value> Map::opt(std::string_view key) const {
    for (const Entry& e : entries_) {
        if (e.key == key) return make(e);
    }
    return std::nullopt;
}

Value Map::get(std::string_view key) const {
    std::optional<Value> v = opt(key);
    if (!v) v_.fail("missing required key '" + std::string(key) + "'");
    return *v;
}

Value Map::key_node(std::string_view key) const {
    for (const Entry& e : entries_) {
        if (e.key == key) {
            Value k = at_node(v_, e.key_node, join(v_.path, key));
            return k;
        }
    }
    return v_;
}

} // namespace fx::harness::detail

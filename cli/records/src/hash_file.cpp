#include "records/hash_file.h"

#include <algorithm>
#include <charconv>

#include "records/text.h"

namespace fx::harness {

namespace {

using text::append_int;
using text::Lines;
using text::quote;

constexpr char kHexDigits[] = "0123456789abcdef";

void append_hex16(std::string* s, uint64_t v) {
    char buf[16];
    for (int i = 15; i >= 0; --i) {
        buf[i] = kHexDigits[v & 15];
        v >>= 4;
    }
    s->append(buf, 16);
}

bool parse_hex16(std::string_view t, uint64_t* out) {
    if (t.size() != 16) return false;
    uint64_t v = 0;
    for (const char c : t) {
        int d;
        if (c >= '0' && c <= '9') {
            d = c - '0';
        } else if (c >= 'a' && c <= 'f') {
            d = c - 'a' + 10;
        } else {
            return false;
        }
        v = (v << 4) | static_cast<uint64_t>(d);
    }
    *out = v;
    return true;
}

/// Canonical decimal integer: optional '-', digits, no leading zeros (except "0"), fits int64.
bool parse_int(std::string_view t, int64_t* out) {
    if (t.empty() || t[0] == '+') return false;
    const std::string_view digits = t[0] == '-' ? t.substr(1) : t;
    if (digits.empty() || (digits.size() > 1 && digits[0] == '0')) return false;
    int64_t v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc() || r.ptr != t.data() + t.size()) return false;
    *out = v;
    return true;
}

/// A `keys` value: "key=<16 lowercase hex>" items (key: a-z and '_'), single spaces.
bool valid_keys(std::string_view v) {
    if (v.empty()) return false;
    size_t pos = 0;
    while (pos <= v.size()) {
        size_t sp = v.find(' ', pos);
        if (sp == std::string_view::npos) sp = v.size();
        const std::string_view item = v.substr(pos, sp - pos);
        const size_t eq = item.find('=');
        if (eq == 0 || eq == std::string_view::npos) return false;
        for (const char c : item.substr(0, eq))
            if (!((c >= 'a' && c <= 'z') || c == '_')) return false;
        uint64_t unused = 0;
        if (!parse_hex16(item.substr(eq + 1), &unused)) return false;
        pos = sp + 1;
    }
    return true;
}

bool has_line_break(const std::string& s) {
    return s.find('\n') != std::string::npos || s.find('\r') != std::string::npos;
}

void append_key(std::string* s, std::string_view key, std::string_view value) {
    s->append(key);
    if (!value.empty()) {
        *s += ' ';
        s->append(value);
    }
    *s += '\n';
}

std::string header_text(const HashFileHeader& h, int64_t ticks) {
    std::string s;
    append_key(&s, kHashFileMagic, std::to_string(kHashFileFormat));
    append_key(&s, "hash", h.hash_algo);
    append_key(&s, "state-bytes", std::to_string(h.state_bytes));
    append_key(&s, "platform-bytes", std::to_string(h.platform_bytes));
    append_key(&s, "engine", h.engine);
    append_key(&s, "behaviour", std::to_string(h.behaviour));
    append_key(&s, "scenario", h.scenario);
    append_key(&s, "digest", h.digest);
    append_key(&s, "target", h.provenance.target);
    append_key(&s, "compiler", h.provenance.compiler);
    append_key(&s, "flags", h.provenance.flags);
    append_key(&s, "wide", h.provenance.wide);
    append_key(&s, "ticks", std::to_string(ticks));
    if (h.every > 1) append_key(&s, "every", std::to_string(h.every));
    if (!h.csv_digest.empty()) append_key(&s, "csv", h.csv_digest);
    if (!h.blessed_by.empty()) append_key(&s, "blessed-by", h.blessed_by);
    if (!h.keys.empty()) append_key(&s, "keys", h.keys);
    append_key(&s, "entities", entity_labels(h.entities));
    return s;
}

void append_tick_line(std::string* s, const TickHashes& t) {
    append_int(s, t.tick);
    *s += ' ';
    append_hex16(s, t.world);
    for (const uint64_t e : t.entities) {
        *s += ' ';
        if (e == kAbsentHash) {
            *s += '-'; // a character absent at this tick (only characters are ever absent)
        } else {
            append_hex16(s, e);
        }
    }
    *s += '\n';
}

std::string end_line(int64_t ticks) {
    return "end " + std::to_string(ticks);
}

/// Splits text into lines ('\n'; a trailing '\r' dropped); tracks 1-based line numbers.
class HashFileParser {
public:
    HashFileParser(std::string_view text, const std::string& display, std::string* err)
        : lines_(text), display_(display), err_(err) {}

    bool fail(const std::string& what) {
        *err_ = display_ + ":" + std::to_string(lines_.number()) + ": " + what;
        return false;
    }

    /// Reads "key value" (or "key" alone for an empty value).
    bool key(std::string_view k, std::string_view* value) {
        std::string_view line;
        if (!lines_.next(&line)) {
            return fail("truncated file: expected '" + std::string(k) + "', found end of file");
        }
        if (line == k) {
            *value = {};
            return true;
        }
        if (line.size() > k.size() && line.substr(0, k.size()) == k && line[k.size()] == ' ') {
            *value = line.substr(k.size() + 1);
            return true;
        }
        return fail("expected '" + std::string(k) + "', found " + quote(line));
    }
    /// A text value: no control characters (a CR inside a line, a NUL: a corrupt file; a value
    /// read with one would not be written back the same, found by fuzz_formats).
    bool key_string(std::string_view k, std::string* out) {
        std::string_view v;
        if (!key(k, &v)) return false;
        size_t len = 1;
        for (size_t i = 0; i < v.size(); i += len) {
            const auto c = static_cast<unsigned char>(v[i]);
            if (!text::acting_character(v, i, &len) || c == '\t') continue;
            static const char kHex[] = "0123456789ABCDEF";
            // C1 and bidirectional characters too: these values reach messages (a golden
            // "blessed for the scenario named ...") and terminals.
            return fail(
                "expected text after '" + std::string(k) + "', found the " +
                (len == 1 ? std::string("control character 0x") + kHex[c >> 4] + kHex[c & 15]
                          : "control or bidirectional character " + text::shown(v.substr(i, len))) +
                " in " + quote(v));
        }
        *out = std::string(v);
        return true;
    }
    bool key_int(std::string_view k, int64_t* out) {
        std::string_view v;
        if (!key(k, &v)) return false;
        if (!parse_int(v, out)) {
            return fail("expected an integer after '" + std::string(k) + "', found " + quote(v));
        }
        return true;
    }
    /// A version that must equal what this build writes.
    bool key_version(std::string_view k, int expected, int* out) {
        int64_t v = 0;
        if (!key_int(k, &v)) return false;
        if (v != expected) {
            return fail("hashed with " + std::string(k) + " " + std::to_string(v) +
                        ", this build writes " + std::to_string(expected) +
                        ": regenerate the goldens");
        }
        *out = static_cast<int>(v);
        return true;
    }

    bool parse(HashFile* out) {
        HashFile f;
        HashFileHeader& h = f.header;
        std::string_view line;
        const std::string magic_prefix = std::string(kHashFileMagic) + " ";
        const bool any = lines_.next(&line);
        if (!any || line.substr(0, magic_prefix.size()) != magic_prefix) {
            // Nothing of a file that is not one is quoted: a golden may be a symbolic link to
            // anything (docs/reliability.md).
            return fail(
                std::string("not an fxkcc hash file (") +
                (any ? "its first line is not '" + magic_prefix + "<version>'" : "an empty file") +
                ")");
        }
        int64_t format = 0;
        const std::string_view version = line.substr(magic_prefix.size());
        if (!parse_int(version, &format)) {
            return fail("expected a format version after '" + std::string(kHashFileMagic) +
                        "', found " + quote(version));
        }
        if (format > kHashFileFormat) {
            return fail("hash file format " + std::to_string(format) +
                        " is newer than this build reads (" + std::to_string(kHashFileFormat) +
                        ")");
        }
        if (format != kHashFileFormat) {
            return fail("hash file format " + std::to_string(format) +
                        " is not one this build reads (" + std::to_string(kHashFileFormat) + ")");
        }
        h.format = static_cast<int>(format);

        if (!key_string("hash", &h.hash_algo)) return false;
        if (h.hash_algo != kHashAlgorithm) {
            return fail("hashed with " + h.hash_algo + ", this build writes " +
                        std::string(kHashAlgorithm) + ": regenerate the goldens");
        }
        if (!key_version("state-bytes", kcc::kStateBytesVersion, &h.state_bytes)) return false;
        if (!key_version("platform-bytes", kPlatformBytesVersion, &h.platform_bytes)) return false;
        if (!key_string("engine", &h.engine)) return false;
        int64_t behaviour = 0;
        if (!key_int("behaviour", &behaviour)) return false;
        if (behaviour < INT32_MIN || behaviour > INT32_MAX) {
            return fail("behaviour " + std::to_string(behaviour) + " is out of range");
        }
        h.behaviour = static_cast<int>(behaviour);
        if (!key_string("scenario", &h.scenario)) return false;
        if (!key_string("digest", &h.digest)) return false;
        uint64_t unused = 0;
        if (!parse_hex16(h.digest, &unused)) {
            return fail("expected a digest of 16 lowercase hex digits, found " + quote(h.digest));
        }
        if (!key_string("target", &h.provenance.target)) return false;
        if (!key_string("compiler", &h.provenance.compiler)) return false;
        if (!key_string("flags", &h.provenance.flags)) return false;
        if (!key_string("wide", &h.provenance.wide)) return false;
        if (!key_int("ticks", &h.ticks)) return false;
        if (h.ticks < 0)
            return fail("expected a tick count >= 0, found " + std::to_string(h.ticks));
        std::string_view ents;
        if (!lines_.next(&line))
            return fail("truncated file: expected 'entities', found end of file");
        if (line.substr(0, 6) == "every ") {
            if (!parse_int(line.substr(6), &h.every) || h.every < 2) {
                return fail("expected a recording stride >= 2 after 'every', found " +
                            quote(line.substr(6)));
            }
            if (!lines_.next(&line))
                return fail("truncated file: expected 'entities', found end of file");
        }
        if (line.substr(0, 4) == "csv ") {
            h.csv_digest = std::string(line.substr(4));
            uint64_t csv_unused = 0;
            if (!parse_hex16(h.csv_digest, &csv_unused)) {
                return fail("expected a CSV digest of 16 lowercase hex digits after 'csv', found " +
                            quote(h.csv_digest));
            }
            if (!lines_.next(&line))
                return fail("truncated file: expected 'entities', found end of file");
        }
        if (line.substr(0, 11) == "blessed-by ") {
            h.blessed_by = std::string(line.substr(11));
            if (h.blessed_by.empty())
                return fail("expected a target after 'blessed-by', found nothing");
            if (!lines_.next(&line))
                return fail("truncated file: expected 'entities', found end of file");
        }
        if (line.substr(0, 5) == "keys ") {
            h.keys = std::string(line.substr(5));
            if (!valid_keys(h.keys)) {
                return fail("expected 'keys' and key=<16 lowercase hex digits> items, found " +
                            quote(line));
            }
            if (!lines_.next(&line))
                return fail("truncated file: expected 'entities', found end of file");
        }
        if (line == "entities") {
            ents = {};
        } else if (line.substr(0, 9) == "entities ") {
            ents = line.substr(9);
        } else {
            return fail("expected 'entities', found " + quote(line));
        }
        if (!parse_entities(ents, &h.entities)) return false;

        // Tick lines: no reserve from the header's count, so a lying header cannot make us
        // allocate more than the text holds.
        const size_t n_ent = h.entities.size();
        const size_t n_chars = character_ids_of(h.entities).size(); // characters come first
        // Only the recorded ticks are visited (not every tick of the header's count): a header
        // claiming 9e18 ticks recorded every 9e18 must not make the reader count to 9e18.
        const int64_t last = h.ticks - 1;
        auto next_recorded = [&](int64_t t) { // the recorded tick after t (t + every, or the last)
            if (t >= last) return h.ticks;
            if (h.every <= 1) return t + 1;
            return h.every < last - t ? t + h.every : last;
        };
        for (int64_t t = h.every > 1 ? std::min(h.every - 1, last) : 0; h.ticks > 0 && t <= last;
             t = next_recorded(t)) {
            if (!lines_.next(&line)) {
                return fail("truncated file: expected tick " + std::to_string(t) + " of " +
                            std::to_string(h.ticks) + ", found end of file");
            }
            TickHashes th;
            if (!parse_tick_line(line, t, h.ticks, n_ent, n_chars, &th)) return false;
            f.ticks.push_back(std::move(th));
        }
        const std::string end = end_line(h.ticks);
        if (!lines_.next(&line)) {
            return fail("truncated file: expected '" + end + "', found end of file");
        }
        if (line != end) return fail("expected '" + end + "', found " + quote(line));
        if (lines_.next(&line)) {
            return fail("expected end of file after '" + end + "', found " + quote(line));
        }
        *out = std::move(f);
        return true;
    }

private:
    bool parse_entities(std::string_view text, std::vector<EntityRef>* out) {
        out->clear();
        size_t pos = 0;
        while (pos <= text.size() && !text.empty()) {
            size_t sp = text.find(' ', pos);
            if (sp == std::string_view::npos) sp = text.size();
            const std::string_view tok = text.substr(pos, sp - pos);
            EntityRef e;
            if (!parse_entity_label(tok, &e)) {
                return fail("expected an entity label (c<id> or p<id>), found " + quote(tok));
            }
            if (!out->empty() && !(out->back() < e)) {
                return fail("expected entities in order (characters by ascending id, then "
                            "platforms by ascending id), found '" +
                            e.label() + "' after '" + out->back().label() + "'");
            }
            out->push_back(e);
            pos = sp + 1;
        }
        return true;
    }

    bool parse_tick_line(std::string_view line, int64_t t, int64_t ticks, size_t n_ent,
                         size_t n_chars, TickHashes* out) {
        size_t sp = line.find(' ');
        const std::string_view first = line.substr(0, sp);
        int64_t tick = 0;
        if (first == "end") {
            return fail("truncated file: expected tick " + std::to_string(t) + " of " +
                        std::to_string(ticks) + ", found " + quote(line));
        }
        if (!parse_int(first, &tick) || tick != t) {
            return fail("expected tick " + std::to_string(t) + ", found " + quote(first));
        }
        out->tick = tick;
        out->entities.reserve(n_ent);
        size_t count = 0;
        while (sp != std::string_view::npos) {
            const size_t begin = sp + 1;
            sp = line.find(' ', begin);
            const std::string_view tok = line.substr(
                begin, sp == std::string_view::npos ? std::string_view::npos : sp - begin);
            uint64_t v = 0;
            if (count >= 1 && count <= n_chars && tok == "-") {
                v = kAbsentHash; // a character absent at this tick
            } else if (!parse_hex16(tok, &v)) {
                return fail(std::string("expected a hash of 16 lowercase hex digits") +
                            (count >= 1 && count <= n_chars ? " or '-' (absent)" : "") +
                            ", found " + quote(tok));
            }
            if (count == 0) {
                out->world = v;
            } else {
                out->entities.push_back(v);
            }
            ++count;
        }
        if (count != n_ent + 1) {
            return fail("expected " + std::to_string(n_ent + 1) + " hashes (world + " +
                        std::to_string(n_ent) + " entities), found " + std::to_string(count));
        }
        return true;
    }

    Lines lines_;
    const std::string& display_;
    std::string* err_;
};

} // namespace

std::string entity_cell(uint64_t v) {
    return v == kAbsentHash ? "-" : hex16(v);
}

std::string hex16(uint64_t v) {
    std::string s;
    append_hex16(&s, v);
    return s;
}

std::string validate_header(const HashFileHeader& h) {
    if (h.format != kHashFileFormat) {
        return "cannot write hash file format " + std::to_string(h.format) +
               " (this build writes " + std::to_string(kHashFileFormat) + ")";
    }
    for (const std::string* s :
         {&h.hash_algo, &h.engine, &h.scenario, &h.digest, &h.provenance.target,
          &h.provenance.compiler, &h.provenance.flags, &h.provenance.wide, &h.blessed_by}) {
        if (has_line_break(*s)) return "header value " + quote(*s) + " contains a line break";
    }
    uint64_t unused = 0;
    if (!parse_hex16(h.digest, &unused)) {
        return "digest must be 16 lowercase hex digits, found " + quote(h.digest);
    }
    if (!h.csv_digest.empty() && !parse_hex16(h.csv_digest, &unused)) {
        return "CSV digest must be 16 lowercase hex digits, found " + quote(h.csv_digest);
    }
    if (!h.keys.empty() && !valid_keys(h.keys)) {
        return "keys must be key=<16 lowercase hex digits> items, found " + quote(h.keys);
    }
    if (h.ticks < 0) return "tick count must be >= 0, found " + std::to_string(h.ticks);
    for (size_t i = 1; i < h.entities.size(); ++i) {
        if (!(h.entities[i - 1] < h.entities[i])) {
            return "entities must be in order (characters by ascending id, then platforms by "
                   "ascending id), found '" +
                   h.entities[i].label() + "' after '" + h.entities[i - 1].label() + "'";
        }
    }
    return {};
}

bool HashFileWriter::open(const std::string& path, const HashFileHeader& header, std::string* err) {
    if (std::string why = validate_header(header); !why.empty()) {
        *err = "cannot write '" + path + "': " + why;
        return false;
    }
    if (!file_.open(path, err)) return false;
    file_.set_limit(kMaxReadBytes); // what read_hash_file accepts
    header_ = header;
    next_tick_ = 0;
    while (next_tick_ < header_.ticks && !recorded_tick(next_tick_, header_.ticks, header_.every))
        ++next_tick_;
    file_.stream() << header_text(header_, header_.ticks);
    return true;
}

bool HashFileWriter::write(const TickHashes& tick, std::string* err) {
    if (!file_.is_open()) {
        *err = "hash file writer is not open";
        return false;
    }
    if (tick.tick != next_tick_) {
        *err = "'" + file_.path() + "': expected tick " + std::to_string(next_tick_) +
               ", got tick " + std::to_string(tick.tick);
        return false;
    }
    if (next_tick_ >= header_.ticks) {
        *err = "'" + file_.path() + "': tick " + std::to_string(tick.tick) +
               " is past the declared tick count " + std::to_string(header_.ticks);
        return false;
    }
    if (tick.entities.size() != header_.entities.size()) {
        *err = "'" + file_.path() + "': tick " + std::to_string(tick.tick) + " has " +
               std::to_string(tick.entities.size()) + " entity hashes, the header lists " +
               std::to_string(header_.entities.size());
        return false;
    }
    line_.clear();
    append_tick_line(&line_, tick);
    file_.stream() << line_;
    if (!file_.good()) {
        *err = file_.write_error();
        return false;
    }
    ++next_tick_;
    while (next_tick_ < header_.ticks && !recorded_tick(next_tick_, header_.ticks, header_.every))
        ++next_tick_;
    return true;
}

bool HashFileWriter::commit(std::string* err) {
    if (!file_.is_open()) {
        *err = "hash file writer is not open";
        return false;
    }
    if (next_tick_ != header_.ticks) {
        *err = "'" + file_.path() + "': wrote " + std::to_string(next_tick_) + " of " +
               std::to_string(header_.ticks) + " ticks; file not written";
        file_.abandon();
        return false;
    }
    file_.stream() << end_line(header_.ticks) << '\n';
    return file_.commit(err);
}

std::string hash_file_text(const HashFile& file) {
    // Dense files in memory may leave header.ticks unset; a strided file must set it.
    const auto n =
        file.header.every > 1 ? file.header.ticks : static_cast<int64_t>(file.ticks.size());
    std::string s = header_text(file.header, n);
    for (const TickHashes& t : file.ticks)
        append_tick_line(&s, t);
    s += end_line(n);
    s += '\n';
    return s;
}

bool parse_hash_file(std::string_view text, const std::string& display, HashFile* out,
                     std::string* err) {
    return HashFileParser(text, display, err).parse(out);
}

bool read_hash_file(const std::string& path, HashFile* out, std::string* err) {
    std::string text;
    if (!read_file(path, &text, err)) return false;
    return parse_hash_file(text, path, out, err);
}

} // namespace fx::harness

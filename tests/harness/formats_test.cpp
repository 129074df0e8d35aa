// File formats and comparisons of the harness: hash files, trajectory CSV, atomic writes, tick
// hashes and first-divergence reports. Determinism tests: everything is compared bit for bit.
#include <catch2/catch.hpp>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fx/decimal.h"
#include "fx/trig.h"
#include "harness_test_util.h"
#include "kcc/state_bytes.h"
#include "records/atomic_file.h"
#include "records/compare.h"
#include "records/hash_file.h"
#include "records/json.h"
#include "records/text.h"
#include "records/tick_hash.h"
#include "records/trajectory.h"
#include "run/suite.h"
#include "run/verify.h"
#include "test_support.h"

#define XXH_INLINE_ALL
#include <nlohmann/json.hpp>
#include <xxhash.h>

namespace fs = std::filesystem;
using namespace fx;
using namespace fx::harness;

namespace {

/// A fresh, empty directory per test case, removed afterwards.
class TempDir {
public:
    explicit TempDir(const std::string& name) {
        path_ = fs::temp_directory_path() /
                ("fxkcc_formats_" + name + "_" +
                 std::to_string(fxtest::Rng(reinterpret_cast<uintptr_t>(this)).next() & 0xffffff));
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    std::string file(const std::string& name) const { return (path_ / name).string(); }
    std::vector<std::string> entries() const {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(path_))
            out.push_back(e.path().filename().string());
        std::sort(out.begin(), out.end());
        return out;
    }

private:
    fs::path path_;
};

using fxtest::slurp;
using fxtest::spit;

Scalar rs(fxtest::Rng& rng) {
    return Scalar::from_raw(rng.spread_i64());
}
Vec3 rv(fxtest::Rng& rng) {
    return {rs(rng), rs(rng), rs(rng)};
}
uint32_t rid(fxtest::Rng& rng) {
    return rng.next() % 4 == 0 ? kcc::kNoId : static_cast<uint32_t>(rng.next() % 100000);
}

kcc::CharacterState random_state(fxtest::Rng& rng, uint32_t id) {
    kcc::CharacterState s;
    s.id = id;
    s.position = rv(rng);
    s.velocity = rv(rng);
    s.facing = rs(rng);
    s.grounded = (rng.next() & 1) != 0;
    s.ground_normal = rv(rng);
    s.ground_shape = rid(rng);
    s.platform = rid(rng);
    s.previous_position = rv(rng);
    s.previous_facing = rs(rng);
    s.run_speed = rs(rng);
    s.step_hold = rs(rng);
    return s;
}

bool same_state(const kcc::CharacterState& a, const kcc::CharacterState& b) {
    return kcc::serialize_state(a) == kcc::serialize_state(b);
}

HashFileHeader sample_header(int64_t ticks) {
    HashFileHeader h;
    h.scenario = "walk ramp";
    h.digest = "0123456789abcdef";
    h.provenance = {"x86_64-linux-gnu", "GNU 12.2.0", "-O2 -DNDEBUG", "int128"};
    h.ticks = ticks;
    h.entities = {
        {EntityKind::kCharacter, 1}, {EntityKind::kCharacter, 2}, {EntityKind::kPlatform, 50}};
    return h;
}

HashFile random_hash_file(fxtest::Rng& rng, int64_t ticks) {
    HashFile f;
    f.header = sample_header(ticks);
    for (int64_t t = 0; t < ticks; ++t) {
        TickHashes th;
        th.tick = t;
        th.world = rng.next();
        for (size_t i = 0; i < f.header.entities.size(); ++i)
            th.entities.push_back(rng.next());
        f.ticks.push_back(th);
    }
    return f;
}

std::string parse_error(const std::string& text) {
    HashFile f;
    std::string err;
    if (parse_hash_file(text, "g.hashes", &f, &err)) return "(parsed)";
    return err;
}

std::string replace_line(const std::string& text, int line, const std::string& with) {
    std::istringstream in(text);
    std::string out, l;
    for (int n = 1; std::getline(in, l); ++n)
        out += (n == line ? with : l) + "\n";
    return out;
}

const char* kSmallFile = "fxkcc-hashes 1\n"
                         "hash xxh3-64\n"
                         "state-bytes 2\n"
                         "platform-bytes 1\n"
                         "engine fxkcc 0.1.0\n"
                         "behaviour 1\n"
                         "scenario walk ramp\n"
                         "digest 0123456789abcdef\n"
                         "target x86_64-linux-gnu\n"
                         "compiler GNU 12.2.0\n"
                         "flags -O2 -DNDEBUG\n"
                         "wide int128\n"
                         "ticks 2\n"
                         "entities c1 p50\n"
                         "0 00000000000000aa 00000000000000bb 00000000000000cc\n"
                         "1 00000000000000dd 00000000000000ee 00000000000000ff\n"
                         "end 2\n";

} // namespace

TEST_CASE("formats: decimal text of a quotient, rounded half up, with a carry into the units") {
    using fx::harness::text::decimal;
    CHECK(decimal(3436649, 1000, 1) == "3436.6"); // 3436.649 s
    CHECK(decimal(3436600, 3600000, 2) == "0.95"); // 0.95461 h
    CHECK(decimal(1500, 1000, 3) == "1.500");
    CHECK(decimal(7, 1000, 3) == "0.007");
    CHECK(decimal(0, 1000, 1) == "0.0");
    CHECK(decimal(49, 1000, 1) == "0.0");
    CHECK(decimal(50, 1000, 1) == "0.1"); // half up
    CHECK(decimal(999, 1000, 1) == "1.0"); // 0.999 carries
    CHECK(decimal(35999999, 3600000, 2) == "10.00");
    CHECK(decimal(18599000, 3600000, 2) == "5.17");
}

TEST_CASE("formats: entity labels and order") {
    const EntityRef c1{EntityKind::kCharacter, 1}, c10{EntityKind::kCharacter, 10},
        p2{EntityKind::kPlatform, 2};
    CHECK(c1.label() == "c1");
    CHECK(p2.label() == "p2");
    CHECK(c1 < c10);
    CHECK(c10 < p2);
    EntityRef e;
    CHECK(parse_entity_label("p4294967295", &e));
    CHECK(e == EntityRef{EntityKind::kPlatform, 4294967295u});
    for (const char* bad : {"", "c", "x1", "c01", "c-1", "c4294967296", "c1 "}) {
        CHECK_FALSE(parse_entity_label(bad, &e));
    }
    const std::vector<EntityRef> list{c1, c10, p2};
    CHECK(entity_labels(list) == "c1 c10 p2");
}

TEST_CASE("formats: platform bytes are version, id, centre little-endian") {
    const auto b = serialize_platform(0x01020304u, {Scalar::from_raw(0x1122334455667788),
                                                    Scalar::from_raw(-1), Scalar::from_raw(0)});
    const std::array<uint8_t, kPlatformBytes> want = {
        1,    0x04, 0x03, 0x02, 0x01, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0,    0,    0,    0,    0,    0,    0,    0};
    CHECK(b == want);
}

TEST_CASE("formats: xxh3 is XXH3-64 with seed 0") {
    CHECK(xxh3({}) == 0x2d06800538d394c2ull); // published XXH3_64bits("") value
}

TEST_CASE("formats: tick hashes are xxh3 of the canonical bytes") {
    fxtest::Rng rng(11);
    std::vector<kcc::CharacterState> chars = {random_state(rng, 1), random_state(rng, 2),
                                              random_state(rng, 7)};
    std::vector<std::pair<uint32_t, Vec3>> plats = {{50, rv(rng)}, {51, rv(rng)}};
    TickHasher hasher;
    const TickHashes h = hasher.hash(42, chars, plats);
    CHECK(h.tick == 42);
    REQUIRE(h.entities.size() == 5);
    std::vector<uint8_t> all;
    for (size_t i = 0; i < chars.size(); ++i) {
        const auto b = kcc::serialize_state(chars[i]);
        CHECK(h.entities[i] == XXH3_64bits(b.data(), b.size()));
        all.insert(all.end(), b.begin(), b.end());
    }
    for (size_t i = 0; i < plats.size(); ++i) {
        const auto b = serialize_platform(plats[i].first, plats[i].second);
        CHECK(h.entities[3 + i] == XXH3_64bits(b.data(), b.size()));
        all.insert(all.end(), b.begin(), b.end());
    }
    CHECK(h.world == XXH3_64bits(all.data(), all.size()));

    // hash_into into a reused record gives the same result.
    TickHashes again;
    hasher.hash_into(42, chars, plats, &again);
    hasher.hash_into(42, chars, plats, &again);
    CHECK(again == h);

    const std::vector<EntityRef> ents = entity_list(chars, plats);
    CHECK(entity_labels(ents) == "c1 c2 c7 p50 p51");
}

TEST_CASE("formats: one flipped bit changes exactly that entity's hash and the world hash") {
    fxtest::Rng rng(12);
    std::vector<kcc::CharacterState> chars = {random_state(rng, 3), random_state(rng, 4)};
    std::vector<std::pair<uint32_t, Vec3>> plats = {{9, rv(rng)}};
    TickHasher hasher;
    const TickHashes base = hasher.hash(0, chars, plats);
    for (int trial = 0; trial < 300; ++trial) {
        auto c = chars;
        auto p = plats;
        const size_t entity = rng.next() % 3;
        if (entity < 2) {
            auto bytes = kcc::serialize_state(c[entity]);
            // Any bit after the version byte, except the unused bits of the flags byte (61)
            // and the id (bytes 1..4: the id is the entity's identity, not a field).
            size_t byte = 0;
            int bit = 0;
            do {
                byte = 5 + rng.next() % (kcc::kStateBytes - 5);
                bit = static_cast<int>(rng.next() % 8);
            } while (byte == 61 && bit != 0);
            bytes[byte] ^= static_cast<uint8_t>(1u << bit);
            REQUIRE(kcc::deserialize_state(bytes, &c[entity]));
        } else {
            const int comp = static_cast<int>(rng.next() % 3);
            Scalar* s = comp == 0 ? &p[0].second.x : comp == 1 ? &p[0].second.y : &p[0].second.z;
            *s = Scalar::from_raw(static_cast<int64_t>(static_cast<uint64_t>(s->raw()) ^
                                                       (1ull << (rng.next() % 64))));
        }
        const TickHashes h = hasher.hash(0, c, p);
        CHECK(h.world != base.world);
        for (size_t i = 0; i < 3; ++i) {
            CHECK((h.entities[i] != base.entities[i]) == (i == entity));
        }
    }
}

TEST_CASE("formats: hash file round trip, writer text equals hash_file_text") {
    TempDir dir("roundtrip");
    fxtest::Rng rng(21);
    for (const int64_t n : {0, 1, 7, 300}) {
        const HashFile f = random_hash_file(rng, n);
        const std::string path = dir.file("run.hashes");
        HashFileWriter w;
        std::string err;
        REQUIRE(w.open(path, f.header, &err));
        for (const TickHashes& t : f.ticks)
            REQUIRE(w.write(t, &err));
        REQUIRE(w.commit(&err));
        CHECK(slurp(path) == hash_file_text(f));
        HashFile back;
        REQUIRE(read_hash_file(path, &back, &err));
        CHECK(back == f);
        CHECK(dir.entries() == std::vector<std::string>{"run.hashes"});
    }
}

TEST_CASE("formats: blessed-by is written only when set, between csv and entities, and read back") {
    HashFile f;
    f.header = sample_header(1);
    f.header.csv_digest = "00000000000000ff";
    f.header.blessed_by = "x86_64-linux";
    f.ticks.push_back(TickHashes{0, 1, {2, 3, 4}});
    const std::string text = hash_file_text(f);
    CHECK(text.find("\ncsv 00000000000000ff\nblessed-by x86_64-linux\nentities c1 c2 p50\n") !=
          std::string::npos);
    HashFile back;
    std::string err;
    REQUIRE(parse_hash_file(text, "g.hashes", &back, &err));
    CHECK(back == f);
    f.header.blessed_by.clear();
    CHECK(hash_file_text(f).find("blessed-by") == std::string::npos);
}

TEST_CASE("formats: a strided hash file records ticks every-1, 2*every-1, ... and the last") {
    CHECK(recorded_count(1000, 100) == 10);
    CHECK(recorded_count(1050, 100) == 11);
    CHECK(recorded_count(7, 1) == 7);
    TempDir dir("strided");
    fxtest::Rng rng(5);
    HashFile dense = random_hash_file(rng, 250);
    HashFile f;
    f.header = dense.header;
    f.header.every = 100;
    for (const TickHashes& t : dense.ticks) {
        if (recorded_tick(t.tick, 250, 100)) f.ticks.push_back(t);
    }
    REQUIRE(f.ticks.size() == 3); // 99, 199, 249
    CHECK(f.ticks[2].tick == 249);
    const std::string path = dir.file("s.hashes");
    HashFileWriter w;
    std::string err;
    REQUIRE(w.open(path, f.header, &err));
    CHECK_FALSE(w.write(dense.ticks[0], &err)); // tick 0 is not recorded
    CHECK(err == "'" + path + "': expected tick 99, got tick 0");
    for (const TickHashes& t : f.ticks)
        REQUIRE(w.write(t, &err));
    REQUIRE(w.commit(&err));
    const std::string text = slurp(path);
    CHECK(text == hash_file_text(f));
    CHECK(text.find("\nticks 250\nevery 100\nentities ") != std::string::npos);
    CHECK(text.substr(text.size() - 9) == "\nend 250\n");
    HashFile back;
    REQUIRE(read_hash_file(path, &back, &err));
    CHECK(back == f);
    // A line for an unrecorded tick, and a stride below 2, are refused.
    const std::string skipped =
        replace_line(text, 16, "98" + text.substr(text.find("\n99 ") + 3, 34));
    CHECK(parse_error(skipped).find("expected tick 99, found '98'") != std::string::npos);
    CHECK(parse_error(replace_line(text, 14, "every 1")) ==
          "g.hashes:14: expected a recording stride >= 2 after 'every', found '1'");
}

TEST_CASE("formats: hash file text layout") {
    HashFile f;
    f.header = sample_header(2);
    f.header.entities = {{EntityKind::kCharacter, 1}, {EntityKind::kPlatform, 50}};
    f.ticks = {{0, 0xaa, {0xbb, 0xcc}}, {1, 0xdd, {0xee, 0xff}}};
    CHECK(hash_file_text(f) == kSmallFile);
    HashFile back;
    std::string err;
    REQUIRE(parse_hash_file(kSmallFile, "g.hashes", &back, &err));
    CHECK(back == f);
    // CRLF checkouts read the same.
    std::string crlf;
    for (const char ch : std::string(kSmallFile))
        crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
    REQUIRE(parse_hash_file(crlf, "g.hashes", &back, &err));
    CHECK(back == f);
    // An empty provenance value is written as the bare key and reads back empty.
    f.header.provenance.flags.clear();
    REQUIRE(parse_hash_file(hash_file_text(f), "g.hashes", &back, &err));
    CHECK(back == f);
}

TEST_CASE("formats: hash file reader refusals") {
    const std::string t = kSmallFile;
    CHECK(parse_error("hello\n") ==
          "g.hashes:1: not an fxkcc hash file (its first line is not 'fxkcc-hashes <version>')");
    CHECK(parse_error("") == "g.hashes:1: not an fxkcc hash file (an empty file)");
    CHECK(parse_error(replace_line(t, 1, "fxkcc-hashes 2")) ==
          "g.hashes:1: hash file format 2 is newer than this build reads (1)");
    CHECK(parse_error(replace_line(t, 1, "fxkcc-hashes 0")) ==
          "g.hashes:1: hash file format 0 is not one this build reads (1)");
    CHECK(parse_error(replace_line(t, 1, "fxkcc-hashes x")) ==
          "g.hashes:1: expected a format version after 'fxkcc-hashes', found 'x'");
    CHECK(parse_error(replace_line(t, 2, "hash xxh3-128")) ==
          "g.hashes:2: hashed with xxh3-128, this build writes xxh3-64: regenerate the goldens");
    CHECK(parse_error(replace_line(t, 3, "state-bytes 1")) ==
          "g.hashes:3: hashed with state-bytes 1, this build writes 2: regenerate the goldens");
    CHECK(parse_error(replace_line(t, 4, "platform-bytes 3")) ==
          "g.hashes:4: hashed with platform-bytes 3, this build writes 1: regenerate the goldens");
    CHECK(parse_error(replace_line(t, 5, "engin fxkcc")) ==
          "g.hashes:5: expected 'engine', found 'engin fxkcc'");
    CHECK(parse_error(replace_line(t, 6, "behaviour one")) ==
          "g.hashes:6: expected an integer after 'behaviour', found 'one'");
    CHECK(parse_error(replace_line(t, 8, "digest 0123")) ==
          "g.hashes:8: expected a digest of 16 lowercase hex digits, found '0123'");
    CHECK(parse_error(replace_line(t, 13, "ticks -1")) ==
          "g.hashes:13: expected a tick count >= 0, found -1");
    CHECK(parse_error(replace_line(t, 14, "entities c1 x50")) ==
          "g.hashes:14: expected an entity label (c<id> or p<id>), found 'x50'");
    CHECK(parse_error(replace_line(t, 14, "entities p50 c1")) ==
          "g.hashes:14: expected entities in order (characters by ascending id, then platforms "
          "by ascending id), found 'c1' after 'p50'");
    CHECK(parse_error(replace_line(t, 14, "entities c1 c1")) ==
          "g.hashes:14: expected entities in order (characters by ascending id, then platforms "
          "by ascending id), found 'c1' after 'c1'");
    // Tick lines.
    CHECK(
        parse_error(replace_line(t, 16, "2 00000000000000dd 00000000000000ee 00000000000000ff")) ==
        "g.hashes:16: expected tick 1, found '2'");
    CHECK(parse_error(replace_line(t, 16, "1 00000000000000dd 00000000000000ee")) ==
          "g.hashes:16: expected 3 hashes (world + 2 entities), found 2");
    CHECK(parse_error(replace_line(
              t, 16, "1 00000000000000dd 00000000000000ee 00000000000000ff 0000000000000000")) ==
          "g.hashes:16: expected 3 hashes (world + 2 entities), found 4");
    CHECK(
        parse_error(replace_line(t, 16, "1 00000000000000DD 00000000000000ee 00000000000000ff")) ==
        "g.hashes:16: expected a hash of 16 lowercase hex digits, found '00000000000000DD'");
    CHECK(parse_error(replace_line(t, 17, "end 3")) ==
          "g.hashes:17: expected 'end 2', found 'end 3'");
    CHECK(parse_error(t + "extra\n") ==
          "g.hashes:18: expected end of file after 'end 2', found 'extra'");
}

TEST_CASE("formats: truncated hash files are detected") {
    const std::string t = kSmallFile;
    // Missing trailer.
    CHECK(parse_error(t.substr(0, t.rfind("end 2"))) ==
          "g.hashes:17: truncated file: expected 'end 2', found end of file");
    // Fewer tick lines than the header says, file cut at a line end.
    const std::string cut = t.substr(0, t.find("1 00000000000000dd"));
    CHECK(parse_error(cut) ==
          "g.hashes:16: truncated file: expected tick 1 of 2, found end of file");
    // A trailer written early.
    CHECK(parse_error(cut + "end 1\n") ==
          "g.hashes:16: truncated file: expected tick 1 of 2, found 'end 1'");
    // Cut inside the header.
    CHECK(parse_error(t.substr(0, t.find("wide"))) ==
          "g.hashes:12: truncated file: expected 'wide', found end of file");
    // Cut at every byte: never parses, unless it is the whole file (the final newline is
    // optional).
    for (size_t n = 0; n + 1 < t.size(); ++n) {
        INFO("cut at " << n);
        CHECK(parse_error(t.substr(0, n)) != "(parsed)");
    }
    CHECK(parse_error(t.substr(0, t.size() - 1)) == "(parsed)");
}

TEST_CASE("formats: hash writer is atomic and checks its input") {
    TempDir dir("atomic");
    const std::string path = dir.file("g.hashes");
    spit(path, "old content\n");
    fxtest::Rng rng(31);
    const HashFile f = random_hash_file(rng, 5);
    std::string err;
    {
        HashFileWriter w;
        REQUIRE(w.open(path, f.header, &err));
        for (int i = 0; i < 3; ++i)
            REQUIRE(w.write(f.ticks[static_cast<size_t>(i)], &err));
        CHECK(dir.entries().size() == 2); // target + temp
        // destroyed without commit
    }
    CHECK(slurp(path) == "old content\n");
    CHECK(dir.entries() == std::vector<std::string>{"g.hashes"});
    {
        HashFileWriter w;
        REQUIRE(w.open(path, f.header, &err));
        CHECK_FALSE(w.write(f.ticks[1], &err));
        CHECK(err == "'" + path + "': expected tick 0, got tick 1");
        TickHashes bad = f.ticks[0];
        bad.entities.pop_back();
        CHECK_FALSE(w.write(bad, &err));
        CHECK(err == "'" + path + "': tick 0 has 2 entity hashes, the header lists 3");
        REQUIRE(w.write(f.ticks[0], &err));
        CHECK_FALSE(w.commit(&err));
        CHECK(err == "'" + path + "': wrote 1 of 5 ticks; file not written");
    }
    CHECK(slurp(path) == "old content\n");
    CHECK(dir.entries() == std::vector<std::string>{"g.hashes"});
    {
        HashFileWriter w;
        HashFileHeader h = f.header;
        h.digest = "xyz";
        CHECK_FALSE(w.open(path, h, &err));
        CHECK(err ==
              "cannot write '" + path + "': digest must be 16 lowercase hex digits, found 'xyz'");
        h = f.header;
        h.provenance.flags = "-O2\n-g";
        CHECK_FALSE(w.open(path, h, &err));
        CHECK(err == "cannot write '" + path + "': header value '-O2\\n-g' contains a line break");
    }
    CHECK(dir.entries() == std::vector<std::string>{"g.hashes"});
    CHECK(slurp(path) == "old content\n");
}

TEST_CASE("formats: write_file_atomic replaces the target and leaves no temporary file") {
    TempDir dir("wfa");
    const std::string path = dir.file("out.txt");
    std::string err;
    REQUIRE(write_file_atomic(path, "one\n", &err));
    REQUIRE(write_file_atomic(path, "two\n", &err));
    CHECK(slurp(path) == "two\n");
    CHECK(dir.entries() == std::vector<std::string>{"out.txt"});
    CHECK_FALSE(write_file_atomic(dir.file("missing/out.txt"), "x", &err));
    CHECK(err.rfind("cannot create '" + temp_path_for(dir.file("missing/out.txt")) + "'", 0) == 0);
    CHECK(dir.entries() == std::vector<std::string>{"out.txt"});
    std::string content;
    CHECK_FALSE(read_file(dir.file("nope"), &content, &err));
    CHECK(err.rfind("cannot read '" + dir.file("nope") + "'", 0) == 0);
}

TEST_CASE("formats: first hash divergence at injected positions") {
    fxtest::Rng rng(41);
    for (int trial = 0; trial < 200; ++trial) {
        const int64_t n = 1 + static_cast<int64_t>(rng.next() % 50);
        const HashFile e = random_hash_file(rng, n);
        CHECK_FALSE(first_divergence(e, e).diverged);
        HashFile a = e;
        const auto tick = static_cast<size_t>(rng.next() % static_cast<uint64_t>(n));
        const size_t ent = rng.next() % e.header.entities.size();
        a.ticks[tick].entities[ent] ^= 1ull << (rng.next() % 64);
        a.ticks[tick].world ^= 1;
        // Later ticks diverge too (a desync persists); they must not matter.
        for (size_t t = tick + 1; t < a.ticks.size(); ++t)
            a.ticks[t].entities[0] ^= 2;
        const HashDivergence d = first_divergence(e, a);
        CHECK(d.diverged);
        CHECK(d.tick == static_cast<int64_t>(tick));
        CHECK(d.entities == std::vector<EntityRef>{e.header.entities[ent]});
        CHECK(d.reason.empty());
    }
}

TEST_CASE("formats: hash divergence of tick counts and entity lists") {
    fxtest::Rng rng(42);
    const HashFile e = random_hash_file(rng, 300);
    HashFile a = e;
    a.ticks.resize(250);
    a.header.ticks = 250;
    HashDivergence d = first_divergence(e, a);
    CHECK(d.diverged);
    CHECK(d.tick == 250);
    CHECK(d.reason == "tick counts differ: 300 vs 250");
    CHECK(format_hash_divergence(d, e, a) ==
          "first divergent tick 250 (last matching tick 249)\n  tick counts differ: 300 vs 250\n");

    a = e;
    a.header.entities.erase(a.header.entities.begin() + 1);
    for (TickHashes& t : a.ticks)
        t.entities.erase(t.entities.begin() + 1);
    d = first_divergence(e, a);
    CHECK(d.tick == 0);
    CHECK(d.entities == std::vector<EntityRef>{{EntityKind::kCharacter, 2}});
    CHECK(d.reason == "entities differ: c1 c2 p50 vs c1 p50");

    a = e;
    a.ticks[7].entities[2] = 0x1234;
    d = first_divergence(e, a);
    CHECK(format_hash_divergence(d, e, a) ==
          "first divergent tick 7 (last matching tick 6)\n  world: expected " +
              hex16(e.ticks[7].world) + " actual " + hex16(e.ticks[7].world) +
              "\n  p50: expected " + hex16(e.ticks[7].entities[2]) + " actual 0000000000001234\n");
}

TEST_CASE("formats: incomparable headers") {
    const HashFileHeader e = sample_header(10);
    HashFileHeader a = e;
    a.provenance = {"aarch64-linux-gnu", "GNU 12.2.0", "-O2", "portable"};
    a.ticks = 20;
    CHECK(incomparable_reason(e, a).empty());
    a.digest = "fedcba9876543210";
    CHECK(incomparable_reason(e, a) ==
          "stale: scenario digest differs: 0123456789abcdef vs fedcba9876543210");
    a = e;
    a.behaviour = 2;
    CHECK(incomparable_reason(e, a) == "behaviour version differs: 1 vs 2");
}

TEST_CASE("formats: diff_states reports exactly the changed fields") {
    fxtest::Rng rng(51);
    for (int trial = 0; trial < 300; ++trial) {
        const kcc::CharacterState e = random_state(rng, 1);
        kcc::CharacterState a = e;
        std::vector<std::string> changed;
        std::vector<int64_t> deltas;
        const auto bump = [&](Scalar* s, const char* name) {
            if (rng.next() % 3 != 0) return;
            const int64_t d = rng.range(-1000, 1000) | 1; // never 0
            *s = Scalar::from_raw(
                static_cast<int64_t>(static_cast<uint64_t>(s->raw()) + static_cast<uint64_t>(d)));
            changed.push_back(name);
            deltas.push_back(d);
        };
        bump(&a.position.x, "x");
        bump(&a.position.y, "y");
        bump(&a.velocity.z, "vz");
        bump(&a.facing, "facing");
        if (rng.next() % 4 == 0) {
            a.grounded = !a.grounded;
            changed.push_back("grounded");
            deltas.push_back(0);
        }
        bump(&a.ground_normal.y, "normal_y");
        if (rng.next() % 4 == 0) {
            a.platform = a.platform == 7 ? 8 : 7;
            changed.push_back("platform");
            deltas.push_back(0);
        }
        bump(&a.previous_position.z, "previous_z");
        bump(&a.previous_facing, "previous_facing");
        const std::vector<FieldDiff> diffs = diff_states(e, a);
        REQUIRE(diffs.size() == changed.size());
        for (size_t i = 0; i < diffs.size(); ++i) {
            CHECK(diffs[i].field == changed[i]);
            if (diffs[i].is_scalar) {
                CHECK(static_cast<int64_t>(static_cast<uint64_t>(diffs[i].actual_raw) -
                                           static_cast<uint64_t>(diffs[i].expected_raw)) ==
                      deltas[i]);
            }
        }
    }
}

TEST_CASE("formats: field diff report prints decimal, raw hex and delta") {
    const std::vector<FieldDiff> diffs = {
        {"x", 0x0000000140000000, 0x0000000140000003, true},
        {"vy", INT64_MIN, INT64_MAX, true},
        {"grounded", 1, 0, false},
        {"platform", 50, static_cast<int64_t>(kcc::kNoId), false},
        {"vz", int64_t{5} << 32, int64_t{3} << 31, true},
        {"previous_z", 0, -(int64_t{1} << 31), true},
        {"facing", 0, fx::kPi.raw(), true},
        {"normal_y", int64_t{1} << 32, int64_t{1} << 31, true},
    };
    // Deltas in the field's unit too: 3 raw units are 3 / 2^32 m; pi rad is 180 deg.
    CHECK(
        format_field_diffs({EntityKind::kCharacter, 1}, diffs) ==
        "  c1: x expected 1.25 (raw 0x0000000140000000) actual 1.2500000007 (raw "
        "0x0000000140000003) delta +3 ulp = +0.0000000007 m\n"
        "  c1: vy expected -2147483648 (raw 0x8000000000000000) actual 2147483647.9999999998 "
        "(raw 0x7fffffffffffffff) delta +18446744073709551615 ulp\n"
        "  c1: grounded expected 1 actual 0\n"
        "  c1: platform expected 50 actual none\n"
        "  c1: vz expected 5 (raw 0x0000000500000000) actual 1.5 (raw 0x0000000180000000) delta -15032385536 ulp "
        "= -3.5 m/s\n"
        "  c1: previous_z expected 0 (raw 0x0000000000000000) actual -0.5 (raw 0xffffffff80000000) delta "
        "-2147483648 ulp = -0.5 m\n"
        "  c1: facing expected 0 (raw 0x0000000000000000) actual " +
            fx::to_string_shortest(fx::kPi) + " (raw 0x" +
            hex16(static_cast<uint64_t>(fx::kPi.raw())) + ") delta +" +
            std::to_string(fx::kPi.raw()) +
            " ulp = +180 deg\n"
            "  c1: normal_y expected 1 (raw 0x0000000100000000) actual 0.5 (raw 0x0000000080000000) delta -2147483648 ulp\n");
    CHECK(format_divergent_tick(137) == "first divergent tick 137 (last matching tick 136)");
    CHECK(format_divergent_tick(0) == "first divergent tick 0 (no tick before it)");
}

TEST_CASE("formats: trajectory CSV round trip is exact") {
    TempDir dir("csv");
    fxtest::Rng rng(61);
    for (const bool with_render : {false, true}) {
        const std::string path = dir.file(with_render ? "r.csv" : "t.csv");
        TrajectoryWriter w;
        std::ostringstream mem;
        TrajectoryWriter wm;
        std::string err;
        REQUIRE(w.open(path, with_render, &err));
        REQUIRE(wm.open(mem, with_render, &err));
        std::vector<TrajectoryRow> rows;
        for (int64_t tick = 0; tick < 100; ++tick) {
            for (uint32_t id : {1u, 2u, 9u}) {
                TrajectoryRow r;
                r.tick = tick;
                r.state = random_state(rng, id);
                r.state.previous_position = {};
                r.state.previous_facing = {};
                r.state.run_speed = {};
                r.state.step_hold = {};
                r.has_render = with_render && tick % 3 != 0;
                if (r.has_render) r.render = rv(rng);
                REQUIRE(w.write(tick, r.state, r.has_render ? &r.render : nullptr, &err));
                REQUIRE(wm.write(tick, r.state, r.has_render ? &r.render : nullptr, &err));
                rows.push_back(r);
            }
        }
        REQUIRE(w.commit(&err));
        REQUIRE(wm.commit(&err));
        CHECK(slurp(path) == mem.str());
        std::vector<TrajectoryRow> back;
        bool render = !with_render;
        REQUIRE(read_trajectory(path, &back, &render, &err));
        CHECK(render == with_render);
        REQUIRE(back.size() == rows.size());
        for (size_t i = 0; i < rows.size(); ++i) {
            CHECK(back[i].tick == rows[i].tick);
            CHECK(same_state(back[i].state, rows[i].state));
            CHECK(back[i].has_render == rows[i].has_render);
            CHECK(back[i].render == rows[i].render);
        }
        CHECK_FALSE(first_divergence(rows, back).diverged);
    }
    CHECK(dir.entries() == std::vector<std::string>{"r.csv", "t.csv"});
}

TEST_CASE("formats: trajectory CSV layout") {
    kcc::CharacterState s;
    s.id = 1;
    s.position = {Scalar::ratio(5, 4), Scalar::zero(), Scalar::from_raw(-1)};
    s.velocity = {Scalar::ratio(1, 10), Scalar::from_int(-3), Scalar::zero()};
    s.grounded = true;
    s.ground_shape = 10;
    CHECK(trajectory_columns(false) ==
          "tick,character,x,y,z,vx,vy,vz,facing,grounded,normal_x,normal_y,normal_z,ground_shape,"
          "platform");
    CHECK(trajectory_row_text(4, s, nullptr, false) ==
          "4,1,1.25,0,-0.0000000002,0.1,-3,0,0,1,0,1,0,10,");
    CHECK(trajectory_row_text(4, s, nullptr, true) ==
          "4,1,1.25,0,-0.0000000002,0.1,-3,0,0,1,0,1,0,10,,,,");
    const Vec3 r{Scalar::one(), Scalar::half(), Scalar::zero()};
    CHECK(trajectory_row_text(4, s, &r, true) ==
          "4,1,1.25,0,-0.0000000002,0.1,-3,0,0,1,0,1,0,10,,1,0.5,0");
}

TEST_CASE("formats: trajectory CSV reader refusals") {
    const std::string head = "# fxkcc-trajectory 1\n" + trajectory_columns(false) + "\n";
    const std::string row = "4,1,1.25,0,0,0.1,-3,0,0,1,0,1,0,10,";
    const auto error = [](const std::string& text) {
        std::vector<TrajectoryRow> rows;
        bool render = false;
        std::string err;
        if (parse_trajectory(text, "t.csv", &rows, &render, &err)) return std::string("(parsed)");
        return err;
    };
    CHECK(error(head + row + "\n") == "(parsed)");
    CHECK(
        error("tick,x\n") ==
        "t.csv:1:1: not an fxkcc trajectory file (its first line is not '# fxkcc-trajectory <version>')");
    CHECK(error("# fxkcc-trajectory 2\n") ==
          "t.csv:1:20: trajectory format 2 is newer than this build reads (1)");
    CHECK(error("# fxkcc-trajectory 1\ntick,character,x,y,z,vy\n") ==
          "t.csv:2:22: expected column 'vx', found 'vy'");
    CHECK(error("# fxkcc-trajectory 1\ntick,character\n") ==
          "t.csv:2:15: expected column 'x', found end of line");
    CHECK(error("# fxkcc-trajectory 1\n" + trajectory_columns(false) + ",render\n") ==
          "t.csv:2:96: expected column 'render_x' or end of line, found 'render'");
    CHECK(error(head + "4,1,1.2a5,0,0,0.1,-3,0,0,1,0,1,0,10,\n") ==
          "t.csv:3:8: x: unexpected 'a' after the number, expected end of text");
    CHECK(error(head + "4,1,1.25,0,0,0.1,-3,0,0,2,0,1,0,10,\n") ==
          "t.csv:3:25: grounded: expected 0 or 1, found '2'");
    CHECK(error(head + "4,1,1.25,0,0,0.1,-3,0,0,1,0,1,0,10\n") ==
          "t.csv:3:35: expected 15 cells, found 14 (missing 'platform')");
    CHECK(error(head + row + ",7\n") == "t.csv:3:36: expected 15 cells, found 16");
    CHECK(error(head + "4,1,1.25,0,0,0.1,-3,0,0,1,0,1,0,x,\n") ==
          "t.csv:3:33: ground_shape: expected an id (0 to 4294967294) or an empty cell for none, "
          "found 'x'");
    CHECK(error(head + "-4,1,1.25,0,0,0.1,-3,0,0,1,0,1,0,10,\n") ==
          "t.csv:3:1: tick: expected a tick number, found '-4'");
    CHECK(error(head + row + "\n" + row + "\n") ==
          "t.csv:4:1: expected rows ordered by tick then character, found tick 4 character 1 "
          "after tick 4 character 1");
    const std::string rhead = "# fxkcc-trajectory 1\n" + trajectory_columns(true) + "\n";
    CHECK(error(rhead + row + ",1,,2\n") ==
          "t.csv:3:39: render_y: expected a number (render cells are all empty or all set), "
          "found an empty cell");
    CHECK(error(rhead + row + ",,,\n") == "(parsed)");
}

TEST_CASE("formats: first CSV divergence") {
    fxtest::Rng rng(71);
    std::vector<TrajectoryRow> e;
    for (int64_t t = 0; t < 40; ++t) {
        for (uint32_t id : {1u, 2u}) {
            TrajectoryRow r;
            r.tick = t;
            r.state = random_state(rng, id);
            r.state.previous_position = {};
            r.state.previous_facing = {};
            e.push_back(r);
        }
    }
    for (int trial = 0; trial < 100; ++trial) {
        auto a = e;
        const size_t i = rng.next() % e.size();
        a[i].state.velocity.y =
            a[i].state.velocity.y == Scalar::zero() ? Scalar::one() : Scalar::zero();
        if (i + 1 < a.size()) a[i + 1].state.position.x = Scalar::from_raw(12345);
        const CsvDivergence d = first_divergence(e, a);
        CHECK(d.diverged);
        CHECK(d.tick == e[i].tick);
        CHECK(d.character == e[i].state.id);
        REQUIRE(d.fields.size() == 1);
        CHECK(d.fields[0].field == "vy");
    }
    auto a = e;
    a.resize(70);
    CsvDivergence d = first_divergence(e, a);
    CHECK(d.tick == 35);
    CHECK(d.character == 1);
    CHECK(d.reason == "row counts differ: 80 vs 70");
    CHECK(format_csv_divergence(d) ==
          "first divergent tick 35 (last matching tick 34)\n  c1: row counts differ: 80 vs 70\n");
    a = e;
    a[5].state.position.x = a[5].state.position.x + Scalar::epsilon();
    d = first_divergence(e, a);
    CHECK(format_csv_divergence(d) ==
          format_divergent_tick(2) + "\n" +
              format_field_diffs({EntityKind::kCharacter, 2}, d.fields));
}

// ---- issue 17: outputs, limits, goldens checked whole ----

TEST_CASE("formats: an output refuses to grow past its limit, naming the path and the limit") {
    TempDir dir("limit");
    const std::string path = dir.file("out.txt");
    std::string err;
    CHECK(write_file_atomic(path, std::string(100, 'a'), &err, 100));
    CHECK_FALSE(write_file_atomic(path, std::string(101, 'b'), &err, 100));
    CHECK(
        err ==
        "cannot write '" + path +
            "': it would be larger than 100 bytes, the most fxkcc reads back (record fewer ticks: "
            "golden_every, or a shorter run)");
    CHECK(slurp(path) == std::string(100, 'a')); // the old file stands
    CHECK(dir.entries() == std::vector<std::string>{"out.txt"});
    AtomicFile f;
    REQUIRE(f.open(path, &err));
    f.set_limit(10);
    f.stream() << "0123456789";
    CHECK(f.good());
    f.stream() << 'x';
    CHECK_FALSE(f.good());
    CHECK_FALSE(f.commit(&err));
    CHECK(slurp(path) == std::string(100, 'a'));
}

TEST_CASE("formats: a folder is refused as an output, a missing folder names the temporary file") {
    TempDir dir("outdir");
    std::string err;
    CHECK_FALSE(write_file_atomic(dir.file(""), "x", &err));
    CHECK(err.find("Is a directory") != std::string::npos);
    CHECK(irregular_file_kind(dir.file("")) == "a folder");
    CHECK(irregular_file_kind(dir.file("none")) == "not found");
    spit(dir.file("f"), "x");
    CHECK(irregular_file_kind(dir.file("f")) == "");
}

TEST_CASE("formats: output conflicts are found through spellings, and devices may repeat") {
    TempDir dir("conflict");
    const std::string a = dir.file("a.txt");
    spit(dir.file("in.yaml"), "x");
    CHECK(output_conflict({{"--csv", a}, {"--hashes", dir.file("b.txt")}}, {dir.file("in.yaml")}) ==
          "");
    CHECK(output_conflict({{"--csv", a}, {"--hashes", dir.file("sub/../a.txt")}}, {}) ==
          "--csv '" + a + "' and --hashes '" + dir.file("sub/../a.txt") + "' name the same file");
    CHECK(output_conflict({{"--csv", "-"}, {"--trace", "-"}}, {}) ==
          "--csv and --trace both write to standard output");
    CHECK(output_conflict({{"-o", dir.file("in.yaml")}}, {dir.file("./in.yaml")}) ==
          "-o '" + dir.file("in.yaml") + "' is an input of the command ('" + dir.file("./in.yaml") +
              "'): it would be overwritten");
#ifndef _WIN32
    CHECK(output_conflict({{"--csv", "/dev/null"}, {"--hashes", "/dev/null"}}, {}) == "");
#endif
}

TEST_CASE("formats: temporary names are recognised exactly") {
    std::string_view base;
    CHECK(is_temporary_name("x.hashes.tmp.123.0123456789abcdef", &base));
    CHECK(base == "x.hashes");
    CHECK(is_temporary_name("a.csv.next.tmp.7.ffffffffffffffff", &base));
    CHECK(base == "a.csv.next");
    const std::string mine = fs::path(temp_path_for("dir/y.csv")).filename().string();
    CHECK(is_temporary_name(mine, &base));
    CHECK(base == "y.csv");
    for (const char* no : {"x.hashes", "x.tmp.1.0123456789abcdeg", "x.tmp..0123456789abcdef",
                           "x.tmp.1.0123456789ABCDEF", "x.tmp.1.0123456789abcde",
                           ".tmp.1.0123456789abcdef", "xtmp.1.0123456789abcdef"}) {
        INFO(no);
        CHECK_FALSE(is_temporary_name(no, &base));
    }
}

TEST_CASE("formats: the expected text finds the first differing row and column") {
    const std::string golden = "# fxkcc-trajectory 1\nh\n0,1,1.5,2\n1,1,1.75,2\n";
    {
        ExpectedText e(golden);
        std::ostream o(&e);
        o << golden;
        CHECK(e.matches());
        CHECK(e.difference() == "");
    }
    {
        ExpectedText e(golden);
        std::ostream o(&e);
        o << "# fxkcc-trajectory 1\nh\n";
        o.write("0,1,1.5,2\n", 10);
        o.write("1,1,1.75,3\n", 11);
        CHECK_FALSE(e.matches());
        CHECK(e.difference() == "line 4 (tick 1, character 1): y: the golden has '2', the run '3'");
    }
    {
        ExpectedText e(golden);
        std::ostream o(&e);
        o << golden.substr(0, golden.size() - 11);
        CHECK_FALSE(e.matches());
        CHECK(e.difference() == "the golden CSV has 44 bytes, the run wrote 33");
    }
}

TEST_CASE("verify: the golden CSV is compared byte for byte, render poses included") {
    TempDir dir("verifycsv");
    const Scenario sc = fxtest::load_ok(R"(format: 1
name: framed
description: d
ticks: 20
frames:
  - {ms: 6.9444, count: 100}
world:
  - plane: {id: 1, normal: [0, 1, 0], offset: 0}
characters:
  - {id: 1, spawn: [0, 0.015, 0], input: {segments: [{ticks: 20, stick: [0, 1]}]}}
)");
    SuiteOptions suite;
    suite.golden_dir = dir.file("golden");
    suite.target = "t";
    Loaded loaded;
    loaded.sc = sc;
    loaded.ok = true;
    HashFile hashes;
    std::string err;
    REQUIRE(write_goldens(suite, sc, &hashes, &err));
    CHECK(verify_one(suite, "framed.yaml", loaded).status == Status::kPass);
    // A forged pair: one render cell changed, and the digest the hash file records made to match.
    const std::string csv_path = golden_csv_path(suite, "framed");
    std::string csv = slurp(csv_path);
    size_t row = csv.find("\n5,1,");
    REQUIRE(row != std::string::npos);
    const size_t end = csv.find('\n', row + 1);
    std::string line = csv.substr(row + 1, end - row - 1);
    const size_t render_x = [&] {
        size_t pos = 0;
        for (int cell = 0; cell < 15; ++cell)
            pos = line.find(',', pos) + 1;
        return pos;
    }();
    REQUIRE(line[render_x] != ','); // the frame clock drew tick 5
    line.insert(render_x, "1");
    csv = csv.substr(0, row + 1) + line + csv.substr(end);
    spit(csv_path, csv);
    HashFile golden;
    REQUIRE(read_hash_file(golden_hashes_path(suite, "framed"), &golden, &err));
    golden.header.csv_digest = content_digest(csv);
    spit(golden_hashes_path(suite, "framed"), hash_file_text(golden));
    const Outcome o = verify_one(suite, "framed.yaml", loaded);
    CHECK(o.status == Status::kMismatch);
    CHECK(
        o.summary.find(
            "the golden trajectory CSV differs from the run: line 8 (tick 5, character 1): render_x: "
            "the golden has '1") != std::string::npos);
    INFO(o.summary);
    // Without the forged digest it is a broken golden instead.
    spit(csv_path, csv + "0");
    const Outcome broken = verify_one(suite, "framed.yaml", loaded);
    CHECK(broken.status == Status::kBadInput);
    CHECK(broken.summary.find("is not the one its hash file records") != std::string::npos);
}

TEST_CASE(
    "formats: JSON reports hold any bytes of a name or a message, and numbers as the CSV writes them") {
    using fx::harness::dump_json;
    using fx::harness::Json;
    using fx::harness::json_decimal;
    using fx::harness::json_text;
    // Written and read back: every string survives, each byte that is not UTF-8 as its Latin-1
    // character (the escape a reader decodes is \u00NN).
    const std::string strings[] = {
        "plain", "a\"b\\c", "line\nnext\ttab\r", std::string("\x01\x1f\x7f", 3),
        "caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x99\x82",
        // Not UTF-8: a lone continuation byte, a truncated sequence, bytes that never start one.
        "\x80", "\xe2\x80", "\xc0\xaf \xff \xf5\x80\x80\x80"};
    const std::string latin1[] = {"plain",
                                  "a\"b\\c",
                                  "line\nnext\ttab\r",
                                  std::string("\x01\x1f\x7f", 3),
                                  "caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x99\x82",
                                  "\xc2\x80",
                                  "\xc3\xa2\xc2\x80",
                                  "\xc3\x80\xc2\xaf \xc3\xbf \xc3\xb5\xc2\x80\xc2\x80\xc2\x80"};
    for (size_t i = 0; i < std::size(strings); ++i) {
        INFO(i);
        const std::string text = dump_json(Json::object({{"s", strings[i]}}));
        const auto back = nlohmann::json::parse(text); // throws on invalid JSON or UTF-8
        CHECK(back["s"].get<std::string>() == latin1[i]);
        CHECK(text.back() == '\n');
    }
    CHECK(dump_json(Json::object({{"s", "\x01"}})) == "{\n  \"s\": \"\\u0001\"\n}\n");
    CHECK(json_text(strings[7]) == latin1[7]);
    // Keys and members keep the order they were set in; a key set again keeps its place.
    Json ordered = Json::object({{"z", 1}, {"a", true}});
    ordered.set("m", nullptr).set("z", "again");
    Json list = Json::array();
    list.push_back(-3);
    list.push_back(std::uint64_t{18446744073709551615u});
    ordered.set("list", std::move(list));
    CHECK(dump_json(ordered) == "{\n  \"z\": \"again\",\n  \"a\": true,\n  \"m\": null,\n"
                                "  \"list\": [\n    -3,\n    18446744073709551615\n  ]\n}\n");
    // Numbers are the decimal text they were made from, and print back as its digits (below
    // 1e-4 in exponent form: 1e-06).
    for (const char* d :
         {"120", "-3", "0", "6.2", "-0.25", "0.0001", "1234567.123456", "3.141593"}) {
        INFO(d);
        const std::string text = dump_json(json_decimal(d));
        CHECK(text == std::string(d) + "\n");
        CHECK(nlohmann::json::parse(text).get<double>() == std::strtod(d, nullptr));
    }
    CHECK(dump_json(json_decimal("0.000001")) == "1e-06\n");
    CHECK(nlohmann::json::parse(dump_json(json_decimal("120"))).is_number_integer());
    CHECK(nlohmann::json::parse(dump_json(json_decimal("1.5"))).is_number_float());
    for (const char* bad : {"not a number", "", "-", "1.", ".5", "1e5", "1.2.3"}) {
        INFO(bad);
        CHECK(dump_json(json_decimal(bad)) == "null\n");
    }
}

namespace {
/// Whether `s` is well-formed UTF-8 whose every character XML 1.0 allows (its Char production:
/// tab, line feed, carriage return, U+0020..U+D7FF, U+E000..U+FFFD, U+10000..U+10FFFF), decoded
/// here on its own terms (not with the writer's code).
bool xml_chars_only(const std::string& s) {
    for (size_t i = 0; i < s.size();) {
        const auto b = [&](size_t k) { return static_cast<uint32_t>(static_cast<uint8_t>(s[k])); };
        uint32_t cp = b(i);
        size_t n = 1;
        if (cp >= 0x80) {
            n = cp >= 0xF0 ? 4 : cp >= 0xE0 ? 3 : cp >= 0xC0 ? 2 : 0;
            if (n == 0 || i + n > s.size()) return false;
            cp &= 0x7F >> n;
            for (size_t k = 1; k < n; ++k) {
                if ((b(i + k) & 0xC0) != 0x80) return false;
                cp = cp << 6 | (b(i + k) & 0x3F);
            }
            const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
            if (cp < least[n]) return false; // overlong
        }
        const bool ok = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
                        (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
        if (!ok) return false;
        i += n;
    }
    return true;
}
} // namespace

namespace {

/// Six bytes from a linear congruential generator: ten times in sixteen one of the ten `picks`
/// (the bytes that start, continue or break UTF-8 sequences under test), else any byte.
std::string random_bytes(uint64_t* state, const std::array<uint8_t, 10>& picks) {
    std::string s;
    for (int k = 0; k < 6; ++k) {
        *state = *state * 6364136223846793005u + 1442695040888963407u;
        s += static_cast<char>((*state >> 60) < 10 ? picks[*state >> 60] : (*state >> 33) & 0xff);
    }
    return s;
}

} // namespace

TEST_CASE("formats: XML reports (JUnit, SVG) hold any bytes of a path or a message as XML 1.0 "
          "characters") {
    using fx::harness::text::xml_escape;
    // A path with a control byte and a Latin-1 byte (a folder named in Latin-1, 'caf\xe9') made the
    // JUnit report and the plot's SVG unreadable: "not proper UTF-8", "invalid Char value 1".
    CHECK(xml_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c'");
    CHECK(xml_escape(std::string("r\x01.csv", 6)) == "r\\x01.csv");
    CHECK(xml_escape(std::string("\x00\x1b[31m", 6)) == "\\x00\\x1b[31m");
    CHECK(xml_escape("tab\tline\ncr\r") == "tab\tline\ncr\r");
    CHECK(xml_escape("caf\xe9") == "caf\xc3\xa9");
    CHECK(xml_escape("caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x99\x82") ==
          "caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x99\x82");
    CHECK(xml_escape("\xef\xbf\xbe\xef\xbf\xbf\xef\xbf\xbd") == "\\uFFFE\\uFFFF\xef\xbf\xbd");
    // Not UTF-8, each byte then as its Latin-1 character: overlong, a surrogate, past U+10FFFF,
    // cut short, stray.
    CHECK(xml_escape("\xc0\xaf") == "\xc3\x80\xc2\xaf");
    CHECK(xml_escape("\xed\xa0\x80") == "\xc3\xad\xc2\xa0&#x80;");
    CHECK(xml_escape("\xf4\x90\x80\x80") == "\xc3\xb4&#x90;&#x80;&#x80;");
    CHECK(xml_escape("\xe2\x80") == "\xc3\xa2&#x80;");
    CHECK(xml_escape("\x80\xff") == "&#x80;\xc3\xbf");
    // C1 and bidirectional controls, a Latin-1 byte's or UTF-8's, as references: the same text to
    // an XML reader, nothing a terminal acts on when the report is printed.
    CHECK(xml_escape("a\x9b"
                     "2J \xc2\x9b \xe2\x80\xae \xd8\x9c \xc2\xa0") ==
          "a&#x9b;2J &#x9b; &#x202e; &#x61c; \xc2\xa0");
    // Every byte pair and a sample of longer byte strings: always XML characters.
    for (int a = 0; a < 256; ++a) {
        for (int b = 0; b < 256; ++b) {
            const char two[2] = {static_cast<char>(a), static_cast<char>(b)};
            const std::string out = xml_escape(std::string_view(two, 2));
            if (!xml_chars_only(out)) FAIL("bytes " << a << " " << b);
        }
    }
    uint64_t state = 1;
    for (int i = 0; i < 20000; ++i) {
        const std::string s =
            random_bytes(&state, {0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xbf, 0x80, 0xa0, 0x01, 'x'});
        if (!xml_chars_only(xml_escape(s))) FAIL("random string " << i);
    }
}

TEST_CASE("formats: a JSON report holds C1 and bidirectional characters as JSON escapes") {
    using fx::harness::Json;
    Json j = Json::object();
    j.set("path", Json(std::string_view("a\x9b"
                                        "2J \xc2\x85 \xe2\x80\xae \xe2\x81\xa6 caf\xc3\xa9 \x1b")));
    const std::string text = fx::harness::dump_json(j);
    CHECK(text == "{\n  \"path\": \"a\\u009b2J \\u0085 \\u202e \\u2066 caf\xc3\xa9 \\u001b\"\n}\n");
}

TEST_CASE("formats: names a terminal or a CI log would act on are found and shown escaped") {
    using fx::harness::text::acting_name_error;
    using fx::harness::text::has_acting_character;
    using fx::harness::text::shown;
    // Every C0 control, DEL, the C1 controls U+0080..U+009F and the bidirectional controls.
    for (int c = 0; c < 0x20; ++c)
        CHECK(has_acting_character(std::string("a") + static_cast<char>(c) + "b"));
    CHECK(has_acting_character("\x7f"));
    CHECK(has_acting_character("\xc2\x80"));
    CHECK(has_acting_character("\xc2\x9b[2J")); // C1 CSI
    // A lone byte 0x80..0x9F (not UTF-8): an 8-bit terminal's C1, and U+0080..U+009F once a JSON
    // or XML report reads it as Latin-1.
    CHECK(has_acting_character("a\x9b"
                               "2J"));
    CHECK(has_acting_character("\xe2\x80")); // a cut sequence: its 0x80 stands alone
    CHECK(shown("a\x9b"
                "2J\x80") == "a\\x9b2J\\x80");
    for (const char* bidi : {"\xd8\x9c", "\xe2\x80\x8e", "\xe2\x80\x8f", "\xe2\x80\xaa",
                             "\xe2\x80\xae", "\xe2\x81\xa6", "\xe2\x81\xa9"})
        CHECK(has_acting_character(std::string("x") + bidi));
    // Text around them is not: printable ASCII, Latin-1 bytes, other UTF-8, the neighbours of the
    // ranges, sequences that are not UTF-8.
    for (const char* fine :
         {"walk-wall.yaml", "caf\xe9", "caf\xc3\xa9", "\xc2\xa0", "\xc2\xbf", "\xe2\x80\x8d",
          "\xe2\x80\xa9", "\xe2\x80\xaf", "\xe2\x81\xa5", "\xe2\x81\xaa", "\xd8\x9b",
          "\xf0\x9f\x99\x82", "\xe9", "\xa0", "\xff\xfe", ""})
        CHECK_FALSE(has_acting_character(fine));
    CHECK(shown("a\n::error::x\x1b[2J\tb\r") == "a\\n::error::x\\x1b[2J\\tb\\r");
    CHECK(shown("x\xe2\x80\xaey \xc2\x9b caf\xc3\xa9 \xe9") ==
          "x\\u202ey \\u009b caf\xc3\xa9 \xe9");
    CHECK(acting_name_error("golden/ok.hashes").empty());
    CHECK(acting_name_error("golden/a\n::warning::b.hashes") ==
          "'golden/a\\n::warning::b.hashes': a file name with a control or bidirectional character "
          "is refused (a terminal or a CI log would act on it; rename the file)");
    // Whatever the bytes, what shown() gives holds none of them.
    uint64_t state = 7;
    for (int i = 0; i < 20000; ++i) {
        const std::string s =
            random_bytes(&state, {0xe2, 0x80, 0x81, 0xae, 0xc2, 0x9b, 0xd8, 0x9c, 0x1b, 'x'});
        if (has_acting_character(shown(s))) FAIL("random string " << i);
    }
}

// The command line's own logic: option values CLI11 cannot check, the command table, colour.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>

#include "commands/command.h"
#include "commands/options.h"
#include "commands/style.h"
#include "run/verify.h"

using namespace fx::harness;

TEST_CASE("options: --shard takes K/N with 1 <= K <= N") {
    int k = 0, n = 0;
    std::string error;
    CHECK(parse_shard("1/1", &k, &n, &error));
    CHECK((k == 1 && n == 1));
    CHECK(parse_shard("3/4", &k, &n, &error));
    CHECK((k == 3 && n == 4));
    for (const char* bad : {"", "1", "/", "0/4", "5/4", "1/0", "-1/4", "1/-4", "a/4", "1/4x",
                            " 1/4", "1/4/5", "99999999999999999999/1"}) {
        INFO(bad);
        CHECK_FALSE(parse_shard(bad, &k, &n, &error));
        CHECK(error == "expected K/N with 1 <= K <= N, found '" + std::string(bad) + "'");
    }
}

TEST_CASE("options: CI is set unless empty, 0, false, no or off") {
    CHECK_FALSE(ci_is_set(nullptr));
    for (const char* off : {"", "0", "false", "FALSE", "False", "no", "off", "Off"}) {
        INFO(off);
        CHECK_FALSE(ci_is_set(off));
    }
    for (const char* on : {"1", "true", "yes", "on", "TRUE", "github-actions"}) {
        INFO(on);
        CHECK(ci_is_set(on));
    }
}

TEST_CASE("options: --trace-ticks takes A:B with A <= B, or A alone") {
    int64_t a = -1, b = -1;
    std::string error;
    CHECK(parse_tick_range("5", &a, &b, &error));
    CHECK((a == 5 && b == 5));
    CHECK(parse_tick_range("0:9999999", &a, &b, &error));
    CHECK((a == 0 && b == 9999999));
    CHECK(parse_tick_range("7:7", &a, &b, &error));
    for (const char* bad : {"", ":", "3:", ":3", "4:3", "-1:3", "1:2:3", "a:b", "1.5:2", "1:2 "}) {
        INFO(bad);
        CHECK_FALSE(parse_tick_range(bad, &a, &b, &error));
        CHECK(error == "expected A:B with 0 <= A <= B, found '" + std::string(bad) + "'");
    }
}

TEST_CASE("options: a target name is one path component") {
    for (const char* good : {"x86_64-linux", "wasm32-emscripten", "a.b_c-1"})
        CHECK(valid_target_name(good));
    for (const char* bad : {"", ".", "..", "../x", "/etc", "a/b", "a\\b", "x y", "x:y"}) {
        INFO(bad);
        CHECK_FALSE(valid_target_name(bad));
    }
}

TEST_CASE("options: desync's inputs and default sides") {
    DesyncCommand one;
    assign_desync_inputs({"s.yaml"}, &one);
    CHECK(one.scenario == "s.yaml");
    CHECK((one.golden.empty() && one.hashes_a.empty()));
    DesyncCommand golden;
    assign_desync_inputs({"s.yml", "golden/x/s.hashes"}, &golden);
    CHECK((golden.scenario == "s.yml" && golden.golden == "golden/x/s.hashes"));
    DesyncCommand two;
    assign_desync_inputs({"a.hashes", "b.hashes"}, &two);
    CHECK((two.scenario.empty() && two.hashes_a == "a.hashes" && two.hashes_b == "b.hashes"));

    DesyncCommand sides;
    sides.b = "qemu-aarch64 fxkcc";
    default_desync_sides("/bin/fxkcc", &sides);
    CHECK((sides.a == "/bin/fxkcc" && sides.b == "qemu-aarch64 fxkcc"));
}

TEST_CASE("options: shrink has sides only when one is asked for") {
    ShrinkCommand checks;
    default_shrink_sides("/bin/fxkcc", &checks);
    CHECK((checks.a.empty() && checks.b.empty()));
    ShrinkCommand desync;
    desync.b_args = "--inject-fault 3:1:x:1";
    default_shrink_sides("/bin/fxkcc", &desync);
    CHECK((desync.a == "/bin/fxkcc" && desync.b == "/bin/fxkcc"));
}

TEST_CASE(
    "colour: on a terminal by default, off for pipes, NO_COLOR and TERM=dumb, --color decides") {
    CHECK(colour_wanted(ColourMode::kAuto, true, nullptr, "xterm"));
    CHECK_FALSE(colour_wanted(ColourMode::kAuto, false, nullptr, "xterm"));
    CHECK_FALSE(colour_wanted(ColourMode::kAuto, true, "1", "xterm"));
    CHECK(colour_wanted(ColourMode::kAuto, true, "", "xterm")); // NO_COLOR empty: as if unset
    CHECK_FALSE(colour_wanted(ColourMode::kAuto, true, nullptr, "dumb"));
    CHECK(colour_wanted(ColourMode::kAlways, false, "1", "dumb"));
    CHECK_FALSE(colour_wanted(ColourMode::kNever, true, nullptr, "xterm"));
    ColourMode m = ColourMode::kAuto;
    CHECK(parse_colour_mode("never", &m));
    CHECK(m == ColourMode::kNever);
    CHECK_FALSE(parse_colour_mode("yes", &m));
}

TEST_CASE("colour: styles wrap text in SGR codes only when on") {
    const Style off{false}, on{true};
    CHECK(off.bad("MISMATCH") == "MISMATCH");
    CHECK(off.good("pass") == "pass");
    CHECK(on.good("pass") == "\x1b[32mpass\x1b[0m");
    CHECK(on.bad("MISMATCH") == "\x1b[1m\x1b[31mMISMATCH\x1b[0m");
    CHECK(on.warning("STALE") == "\x1b[33mSTALE\x1b[0m");
    CHECK(on.strong("name") == "\x1b[1mname\x1b[0m");
}

TEST_CASE("command table: every subcommand once, each with help and a factory") {
    std::set<std::string> names;
    for (const CommandEntry& c : command_table()) {
        INFO(c.name);
        CHECK(names.insert(c.name).second);
        CHECK(std::string(c.help).size() > 10);
        CHECK(c.make() != nullptr);
        CHECK(find_command(c.name) == &c);
        // Its own exit codes, each command's --help footer.
        REQUIRE(c.exit_codes != nullptr);
        CHECK(std::string(c.exit_codes).find("  0    ") != std::string::npos);
    }
    CHECK(names == std::set<std::string>{"run", "bench", "desync", "verify", "bless", "review",
                                         "diff", "compare-goldens", "list", "validate", "plot",
                                         "shrink", "synctest", "swarm"});
    CHECK(find_command("verfy") == nullptr);
}

namespace {

int fxkcc(std::initializer_list<const char*> args, std::string* out, std::string* err,
          bool terminal = false) {
    std::vector<const char*> argv{"fxkcc"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::ostringstream o, e;
    const int rc = fxkcc_main(static_cast<int>(argv.size()), argv.data(), o, e, terminal, terminal);
    *out = o.str();
    *err = e.str();
    return rc;
}

} // namespace

TEST_CASE("fxkcc_main: help lists the table, bad usage exits 2 naming what was expected") {
    std::string out, err;
    CHECK(fxkcc({"--help"}, &out, &err) == kExitOk);
    for (const CommandEntry& c : command_table())
        CHECK(out.find(c.name) != std::string::npos);
    CHECK(out.find("125  cannot test") != std::string::npos);
    CHECK(fxkcc({"--color", "sometimes", "list"}, &out, &err) == kExitBadInput);
    CHECK(err.find("expected auto, always or never, found 'sometimes'") != std::string::npos);
    CHECK(fxkcc({"run", "x.yaml", "--trace-ticks", "9:3"}, &out, &err) == kExitBadInput);
    CHECK(err == "fxkcc run: --trace-ticks: expected A:B with 0 <= A <= B, found '9:3'\n");
    CHECK(fxkcc({"verify", "--shard", "0/2"}, &out, &err) == kExitBadInput);
    CHECK(err.find("expected K/N with 1 <= K <= N, found '0/2'") != std::string::npos);
    CHECK(fxkcc({}, &out, &err) == kExitBadInput); // no subcommand: the help, exit 2
    CHECK(out.find("Subcommands:") != std::string::npos);
}

// ---- select_scenarios: the filter, then shards balanced by run cost (issue 19) ----

namespace {
/// n loaded scenarios named s00.., one character each, with the given tick counts.
std::vector<fx::harness::Loaded> suite_of(const std::vector<int64_t>& ticks,
                                          std::vector<std::string>* paths) {
    std::vector<fx::harness::Loaded> loaded(ticks.size());
    paths->clear();
    for (size_t i = 0; i < ticks.size(); ++i) {
        const std::string name = (i < 10 ? "s0" : "s") + std::to_string(i);
        paths->push_back("scenarios/" + name + ".yaml");
        loaded[i].ok = true;
        loaded[i].sc.name = name;
        loaded[i].sc.ticks = ticks[i];
        loaded[i].sc.characters.resize(1);
    }
    return loaded;
}
} // namespace

TEST_CASE("select: shards are balanced by cost, disjoint, complete and the same on every call") {
    // 40 scenarios from 10 to 4,000 ticks, in a scrambled order of cost.
    std::vector<int64_t> ticks;
    for (int i = 0; i < 40; ++i)
        ticks.push_back(10 + (i * 37 % 40) * 100);
    std::vector<std::string> paths;
    const std::vector<fx::harness::Loaded> loaded = suite_of(ticks, &paths);
    for (int n : {2, 3, 4, 7}) {
        INFO("shards: " << n);
        std::vector<int> owner(loaded.size(), -1);
        std::vector<int64_t> cost(static_cast<size_t>(n), 0);
        for (int k = 1; k <= n; ++k) {
            fx::harness::SuiteOptions suite;
            suite.shard_index = k;
            suite.shard_count = n;
            const std::vector<size_t> mine = fx::harness::select_scenarios(suite, paths, loaded);
            CHECK(mine == fx::harness::select_scenarios(suite, paths, loaded));
            CHECK(std::is_sorted(mine.begin(), mine.end()));
            for (size_t i : mine) {
                CHECK(owner[i] == -1);
                owner[i] = k;
                cost[static_cast<size_t>(k - 1)] += ticks[i];
            }
        }
        CHECK(std::count(owner.begin(), owner.end(), -1) == 0);
        const auto [lo, hi] = std::minmax_element(cost.begin(), cost.end());
        // Dealt round-robin by path (the old way) the 7 shards here differ by 1.95x; by cost
        // every count is within 5 %.
        CHECK(static_cast<double>(*hi) <= 1.05 * static_cast<double>(*lo));
    }
}

TEST_CASE("select: the filter keeps names containing it, and scenarios that did not load") {
    std::vector<std::string> paths;
    std::vector<fx::harness::Loaded> loaded = suite_of({100, 200, 300}, &paths);
    loaded[2].ok = false; // its name is unknown: it is kept, so that its error is reported
    loaded[2].sc.name.clear();
    fx::harness::SuiteOptions suite;
    suite.filter = "s01";
    size_t matched = 0;
    CHECK(fx::harness::select_scenarios(suite, paths, loaded, &matched) ==
          std::vector<size_t>{1, 2});
    CHECK(matched == 2);
    suite.filter = "nothing";
    CHECK(fx::harness::select_scenarios(suite, paths, loaded, &matched) == std::vector<size_t>{2});
}

#include "commands/options.h"

#include <cctype>
#include <filesystem>

#include "forensics/sides.h"
#include "subcommands.h"

namespace fx::harness {
namespace {

/// A whole non-negative decimal number of at most 18 digits.
bool parse_count(std::string_view t, int64_t* out) {
    if (t.empty() || t.size() > 18) return false;
    int64_t v = 0;
    for (char c : t) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + (c - '0');
    }
    *out = v;
    return true;
}

} // namespace

bool parse_shard(std::string_view text, int* k, int* n, std::string* error) {
    const size_t slash = text.find('/');
    int64_t kk = 0, nn = 0;
    if (slash == std::string_view::npos || !parse_count(text.substr(0, slash), &kk) ||
        !parse_count(text.substr(slash + 1), &nn) || nn < 1 || nn > 1000000 || kk < 1 || kk > nn) {
        *error = "expected K/N with 1 <= K <= N, found '" + std::string(text) + "'";
        return false;
    }
    *k = static_cast<int>(kk);
    *n = static_cast<int>(nn);
    return true;
}

bool parse_tick_range(std::string_view text, int64_t* from, int64_t* to, std::string* error) {
    const size_t colon = text.find(':');
    int64_t a = 0, b = 0;
    const bool ok = parse_count(text.substr(0, colon), &a) &&
                    (colon == std::string_view::npos ? (b = a, true)
                                                     : parse_count(text.substr(colon + 1), &b)) &&
                    a <= b;
    if (!ok) {
        *error = "expected A:B with 0 <= A <= B, found '" + std::string(text) + "'";
        return false;
    }
    *from = a;
    *to = b;
    return true;
}

bool ci_is_set(const char* value) {
    if (value == nullptr) return false;
    std::string v(value);
    for (char& c : v)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return !(v.empty() || v == "0" || v == "false" || v == "no" || v == "off");
}

bool valid_target_name(std::string_view v) {
    return !v.empty() && v != "." && v != ".." &&
           v.find_first_not_of(
               "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
               std::string_view::npos;
}

void assign_desync_inputs(const std::vector<std::string>& inputs, DesyncCommand* cmd) {
    const auto is_yaml = [](const std::string& p) {
        const std::string ext = std::filesystem::path(p).extension().string();
        return ext == ".yaml" || ext == ".yml";
    };
    if (inputs.size() == 2 && is_yaml(inputs[0])) {
        cmd->scenario = inputs[0]; // a run (side a) against a golden
        cmd->golden = inputs[1];
    } else if (inputs.size() == 2) {
        cmd->hashes_a = inputs[0];
        cmd->hashes_b = inputs[1];
    } else if (inputs.size() == 1) {
        cmd->scenario = inputs[0];
    }
}

void default_desync_sides(const std::string& self, DesyncCommand* cmd) {
    if (cmd->a.empty()) cmd->a = self;
    if (cmd->b.empty()) cmd->b = self;
}

void default_shrink_sides(const std::string& self, ShrinkCommand* cmd) {
    if (cmd->a.empty() && cmd->b.empty() && cmd->a_args.empty() && cmd->b_args.empty()) return;
    if (cmd->a.empty()) cmd->a = self;
    if (cmd->b.empty()) cmd->b = self;
}

std::string self_path(const char* argv0) {
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::absolute(argv0, ec);
    return ec ? std::string(argv0) : p.generic_string();
}

void add_side_timeout(OptionSet& app, int64_t* seconds) {
    app.add("--side-timeout", seconds,
            "Seconds a side's run may take before it and what it started are killed (0: 120 s plus "
            "2 ms a character-tick of the scenario)")
        .range(0, 1000000)
        .type_name("SECONDS");
}

int64_t side_limit_ms(int64_t seconds, const Scenario& sc) {
    if (seconds > 0) return seconds * 1000;
    return side_timeout_ms(sc.ticks * static_cast<int64_t>(sc.characters.size()));
}

void add_suite_options(OptionSet& app, SuiteOptions* s) {
    app.add("scenarios", &s->inputs, "Scenario files or folders (default: all of --scenarios-dir)");
    app.add("--scenarios-dir", &s->scenarios_dir, "The scenarios tree").show_default();
    app.add("--golden-dir", &s->golden_dir, "Where goldens live (golden/<target>/)").show_default();
    app.add("--target", &s->target, "Golden target folder (default: this build's target)")
        .target_name();
    app.add("-k,--filter", &s->filter, "Only scenarios whose name contains this text");
    app.flag("--allow-empty", &s->allow_empty, "A filter that selects no scenario is not an error");
    app.flag("--allow-outside", &s->allow_outside,
             "Let scenarios reference files outside the scenarios tree");
    app.custom(
           "--shard",
           [s](const std::string& v) {
               std::string error;
               return parse_shard(v, &s->shard_index, &s->shard_count, &error) ? std::string()
                                                                               : error;
           },
           "Run the K-th of N shards of the suite (K/N, 1-based)")
        .type_name("K/N");
}

} // namespace fx::harness

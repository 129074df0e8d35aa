// `fxkcc swarm`: generated runs, oracles, shrunk findings (swarm/swarm.h, docs/swarm.md).
#include "swarm/swarm.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <thread>

#include "records/atomic_file.h"
#include "records/paths.h"
#include "subcommands.h"

namespace fx::harness {

namespace fs = std::filesystem;

namespace {

struct SwarmCommand {
    int64_t seed = 1;
    int64_t runs = -1;
    int64_t run = -1;
    int64_t time = 0;
    int jobs = 0;
    std::string features;
    std::string out_dir, emit_dir, json_path, junit_path;
    std::string a, b, a_args, b_args;
    bool no_metamorphic = false, no_synctest = false;
    int shrink_runs = 300;
    int64_t side_timeout = 0;
    std::string known;
    std::string plant;
};

int swarm_command(const SwarmCommand& cmd, const std::string& self, std::ostream& out,
                  std::ostream& err) {
    swarm::SwarmOptions o;
    std::string error;
    o.seed = static_cast<uint64_t>(cmd.seed);
    if (cmd.runs >= 0 && cmd.run >= 0) {
        err << "fxkcc swarm: --runs and --run do not go together (--run K reproduces run K alone)\n";
        return kExitBadInput;
    }
    if (cmd.time > 0 && cmd.run >= 0) {
        err << "fxkcc swarm: --time and --run do not go together\n";
        return kExitBadInput;
    }
    // --runs N, or 100; with --time alone, as many as the time allows.
    o.runs = cmd.runs >= 0 ? cmd.runs : cmd.time > 0 ? int64_t{1} << 40 : 100;
    o.only_run = cmd.run;
    o.time_limit = cmd.time;
    o.jobs = cmd.jobs > 0 ? cmd.jobs
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (!cmd.features.empty()) {
        if (!swarm::parse_features(cmd.features, &o.features, &error)) {
            err << "fxkcc swarm: --features: " << error << "\n";
            return kExitBadInput;
        }
        o.features_text = cmd.features;
    }
    if (!cmd.known.empty() && !swarm::read_known(cmd.known, &o.known, &error)) {
        err << "fxkcc swarm: --known: " << error << "\n";
        return kExitBadInput;
    }
    o.out_dir = cmd.out_dir;
    o.emit_dir = cmd.emit_dir;
    o.shrink_runs = cmd.shrink_runs;
    o.oracles.metamorphic = !cmd.no_metamorphic;
    o.oracles.synctest = !cmd.no_synctest;
    if (!cmd.plant.empty()) {
        const auto& names = swarm::plantable_oracles();
        if (std::find(names.begin(), names.end(), cmd.plant) == names.end()) {
            std::string list;
            for (const std::string& n : names)
                list += (list.empty() ? "" : ", ") + n;
            err << "fxkcc swarm: --inject-oracle-fault: expected one of " << list << ", found '"
                << cmd.plant << "'\n";
            return kExitBadInput;
        }
        const bool metamorphic = cmd.plant != "roundtrip" && cmd.plant != "synctest";
        if (metamorphic ? cmd.no_metamorphic : cmd.no_synctest) {
            err << "fxkcc swarm: --inject-oracle-fault " << cmd.plant << ": that oracle is off ("
                << (metamorphic ? "--no-metamorphic" : "--no-synctest")
                << "): the test of the test would check nothing\n";
            return kExitBadInput;
        }
        o.oracles.plant = cmd.plant;
        o.side_args += "--inject-oracle-fault " + cmd.plant + " ";
    }
    std::vector<OutputPath> outputs;
    if (!cmd.json_path.empty() && cmd.json_path != "-")
        outputs.push_back({"--json", cmd.json_path});
    if (!cmd.junit_path.empty()) outputs.push_back({"--junit", cmd.junit_path});
    for (const OutputPath& dir :
         {OutputPath{"--out", cmd.out_dir}, OutputPath{"--emit", cmd.emit_dir}}) {
        if (dir.path.empty()) continue;
        if (const std::string refusal = output_folder_conflict(dir, "golden"); !refusal.empty()) {
            err << "fxkcc swarm: " << refusal << "\n";
            return kExitBadInput;
        }
    }
    if (cmd.junit_path == "-") {
        err << "fxkcc swarm: --junit: expected a file, found '-' (standard output carries the "
               "report's text, or its JSON with --json -)\n";
        return kExitBadInput;
    }
    // What the swarm reads or runs: the known findings, the sides' programs (every word of their
    // commands that names a file: `node build/fxkcc.js`) and fxkcc itself.
    std::vector<std::string> inputs{self};
    if (!cmd.known.empty()) inputs.push_back(cmd.known);
    for (const std::string* side : {&cmd.a, &cmd.b}) {
        std::vector<std::string> words;
        std::string unused;
        if (!split_words(*side, &words, &unused)) continue; // make_side reports it below
        for (const std::string& w : words) {
            std::error_code ec;
            if (fs::is_regular_file(w, ec)) inputs.push_back(w);
        }
    }
    o.inputs = inputs;
    if (const std::string conflict = output_conflict(outputs, inputs); !conflict.empty()) {
        err << "fxkcc swarm: " << conflict << "\n";
        return kExitBadInput;
    }
    // A report or an input named as the swarm names the scenarios it writes (swarm-*.yaml), in a
    // folder it writes them to, would be overwritten by one or overwrite it.
    std::vector<OutputPath> named = outputs;
    for (const std::string& input : inputs)
        named.push_back({"input", input});
    for (const OutputPath& file : named) {
        const fs::path path(file.path);
        const std::string name = path.filename().string();
        if (name.rfind("swarm-", 0) != 0 || path.extension() != ".yaml") continue;
        for (const auto& [flag, dir] :
             {std::pair{"--emit", cmd.emit_dir}, std::pair{"--out", cmd.out_dir}}) {
            if (dir.empty() ||
                resolved_path(fs::absolute(path).parent_path()) != resolved_path(dir))
                continue;
            err << "fxkcc swarm: " << (file.option == "input" ? "the " : "") << file.option << " '"
                << file.path << "' is named as the scenarios " << flag << " writes into '" << dir
                << "' (swarm-*.yaml)\n";
            return kExitBadInput;
        }
    }
    Side a, b;
    const bool sides =
        !cmd.a.empty() || !cmd.b.empty() || !cmd.a_args.empty() || !cmd.b_args.empty();
    if (sides) {
        if (!make_side(cmd.a.empty() ? self : cmd.a, cmd.a_args, &a, &error) ||
            !make_side(cmd.b.empty() ? self : cmd.b, cmd.b_args, &b, &error)) {
            err << "fxkcc swarm: " << error << "\n";
            return kExitBadInput;
        }
        // A generated run has at most a few tens of thousands of character-ticks.
        a.timeout_ms = b.timeout_ms =
            cmd.side_timeout > 0 ? cmd.side_timeout * 1000 : side_timeout_ms(100000);
        // A side that cannot run at all (not found, not executable, not fxkcc) is refused
        // before the first run: every run would otherwise report it.
        for (const auto& [tag, side] : {std::pair{"a", &a}, std::pair{"b", &b}}) {
            Side plain = *side;
            plain.extra.clear();
            const SideResult r = run_side(plain, {"--version"});
            if (r.exit_code != 0 || r.out.rfind("fxkcc ", 0) != 0) {
                err << "fxkcc swarm: side " << tag << " (" << side->label << ") cannot run fxkcc: "
                    << (r.exit_code == 0 ? "its --version does not start with 'fxkcc '"
                                         : "it " + side_outcome(r))
                    << (r.err.empty() ? "" : ": " + r.err.substr(0, r.err.find('\n'))) << "\n";
                return kExitCannotTest;
            }
        }
        o.oracles.a = &a;
        o.oracles.b = &b;
        // As a POSIX shell reads them back: in single quotes, a quote inside as '\''.
        auto quoted = [](const std::string& v) {
            std::string q = "'";
            for (const char c : v)
                q += c == '\'' ? std::string("'\\''") : std::string(1, c);
            return q + "'";
        };
        if (!cmd.a.empty()) o.side_args += "--a " + quoted(cmd.a) + " ";
        if (!cmd.b.empty()) o.side_args += "--b " + quoted(cmd.b) + " ";
        if (!cmd.a_args.empty()) o.side_args += "--a-args " + quoted(cmd.a_args) + " ";
        if (!cmd.b_args.empty()) o.side_args += "--b-args " + quoted(cmd.b_args) + " ";
        if (cmd.side_timeout > 0)
            o.side_args += "--side-timeout " + std::to_string(cmd.side_timeout) + " ";
    }
    if (!o.side_args.empty() && o.side_args.back() == ' ') o.side_args.pop_back();
    // The reports are written after the runs, which may take hours: a report that cannot be
    // written is found now (in the folders --out and --emit too, made first).
    if (!outputs.empty() && !swarm::make_output_folders(o, &error)) {
        err << "fxkcc swarm: " << error << "\n";
        return kExitCannotTest;
    }
    for (const OutputPath& report : outputs) {
        if (const std::string why = check_writable(report.path); !why.empty()) {
            err << "fxkcc swarm: " << report.option << ": " << why << "\n";
            return kExitCannotTest;
        }
    }
    o.progress = [&err](const std::string& line) { err << line << "\n" << std::flush; };
    swarm::SwarmReport report;
    // Ctrl-C (or a CI job's SIGTERM) during hours of runs: the runs in progress finish, and what
    // was found is shrunk and reported; a second signal stops at once.
    std::atomic<int> stop{0};
    o.stop = &stop;
    stop_gently_on_signal(&stop);
    int code = swarm::run_swarm(o, &report, &error);
    stop_gently_on_signal(nullptr);
    if (code == kExitCannotTest) {
        err << "fxkcc swarm: " << error << "\n";
        return code;
    }
    if (cmd.json_path == "-") {
        out << swarm::report_json(report);
    } else {
        out << swarm::report_text(report);
    }
    if (!cmd.json_path.empty() && cmd.json_path != "-" &&
        !write_file_atomic(cmd.json_path, swarm::report_json(report), &error)) {
        err << "fxkcc swarm: " << error << "\n";
        return kExitCannotTest;
    }
    if (!cmd.junit_path.empty() &&
        !write_file_atomic(cmd.junit_path, swarm::report_junit(report), &error)) {
        err << "fxkcc swarm: " << error << "\n";
        return kExitCannotTest;
    }
    return code;
}

/// An option's text stored in *target; an empty one refused (an unset variable in a CI script,
/// `--b "$SIDE"`, must not quietly turn a check off or name no file).
std::function<std::string(const std::string&)> given(std::string* target, const char* expected) {
    return [target, expected](const std::string& v) -> std::string {
        if (v.empty()) return std::string("expected ") + expected + ", found an empty string";
        *target = v;
        return "";
    };
}

class SwarmSubcommand final : public Subcommand {
public:
    void declare(OptionSet& app) override {
        app.add("--seed", &cmd_.seed,
                "The swarm's seed: run K of seed S is the same scenario on every target")
            .show_default()
            .range(0, INT64_MAX);
        app.add("--runs", &cmd_.runs, "Runs 0 .. N-1 (default 100; with --time: at most N)")
            .range(1, 100000000);
        app.add("--run", &cmd_.run, "Run K alone: the reproduction of a finding")
            .range(0, INT64_MAX / 4);
        app.add("--time", &cmd_.time, "Stop starting runs after this many seconds")
            .range(1, 100000000);
        app.add("-j,--jobs", &cmd_.jobs, "Runs in parallel (default: all cores)").range(1, 4096);
        app.custom(
            "--features", given(&cmd_.features, "a comma-separated list of features, or all"),
            "Comma-separated features a run may enable (default all; each run enables a random subset): "
            "wall-joint, corner, union, slot, seams, notch, step, ledge, slope, ceiling, platform, crush, crowd, roam, "
            "lifecycle, frames, offset, settings");
        app.custom("--out", given(&cmd_.out_dir, "a folder"),
                   "Write each finding's shrunk scenario into this folder");
        app.custom("--emit", given(&cmd_.emit_dir, "a folder"),
                   "Write every run's generated scenario into this folder");
        app.custom("--json", given(&cmd_.json_path, "a file, or - for standard output"),
                   "The report as JSON (- : on stdout instead of the text)");
        app.custom("--junit", given(&cmd_.junit_path, "a file"),
                   "The report as JUnit XML, one test case per oracle");
        app.custom("--a", given(&cmd_.a, "a command that runs fxkcc"),
                   "Command that runs fxkcc for side a (the sides oracle; default: this binary)");
        app.custom("--b", given(&cmd_.b, "a command that runs fxkcc"),
                   "Command that runs fxkcc for side b (default: this binary)");
        app.add("--a-args", &cmd_.a_args, "Extra run arguments for side a");
        app.add("--b-args", &cmd_.b_args, "Extra run arguments for side b");
        app.add(
               "--side-timeout", &cmd_.side_timeout,
               "Seconds a side's run may take before it and what it started are killed (0 or unset: 320, desync's limit for the largest generated run)")
            .range(0, 1000000)
            .type_name("SECONDS");
        app.flag("--no-metamorphic", &cmd_.no_metamorphic,
                 "Leave out the translate, permute, frames and turn oracles");
        app.flag("--no-synctest", &cmd_.no_synctest,
                 "Leave out the synctest and roundtrip oracles");
        app.add(
            "--inject-oracle-fault", &cmd_.plant,
            "ORACLE: plant a difference in that oracle's comparison (translate, permute, frames, turn, roundtrip, "
            "synctest): the test of the test, it must find something in every run it checks");
        app.custom(
            "--known", given(&cmd_.known, "a file of known findings"),
            "A file of known findings (oracle|family a line): reported as known, not a failure (exit 0)");
        app.add("--shrink-runs", &cmd_.shrink_runs, "Candidates tested per shrink at most")
            .show_default()
            .range(1, 100000);
    }
    int run(const Invocation& inv) override {
        return swarm_command(cmd_, inv.self, inv.out, inv.err);
    }

private:
    SwarmCommand cmd_;
};

} // namespace

std::unique_ptr<Subcommand> make_swarm_subcommand() {
    return std::make_unique<SwarmSubcommand>();
}

} // namespace fx::harness

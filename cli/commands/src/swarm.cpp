// `fxkcc swarm`: generated runs, oracles, shrunk findings (swarm/swarm.h, docs/swarm.md).
#include "swarm/swarm.h"

#include <algorithm>
#include <filesystem>
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
    std::vector<std::string> inputs;
    if (!cmd.known.empty()) inputs.push_back(cmd.known);
    if (const std::string conflict = output_conflict(outputs, inputs); !conflict.empty()) {
        err << "fxkcc swarm: " << conflict << "\n";
        return kExitBadInput;
    }
    // A report named as the swarm names the scenarios it writes (swarm-*.yaml), in a folder it
    // writes them to, would be overwritten by one or overwrite it.
    for (const OutputPath& report : outputs) {
        const fs::path path(report.path);
        const std::string name = path.filename().string();
        if (name.rfind("swarm-", 0) != 0 || path.extension() != ".yaml") continue;
        for (const auto& [flag, dir] :
             {std::pair{"--emit", cmd.emit_dir}, std::pair{"--out", cmd.out_dir}}) {
            if (dir.empty() ||
                resolved_path(fs::absolute(path).parent_path()) != resolved_path(dir))
                continue;
            err << "fxkcc swarm: " << report.option << " '" << report.path << "' is named as the "
                << "scenarios " << flag << " writes into '" << dir << "' (swarm-*.yaml)\n";
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
        auto quoted = [](const std::string& v) { return "'" + v + "'"; };
        if (!cmd.a.empty()) o.side_args += "--a " + quoted(cmd.a) + " ";
        if (!cmd.b.empty()) o.side_args += "--b " + quoted(cmd.b) + " ";
        if (!cmd.a_args.empty()) o.side_args += "--a-args " + quoted(cmd.a_args) + " ";
        if (!cmd.b_args.empty()) o.side_args += "--b-args " + quoted(cmd.b_args) + " ";
    }
    if (!o.side_args.empty() && o.side_args.back() == ' ') o.side_args.pop_back();
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
        app.add(
            "--features", &cmd_.features,
            "Comma-separated features a run may enable (default all; each run enables a random subset): "
            "wall-joint, corner, union, slot, seams, notch, step, ledge, slope, ceiling, platform, crush, crowd, roam, "
            "lifecycle, frames, offset, settings");
        app.add("--out", &cmd_.out_dir, "Write each finding's shrunk scenario into this folder");
        app.add("--emit", &cmd_.emit_dir, "Write every run's generated scenario into this folder");
        app.add("--json", &cmd_.json_path,
                "The report as JSON (- : on stdout instead of the text)");
        app.add("--junit", &cmd_.junit_path, "The report as JUnit XML, one test case per oracle");
        app.add("--a", &cmd_.a,
                "Command that runs fxkcc for side a (the sides oracle; default: this binary)");
        app.add("--b", &cmd_.b, "Command that runs fxkcc for side b (default: this binary)");
        app.add("--a-args", &cmd_.a_args, "Extra run arguments for side a");
        app.add("--b-args", &cmd_.b_args, "Extra run arguments for side b");
        app.add("--side-timeout", &cmd_.side_timeout,
                "Seconds a side's run may take before it and what it started are killed (0: 320)")
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
        app.add(
            "--known", &cmd_.known,
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

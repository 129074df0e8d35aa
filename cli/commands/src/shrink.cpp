// `fxkcc shrink`: a smaller scenario that fails the same way (forensics/shrink.h, docs/shrink.md).
#include <filesystem>
#include <system_error>

#include "forensics/desync.h"
#include "forensics/shrink.h"
#include "records/atomic_file.h"
#include "run/checks.h"
#include "scenario/loader.h"
#include "scenario/writer.h"
#include "subcommands.h"

namespace fs = std::filesystem;

namespace fx::harness {

int shrink_command(const ShrinkCommand& cmd, std::ostream& out, std::ostream& err) {
    std::string error;
    Scenario sc;
    if (!load_single_scenario(cmd.scenario, cmd.allow_outside, &sc, &error)) {
        err << error << "\n";
        return kExitBadInput;
    }
    if (cmd.output.empty()) {
        err << "fxkcc shrink: expected an output file (-o OUT.yaml)\n";
        return kExitBadInput;
    }
    if (const std::string conflict = output_conflict({{"-o", cmd.output}}, sc.inputs);
        !conflict.empty()) {
        err << "fxkcc shrink: " << conflict << "\n";
        return kExitBadInput;
    }
    if (cmd.max_runs < 1) {
        err << "fxkcc shrink: --max-runs: expected at least 1, found " << cmd.max_runs << "\n";
        return kExitBadInput;
    }
    // Written after every candidate was tried: an output that cannot be written is found first.
    if (const std::string why = check_writable(cmd.output); !why.empty()) {
        err << "fxkcc shrink: -o: " << why << "\n";
        return kExitCannotTest;
    }
    const bool desync = !cmd.a.empty() || !cmd.b.empty();
    Side a, b;
    TempFolder tmp;
    if (!tmp.ok()) {
        err << "fxkcc shrink: cannot create a temporary folder\n";
        return kExitCannotTest;
    }
    FailureSignature sig;
    ShrinkOracle oracle;
    const std::string base_dir = fs::path(cmd.scenario).parent_path().generic_string();
    if (desync) {
        if (!make_side(cmd.a.empty() ? cmd.b : cmd.a, cmd.a_args, &a, &error) ||
            !make_side(cmd.b.empty() ? cmd.a : cmd.b, cmd.b_args, &b, &error)) {
            err << "fxkcc shrink: " << error << "\n";
            return kExitBadInput;
        }
        a.timeout_ms = b.timeout_ms = side_limit_ms(cmd.side_timeout, sc);
        Scenario plain = sc;
        plain.expect_states.clear();
        plain.expect_metrics.clear();
        plain.expect_same_as.clear();
        bool diverged = false;
        if (!find_desync(plain, a, b, tmp, &sig, &diverged, &error)) {
            err << "fxkcc shrink: " << error << "\n";
            return kExitCannotTest;
        }
        if (!diverged) {
            err << "fxkcc shrink: the two sides do not diverge on " << cmd.scenario
                << ": nothing to shrink\n";
            return kExitBadInput;
        }
        oracle = desync_oracle(sig, a, b, tmp);
    } else {
        bool failed = false;
        if (!find_check_failure(sc, &sig, &failed, &error)) {
            err << "fxkcc shrink: " << error << "\n";
            return kExitBadInput;
        }
        if (!failed) {
            err << "fxkcc shrink: the scenario does not fail: nothing to shrink\n";
            return kExitBadInput;
        }
        if (sig.kind == FailureSignature::Kind::kExpectation) {
            if (sig.expect_index < 0) {
                err << "fxkcc shrink: cannot tell which expectation failed: " << sig.message
                    << "\n";
                return kExitBadInput;
            }
            for (const SameAsExpectation& e : sc.expect_same_as) {
                if (e.at.index == sig.expect_index) {
                    err << "fxkcc shrink: the failing expectation is a same_as comparison with another scenario, "
                           "which shrinking one side of cannot preserve: "
                        << sig.message << "\n";
                    return kExitBadInput;
                }
            }
        }
        oracle = check_oracle(sig, base_dir);
    }
    out << "shrinking " << cmd.scenario << ": " << sig.describe() << "\n";
    const ShrinkSizes before = shrink_sizes(sc);
    ShrinkOptions opts;
    opts.max_runs = cmd.max_runs;
    opts.progress = [&](const std::string& line) { out << "  " << line << "\n" << std::flush; };
    ShrinkResult r = shrink_scenario(sc, sig, oracle, opts);

    // Name, description, and the file.
    Scenario& res = r.scenario;
    const std::string suffix = "-shrunk";
    res.name = sc.name.substr(0, std::min<size_t>(sc.name.size(), 64 - suffix.size())) + suffix;
    std::string what = sig.describe();
    res.description = "Shrunk by `fxkcc shrink` from " + cmd.scenario + " (scenario " + sc.name +
                      ", " + format_sizes(before) + ")" +
                      (desync ? " with sides a = " + a.label + ", b = " + b.label : std::string()) +
                      ". Reproduces: " + what;
    res.deviation = sc.deviation;
    ScenarioWriteOptions wo;
    wo.output_dir = fs::path(cmd.output).parent_path().empty()
                        ? "."
                        : fs::path(cmd.output).parent_path().generic_string();
    if (!write_file_atomic(cmd.output, scenario_to_yaml(res, wo), &error)) {
        err << "fxkcc shrink: " << error << "\n";
        return kExitCannotTest;
    }

    // The output must load and fail the same way.
    Scenario check;
    SuiteOptions out_suite;
    out_suite.allow_outside = true;
    out_suite.scenarios_dir = wo.output_dir;
    bool same = load_for_suite(out_suite, cmd.output, &check, &error);
    std::string how;
    if (same) {
        if (desync) {
            // The written file itself, as both sides read it.
            DesyncReport rep;
            same = run_sides(cmd.output, a, b, tmp, &rep, &error) && rep.diverged &&
                   (!sig.has_entity || std::find(rep.entities.begin(), rep.entities.end(),
                                                 sig.entity) != rep.entities.end());
            how = "first divergent tick " + std::to_string(rep.tick);
        } else {
            CheckReport report;
            same = run_checked(check, nullptr, RunOptions{}, &report, &error);
            if (same) {
                const int position = sig.kind == FailureSignature::Kind::kExpectation
                                         ? expectation_position(res, sig.expect_index)
                                         : -1;
                const std::optional<int64_t> t = failure_tick(report, sig, position);
                same = t.has_value();
                for (const CheckFailure& f : report.failures) {
                    if (same && how.empty() && f.tick == *t) how = f.message;
                }
            }
        }
    }
    out << "before: " << format_sizes(before) << "\n"
        << "after:  " << format_sizes(shrink_sizes(res)) << "\n"
        << "runs:   " << r.runs << (r.out_of_runs ? " (stopped at --max-runs)" : "") << "\n";
    if (!same) {
        err << "fxkcc shrink: " << cmd.output << " was written but does not fail the same way"
            << (error.empty() ? "" : ": " + error) << "\n";
        return kExitCannotTest;
    }
    out << "wrote " << cmd.output << " (" << res.name << "); it fails the same way: " << how
        << "\n";
    return kExitOk;
}

namespace {

class ShrinkSubcommand final : public Subcommand {
public:
    void declare(OptionSet& app) override {
        app.add("scenario", &cmd_.scenario, "Scenario file that fails").required();
        app.add("-o,--output", &cmd_.output, "Where to write the shrunk scenario (YAML)")
            .required();
        app.add("--a", &cmd_.a,
                "Command that runs fxkcc for side a (a desync; default: this binary)");
        app.add("--b", &cmd_.b,
                "Command that runs fxkcc for side b (a desync; default: this binary)");
        app.add("--a-args", &cmd_.a_args,
                "Extra run arguments for side a (e.g. --inject-fault 57:1:vx:3)");
        app.add("--b-args", &cmd_.b_args, "Extra run arguments for side b");
        app.add("--max-runs", &cmd_.max_runs, "Candidates tested at most").show_default();
        app.flag("--allow-outside", &cmd_.allow_outside,
                 "Let the scenario reference files outside its tree");
        add_side_timeout(app, &cmd_.side_timeout);
    }
    int run(const Invocation& inv) override {
        default_shrink_sides(inv.self, &cmd_); // any side option makes it a desync shrink
        return shrink_command(cmd_, inv.out, inv.err);
    }

private:
    ShrinkCommand cmd_;
};

} // namespace

std::unique_ptr<Subcommand> make_shrink_subcommand() {
    return std::make_unique<ShrinkSubcommand>();
}

} // namespace fx::harness

// `fxkcc synctest`: every scenario of a suite run with a rollback of N ticks at every tick
// (run/synctest.h). The library's snapshot and restore are trusted only if this passes.
#include "run/synctest.h"

#include "subcommands.h"

namespace fx::harness {

namespace {

struct SyncTestCommand {
    SuiteOptions suite;
    int rollback = 8;
    int jobs = 0;
    std::string restore_fault;
};

int synctest_command(const SyncTestCommand& cmd, std::ostream& out, std::ostream& err) {
    Fault fault;
    std::string error;
    if (!cmd.restore_fault.empty() && !parse_fault(cmd.restore_fault, &fault, &error)) {
        err << "fxkcc synctest: --inject-restore-fault: " << error << "\n";
        return kExitBadInput;
    }
    std::vector<std::string> all;
    if (!discover_scenarios(cmd.suite, &all, &error)) {
        err << "fxkcc synctest: " << error << "\n";
        return kExitBadInput;
    }
    if (all.empty()) {
        err << "fxkcc synctest: no scenarios selected\n";
        return kExitBadInput;
    }
    std::vector<Loaded> all_loaded = load_all(cmd.suite, all, cmd.jobs, err);
    size_t matched = 0;
    const std::vector<size_t> picked = select_scenarios(cmd.suite, all, all_loaded, &matched);
    if (!filter_matched("synctest", cmd.suite, matched, all.size(), err)) return kExitBadInput;
    std::vector<std::string> paths;
    std::vector<Loaded> loaded;
    for (size_t i : picked) {
        paths.push_back(all[i]);
        loaded.push_back(std::move(all_loaded[i]));
    }
    std::vector<int64_t> costs = run_costs(loaded);
    const std::vector<Outcome> outcomes =
        run_parallel(paths, costs, cmd.jobs, false, err, [&](size_t i) {
            Outcome o;
            o.path = paths[i];
            if (!loaded[i].ok) {
                o.status = Status::kBadInput;
                o.summary = loaded[i].error;
                return o;
            }
            const Scenario& sc = loaded[i].sc;
            o.name = sc.name;
            SyncTestOptions opts;
            opts.rollback = cmd.rollback;
            opts.restore_fault = cmd.restore_fault.empty() ? nullptr : &fault;
            SyncTestResult r;
            std::string why;
            if (!sync_test(sc, opts, &r, &why)) {
                o.status = Status::kBadInput;
                o.summary = paths[i] + ": " + why;
                return o;
            }
            o.ticks = r.ticks;
            if (r.ok) {
                o.summary = std::to_string(r.ticks) + " ticks, rolled back " +
                            std::to_string(cmd.rollback) +
                            " at every tick: " + std::to_string(r.resimulated) +
                            " ticks simulated again, identical";
            } else {
                o.status = Status::kMismatch;
                o.summary = "desync at tick " + std::to_string(r.tick) +
                            " simulated again after restoring tick " +
                            std::to_string(r.restored_tick);
                o.detail = r.report;
            }
            return o;
        });
    int passed = 0, desynced = 0, bad = 0;
    for (const Outcome& o : outcomes) {
        if (o.status == Status::kPass) {
            ++passed;
            out << "pass        " << o.name << "  " << o.summary << "\n";
        } else if (o.status == Status::kMismatch) {
            ++desynced;
            out << "DESYNC      " << o.name << "  " << o.summary << "\n" << o.detail;
        } else {
            ++bad;
            err << o.summary << "\n";
        }
    }
    out << outcomes.size() << " scenarios, rollback " << cmd.rollback << ": " << passed
        << " identical, " << desynced << " desynced, " << bad << " errors\n";
    return exit_code_of(outcomes);
}

class SyncTestSubcommand final : public Subcommand {
public:
    void declare(OptionSet& app) override {
        add_suite_options(app, &cmd_.suite);
        app.add("--rollback", &cmd_.rollback, "Ticks rolled back and simulated again at every tick")
            .show_default()
            .range(1, 1000);
        app.add("-j,--jobs", &cmd_.jobs, "Scenarios run in parallel (default: all cores)")
            .range(1, 4096);
        app.add(
            "--inject-restore-fault", &cmd_.restore_fault,
            "TICK:CHARACTER:FIELD:BITS: flip that field's lowest bits right after every restore to the start "
            "of TICK (the test of the test: it must report a desync)");
    }
    int run(const Invocation& inv) override { return synctest_command(cmd_, inv.out, inv.err); }

private:
    SyncTestCommand cmd_;
};

} // namespace

std::unique_ptr<Subcommand> make_synctest_subcommand() {
    return std::make_unique<SyncTestSubcommand>();
}

} // namespace fx::harness

// `fxkcc plot`: an SVG of the level and one or two trajectories (forensics/plot.h, docs/plot.md).
#include <filesystem>
#include <system_error>

#include "forensics/plot.h"
#include "records/atomic_file.h"
#include "subcommands.h"

namespace fs = std::filesystem;

namespace fx::harness {

int plot_command(const PlotCommand& cmd, std::ostream& out, std::ostream& err) {
    Scenario sc;
    std::string error;
    if (cmd.csvs.size() > 2) {
        err << "fxkcc plot: --csv: expected at most two trajectories, found " << cmd.csvs.size()
            << "\n";
        return kExitBadInput;
    }
    if (!load_single_scenario(cmd.scenario, cmd.allow_outside, &sc, &error)) {
        err << error << "\n";
        return kExitBadInput;
    }
    std::vector<std::string> inputs = sc.inputs;
    inputs.insert(inputs.end(), cmd.csvs.begin(), cmd.csvs.end());
    if (const std::string conflict = output_conflict({{"-o", cmd.out_path}}, inputs);
        !conflict.empty()) {
        err << "fxkcc plot: " << conflict << "\n";
        return kExitBadInput;
    }
    std::vector<PlotSource> sources;
    for (const std::string& path : cmd.csvs) {
        PlotSource s;
        s.label = path;
        bool with_render = false;
        if (!read_trajectory(path, &s.rows, &with_render, &error, kMaxPlotCsvBytes)) {
            err << "fxkcc plot: " << error << "\n";
            return kExitBadInput;
        }
        if (std::string why = trajectory_mismatch(sc, s.rows, with_render, path); !why.empty()) {
            err << "fxkcc plot: " << why << "\n";
            return kExitBadInput;
        }
        sources.push_back(std::move(s));
    }
    if (sources.empty()) {
        PlotSource s;
        s.label = "run of " + cmd.scenario + " (this build)";
        if (!collect_trajectory(sc, &s.rows, &error)) {
            err << "fxkcc plot: " << sc.path << ": " << error << "\n";
            return kExitBadInput;
        }
        sources.push_back(std::move(s));
    }
    PlotOptions opts;
    opts.capsule_ticks = cmd.ticks;
    opts.character = cmd.character;
    std::string svg;
    PlotSummary summary;
    if (!plot_svg(sc, sources, opts, &svg, &summary, &error)) {
        err << "fxkcc plot: " << error << "\n";
        return kExitBadInput;
    }
    std::ostream* report = &out;
    if (cmd.out_path == "-") {
        out << svg;
        report = &err;
    } else {
        const fs::path parent = fs::path(cmd.out_path).parent_path();
        std::error_code ec;
        if (!parent.empty()) fs::create_directories(parent, ec);
        if (ec) {
            err << "fxkcc plot: cannot create folder '" << parent.generic_string()
                << "': " << ec.message() << "\n";
            return kExitCannotTest;
        }
        if (!write_file_atomic(cmd.out_path, svg, &error)) {
            err << "fxkcc plot: " << error << "\n";
            return kExitCannotTest;
        }
    }
    *report << "plot: "
            << (cmd.out_path == "-" ? std::string("SVG on stdout") : "wrote " + cmd.out_path)
            << ": " << sc.name << ", " << sources.size()
            << (sources.size() == 1 ? " trajectory" : " trajectories")
            << ", top view and side view along " << summary.side_axis << "\n";
    if (summary.compared) *report << summary.divergence_label << "\n";
    return kExitOk;
}

namespace {

class PlotSubcommand final : public Subcommand {
public:
    void declare(OptionSet& app) override {
        app.add("scenario", &cmd_.scenario, "Scenario file").required();
        app.add("--csv", &cmd_.csvs,
                "Trajectory CSV to draw (once or twice; none: run the scenario)")
            .take_all()
            .expected(1, 1);
        app.add("--ticks", &cmd_.ticks, "Draw the capsules at these ticks (comma-separated)")
            .delimiter(',');
        app.add("--character", &cmd_.character, "Only this character").range(0, 4294967295);
        app.add("-o,--output", &cmd_.out_path, "The SVG file to write ('-': stdout)").required();
        app.flag("--allow-outside", &cmd_.allow_outside,
                 "Let the scenario reference files outside its tree");
    }
    int run(const Invocation& inv) override { return plot_command(cmd_, inv.out, inv.err); }

private:
    PlotCommand cmd_;
};

} // namespace

std::unique_ptr<Subcommand> make_plot_subcommand() {
    return std::make_unique<PlotSubcommand>();
}

} // namespace fx::harness

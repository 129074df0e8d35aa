// `fxkcc validate`: loads every scenario of a suite and builds its world, without running it.
#include <map>

#include "kcc/world.h"
#include "subcommands.h"

namespace fx::harness {

int validate_command(const SuiteOptions& suite, std::ostream& out, std::ostream& err) {
    std::vector<std::string> paths;
    std::string error;
    if (!discover_scenarios(suite, &paths, &error)) {
        err << "fxkcc validate: " << error << "\n";
        return kExitBadInput;
    }
    int bad = 0;
    std::map<std::string, std::string> names; ///< name -> the first file that has it
    const std::vector<Loaded> loaded = load_all(suite, paths, 0, err);
    const std::vector<size_t> selected = select_scenarios(suite, paths, loaded);
    for (size_t i : selected) {
        const std::string& p = paths[i];
        const Scenario& sc = loaded[i].sc;
        if (!loaded[i].ok) {
            err << loaded[i].error << "\n";
            ++bad;
            continue;
        }
        // Geometry that loads may still fail to build (e.g. a scene-level check).
        kcc::World world;
        if (!build_world(sc, &world, &error)) {
            err << p << ": " << error << "\n";
            ++bad;
            continue;
        }
        if (const auto [it, fresh] = names.emplace(sc.name, p); !fresh) {
            // Names must be unique: they name the goldens.
            err << p << ": the name '" << sc.name << "' is already used by " << it->second
                << " (names must be unique: they name the goldens)\n";
            ++bad;
            continue;
        }
        out << "ok  " << sc.name << "  (" << p << ")\n";
    }
    out << selected.size() - static_cast<size_t>(bad) << " valid, " << bad << " invalid\n";
    return bad == 0 ? kExitOk : kExitBadInput;
}

namespace {

class ValidateSubcommand final : public Subcommand {
public:
    void declare(OptionSet& app) override { add_suite_options(app, &suite_); }
    int run(const Invocation& inv) override { return validate_command(suite_, inv.out, inv.err); }

private:
    SuiteOptions suite_;
};

} // namespace

std::unique_ptr<Subcommand> make_validate_subcommand() {
    return std::make_unique<ValidateSubcommand>();
}

} // namespace fx::harness

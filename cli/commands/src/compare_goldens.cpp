// compare-goldens: proves that every target captured the same goldens. For each scenario, the
// hash file of every target folder under golden/ must agree with the reference target's tick
// by tick (provenance lines aside: they name the target and compiler), and the trajectory
// CSVs must be byte-identical.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "records/atomic_file.h"
#include "records/compare.h"
#include "records/hash_file.h"
#include "records/text.h"
#include "records/tick_hash.h"
#include "run/suite.h"
#include "subcommands.h"

namespace fs = std::filesystem;

namespace fx::harness {

int compare_goldens_command(const CompareGoldensCommand& cmd, std::ostream& out,
                            std::ostream& err) {
    std::error_code ec;
    // A folder or golden whose name a terminal or a CI log would act on is refused, named escaped.
    const auto refused = [&err](const fs::path& p) {
        const std::string why = text::acting_name_error(p.generic_string());
        if (!why.empty()) err << "fxkcc compare-goldens: " << why << "\n";
        return !why.empty();
    };
    std::vector<std::string> targets;
    for (fs::directory_iterator it(cmd.golden_dir, ec), end; !ec && it != end; it.increment(ec)) {
        // Hidden folders (.git, .svn) are not targets.
        const std::string name = it->path().filename().string();
        if (!it->is_directory() || name.empty() || name[0] == '.') continue;
        if (refused(it->path())) return kExitBadInput;
        targets.push_back(name);
    }
    if (ec) {
        err << "fxkcc compare-goldens: cannot read '" << cmd.golden_dir << "': " << ec.message()
            << "\n";
        return kExitBadInput;
    }
    std::sort(targets.begin(), targets.end());
    if (!cmd.targets.empty()) {
        for (const std::string& t : cmd.targets) {
            if (std::find(targets.begin(), targets.end(), t) == targets.end()) {
                err << "fxkcc compare-goldens: no folder '"
                    << (fs::path(cmd.golden_dir) / t).generic_string() << "'\n";
                return kExitBadInput;
            }
        }
        targets = cmd.targets;
    }
    if (targets.size() < 2) {
        err << "fxkcc compare-goldens: need goldens of at least two targets under '"
            << cmd.golden_dir << "', found " << targets.size() << "\n";
        return kExitBadInput;
    }
    // The reference: the requested one, else x86_64-linux when present, else the first.
    std::string ref = cmd.reference;
    if (ref.empty())
        ref = std::find(targets.begin(), targets.end(), "x86_64-linux") != targets.end()
                  ? "x86_64-linux"
                  : targets[0];
    if (std::find(targets.begin(), targets.end(), ref) == targets.end()) {
        err << "fxkcc compare-goldens: reference target '" << ref << "' has no goldens\n";
        return kExitBadInput;
    }
    // Every scenario name seen on any target.
    std::set<std::string> names;
    for (const std::string& t : targets) {
        for (fs::directory_iterator it(fs::path(cmd.golden_dir) / t, ec), end; !ec && it != end;
             it.increment(ec)) {
            if (it->path().extension() != ".hashes") continue;
            if (refused(it->path())) return kExitBadInput;
            names.insert(it->path().stem().string());
        }
    }
    int code = kExitOk;
    int identical = 0, differing = 0;
    for (const std::string& name : names) {
        auto hashes_path = [&](const std::string& t) {
            return (fs::path(cmd.golden_dir) / t / (name + ".hashes")).generic_string();
        };
        HashFile refh;
        std::string error;
        if (!fs::exists(hashes_path(ref))) {
            out << "MISSING   " << name << ": no golden on the reference target " << ref << "\n";
            code = std::max<int>(code, kExitMismatch);
            ++differing;
            continue;
        }
        if (std::string why = golden_outside_reason(cmd.golden_dir, hashes_path(ref));
            !why.empty()) {
            err << "fxkcc compare-goldens: " << why << "\n";
            return kExitBadInput;
        }
        if (!read_hash_file(hashes_path(ref), &refh, &error)) {
            err << "fxkcc compare-goldens: " << error << "\n";
            return kExitBadInput;
        }
        // A reference whose own pair is broken cannot vouch for anyone: it is named, not the
        // targets that disagree with it.
        std::string ref_csv;
        bool csv_missing = false;
        if (std::string why =
                check_golden_pair(cmd.golden_dir, ref, name, refh, &ref_csv, &csv_missing);
            !why.empty()) {
            ++differing;
            code = std::max<int>(code, kExitMismatch);
            out << "DIFFERENT " << name << " (reference " << ref << ")\n";
            out << "            " << ref << " (the reference): " << why << "\n";
            continue;
        }
        std::vector<std::string> problems;
        for (const std::string& t : targets) {
            if (t == ref) continue;
            if (!fs::exists(hashes_path(t))) {
                problems.push_back(t + ": missing");
                continue;
            }
            if (std::string why = golden_outside_reason(cmd.golden_dir, hashes_path(t));
                !why.empty()) {
                err << "fxkcc compare-goldens: " << why << "\n";
                return kExitBadInput;
            }
            HashFile other;
            if (!read_hash_file(hashes_path(t), &other, &error)) {
                err << "fxkcc compare-goldens: " << error << "\n";
                return kExitBadInput;
            }
            std::string csv;
            if (std::string why =
                    check_golden_pair(cmd.golden_dir, t, name, other, &csv, &csv_missing);
                !why.empty()) {
                problems.push_back(t + ": " + why);
                continue;
            }
            if (const std::string why = incomparable_reason(refh.header, other.header);
                !why.empty()) {
                problems.push_back(t + ": " + why);
                continue;
            }
            const HashDivergence d = first_divergence(refh, other);
            if (d.diverged) {
                problems.push_back(
                    t + ": first divergent tick " + std::to_string(d.tick) +
                    (d.entities.empty() ? "" : " (" + entity_labels(d.entities) + ")") +
                    (d.reason.empty() ? "" : ": " + d.reason));
                continue;
            }
            if (csv != ref_csv)
                problems.push_back(t + ": trajectory CSV differs from " + ref + "'s");
        }
        if (problems.empty()) {
            ++identical;
            out << "identical " << name << " (" << refh.ticks.size() << " ticks on "
                << targets.size() << " targets)\n";
        } else {
            ++differing;
            code = std::max<int>(code, kExitMismatch);
            out << "DIFFERENT " << name << " (reference " << ref << ")\n";
            for (const std::string& p : problems)
                out << "            " << p << "\n";
        }
    }
    out << "\n" << names.size() << " scenarios, " << targets.size() << " targets (";
    for (size_t i = 0; i < targets.size(); ++i)
        out << (i ? ", " : "") << targets[i];
    out << "): " << identical << " identical, " << differing << " different\n";
    return code;
}

namespace {

class CompareGoldensSubcommand final : public Subcommand {
public:
    void declare(OptionSet& app) override {
        app.add("--golden-dir", &cmd_.golden_dir, "Where goldens live").show_default();
        app.add("--targets", &cmd_.targets, "Target folders to compare (default: all)")
            .delimiter(',')
            .target_name();
        app.add("--reference", &cmd_.reference, "Reference target (default: x86_64-linux)")
            .target_name();
    }
    int run(const Invocation& inv) override {
        return compare_goldens_command(cmd_, inv.out, inv.err);
    }

private:
    CompareGoldensCommand cmd_;
};

} // namespace

std::unique_ptr<Subcommand> make_compare_goldens_subcommand() {
    return std::make_unique<CompareGoldensSubcommand>();
}

} // namespace fx::harness

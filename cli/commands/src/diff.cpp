// `fxkcc diff`: the first divergence between two hash files, two trajectory CSVs, or a
// scenario's run and a hash file.
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "subcommands.h"

namespace fs = std::filesystem;

namespace fx::harness {
namespace {

enum class FileKind { kHashes, kTrajectory, kScenario, kUnknown };

FileKind sniff(const std::string& path) {
    const std::string ext = fs::path(path).extension().string();
    if (ext == ".yaml" || ext == ".yml") return FileKind::kScenario;
    // Only a regular file is opened (a FIFO would block, /dev/zero never end), and only its first
    // bytes are read.
    if (!irregular_file_kind(path).empty()) return FileKind::kUnknown;
    std::ifstream in(path, std::ios::binary);
    char head[32] = {};
    in.read(head, sizeof head);
    const std::string first(head, static_cast<size_t>(in.gcount()));
    if (first.rfind("fxkcc-hashes", 0) == 0) return FileKind::kHashes;
    if (first.rfind("# fxkcc-trajectory", 0) == 0) return FileKind::kTrajectory;
    return FileKind::kUnknown;
}

/// Why `path` cannot be read ("cannot read 'p': No such file or directory"), or "" if it can.
std::string unreadable(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        return "cannot read '" + path +
               "': " + std::make_error_code(std::errc::is_a_directory).message();
    }
    if (const std::string kind = irregular_file_kind(path); !kind.empty() && kind != "not found") {
        return "cannot read '" + path + "': not a regular file: " + kind;
    }
    errno = 0;
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) {
        return "cannot read '" + path +
               "': " + std::error_code(errno != 0 ? errno : EIO, std::generic_category()).message();
    }
    std::fclose(f);
    return {};
}

} // namespace

int diff_command(const DiffCommand& cmd, std::ostream& out, std::ostream& err, const Style& style) {
    // Both sides readable regular files before either is read (a FIFO would block for ever).
    for (const std::string* path : {&cmd.a, &cmd.b}) {
        if (std::string why = unreadable(*path); !why.empty()) {
            err << "fxkcc diff: " << why << "\n";
            return kExitBadInput;
        }
    }
    const FileKind ka = sniff(cmd.a), kb = sniff(cmd.b);
    std::string error;
    if (ka == FileKind::kTrajectory && kb == FileKind::kTrajectory) {
        std::vector<TrajectoryRow> a, b;
        bool ra = false, rb = false;
        if (!read_trajectory(cmd.a, &a, &ra, &error) || !read_trajectory(cmd.b, &b, &rb, &error)) {
            err << "fxkcc diff: " << error << "\n";
            return kExitBadInput;
        }
        const CsvDivergence d = first_divergence(a, b);
        if (!d.diverged) {
            out << style.good("identical") << ": " << a.size() << " rows\n";
            return kExitOk;
        }
        out << style.bad("first divergent tick " + std::to_string(d.tick)) << ", character "
            << d.character;
        if (!d.reason.empty()) out << ": " << d.reason;
        out << "\n" << format_field_diffs({EntityKind::kCharacter, d.character}, d.fields);
        return kExitMismatch;
    }
    // A trajectory CSV is compared only with another: name the side that is not one.
    if ((ka == FileKind::kTrajectory) != (kb == FileKind::kTrajectory)) {
        const bool a_is = ka == FileKind::kTrajectory;
        const std::string& other = a_is ? cmd.b : cmd.a;
        const FileKind other_kind = a_is ? kb : ka;
        err << "fxkcc diff: '" << (a_is ? cmd.a : cmd.b) << "' is an fxkcc trajectory CSV and '"
            << other << "' is "
            << (other_kind == FileKind::kHashes     ? "a hash file"
                : other_kind == FileKind::kScenario ? "a scenario"
                                                    : "not one")
            << "; a trajectory CSV is compared with another trajectory CSV\n";
        return kExitBadInput;
    }
    HashFile a, b;
    Scenario sc;
    bool have_scenario = false;
    auto load_side = [&](const std::string& path, FileKind kind, HashFile* hf) -> int {
        if (kind == FileKind::kHashes)
            return read_hash_file(path, hf, &error) ? kExitOk : kExitBadInput;
        if (kind == FileKind::kScenario) {
            if (!load_single_scenario(path, cmd.allow_outside, &sc, &error)) return kExitBadInput;
            have_scenario = true;
            return run_to_hash_file(sc, hf, &error) ? kExitOk : kExitBadInput;
        }
        error = unreadable(path);
        if (error.empty()) {
            error =
                "'" + path +
                "' is neither a scenario (.yaml), an fxkcc hash file nor an fxkcc trajectory CSV";
        }
        return kExitBadInput;
    };
    if (int rc = load_side(cmd.a, ka, &a); rc != kExitOk) {
        err << "fxkcc diff: " << error << "\n";
        return rc;
    }
    if (int rc = load_side(cmd.b, kb, &b); rc != kExitOk) {
        err << "fxkcc diff: " << error << "\n";
        return rc;
    }
    const HashDivergence d = first_divergence(a, b);
    if (!d.diverged) {
        out << style.good("identical") << ": " << a.ticks.size() << " ticks\n";
        return kExitOk;
    }
    if (have_scenario) {
        // Field-level detail: the golden's trajectory beside a hash file, when there is one.
        const std::string other = ka == FileKind::kScenario ? cmd.b : cmd.a;
        const std::string csv =
            (fs::path(other).parent_path() / (fs::path(other).stem().string() + ".csv"))
                .generic_string();
        out << explain_divergence(sc, d, csv);
    } else {
        out << style.bad("first divergent tick " + std::to_string(d.tick));
        if (d.tick > 0) out << " (last matching tick " << d.tick - 1 << ")";
        if (!d.reason.empty()) out << ": " << d.reason;
        out << "\n";
        if (!d.entities.empty())
            out << "  entities whose hash differs: " << entity_labels(d.entities) << "\n";
        if (d.tick >= 0 && static_cast<size_t>(d.tick) < a.ticks.size() &&
            static_cast<size_t>(d.tick) < b.ticks.size()) {
            out << "  " << cmd.a << ": " << hex16(a.ticks[static_cast<size_t>(d.tick)].world)
                << "\n";
            out << "  " << cmd.b << ": " << hex16(b.ticks[static_cast<size_t>(d.tick)].world)
                << "\n";
        }
    }
    return kExitMismatch;
}

namespace {

class DiffSubcommand final : public Subcommand {
public:
    void declare(OptionSet& app) override {
        app.add("a", &cmd_.a, "First file").required();
        app.add("b", &cmd_.b, "Second file").required();
        app.flag("--allow-outside", &cmd_.allow_outside,
                 "Let a scenario reference files outside its tree");
    }
    int run(const Invocation& inv) override {
        return diff_command(cmd_, inv.out, inv.err, inv.out_style);
    }

private:
    DiffCommand cmd_;
};

} // namespace

std::unique_ptr<Subcommand> make_diff_subcommand() {
    return std::make_unique<DiffSubcommand>();
}

} // namespace fx::harness

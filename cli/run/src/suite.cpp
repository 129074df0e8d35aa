#include "run/suite.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "records/atomic_file.h"
#include "records/build_info.h"
#include "records/paths.h"
#include "records/text.h"
#include "run/verify.h"

namespace fs = std::filesystem;

namespace fx::harness {

bool discover_scenarios(const SuiteOptions& suite, std::vector<std::string>* paths,
                        std::string* error) {
    std::vector<std::string> found;
    auto is_scenario = [](const fs::path& p) {
        return p.extension() == ".yaml" || p.extension() == ".yml";
    };
    auto scan = [&](const fs::path& dir) {
        std::error_code ec;
        for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end;
             it.increment(ec)) {
            // Hidden entries are not scenarios (an editor's lock file .#x.yaml, .git/).
            const std::string name = it->path().filename().string();
            if (!name.empty() && name[0] == '.') {
                if (it->is_directory(ec)) it.disable_recursion_pending();
                continue;
            }
            if (!is_scenario(it->path())) continue;
            const std::string path = it->path().generic_string();
            if (*error = text::acting_name_error(path); !error->empty()) return false;
            // Never skipped silently: a scenario that cannot be read would drop out of the suite.
            if (const std::string kind = irregular_file_kind(it->path().string()); !kind.empty()) {
                *error = "'" + path + "' is not a scenario file: " + kind;
                return false;
            }
            found.push_back(path);
        }
        if (ec) {
            *error = "cannot read folder '" + dir.generic_string() + "': " + ec.message();
            return false;
        }
        return true;
    };
    std::vector<std::string> inputs = suite.inputs;
    if (inputs.empty()) inputs.push_back(suite.scenarios_dir);
    for (const std::string& in : inputs) {
        std::error_code ec;
        const fs::file_status st = fs::status(in, ec);
        if (fs::is_directory(st)) {
            if (!scan(in)) return false;
        } else if (fs::is_regular_file(st)) {
            found.push_back(fs::path(in).generic_string());
        } else if (fs::exists(st)) {
            *error = "'" + in + "' is not a scenario file or folder: " + irregular_file_kind(in);
            return false;
        } else {
            *error = "no such scenario file or folder: '" + in + "'";
            return false;
        }
    }
    // A total order on paths (byte-wise), duplicates removed, so shards are stable everywhere.
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    *paths = std::move(found);
    return true;
}

std::string suite_target(const SuiteOptions& suite) {
    return suite.target.empty() ? build_info().target : suite.target;
}

std::string golden_hashes_path(const SuiteOptions& suite, const std::string& name) {
    return (fs::path(suite.golden_dir) / suite_target(suite) / (name + ".hashes")).generic_string();
}

std::string golden_csv_path(const SuiteOptions& suite, const std::string& name) {
    return (fs::path(suite.golden_dir) / suite_target(suite) / (name + ".csv")).generic_string();
}

bool load_for_suite(const SuiteOptions& suite, const std::string& path, Scenario* sc,
                    std::string* error) {
    LoadOptions opts;
    opts.allow_outside = suite.allow_outside;
    // Referenced files must stay inside the scenarios tree, when the scenario is inside it.
    std::error_code re, fe;
    const fs::path root = resolved_path(suite.scenarios_dir, re), file = resolved_path(path, fe);
    if (!re && !fe && path_within(file, root)) opts.root = root.generic_string();
    LoadError err;
    if (!load_scenario(path, opts, sc, &err)) {
        *error = err.to_string();
        return false;
    }
    return true;
}

std::vector<EntityRef> entities_of(const Scenario& sc) {
    std::vector<EntityRef> out;
    for (const kcc::CharacterId id : character_ids(sc))
        out.push_back({EntityKind::kCharacter, id});
    std::vector<EntityRef> plats;
    for (const PlatformDef& p : sc.platforms)
        plats.push_back({EntityKind::kPlatform, p.id});
    std::sort(plats.begin(), plats.end()); // ids are unique: a total order
    out.insert(out.end(), plats.begin(), plats.end());
    return out;
}

bool load_single_scenario(const std::string& path, bool allow_outside, Scenario* sc,
                          std::string* error) {
    SuiteOptions suite;
    suite.allow_outside = allow_outside;
    suite.scenarios_dir =
        fs::path(path).parent_path().empty() ? "." : fs::path(path).parent_path().generic_string();
    std::error_code te, fe;
    const fs::path tree = resolved_path("scenarios", te), file = resolved_path(path, fe);
    if (!te && !fe && file != tree && path_within(file, tree)) suite.scenarios_dir = "scenarios";
    return load_for_suite(suite, path, sc, error);
}

HashFileHeader header_for(const Scenario& sc) {
    HashFileHeader h;
    h.engine = kEngine;
    h.behaviour = kBehaviourVersion;
    h.scenario = sc.name;
    h.digest = sc.digest;
    const BuildInfo& b = build_info();
    h.provenance = {b.target, b.compiler, b.flags, b.wide};
    h.ticks = sc.ticks;
    h.every = sc.golden_every;
    h.entities = entities_of(sc);
    return h;
}

bool CollectSink::on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                          std::span<const std::pair<uint32_t, Vec3>> platforms,
                          std::span<const Vec3>, std::string*) {
    if (!recorded_tick(tick, out_->header.ticks, out_->header.every)) return true;
    out_->ticks.push_back(hasher_.hash(tick, chars, platforms));
    return true;
}

bool run_to_hash_file(const Scenario& sc, HashFile* out, std::string* error) {
    out->header = header_for(sc);
    out->ticks.clear();
    out->ticks.reserve(static_cast<size_t>(recorded_count(sc.ticks, sc.golden_every)));
    CollectSink sink(out);
    return run_scenario(sc, sink, RunOptions{}, error);
}

namespace {

class StatesAtSink final : public RunSink {
public:
    StatesAtSink(int64_t tick, std::vector<kcc::CharacterState>* out) : tick_(tick), out_(out) {}
    bool on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>>, std::span<const Vec3>,
                 std::string*) override {
        if (tick == tick_) out_->assign(chars.begin(), chars.end());
        return true;
    }

private:
    int64_t tick_;
    std::vector<kcc::CharacterState>* out_;
};

// Streams the trajectory CSV of a run and collects its hashes, in one pass.
class GoldenSink final : public RunSink {
public:
    GoldenSink(TrajectoryWriter* w, HashFile* hashes) : w_(w), hashes_(hashes), collect_(hashes) {}
    bool on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>> platforms, std::span<const Vec3> render,
                 std::string* error) override {
        if (!recorded_tick(tick, hashes_->header.ticks, hashes_->header.every)) return true;
        for (size_t i = 0; i < chars.size(); ++i) {
            if (!w_->write(tick, chars[i], render.empty() ? nullptr : &render[i], error))
                return false;
        }
        return collect_.on_tick(tick, chars, platforms, render, error);
    }

private:
    TrajectoryWriter* w_;
    const HashFile* hashes_;
    CollectSink collect_;
};

} // namespace

bool states_at(const Scenario& sc, int64_t tick, std::vector<kcc::CharacterState>* out,
               std::string* error) {
    StatesAtSink sink(tick, out);
    RunOptions opts;
    opts.stop_after = tick;
    return run_scenario(sc, sink, opts, error);
}

std::string content_digest(std::string_view bytes) {
    return hex16(XXH3_64bits(bytes.data(), bytes.size()));
}

std::string golden_csv_for(const std::string& csv_path, const HashFileHeader& header,
                           std::string* bytes_out, bool* verified) {
    if (verified != nullptr) *verified = false;
    if (header.csv_digest.empty()) return csv_path;
    std::string bytes, unused;
    const auto found = [&](const std::string& path) {
        if (verified != nullptr) *verified = true;
        if (bytes_out != nullptr) *bytes_out = std::move(bytes);
        return path;
    };
    if (read_file(csv_path, &bytes, &unused) && content_digest(bytes) == header.csv_digest)
        return found(csv_path);
    // A bless killed between committing the hash file and renaming its CSV into place left the
    // CSV as "<name>.csv.next.tmp.<pid>": the one with the hash file's digest is the golden's.
    const fs::path p(csv_path);
    const std::string prefix = p.filename().generic_string() + ".next";
    std::error_code ec;
    std::vector<std::string> candidates;
    for (fs::directory_iterator it(p.parent_path().empty() ? fs::path(".") : p.parent_path(), ec),
         end;
         !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().generic_string();
        // (A name holding a control character is none of bless's: scenario names cannot.)
        if (name.compare(0, prefix.size(), prefix) == 0 && !text::has_acting_character(name))
            candidates.push_back(it->path().generic_string());
    }
    std::sort(candidates.begin(), candidates.end());
    for (const std::string& c : candidates)
        if (read_file(c, &bytes, &unused) && content_digest(bytes) == header.csv_digest)
            return found(c);
    return csv_path;
}

// A golden is a pair, the hash file and the trajectory CSV, and a reader must see either the old
// pair or the new one, whatever moment a bless is killed at. Each file is written to a temporary
// file and renamed (AtomicFile), and the pair is committed in two steps with the hash file as
// the commit record:
//   1. the new CSV, complete, is renamed to "<name>.csv.next.tmp.<pid>" (this process's own);
//   2. the new hash file, carrying the CSV's digest, is renamed over "<name>.hashes" (commit);
//   3. the CSV of step 1 is renamed over "<name>.csv".
// Killed before 2: the old pair stands (a left-over CSV of step 1 is ignored: its digest is not
// the old hash file's). Killed between 2 and 3: readers find the new CSV by the hash file's
// digest (golden_csv_for). Two blesses at once each rename their own files, and write the same
// bytes (the run is deterministic), so neither can tear the other's golden.
std::string golden_folder_refusal(const std::string& golden_dir, const std::string& target) {
    for (const fs::path& dir : {fs::path(golden_dir), fs::path(golden_dir) / target}) {
        std::error_code ec;
        const fs::file_status st = fs::symlink_status(dir, ec);
        if (ec || !fs::exists(st)) continue;
        if (is_link(dir))
            return "'" + dir.generic_string() +
                   "' is a symbolic link: goldens are written and removed only in a real folder "
                   "(a link would send them elsewhere)";
        if (!fs::is_directory(st)) return "'" + dir.generic_string() + "' is not a folder";
    }
    return "";
}

std::string golden_write_refusal(const SuiteOptions& suite, const std::string& name) {
    if (std::string why = golden_folder_refusal(suite.golden_dir, suite_target(suite));
        !why.empty())
        return why;
    for (const std::string& path :
         {golden_hashes_path(suite, name), golden_csv_path(suite, name)}) {
        std::error_code ec;
        const fs::file_status st = fs::symlink_status(path, ec);
        if (ec || !fs::exists(st)) continue;
        if (is_link(path))
            return "'" + path +
                   "' is a symbolic link: a golden is written as a regular file, never through a "
                   "link (remove the link, or bless its own file)";
        if (!fs::is_regular_file(st))
            return "'" + path +
                   "' is not a regular file (a folder, FIFO, device or socket): a golden is a "
                   "regular file";
    }
    return "";
}

bool write_goldens(const SuiteOptions& suite, const Scenario& sc, HashFile* hashes,
                   std::string* error) {
    if (std::string why = golden_write_refusal(suite, sc.name); !why.empty()) {
        *error = why;
        return false;
    }
    std::error_code ec;
    fs::create_directories(fs::path(golden_hashes_path(suite, sc.name)).parent_path(), ec);
    if (ec) {
        *error = "cannot create '" +
                 fs::path(golden_hashes_path(suite, sc.name)).parent_path().generic_string() +
                 "': " + ec.message();
        return false;
    }
    const std::string csv_path = golden_csv_path(suite, sc.name),
                      next = temp_path_for(csv_path + ".next");
    TrajectoryWriter csv;
    if (!csv.open(next, !sc.frames.empty(), error)) return false;
    hashes->header = header_for(sc);
    hashes->header.keys = scenario_key_digests(sc); // a stale golden names what changed
    // The golden's target is its folder's (verify checks that they agree); `bless --target`
    // names it, the build's own target by default.
    hashes->header.provenance.target = suite_target(suite);
    if (hashes->header.provenance.target != build_info().target)
        hashes->header.blessed_by = build_info().target;
    hashes->ticks.clear();
    GoldenSink sink(&csv, hashes);
    if (!run_scenario(sc, sink, RunOptions{}, error)) return false;
    if (!csv.commit(error)) return false;
    std::string bytes;
    if (!read_file(next, &bytes, error)) return false;
    hashes->header.csv_digest = content_digest(bytes);
    if (!write_file_atomic(golden_hashes_path(suite, sc.name), hash_file_text(*hashes), error,
                           kMaxReadBytes)) {
        fs::remove(next, ec);
        return false;
    }
    return replace_file(next, csv_path, error);
}

bool install_goldens(const SuiteOptions& suite, const std::string& name,
                     std::string_view hashes_text, std::string_view csv, std::string* error) {
    if (std::string why = golden_write_refusal(suite, name); !why.empty()) {
        *error = why;
        return false;
    }
    const std::string hashes_path = golden_hashes_path(suite, name),
                      csv_path = golden_csv_path(suite, name);
    std::error_code ec;
    fs::create_directories(fs::path(hashes_path).parent_path(), ec);
    if (ec) {
        *error = "cannot create '" + fs::path(hashes_path).parent_path().generic_string() +
                 "': " + ec.message();
        return false;
    }
    const std::string next = temp_path_for(csv_path + ".next");
    if (!write_file_atomic(next, csv, error, kMaxReadBytes)) return false;
    if (!write_file_atomic(hashes_path, hashes_text, error, kMaxReadBytes)) {
        fs::remove(next, ec);
        return false;
    }
    return replace_file(next, csv_path, error);
}

std::string default_pending_dir(const std::string& golden_dir) {
    fs::path p = fs::path(golden_dir);
    if (!p.has_filename()) p = p.parent_path(); // "golden/" names the folder "golden"
    if (p.empty() || p.filename() == "." || p.filename() == "..")
        return (p / "golden.pending").generic_string();
    return (p.parent_path() / (p.filename().string() + ".pending")).generic_string();
}

std::string golden_outside_reason(const std::string& golden_dir, const std::string& path) {
    std::error_code root_ec, file_ec;
    const fs::path root = resolved_path(golden_dir, root_ec), file = resolved_path(path, file_ec);
    if (root_ec || root.empty())
        return "cannot resolve the golden folder '" + golden_dir + "': " + root_ec.message();
    if (file_ec) return ""; // the read that follows says what is wrong
    if (!path_within(file, root)) {
        return "golden '" + text::shown(path) + "' resolves outside the golden folder '" +
               text::shown(golden_dir) + "' (to '" + text::shown(file.generic_string()) +
               "'); a golden must be a file inside it";
    }
    return "";
}

std::string check_golden_pair(const std::string& golden_dir, const std::string& target,
                              const std::string& name, const HashFile& hashes,
                              std::string* csv_bytes, bool* csv_missing) {
    *csv_missing = false;
    const fs::path folder = fs::path(golden_dir) / target;
    const std::string hashes_path = (folder / (name + ".hashes")).generic_string();
    if (hashes.header.provenance.target != target) {
        return "'" + hashes_path + "' was blessed for target '" + hashes.header.provenance.target +
               "', not for the folder it is in ('" + target + "')";
    }
    if (hashes.header.csv_digest.empty()) {
        return "'" + hashes_path +
               "' records no trajectory CSV digest (goldens are written by fxkcc bless)";
    }
    const std::string named_csv = (folder / (name + ".csv")).generic_string();
    std::error_code ec;
    if (fs::exists(fs::symlink_status(named_csv, ec))) {
        if (std::string why = golden_outside_reason(golden_dir, named_csv); !why.empty())
            return why;
    }
    bool verified = false;
    const std::string csv = golden_csv_for(named_csv, hashes.header, csv_bytes, &verified);
    if (!fs::exists(fs::symlink_status(csv, ec))) {
        *csv_missing = true;
        return "no golden CSV at " + csv + " (run: fxkcc bless)";
    }
    if (std::string why = golden_outside_reason(golden_dir, csv); !why.empty()) return why;
    if (verified) return ""; // read once, by golden_csv_for, with the recorded digest
    std::string error;
    if (!read_file(csv, csv_bytes, &error)) return error;
    if (const std::string digest = content_digest(*csv_bytes); digest != hashes.header.csv_digest) {
        return "golden CSV '" + csv + "' is not the one its hash file records (digest " + digest +
               ", recorded " + hashes.header.csv_digest +
               "): edited, truncated or replaced since the bless";
    }
    return "";
}

bool is_temporary_name(std::string_view name, std::string_view* base) {
    // "<base>.tmp.<pid>.<token>": the token is 16 hex digits, the pid decimal.
    constexpr size_t kToken = 16;
    if (name.size() < kToken + 2) return false;
    const std::string_view token = name.substr(name.size() - kToken);
    for (const char c : token) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    }
    std::string_view rest = name.substr(0, name.size() - kToken);
    if (rest.back() != '.') return false;
    rest.remove_suffix(1);
    size_t digits = 0;
    while (digits < rest.size() && rest[rest.size() - 1 - digits] >= '0' &&
           rest[rest.size() - 1 - digits] <= '9') {
        ++digits;
    }
    if (digits == 0) return false;
    rest.remove_suffix(digits);
    constexpr std::string_view kTmp = ".tmp.";
    if (rest.size() <= kTmp.size() || rest.substr(rest.size() - kTmp.size()) != kTmp) return false;
    *base = rest.substr(0, rest.size() - kTmp.size());
    return true;
}

bool tidy_golden_folder(const std::string& folder, std::vector<std::string>* done,
                        std::string* error) {
    std::error_code ec;
    std::vector<fs::path> temporaries;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        std::string_view base;
        const std::string name = it->path().filename().string();
        if (is_temporary_name(name, &base)) temporaries.push_back(it->path());
    }
    if (ec) {
        *error = "cannot list '" + fs::path(folder).generic_string() + "': " + ec.message();
        return false;
    }
    std::sort(temporaries.begin(), temporaries.end()); // a total order: the same actions everywhere
    constexpr std::string_view kNext = ".csv.next";
    for (const fs::path& t : temporaries) {
        const std::string name = t.filename().string();
        std::string_view base;
        is_temporary_name(name, &base);
        if (base.size() > kNext.size() && base.substr(base.size() - kNext.size()) == kNext) {
            // A complete CSV of an interrupted bless: the golden's own when the hash file says so.
            const std::string golden = std::string(base.substr(0, base.size() - kNext.size()));
            const fs::path hashes = t.parent_path() / (golden + ".hashes"),
                           csv = t.parent_path() / (golden + ".csv");
            HashFile h;
            std::string bytes, current, unused;
            const bool wanted = read_hash_file(hashes.string(), &h, &unused) &&
                                !h.header.csv_digest.empty() &&
                                read_file(t.string(), &bytes, &unused) &&
                                content_digest(bytes) == h.header.csv_digest &&
                                !(read_file(csv.string(), &current, &unused) &&
                                  content_digest(current) == h.header.csv_digest);
            if (wanted) {
                if (!replace_file(t.string(), csv.string(), error)) return false;
                done->push_back("completed the interrupted bless of '" +
                                text::shown(csv.generic_string()) + "'");
                continue;
            }
        }
        fs::remove(t, ec);
        if (ec) {
            *error = "cannot remove '" + text::shown(t.generic_string()) + "': " + ec.message();
            return false;
        }
        done->push_back("removed '" + text::shown(t.generic_string()) +
                        "', left by an interrupted bless");
    }
    return true;
}

std::string explain_divergence(const Scenario& sc, const HashDivergence& d,
                               const std::string& golden_csv) {
    std::ostringstream o;
    if (sc.golden_every > 1) {
        o << format_divergent_tick(d.tick, sc.golden_every);
    } else if (d.tick > 0) {
        o << "first divergent tick " << d.tick << " (last matching tick " << d.tick - 1 << ")";
    } else {
        o << "first divergent tick " << d.tick << " (no tick matched)";
    }
    if (!d.reason.empty()) o << ": " << d.reason;
    o << "\n";
    std::vector<TrajectoryRow> rows;
    bool with_render = false;
    std::string csv_error;
    const bool have_csv = read_trajectory(golden_csv, &rows, &with_render, &csv_error);
    std::vector<kcc::CharacterState> actual;
    std::string run_error;
    const bool have_actual =
        d.tick >= 0 && d.tick < sc.ticks && states_at(sc, d.tick, &actual, &run_error);
    for (const EntityRef& e : d.entities) {
        if (e.kind != EntityKind::kCharacter) {
            o << "  " << e.label() << ": platform state hash differs\n";
            continue;
        }
        const kcc::CharacterState* a = nullptr;
        for (const auto& s : actual) {
            if (s.id == e.id) a = &s;
        }
        const TrajectoryRow* x = nullptr;
        for (const auto& r : rows) {
            if (r.tick == d.tick && r.state.id == e.id) x = &r;
        }
        if ((a == nullptr) != (x == nullptr) && have_actual && have_csv) {
            // A character present on one side only (a join or a leave at another tick).
            o << "  " << e.label() << ": "
              << (a == nullptr ? "absent in this run, present in the golden"
                               : "present in this run, absent in the golden")
              << "\n";
            continue;
        }
        if (a == nullptr || x == nullptr) {
            o << "  " << e.label() << ": state hash differs";
            if (!have_csv) o << " (golden trajectory unavailable: " << csv_error << ")";
            if (!have_actual && !run_error.empty()) o << " (re-run failed: " << run_error << ")";
            o << "\n";
            continue;
        }
        // The CSV does not carry the previous pose, the run speed nor the step hold; compare what
        // it has.
        kcc::CharacterState expected = x->state;
        expected.previous_position = a->previous_position;
        expected.previous_facing = a->previous_facing;
        expected.run_speed = a->run_speed;
        expected.step_hold = a->step_hold;
        const std::vector<FieldDiff> diffs = diff_states(expected, *a);
        if (diffs.empty()) {
            o << "  " << e.label()
              << ": state hash differs in fields the trajectory does not record "
              << "(previous pose, run speed, step hold)\n";
        } else {
            o << format_field_diffs(e, diffs);
        }
    }
    return o.str();
}

} // namespace fx::harness

// The swarm's driver: runs in parallel, findings shrunk and de-duplicated (swarm/swarm.h).
#include "swarm/swarm.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>

#include "records/atomic_file.h"
#include "records/build_info.h"
#include "records/cpu_time.h"
#include "records/json.h"
#include "records/text.h"
#include "scenario/writer.h"

namespace fs = std::filesystem;

namespace fx::harness::swarm {

namespace {

struct RunResult {
    bool done = false;
    bool generated = false;
    GeneratedRun run;
    std::vector<Finding> findings;
    std::map<std::string, int64_t> checked;
    int64_t character_ticks = 0;
    std::string error;
};

/// Calls work(i) for i in [0, n) on `jobs` threads; stop() is asked before each new item.
void parallel_for(int64_t n, int jobs, const std::function<bool()>& stop,
                  const std::function<void(int64_t)>& work) {
    std::atomic<int64_t> next{0};
    auto worker = [&] {
        for (;;) {
            if (stop()) return;
            const int64_t i = next.fetch_add(1);
            if (i >= n) return;
            work(i);
        }
    };
    std::vector<std::thread> threads;
    for (int k = 1; k < std::max(1, jobs); ++k)
        threads.emplace_back(worker);
    worker();
    for (std::thread& t : threads)
        t.join();
}

/// A crowd's arrangements, in the order of the digit its characters' ids carry (1 to 5).
constexpr const char* kArrangements[] = {"spread", "cluster", "coincident", "wall", "corner"};

/// The family (feature) a character or shape id belongs to, by its id range.
std::string family_of(const Finding& f) {
    if (!f.has_character) return "-";
    const uint32_t code = f.character / 1000;
    if (code < 1 || code > static_cast<uint32_t>(kFeatureCount)) return "-";
    std::string name = feature_info()[code - 1].name;
    if (code - 1 == static_cast<uint32_t>(Feature::kCrowd)) {
        const uint32_t k = f.character % 1000 / 100;
        if (k >= 1 && k <= 5) name += std::string("/") + kArrangements[k - 1];
    }
    return name;
}

std::string slug(const std::string& text) {
    std::string s;
    for (const char c : text) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (ok) {
            s += c;
        } else if (!s.empty() && s.back() != '-') {
            s += '-';
        }
    }
    while (!s.empty() && s.back() == '-')
        s.pop_back();
    return s;
}

} // namespace

bool make_output_folders(const SwarmOptions& o, std::string* error) {
    for (const std::string* dir : {&o.out_dir, &o.emit_dir}) {
        if (dir->empty()) continue;
        std::error_code ec;
        fs::create_directories(*dir, ec);
        if (!ec && !fs::is_directory(*dir, ec))
            ec = std::make_error_code(std::errc::not_a_directory);
        if (ec) {
            *error = *dir + ": cannot create the folder: " + ec.message();
            return false;
        }
    }
    return true;
}

int run_swarm(const SwarmOptions& o, SwarmReport* report, std::string* error) {
    report->seed = o.seed;
    report->commit = build_info().commit;
    const auto began = std::chrono::steady_clock::now();
    const int64_t cpu_before = process_cpu_ms();
    if (!make_output_folders(o, error)) return 125;
    const int64_t first = o.only_run >= 0 ? o.only_run : 0;
    const int64_t count = o.only_run >= 0 ? 1 : o.runs;
    // By run index, made as runs finish: with --time the count is only an upper bound.
    std::map<int64_t, RunResult> done_runs;
    std::mutex done_lock;
    std::string emit_error;
    std::map<std::string, int64_t> first_run; // key -> lowest run index found with it so far
    std::map<int64_t, int> holds; // run index -> keys it is the first run of
    auto drop = [](RunResult* r) {
        r->run.scenario = Scenario{};
        r->run.yaml.clear();
    };
    auto release = [&](int64_t index) { // under done_lock
        if (--holds[index] > 0) return;
        holds.erase(index);
        const auto it = done_runs.find(index);
        if (it != done_runs.end() && it->second.error.empty()) drop(&it->second);
    };
    const auto start = std::chrono::steady_clock::now();
    auto out_of_time = [&] {
        if (o.stop != nullptr && o.stop->load() != 0) return true;
        if (o.time_limit <= 0) return false;
        return std::chrono::steady_clock::now() - start >= std::chrono::seconds(o.time_limit);
    };
    std::mutex say;
    std::atomic<int64_t> finished{0};
    parallel_for(count, o.jobs, out_of_time, [&](int64_t i) {
        RunResult r;
        r.generated = generate_run(o.seed, first + i, o.features, false, &r.run, &r.error);
        if (r.generated) {
            std::string why;
            if (!check_run(r.run, o.oracles, &r.findings, &r.checked, &r.character_ticks, &why)) {
                r.error = why;
            }
        }
        r.done = true;
        if (!o.emit_dir.empty() && !r.run.yaml.empty()) {
            std::string why;
            const std::string name =
                "swarm-" + std::to_string(o.seed) + "-" + std::to_string(first + i);
            if (!write_folder_file({"--emit", o.emit_dir + "/" + name + ".yaml"}, r.run.yaml,
                                   o.inputs, &why)) {
                std::lock_guard<std::mutex> lock(done_lock);
                if (emit_error.empty()) emit_error = why;
            }
        }
        // Only the first run (lowest index) of each finding's key keeps its scenario, to be
        // shrunk; the others keep their counts and findings (hours of runs would not fit).
        {
            std::lock_guard<std::mutex> lock(done_lock);
            bool keep = !r.error.empty();
            for (const Finding& f : r.findings) {
                const std::string key = f.oracle + "|" + family_of(f);
                const auto it = first_run.find(key);
                if (it == first_run.end() || i < it->second) {
                    if (it != first_run.end()) release(it->second);
                    first_run[key] = i;
                    ++holds[i];
                    keep = true;
                }
            }
            if (!keep) drop(&r);
            done_runs.emplace(i, std::move(r));
        }
        const int64_t k = ++finished;
        if (o.progress && (k % 50 == 0)) {
            std::lock_guard<std::mutex> lock(say);
            o.progress("swarm: " + std::to_string(k) + " runs");
        }
    });

    if (o.stop != nullptr) report->interrupted = o.stop->load();
    std::vector<const RunResult*> results;
    for (const auto& [index, r] : done_runs)
        results.push_back(&r);

    if (!emit_error.empty()) {
        *error = emit_error;
        return 125;
    }

    // The findings, one per oracle and family in run order; later ones are its duplicates.
    struct Pending {
        const RunResult* from;
        Finding f;
        std::string key;
    };
    std::vector<Pending> pending;
    std::map<std::string, size_t> first_of;
    for (const RunResult* rp : results) {
        const RunResult& r = *rp;
        ++report->runs;
        report->character_ticks += r.character_ticks;
        for (const auto& [name, n] : r.checked)
            report->oracles[name] += n;
        if (!r.generated || !r.error.empty()) {
            // The generator made a scenario that does not load or run: a finding of its own.
            Finding f;
            f.oracle = r.generated ? "generator-run" : "generator";
            f.message = r.error;
            pending.push_back({&r, f, f.oracle});
            continue;
        }
        for (const Finding& f : r.findings) {
            const std::string key = f.oracle + "|" + family_of(f);
            if (first_of.count(key) != 0) {
                SwarmFinding& dup = report->findings.emplace_back();
                dup.signature = key;
                dup.run = -1; // marker: merged below
                dup.finding = f;
                dup.duplicate_runs.push_back(r.run.index);
                continue;
            }
            first_of[key] = pending.size();
            pending.push_back({&r, f, key});
        }
    }
    std::vector<SwarmFinding> dups = std::move(report->findings);
    report->findings.clear();
    std::vector<SwarmFinding> shrunk(pending.size());
    parallel_for(
        static_cast<int64_t>(pending.size()), o.jobs, [] { return false; },
        [&](int64_t k) {
            const Pending& p = pending[static_cast<size_t>(k)];
            SwarmFinding& s = shrunk[static_cast<size_t>(k)];
            s.finding = p.f;
            s.key = p.key;
            s.known = std::find(o.known.begin(), o.known.end(), p.key) != o.known.end();
            s.run = p.from->run.index;
            s.run_features = p.from->run.features;
            std::string repro =
                "fxkcc swarm --seed " + std::to_string(o.seed) + " --run " + std::to_string(s.run);
            if (!o.features_text.empty()) repro += " --features " + o.features_text;
            if (!o.side_args.empty()) repro += " " + o.side_args;
            s.repro = repro + "   # at commit " + build_info().commit +
                      (build_info().dirty ? " with local changes" : "");
            if (!p.from->generated) {
                s.signature = p.f.oracle;
                return;
            }
            const Scenario& sc = p.from->run.scenario;
            s.before = shrink_sizes(sc);
            ShrinkOptions so;
            so.max_runs = o.shrink_runs;
            const GeneratedRun& run = p.from->run;
            const Finding f = p.f;
            const ShrinkOracle oracle = [&run, f, &o](const Scenario& cand, int64_t* tick) {
                return fails_again(run, f, o.oracles, cand, tick);
            };
            ShrinkResult r = shrink_scenario(sc, f.sig, oracle, so);
            Scenario& small = r.scenario;
            s.after = shrink_sizes(small);
            s.kept_features = features_of(small);
            const int64_t tick = r.tick >= 0 ? r.tick : f.tick;
            s.steps = f.has_character && tick >= 0 ? solver_steps(small, f.character, tick) : "";
            // The key (oracle and the failing character's family) leads, so that one signature
            // never holds two keys: a known key never hides an unknown one.
            s.signature = p.key + "|" + feature_names(s.kept_features) + "|" +
                          (s.steps.empty() ? "-" : s.steps);
            small.name = slug("swarm-" + f.oracle + "-" + family_of(f)).substr(0, 40) + "-" +
                         std::to_string(o.seed) + "-" + std::to_string(s.run);
            small.name = small.name.substr(0, 64);
            small.description = "Found by fxkcc swarm (oracle " + f.oracle + ", seed " +
                                std::to_string(o.seed) + ", run " + std::to_string(s.run) +
                                ", features " + feature_names(s.run_features) + "), shrunk from " +
                                format_sizes(s.before) + ". " + f.message +
                                ". Reproduce: " + repro + ".";
            if (!o.out_dir.empty()) {
                s.scenario = o.out_dir + "/" + small.name + ".yaml";
                std::string why;
                if (!write_folder_file({"--out", s.scenario}, scenario_to_yaml(small), o.inputs,
                                       &why))
                    s.scenario = "(not written: " + why + ")";
            }
        });
    // One finding per signature; the rest (and the runs merged before shrinking) count as its
    // duplicates.
    std::map<std::string, size_t> by_sig;
    std::map<std::string, size_t> by_key;
    for (size_t k = 0; k < shrunk.size(); ++k) {
        SwarmFinding& s = shrunk[k];
        const auto it = by_sig.find(s.signature);
        if (it != by_sig.end()) {
            SwarmFinding& keep = report->findings[it->second];
            ++keep.duplicates;
            keep.duplicate_runs.push_back(s.run);
            by_key[pending[k].key] = it->second;
            continue;
        }
        by_sig[s.signature] = report->findings.size();
        by_key[pending[k].key] = report->findings.size();
        report->findings.push_back(std::move(s));
    }
    for (const SwarmFinding& d : dups) {
        const auto it = by_key.find(d.signature);
        if (it == by_key.end()) continue;
        SwarmFinding& keep = report->findings[it->second];
        ++keep.duplicates;
        keep.duplicate_runs.insert(keep.duplicate_runs.end(), d.duplicate_runs.begin(),
                                   d.duplicate_runs.end());
    }
    report->wall_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - began)
                          .count();
    const int64_t cpu_after = process_cpu_ms();
    report->cpu_ms = cpu_before < 0 || cpu_after < 0 ? -1 : cpu_after - cpu_before;
    const bool unknown = std::any_of(report->findings.begin(), report->findings.end(),
                                     [](const SwarmFinding& f) { return !f.known; });
    return unknown ? 1 : 0;
}

namespace {

/// Why `key` is not an oracle|family key ("" when it is one): the oracle in lower case letters,
/// digits, ':' and '-' (rule:wall-slide), the family "-" or a feature's name (crowd with its
/// arrangement: crowd/corner), as the FINDING lines print them.
std::string known_key_problem(const std::string& key) {
    const size_t bar = key.find('|');
    if (bar == std::string::npos) return "no '|' between the oracle and the family";
    if (key.find('|', bar + 1) != std::string::npos)
        return "more than one '|' (a key is the signature's first two fields, oracle|family)";
    const std::string oracle = key.substr(0, bar), family = key.substr(bar + 1);
    if (oracle.empty()) return "no oracle before the '|'";
    for (const char c : oracle) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ':' || c == '-'))
            return "the oracle may hold lower case letters, digits, ':' and '-' only";
    }
    // The oracles a finding names (docs/swarm.md, "Oracles"): the invariants, the rules and the
    // rest checks by name after their prefix, the others by theirs.
    static const char* const kNamed[] = {"floor",  "crowd-apart", "translate", "permute",
                                         "frames", "turn",        "roundtrip", "synctest",
                                         "sides",  "sides-run",   "generator", "generator-run"};
    bool oracle_known = false;
    for (const char* prefix : {"invariant:", "rule:", "rest-"})
        oracle_known = oracle_known ||
                       (oracle.rfind(prefix, 0) == 0 && oracle.size() > std::string(prefix).size());
    for (const char* name : kNamed)
        oracle_known = oracle_known || oracle == name;
    if (!oracle_known)
        return "the oracle is invariant:NAME, rule:NAME, rest-NAME or one of floor, crowd-apart, "
               "translate, permute, frames, turn, roundtrip, synctest, sides, sides-run, "
               "generator, generator-run";
    if (family == "-") return "";
    const size_t slash = family.find('/');
    const std::string feature = family.substr(0, slash);
    bool known_feature = false;
    for (const FeatureInfo& f : feature_info())
        known_feature = known_feature || feature == f.name;
    if (!known_feature) return "the family is '-' or a feature's name, such as wall-joint";
    if (slash == std::string::npos) return "";
    const std::string arrangement = family.substr(slash + 1);
    for (const char* a : kArrangements) {
        if (feature == "crowd" && arrangement == a) return "";
    }
    return "after '/', a crowd's arrangement: spread, cluster, coincident, wall or corner";
}

} // namespace

bool read_known(const std::string& path, std::vector<std::string>* out, std::string* error) {
    std::string text;
    std::string why;
    if (!read_file_limited(path, uint64_t{1} << 20, &text, &why)) {
        *error = path + ": " + why;
        return false;
    }
    // A UTF-8 byte order mark (some editors write one) is not part of the first line.
    if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
    size_t start = 0;
    int line = 0;
    while (start < text.size()) {
        const size_t end = std::min(text.find('\n', start), text.size());
        std::string l = text.substr(start, end - start);
        ++line;
        start = end + 1;
        if (!l.empty() && l.back() == '\r') l.pop_back();
        const size_t hash = l.find('#');
        if (hash != std::string::npos) l.erase(hash);
        while (!l.empty() && (l.back() == ' ' || l.back() == '\t'))
            l.pop_back();
        size_t lead = 0;
        while (lead < l.size() && (l[lead] == ' ' || l[lead] == '\t'))
            ++lead;
        l.erase(0, lead);
        if (l.empty()) continue;
        if (const std::string problem = known_key_problem(l); !problem.empty()) {
            *error = path + ":" + std::to_string(line) + ":" + std::to_string(lead + 1) +
                     ": expected an oracle|family key such as rule:wall-slide|wall-joint, found " +
                     text::quote(l) + ": " + problem;
            return false;
        }
        out->push_back(l);
    }
    return true;
}

std::string report_text(const SwarmReport& r) {
    std::string s;
    for (const SwarmFinding& f : r.findings) {
        s += std::string(f.known ? "known    " : "FINDING  ") + f.signature + "\n";
        s += "  run " + std::to_string(f.run) + " (features " + feature_names(f.run_features) +
             "): " + f.finding.message + "\n";
        if (f.after.ticks > 0)
            s += "  shrunk: " + format_sizes(f.before) + " -> " + format_sizes(f.after) + "\n";
        if (!f.scenario.empty()) s += "  scenario: " + f.scenario + "\n";
        if (f.duplicates > 0) {
            s += "  also in " + std::to_string(f.duplicates) + " other run(s):";
            for (size_t k = 0; k < f.duplicate_runs.size() && k < 10; ++k)
                s += " " + std::to_string(f.duplicate_runs[k]);
            if (f.duplicate_runs.size() > 10) s += " ...";
            s += "\n";
        }
        s += "  repro: " + f.repro + "\n";
    }
    std::string oracles;
    for (const auto& [name, n] : r.oracles)
        oracles += (oracles.empty() ? "" : ", ") + name + " " + std::to_string(n);
    s += "swarm seed " + std::to_string(r.seed) + ": " + std::to_string(r.runs) + " runs, " +
         std::to_string(r.character_ticks) + " character-ticks, " +
         std::to_string(r.findings.size()) + " finding(s), " +
         std::to_string(std::count_if(r.findings.begin(), r.findings.end(),
                                      [](const SwarmFinding& f) { return f.known; })) +
         " of them known; oracles (runs checked): " + oracles + "\n";
    s += "time: " + text::decimal(r.wall_ms, 1000, 1) + " s of wall time";
    if (r.cpu_ms >= 0)
        s += ", " + text::decimal(r.cpu_ms, 1000, 1) + " s of CPU (" +
             text::decimal(r.cpu_ms, 3600000, 2) + " core-hours)";
    s += "\n";
    if (r.interrupted != 0)
        s += "stopped early by signal " + std::to_string(r.interrupted) +
             ": no run started after it; the report covers the runs that had started\n";
    return s;
}

std::string report_json(const SwarmReport& r) {
    Json doc = Json::object({{"seed", r.seed},
                             {"commit", r.commit},
                             {"runs", r.runs},
                             {"character_ticks", r.character_ticks},
                             {"interrupted", r.interrupted != 0},
                             {"wall_ms", r.wall_ms},
                             {"cpu_ms", r.cpu_ms}});
    Json oracles = Json::object();
    for (const auto& [name, n] : r.oracles)
        oracles.set(name, n);
    doc.set("oracles", std::move(oracles));
    Json findings = Json::array();
    for (const SwarmFinding& f : r.findings) {
        findings.push_back(Json::object(
            {{"signature", f.signature},
             {"oracle", f.finding.oracle},
             {"seed", r.seed},
             {"run", f.run},
             {"features", feature_names(f.run_features)},
             {"character", f.finding.has_character ? Json(f.finding.character) : Json(nullptr)},
             {"tick", f.finding.tick},
             {"steps", f.steps},
             {"message", f.finding.message},
             {"scenario", f.scenario.empty() ? Json(nullptr) : Json(f.scenario)},
             {"repro", f.repro},
             {"duplicates", f.duplicates},
             {"key", f.key},
             {"known", f.known}}));
    }
    doc.set("findings", std::move(findings));
    return dump_json(doc);
}

namespace {

/// The report group of an oracle's findings (SwarmReport::oracles' keys).
std::string group_of(const std::string& oracle) {
    if (oracle.rfind("invariant:", 0) == 0) return "invariants";
    if (oracle.rfind("rule:", 0) == 0) return "rules";
    if (oracle.rfind("rest-", 0) == 0) return "rest";
    return oracle;
}

} // namespace

std::string report_junit(const SwarmReport& r) {
    // A test case per oracle that ran, and per group of findings that is not one (a side that
    // failed to run, the generator): the open findings fail their case, exactly when the exit
    // code is 1; a case with known findings alone is skipped, its findings in its output.
    std::map<std::string, std::string> open, known; // group -> text
    for (const SwarmFinding& f : r.findings) {
        (f.known ? known : open)[group_of(f.finding.oracle)] +=
            f.signature + (f.known ? " (known)" : "") + ": " + f.finding.message + "\n  " +
            f.repro + "\n";
    }
    std::map<std::string, const int64_t*> groups;
    for (const auto& [name, n] : r.oracles)
        groups[name] = &n;
    for (const auto* m : {&open, &known})
        for (const auto& entry : *m)
            groups.emplace(entry.first, nullptr);
    int failing = 0, skipped = 0;
    std::string cases;
    for (const auto& [name, runs] : groups) {
        const std::string checked =
            runs != nullptr ? ": " + std::to_string(*runs) + " runs checked" : "";
        cases += "    <testcase classname=\"swarm\" name=\"" + text::xml_escape(name) + "\">";
        if (const auto it = open.find(name); it != open.end()) {
            ++failing;
            cases += "<failure message=\"" + text::xml_escape(name + checked) + ", findings\">" +
                     text::xml_escape(it->second) + "</failure>";
        } else if (known.count(name) != 0) {
            ++skipped;
            cases += "<skipped message=\"" + text::xml_escape(name + checked) +
                     ", known findings only\"/>";
        }
        if (const auto it = known.find(name); it != known.end())
            cases += "<system-out>" + text::xml_escape(it->second) + "</system-out>";
        cases += "</testcase>\n";
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"fxkcc swarm seed " +
           std::to_string(r.seed) + "\" tests=\"" + std::to_string(groups.size()) +
           "\" failures=\"" + std::to_string(failing) + "\" skipped=\"" + std::to_string(skipped) +
           "\">\n" + cases + "  </testsuite>\n</testsuites>\n";
}

} // namespace fx::harness::swarm

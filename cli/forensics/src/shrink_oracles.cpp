// What counts as the same failure for `fxkcc shrink` (forensics/shrink.h, docs/shrink.md): a
// failed check's signature, the two sides' first desync, and the oracles that tell whether a
// smaller scenario still fails the same way.
#include "forensics/shrink.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "forensics/desync.h"
#include "records/atomic_file.h"
#include "records/hash_file.h"
#include "run/checks.h"
#include "run/suite.h"
#include "scenario/loader.h"
#include "scenario/writer.h"

namespace fs = std::filesystem;

namespace fx::harness {
namespace {

/// Digits after `key` in `text` (from `from`), or nullopt.
std::optional<int64_t> number_after(const std::string& text, const std::string& key,
                                    size_t from = 0) {
    const size_t p = text.find(key, from);
    if (p == std::string::npos) return std::nullopt;
    size_t i = p + key.size();
    int64_t v = 0;
    bool any = false;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
        v = v * 10 + (text[i] - '0');
        ++i;
        any = true;
    }
    if (!any) return std::nullopt;
    return v;
}

/// What a check failure is: expectation index or invariant kind, and its character.
FailureSignature classify(const CheckFailure& f) {
    FailureSignature s;
    s.message = f.message;
    s.tick = f.tick;
    if (f.kind == CheckFailure::Kind::kExpectation) {
        s.kind = FailureSignature::Kind::kExpectation;
        if (f.message.rfind("expect[", 0) == 0) {
            if (auto n = number_after(f.message, "expect[")) s.expect_index = static_cast<int>(*n);
        }
    } else {
        s.kind = FailureSignature::Kind::kInvariant;
        if (f.message.find("arithmetic overflow") != std::string::npos) {
            s.invariant = "overflow";
        } else if (f.message.find(": penetrates shape") != std::string::npos) {
            s.invariant = "penetration";
        } else if (f.message.find(": grounded but") != std::string::npos) {
            s.invariant = "grounded";
        } else if (f.message.find(": halted: ") != std::string::npos) {
            s.invariant = "halted";
        } else if (f.message.find(": inside shape") != std::string::npos) {
            s.invariant = "inside";
        } else {
            s.invariant = "other";
        }
    }
    if (s.invariant != "overflow") {
        if (auto c = number_after(f.message, "character ")) {
            s.has_character = true;
            s.character = static_cast<uint32_t>(*c);
        }
    }
    return s;
}

bool reload(const Scenario& sc, const std::string& base_dir, Scenario* out, std::string* error) {
    LoadError e;
    LoadOptions opts;
    opts.allow_outside = true; // same_as paths written as the original had them
    if (!load_scenario_text(scenario_to_yaml(sc), sc.path, base_dir, opts, out, &e)) {
        *error = e.to_string();
        return false;
    }
    return true;
}

/// Writes `sc` into `tmp` and runs both sides on it.
bool desync_once(const Scenario& sc, const Side& a, const Side& b, const TempFolder& tmp,
                 DesyncReport* rep, std::string* error) {
    const std::string file = tmp.file("candidate.yaml");
    ScenarioWriteOptions wo;
    wo.drop_same_as = true;
    if (!write_file_atomic(file, scenario_to_yaml(sc, wo), error)) return false;
    return run_sides(file, a, b, tmp, rep, error);
}

EntityRef pick_entity(const DesyncReport& r) {
    for (const EntityRef& e : r.entities) {
        if (e.kind == EntityKind::kCharacter) return e;
    }
    return r.entities.empty() ? EntityRef{} : r.entities.front();
}

} // namespace

FailureSignature classify_failure(const CheckFailure& f) {
    return classify(f);
}

std::optional<int64_t> failure_tick(const CheckReport& report, const FailureSignature& sig,
                                    int position) {
    for (const CheckFailure& f : report.failures) {
        const FailureSignature s = classify(f);
        if (s.kind != sig.kind) continue;
        if (sig.kind == FailureSignature::Kind::kExpectation) {
            if (s.expect_index == position && position >= 0) return f.tick;
        } else if (s.invariant == sig.invariant &&
                   (!sig.has_character || (s.has_character && s.character == sig.character))) {
            return f.tick;
        }
    }
    return std::nullopt;
}

bool run_sides(const std::string& file, const Side& a, const Side& b, const TempFolder& tmp,
               DesyncReport* rep, std::string* error) {
    HashFile h[2];
    const Side* sides[2] = {&a, &b};
    for (int k = 0; k < 2; ++k) {
        const std::string hp = tmp.file(std::string(k == 0 ? "a" : "b") + ".hashes");
        std::error_code ec;
        fs::remove(hp, ec);
        const SideResult r = run_side(*sides[k], {"run", file, "--hashes", hp});
        const std::string who =
            std::string("side ") + (k == 0 ? "a" : "b") + " (" + sides[k]->label + ") ";
        // 0: every check held, 1: one failed (the hashes are written either way).
        if (r.exit_code != 0 && r.exit_code != 1) {
            *error = who + side_outcome(r) + (r.err.empty() ? "" : ": " + r.err);
            return false;
        }
        if (!fs::exists(hp, ec)) {
            *error = who + side_outcome(r) + " without writing its hashes" +
                     (r.err.empty() ? "" : ": " + r.err);
            return false;
        }
        if (!read_hash_file(hp, &h[k], error)) {
            *error = who + "wrote hashes that cannot be read: " + *error;
            return false;
        }
    }
    *rep = compare_runs(h[0], h[1]);
    return true;
}

std::string FailureSignature::describe() const {
    switch (kind) {
    case Kind::kExpectation:
        return "expectation failed: " + message;
    case Kind::kInvariant:
        return "invariant violated (" + invariant + "): " + message;
    case Kind::kDesync:
        return "desync: " + message;
    }
    return message;
}

bool find_check_failure(const Scenario& sc, FailureSignature* out, bool* failed,
                        std::string* error) {
    CheckReport report;
    if (!run_checked(sc, nullptr, RunOptions{}, &report, error)) return false;
    *failed = !report.failures.empty();
    if (*failed) *out = classify(report.failures.front());
    return true;
}

bool find_desync(const Scenario& sc, const Side& a, const Side& b, const TempFolder& tmp,
                 FailureSignature* out, bool* diverged, std::string* error) {
    DesyncReport rep;
    if (!desync_once(sc, a, b, tmp, &rep, error)) return false;
    *diverged = rep.diverged;
    if (!rep.diverged) return true;
    FailureSignature s;
    s.kind = FailureSignature::Kind::kDesync;
    s.tick = rep.tick;
    s.has_entity = !rep.entities.empty();
    s.entity = pick_entity(rep);
    if (s.has_entity && s.entity.kind == EntityKind::kCharacter) {
        s.has_character = true;
        s.character = s.entity.id;
    }
    s.message = "first divergent tick " + std::to_string(rep.tick) +
                (s.has_entity ? ", entity " + s.entity.label() : std::string()) +
                (rep.reason.empty() ? std::string() : " (" + rep.reason + ")");
    *out = s;
    return true;
}

int expectation_position(const Scenario& sc, int original_index) {
    int below = 0;
    bool present = false;
    auto count = [&](const SourceRef& at) {
        if (at.index < original_index) ++below;
        if (at.index == original_index) present = true;
    };
    for (const auto& e : sc.expect_states)
        count(e.at);
    for (const auto& e : sc.expect_metrics)
        count(e.at);
    for (const auto& e : sc.expect_same_as)
        count(e.at);
    return present ? below : -1;
}

ShrinkOracle check_oracle(const FailureSignature& sig, const std::string& base_dir) {
    return [sig, base_dir](const Scenario& cand, int64_t* tick) {
        Scenario loaded;
        std::string error;
        if (!reload(cand, base_dir, &loaded, &error)) return false;
        CheckReport report;
        if (!run_checked(loaded, nullptr, RunOptions{}, &report, &error)) return false;
        const int position = sig.kind == FailureSignature::Kind::kExpectation
                                 ? expectation_position(cand, sig.expect_index)
                                 : -1;
        const std::optional<int64_t> t = failure_tick(report, sig, position);
        if (!t) return false;
        *tick = *t;
        return true;
    };
}

ShrinkOracle desync_oracle(const FailureSignature& sig, const Side& a, const Side& b,
                           const TempFolder& tmp) {
    return [sig, &a, &b, &tmp](const Scenario& cand, int64_t* tick) {
        DesyncReport rep;
        std::string error;
        if (!desync_once(cand, a, b, tmp, &rep, &error) || !rep.diverged) return false;
        if (sig.has_entity &&
            std::find(rep.entities.begin(), rep.entities.end(), sig.entity) == rep.entities.end()) {
            return false;
        }
        *tick = rep.tick;
        return true;
    };
}

} // namespace fx::harness

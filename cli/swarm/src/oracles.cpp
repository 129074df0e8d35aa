// The swarm's oracles (swarm/oracles.h).
#include "swarm/oracles.h"

#include <algorithm>
#include <array>
#include <optional>

#include "kcc/motion.h"
#include "oracle_runs.h"
#include "run/checks.h"
#include "run/runner.h"
#include "scenario/loader.h"
#include "scenario/writer.h"
#include "swarm/metamorphic.h"

namespace fx::harness::swarm {

namespace {

using namespace detail;

/// Every tick's states, and the rules that look at the world (floor, crowd-apart, rest-*).
class RuleSink final : public RunSink {
public:
    RuleSink(const GeneratedRun& run, const Scenario& sc, bool keep_states)
        : run_(run), sc_(sc), keep_(keep_states) {}

    void on_start(const kcc::World& world) override { world_ = &world; }

    bool on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>> platforms, std::span<const Vec3> render,
                 std::string* error) override {
        (void)platforms, (void)render, (void)error;
        character_ticks += static_cast<int64_t>(chars.size());
        if (keep_) ticks.emplace_back(chars.begin(), chars.end());
        for (size_t i = 0; i < chars.size(); ++i)
            floor_rule(tick, i, chars);
        for (const CrowdRule& r : run_.crowds)
            crowd_rule(tick, r, chars);
        for (const RestRule& r : run_.rests)
            rest_rule(tick, r, chars);
        return true;
    }

    std::vector<States> ticks;
    std::vector<Finding> findings;
    int64_t character_ticks = 0;

private:
    bool reported(const std::string& oracle, uint32_t id) const {
        return std::any_of(findings.begin(), findings.end(), [&](const Finding& f) {
            return f.oracle == oracle && f.character == id;
        });
    }
    void report(const std::string& oracle, int64_t tick, uint32_t id, const std::string& message) {
        if (reported(oracle, id)) return;
        Finding f;
        f.oracle = oracle;
        f.has_character = true;
        f.character = id;
        f.tick = tick;
        f.message = message;
        findings.push_back(f);
    }
    bool is_platform(geo::ShapeId id) const {
        return std::any_of(sc_.platforms.begin(), sc_.platforms.end(),
                           [&](const PlatformDef& p) { return p.id == id; });
    }

    // Airborne, not rising, with walkable static ground within the probe band, 3 ticks running.
    void floor_rule(int64_t tick, size_t i, std::span<const kcc::CharacterState> chars) {
        const kcc::CharacterState& s = chars[i];
        int& run = airborne_[s.id];
        if (s.grounded || s.velocity.y > Scalar{} || s.halted) {
            run = 0;
            return;
        }
        const kcc::Params& p = world_->params(i);
        const geo::Capsule cap = kcc::capsule_at(s.position, p);
        std::array<geo::Hit, 16> hits;
        // Clearly within the band (kGroundTolerance short of its end): the probe looks no
        // farther, and a body sliding off a round surface may follow it for ticks just beyond
        // the band (seed 20261220 run 30337: 0.05 m below, over a 0.05 m band, off a sphere).
        const Scalar reach = p.ground_band - kGroundTolerance;
        const size_t n = std::min(
            world_->scene().cast_all(cap, Vec3{Scalar{}, -Scalar::one(), Scalar{}}, reach, hits),
            hits.size());
        // docs/controller.md, "No higher than a step": an edge or corner the round base touches
        // more than step_height above the ground under an airborne body's feet (a skin below
        // them) is a ledge it reaches over, no ground; a falling body leaning on such a rim slides
        // off it. Only an edge clearly below that height (kGroundTolerance) counts as floor here.
        // (Seed 20261220 run 25133: radius 0.589 m, step 0.165 m, leaning on a box's top edge
        // 0.186 m above its feet while falling past it.)
        const Scalar highest_edge = s.position.y - p.s.skin + p.s.step_height - kGroundTolerance;
        bool floor = false;
        for (size_t k = 0; k < n && !floor; ++k) {
            const geo::Hit& h = hits[k];
            const bool edge = h.feature.kind == geo::FeatureKind::kEdge ||
                              h.feature.kind == geo::FeatureKind::kVertex;
            floor = !h.start_overlap && h.normal.y >= p.cos_enter && !is_platform(h.shape) &&
                    !(edge && h.point.y > highest_edge);
        }
        run = floor ? run + 1 : 0;
        if (run >= 3) {
            report("floor", tick, s.id,
                   at_text(tick, s.id) + ": airborne for " + std::to_string(run) + " ticks (vy " +
                       m6(s.velocity.y) + " m/s) with walkable ground within " + m6(reach) +
                       " m below its feet");
        }
    }

    void crowd_rule(int64_t tick, const CrowdRule& r, std::span<const kcc::CharacterState> chars) {
        if (tick < r.from) return;
        const Scalar limit = Scalar::ratio(1, 100);
        for (size_t i = 0; i < chars.size(); ++i) {
            if (!std::binary_search(r.ids.begin(), r.ids.end(), chars[i].id)) continue;
            const kcc::Params& pi = world_->params(i);
            if (!pi.s.collide_characters) continue;
            for (size_t j = i + 1; j < chars.size(); ++j) {
                if (!std::binary_search(r.ids.begin(), r.ids.end(), chars[j].id)) continue;
                const kcc::Params& pj = world_->params(j);
                if (!pj.s.collide_characters) continue;
                const geo::Capsule a = kcc::capsule_at(chars[i].position, pi),
                                   b = kcc::capsule_at(chars[j].position, pj);
                const Scalar reach = a.radius + b.radius;
                const Vec3 d{a.a.x - b.a.x, Scalar{}, a.a.z - b.a.z};
                if (abs(d.x) >= reach || abs(d.z) >= reach) continue;
                const Scalar gy = max(max(a.a.y - b.b.y, b.a.y - a.b.y), Scalar{});
                const Scalar overlap = reach - length(Vec3{d.x, gy, d.z});
                if (overlap > limit) {
                    report("crowd-apart", tick, chars[i].id,
                           at_text(tick, chars[i].id) + ": overlaps character " +
                               std::to_string(chars[j].id) + " by " + m6(overlap) + " m, " +
                               std::to_string(tick - r.from) +
                               " ticks after the crowd should be apart (at most 0.01 m)");
                }
            }
        }
    }

    void rest_rule(int64_t tick, const RestRule& r, std::span<const kcc::CharacterState> chars) {
        if (tick < r.from) return;
        for (size_t i = 0; i < chars.size(); ++i) {
            const kcc::CharacterState& s = chars[i];
            if (s.id != r.id) continue;
            const kcc::Params& p = world_->params(i);
            const Scalar want = p.s.skin - Scalar::ratio(1, 1000);
            std::array<geo::Contact, 16> contacts;
            const size_t n =
                std::min(world_->scene().overlap(kcc::capsule_at(s.position, p), want, contacts),
                         contacts.size());
            for (size_t k = 0; k < n; ++k) {
                const geo::Contact& c = contacts[k];
                if (is_platform(c.shape) || (s.grounded && c.shape == s.ground_shape)) continue;
                report("rest-skin", tick, s.id,
                       at_text(tick, s.id) + ": " + m6(-c.depth) + " m from shape " +
                           std::to_string(c.shape) + " (it rests a skin, " + m6(p.s.skin) +
                           " m, from what it touches; 1 mm tolerance)");
                break;
            }
            if (r.max_travel.raw() > 0) {
                // Across the ground: the way out is horizontal, and a body spawned on the
                // floor also rises to rest a skin above it (the ground's rule, not the way out).
                const Vec3 d = s.position - r.spawn;
                const Scalar went = length(Vec3{d.x, Scalar{}, d.z});
                if (went > r.max_travel) {
                    report(
                        "rest-path", tick, s.id,
                        at_text(tick, s.id) + ": " + m6(went) +
                            " m from its spawn across the ground, farther than the smallest way out (" +
                            m6(r.max_travel) + " m with its skin)");
                }
            }
        }
    }

    const GeneratedRun& run_;
    const Scenario& sc_;
    bool keep_;
    const kcc::World* world_ = nullptr;
    std::map<uint32_t, int> airborne_;
};

bool reload(const Scenario& cand, Scenario* out) {
    LoadError e;
    return load_scenario_text(scenario_to_yaml(cand),
                              cand.path.empty() ? cand.name + ".yaml" : cand.path, "",
                              LoadOptions{}, out, &e);
}

std::string oracle_of(const GeneratedRun& run, const FailureSignature& s) {
    if (s.kind == FailureSignature::Kind::kInvariant) return "invariant:" + s.invariant;
    if (s.expect_index >= 0 && static_cast<size_t>(s.expect_index) < run.expect_rules.size()) {
        return "rule:" + run.expect_rules[static_cast<size_t>(s.expect_index)];
    }
    return "rule:other";
}

/// The run's rules restricted to the characters `sc` still has.
GeneratedRun rules_for(const GeneratedRun& run, const Scenario& sc) {
    GeneratedRun r;
    r.seed = run.seed;
    r.index = run.index;
    auto has = [&sc](uint32_t id) {
        return std::any_of(sc.characters.begin(), sc.characters.end(),
                           [&](const CharacterDef& c) { return c.id == id; });
    };
    for (CrowdRule c : run.crowds) {
        std::erase_if(c.ids, [&](uint32_t id) { return !has(id); });
        c.from = std::min(c.from, sc.ticks - 1);
        if (c.ids.size() >= 2) r.crowds.push_back(c);
    }
    for (const RestRule& rr : run.rests) {
        if (has(rr.id)) r.rests.push_back(rr);
    }
    return r;
}

/// The shape ids of `sc` in the family (id range) of character `id`, ascending.
std::vector<uint32_t> family_shapes(const Scenario& sc, uint32_t id) {
    std::vector<uint32_t> ids;
    auto add = [&](uint32_t shape) {
        if (shape / 1000 == id / 1000) ids.push_back(shape);
    };
    for (const BoxDef& b : sc.boxes)
        add(b.id);
    for (const SphereDef& x : sc.spheres)
        add(x.id);
    for (const CapsuleDef& x : sc.capsules)
        add(x.id);
    for (const MeshDef& x : sc.meshes)
        add(x.id);
    for (const PlatformDef& x : sc.platforms)
        add(x.id);
    std::sort(ids.begin(), ids.end());
    return ids;
}

/// Whether `cand` still has the character's input events and every shape of its family.
bool keeps_setup(const Scenario& original, const Scenario& cand, uint32_t id) {
    if (family_shapes(original, id) != family_shapes(cand, id)) return false;
    auto input_of = [id](const Scenario& s) -> const InputStream* {
        for (const CharacterDef& c : s.characters) {
            if (c.id == id) return &*c.input;
        }
        return nullptr;
    };
    const InputStream* a = input_of(original);
    const InputStream* b = input_of(cand);
    return a != nullptr && b != nullptr && a->sticks.size() == b->sticks.size() &&
           a->jumps.size() == b->jumps.size() && a->impulses.size() == b->impulses.size();
}

class StepObserver final : public kcc::TraceObserver {
public:
    StepObserver(uint32_t id, int64_t tick) : id_(id), tick_(tick) {}
    void on_event(const kcc::TraceEvent& e) override {
        if (e.kind == kcc::TraceKind::kTickBegin && e.character == id_) ++seen_;
        if (seen_ - 1 != tick_ || e.character != id_) return;
        std::string step;
        switch (e.kind) {
        case kcc::TraceKind::kPlatformCarry:
            step = "platform-carry";
            break;
        case kcc::TraceKind::kDepenetrate:
            step = "depenetrate";
            break;
        case kcc::TraceKind::kIterationCap:
            step = "iteration-cap";
            break;
        case kcc::TraceKind::kStepAttempt:
            step = std::string("step:") + kcc::to_string(static_cast<kcc::StepResult>(e.reason));
            break;
        case kcc::TraceKind::kSnap:
            step = e.flag ? "snap" : "snap-missed";
            break;
        case kcc::TraceKind::kLanded:
            step = "landed";
            break;
        default:
            return;
        }
        if (steps.empty() || steps.back() != step) steps.push_back(step);
    }
    std::vector<std::string> steps;

private:
    uint32_t id_;
    int64_t tick_;
    int64_t seen_ = 0;
};

class NullSink final : public RunSink {
public:
    bool on_tick(int64_t, std::span<const kcc::CharacterState>,
                 std::span<const std::pair<uint32_t, Vec3>>, std::span<const Vec3>,
                 std::string*) override {
        return true;
    }
};

/// The scenario as the sides run it: their hashes are compared, not their checks.
Scenario without_expectations(const Scenario& sc) {
    Scenario plain = sc;
    plain.expect_states.clear();
    plain.expect_metrics.clear();
    plain.expect_same_as.clear();
    return plain;
}

} // namespace

const std::vector<std::string>& plantable_oracles() {
    static const std::vector<std::string> names = {"translate", "permute",   "frames",
                                                   "turn",      "roundtrip", "synctest"};
    return names;
}

bool check_run(const GeneratedRun& run, const OracleSet& set, std::vector<Finding>* out,
               std::map<std::string, int64_t>* checked, int64_t* character_ticks,
               std::string* error) {
    const Scenario& sc = run.scenario;
    RuleSink sink(run, sc, set.metamorphic);
    CheckReport report;
    if (!run_checked(sc, &sink, RunOptions{}, &report, error)) return false;
    *character_ticks += sink.character_ticks;
    ++(*checked)["invariants"];
    if (!run.expect_rules.empty()) ++(*checked)["rules"];
    ++(*checked)["floor"];
    if (!run.crowds.empty()) ++(*checked)["crowd-apart"];
    if (!run.rests.empty()) ++(*checked)["rest"];
    std::vector<Finding> found;
    // A finding of an oracle of this file, as the shrinker keeps it failing (fails_again).
    auto as_own = [](Finding* f, const std::string& name) {
        f->sig.kind = FailureSignature::Kind::kInvariant;
        f->sig.invariant = name;
        f->sig.has_character = f->has_character;
        f->sig.character = f->character;
        f->sig.tick = f->tick;
        f->sig.message = f->message;
    };
    auto add = [&found](Finding f) {
        const bool dup = std::any_of(found.begin(), found.end(), [&](const Finding& g) {
            return g.oracle == f.oracle && g.has_character == f.has_character &&
                   g.character == f.character;
        });
        if (!dup) found.push_back(std::move(f));
    };
    for (const CheckFailure& c : report.failures) {
        Finding f;
        f.sig = classify_failure(c);
        f.oracle = oracle_of(run, f.sig);
        f.has_character = f.sig.has_character;
        f.character = f.sig.character;
        f.tick = c.tick;
        f.message = c.message;
        add(f);
    }
    for (Finding f : sink.findings) {
        as_own(&f, f.oracle);
        add(f);
    }
    if (set.metamorphic) {
        for (const Metamorphic& m : transforms(run, sc, set.plant)) {
            ++(*checked)[m.oracle];
            Finding f;
            if (metamorphic_fails(run, sc, sink.ticks, m, &f, character_ticks)) {
                f.has_character = false; // the reduced scenario may part at another character
                as_own(&f, m.oracle);
                add(f);
            }
        }
    }
    if (set.synctest) {
        ++(*checked)["roundtrip"];
        Finding r;
        if (roundtrip_fails(run, sc, set.plant == "roundtrip", &r, character_ticks)) {
            as_own(&r, "roundtrip");
            add(r);
        }
        ++(*checked)["synctest"];
        Finding f;
        if (synctest_fails(run, sc, set.plant == "synctest", &f, character_ticks)) {
            as_own(&f, "synctest");
            add(f);
        }
    }
    if (set.a != nullptr && set.b != nullptr) {
        ++(*checked)["sides"];
        const TempFolder tmp; // one per run: runs go in parallel
        if (!tmp.ok()) {
            *error = "cannot create a temporary folder for the sides";
            return false;
        }
        FailureSignature sig;
        bool diverged = false;
        std::string why;
        if (!find_desync(without_expectations(sc), *set.a, *set.b, tmp, &sig, &diverged, &why)) {
            // A side that fails on this world (a crash, a trap, no hashes written) is a finding
            // about that build; a side that cannot run at all was refused before the first run.
            Finding f;
            f.oracle = "sides-run";
            f.message = why.substr(0, why.find('\n')); // a report's line: the side's first line
            add(f);
        } else if (diverged) {
            *character_ticks += 2 * sink.character_ticks;
            Finding f;
            f.oracle = "sides";
            f.sig = sig;
            f.has_character = sig.has_character;
            f.character = sig.character;
            f.tick = sig.tick;
            f.message = sig.message;
            add(f);
        } else {
            *character_ticks += 2 * sink.character_ticks;
        }
    }
    out->insert(out->end(), found.begin(), found.end());
    return true;
}

bool fails_again(const GeneratedRun& run, const Finding& f, const OracleSet& set,
                 const Scenario& candidate, int64_t* tick) {
    // The floor stays: without it a body falls for ever, and the failure is another one.
    auto floor = [](const Scenario& s) {
        return std::any_of(s.planes.begin(), s.planes.end(),
                           [](const PlaneDef& p) { return p.id == 1; });
    };
    if (floor(run.scenario) && !floor(candidate)) return false;
    // A rule the generator derived for a character holds only with the geometry and the input it
    // was derived for: the character's input and its family's shapes stay (the rest may go).
    const bool pinned = f.oracle.rfind("rule:", 0) == 0 || f.oracle.rfind("rest-", 0) == 0;
    if (pinned && f.has_character && !keeps_setup(run.scenario, candidate, f.character))
        return false;
    if (f.oracle.rfind("invariant:", 0) == 0 || f.oracle.rfind("rule:", 0) == 0) {
        return check_oracle(f.sig, "")(candidate, tick);
    }
    if (f.oracle == "sides") {
        const TempFolder tmp;
        if (set.a == nullptr || set.b == nullptr || !tmp.ok()) return false;
        return desync_oracle(f.sig, *set.a, *set.b, tmp)(candidate, tick);
    }
    if (f.oracle == "sides-run") { // the same side fails again ("side a (" or "side b (")
        const TempFolder tmp;
        if (set.a == nullptr || set.b == nullptr || !tmp.ok()) return false;
        FailureSignature sig;
        bool diverged = false;
        std::string why;
        *tick = -1;
        return !find_desync(without_expectations(candidate), *set.a, *set.b, tmp, &sig, &diverged,
                            &why) &&
               why.compare(0, 8, f.message, 0, 8) == 0;
    }
    Scenario sc;
    if (!reload(candidate, &sc)) return false;
    if (f.oracle == "roundtrip") {
        Finding g;
        int64_t ct = 0;
        if (!roundtrip_fails(run, sc, set.plant == "roundtrip", &g, &ct)) return false;
        *tick = g.tick;
        return true;
    }
    if (f.oracle == "synctest") {
        Finding g;
        int64_t ct = 0;
        if (!synctest_fails(run, sc, set.plant == "synctest", &g, &ct)) return false;
        *tick = g.tick;
        return true;
    }
    const GeneratedRun rules = rules_for(run, sc);
    const bool meta = f.oracle == "translate" || f.oracle == "permute" || f.oracle == "frames" ||
                      f.oracle == "turn";
    RuleSink sink(rules, sc, meta);
    std::string error;
    if (!run_scenario(sc, sink, RunOptions{}, &error)) return false;
    if (meta) {
        for (const Metamorphic& m : transforms(run, sc, set.plant)) {
            if (m.oracle != f.oracle) continue;
            Finding g;
            int64_t ct = 0;
            if (!metamorphic_fails(run, sc, sink.ticks, m, &g, &ct)) return false;
            *tick = g.tick;
            return true;
        }
        return false;
    }
    for (const Finding& g : sink.findings) {
        if (g.oracle == f.oracle && g.character == f.character) {
            *tick = g.tick;
            return true;
        }
    }
    return false;
}

std::string solver_steps(const Scenario& sc, uint32_t id, int64_t tick) {
    StepObserver obs(id, tick);
    NullSink sink;
    RunOptions o;
    o.observer = &obs;
    o.stop_after = tick;
    std::string error;
    if (!run_scenario(sc, sink, o, &error)) return "";
    std::string s;
    for (const std::string& step : obs.steps)
        s += (s.empty() ? "" : ",") + step;
    return s;
}

} // namespace fx::harness::swarm

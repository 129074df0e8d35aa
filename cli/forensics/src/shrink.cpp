// `fxkcc shrink` (forensics/shrink.h, docs/shrink.md): the reduction passes over a scenario;
// the failure oracles they keep are in shrink_oracles.cpp.
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

int64_t count_world(const Scenario& sc) {
    return static_cast<int64_t>(sc.boxes.size() + sc.planes.size() + sc.spheres.size() +
                                sc.capsules.size() + sc.meshes.size() + sc.platforms.size());
}

bool has_character(const Scenario& sc, uint32_t id) {
    return std::any_of(sc.characters.begin(), sc.characters.end(),
                       [&](const CharacterDef& c) { return c.id == id; });
}
bool has_platform(const Scenario& sc, uint32_t id) {
    return std::any_of(sc.platforms.begin(), sc.platforms.end(),
                       [&](const PlatformDef& p) { return p.id == id; });
}

/// Makes a candidate loadable: input and expectation ticks inside the run, no expectation
/// naming a removed character or platform. False when the failing item itself would go.
bool sanitize(Scenario* sc, const FailureSignature& sig) {
    const int64_t last = sc->ticks - 1;
    for (CharacterDef& c : sc->characters) {
        InputStream& in = c.input.edit();
        std::erase_if(in.sticks,
                      [&](const StickSegment& s) { return s.from > last || s.to <= s.from; });
        for (StickSegment& s : in.sticks)
            s.to = std::min(s.to, sc->ticks);
        std::erase_if(in.jumps, [&](int64_t t) { return t > last; });
        std::erase_if(in.impulses, [&](const ImpulseEvent& e) { return e.tick > last; });
    }
    // The timeline inside the run: no join at or after its end, a leave after it is no leave,
    // no event of a character that is gone (a removed entry, or one whose join went).
    std::erase_if(sc->characters, [&](const CharacterDef& c) { return c.join > last; });
    for (CharacterDef& c : sc->characters) {
        if (c.leave != CharacterDef::kNever && c.leave > last) c.leave = CharacterDef::kNever;
    }
    std::erase_if(sc->events, [&](const EventDef& e) {
        return e.tick > last || entry_at(*sc, e.character, e.tick) == sc->characters.size();
    });
    const bool target_expect = sig.kind == FailureSignature::Kind::kExpectation;
    bool ok = true;
    auto drop = [&](const SourceRef& at) {
        if (target_expect && at.index == sig.expect_index) ok = false;
        return true;
    };
    std::erase_if(sc->expect_states, [&](const StateExpectation& e) {
        if (e.from > last) return drop(e.at);
        if (e.character != kcc::kNoId && !has_character(*sc, e.character)) return drop(e.at);
        if (e.check_platform && e.platform != kcc::kNoId && !has_platform(*sc, e.platform))
            return drop(e.at);
        return false;
    });
    for (StateExpectation& e : sc->expect_states)
        e.to = std::min(e.to, last);
    std::erase_if(sc->expect_metrics, [&](const MetricExpectation& e) {
        return e.character != kcc::kNoId && !has_character(*sc, e.character) && drop(e.at);
    });
    std::erase_if(sc->expect_same_as, [&](const SameAsExpectation& e) {
        return e.other && e.other->characters.size() != sc->characters.size() && drop(e.at);
    });
    return ok && !sc->characters.empty();
}

/// The shrinking state: the current smallest failing scenario and the run budget.
class Shrinker {
public:
    Shrinker(const Scenario& sc, const FailureSignature& sig, const ShrinkOracle& oracle,
             const ShrinkOptions& o)
        : cur_(sc), sig_(sig), oracle_(oracle), opts_(o), tick_(sig.tick) {}

    bool out_of_runs() const { return runs_ >= opts_.max_runs; }

    /// Tests a candidate; on success it becomes the current scenario.
    bool attempt(Scenario cand) {
        if (out_of_runs()) return false;
        if (!sanitize(&cand, sig_)) return false;
        ++runs_;
        int64_t tick = -1;
        if (!oracle_(cand, &tick)) return false;
        cur_ = std::move(cand);
        tick_ = tick;
        return true;
    }

    /// Removes chunks of n items (ddmin, complement side): build(keep) makes the candidate.
    template <typename Build> int ddmin(size_t n, Build build) {
        std::vector<size_t> alive(n);
        for (size_t i = 0; i < n; ++i)
            alive[i] = i;
        size_t parts = 2;
        int removed = 0;
        while (!alive.empty() && !out_of_runs()) {
            parts = std::min(parts, alive.size());
            bool progress = false;
            const size_t chunk = (alive.size() + parts - 1) / parts;
            for (size_t start = 0; start < alive.size() && !out_of_runs(); start += chunk) {
                std::vector<bool> keep(n, false);
                for (size_t i = 0; i < alive.size(); ++i) {
                    if (i < start || i >= start + chunk) keep[alive[i]] = true;
                }
                if (attempt(build(keep))) {
                    const size_t end = std::min(alive.size(), start + chunk);
                    removed += static_cast<int>(end - start);
                    alive.erase(alive.begin() + static_cast<std::ptrdiff_t>(start),
                                alive.begin() + static_cast<std::ptrdiff_t>(end));
                    parts = std::max<size_t>(parts - 1, 2);
                    progress = true;
                    break;
                }
            }
            if (!progress) {
                if (parts >= alive.size()) break;
                parts = std::min(parts * 2, alive.size());
            }
        }
        return removed;
    }

    void say(const std::string& what) {
        if (opts_.progress) opts_.progress(what + " (runs " + std::to_string(runs_) + ")");
    }

    // (a) ticks
    bool ticks() {
        const int64_t before = cur_.ticks;
        // A lower bound on a metric over the whole run ("airborne at least one tick") fails in
        // every shorter run, the behaviour it wants or not: cutting the ticks would keep the
        // failure and prove nothing.
        if (sig_.kind == FailureSignature::Kind::kExpectation && sig_.tick < 0) {
            for (const MetricExpectation& e : cur_.expect_metrics) {
                if (e.at.index != sig_.expect_index) continue;
                for (const auto& c : e.checks) {
                    if (c.second.has_min) return false;
                }
            }
        }
        auto with_ticks = [&](int64_t t) {
            Scenario c = cur_;
            c.ticks = t;
            return c;
        };
        const int64_t just_past = tick_ + 1;
        if (tick_ >= 0 && just_past < cur_.ticks && attempt(with_ticks(just_past))) {
            // done
        } else {
            int64_t lo = std::max<int64_t>(1, tick_ + 1), hi = cur_.ticks; // hi fails
            while (lo < hi && !out_of_runs()) {
                const int64_t mid = lo + (hi - lo) / 2;
                if (attempt(with_ticks(mid))) {
                    hi = cur_.ticks;
                } else {
                    lo = mid + 1;
                }
            }
        }
        if (cur_.ticks == before) return false;
        say("ticks: " + std::to_string(before) + " -> " + std::to_string(cur_.ticks));
        return true;
    }

    // (b) characters
    bool characters() {
        std::vector<size_t> idx;
        for (size_t i = 0; i < cur_.characters.size(); ++i) {
            if (!(sig_.has_character && cur_.characters[i].id == sig_.character)) idx.push_back(i);
        }
        const size_t before = cur_.characters.size();
        const Scenario base = cur_;
        const int removed = ddmin(idx.size(), [&](const std::vector<bool>& keep) {
            Scenario c = base;
            c.characters.clear();
            size_t k = 0;
            for (size_t i = 0; i < base.characters.size(); ++i) {
                const bool candidate = k < idx.size() && idx[k] == i;
                if (!candidate || keep[k]) c.characters.push_back(base.characters[i]);
                if (candidate) ++k;
            }
            return c;
        });
        if (removed == 0) return false;
        say("characters: removed " + std::to_string(removed) + " of " + std::to_string(before));
        return true;
    }

    // (c) world items and platforms
    bool world() {
        const Scenario base = cur_;
        // Platforms the failing expectation names stay.
        std::vector<uint32_t> pinned;
        for (const StateExpectation& e : base.expect_states) {
            if (sig_.kind == FailureSignature::Kind::kExpectation &&
                e.at.index == sig_.expect_index && e.check_platform && e.platform != kcc::kNoId) {
                pinned.push_back(e.platform);
            }
        }
        struct Item {
            int kind;
            size_t index;
        };
        std::vector<Item> items;
        for (size_t i = 0; i < base.boxes.size(); ++i)
            items.push_back({0, i});
        for (size_t i = 0; i < base.planes.size(); ++i)
            items.push_back({1, i});
        for (size_t i = 0; i < base.spheres.size(); ++i)
            items.push_back({2, i});
        for (size_t i = 0; i < base.capsules.size(); ++i)
            items.push_back({3, i});
        for (size_t i = 0; i < base.meshes.size(); ++i)
            items.push_back({4, i});
        for (size_t i = 0; i < base.platforms.size(); ++i) {
            if (std::find(pinned.begin(), pinned.end(), base.platforms[i].id) == pinned.end())
                items.push_back({5, i});
        }
        const int64_t before = count_world(base);
        const int removed = ddmin(items.size(), [&](const std::vector<bool>& keep) {
            std::vector<std::vector<bool>> k(6);
            k[0].assign(base.boxes.size(), true);
            k[1].assign(base.planes.size(), true);
            k[2].assign(base.spheres.size(), true);
            k[3].assign(base.capsules.size(), true);
            k[4].assign(base.meshes.size(), true);
            k[5].assign(base.platforms.size(), true);
            for (size_t i = 0; i < items.size(); ++i)
                k[static_cast<size_t>(items[i].kind)][items[i].index] = keep[i];
            Scenario c = base;
            auto filter = [](auto& v, const std::vector<bool>& mask) {
                std::remove_reference_t<decltype(v)> out;
                for (size_t i = 0; i < v.size(); ++i) {
                    if (mask[i]) out.push_back(v[i]);
                }
                v = std::move(out);
            };
            filter(c.boxes, k[0]);
            filter(c.planes, k[1]);
            filter(c.spheres, k[2]);
            filter(c.capsules, k[3]);
            filter(c.meshes, k[4]);
            filter(c.platforms, k[5]);
            return c;
        });
        if (removed == 0) return false;
        say("world: removed " + std::to_string(removed) + " of " + std::to_string(before) +
            " items");
        return true;
    }

    // (d) input events
    bool input() {
        const Scenario base = cur_;
        struct Event {
            size_t character;
            int kind; ///< 0 stick segment, 1 jump, 2 impulse
            size_t index;
        };
        std::vector<Event> events;
        for (size_t c = 0; c < base.characters.size(); ++c) {
            const InputStream& in = *base.characters[c].input;
            for (size_t i = 0; i < in.sticks.size(); ++i)
                events.push_back({c, 0, i});
            for (size_t i = 0; i < in.jumps.size(); ++i)
                events.push_back({c, 1, i});
            for (size_t i = 0; i < in.impulses.size(); ++i)
                events.push_back({c, 2, i});
        }
        const size_t before = events.size();
        int removed = ddmin(events.size(), [&](const std::vector<bool>& keep) {
            Scenario c = base;
            for (CharacterDef& ch : c.characters)
                ch.input = SharedInput{};
            for (size_t i = 0; i < events.size(); ++i) {
                if (!keep[i]) continue;
                const Event& e = events[i];
                const InputStream& from = *base.characters[e.character].input;
                InputStream& to = c.characters[e.character].input.edit();
                if (e.kind == 0) to.sticks.push_back(from.sticks[e.index]);
                if (e.kind == 1) to.jumps.push_back(from.jumps[e.index]);
                if (e.kind == 2) to.impulses.push_back(from.impulses[e.index]);
            }
            return c;
        });
        // Merge adjacent stick segments (the earlier stick held over both).
        int merged = 0;
        for (size_t c = 0; c < cur_.characters.size() && !out_of_runs(); ++c) {
            for (size_t i = 0; i + 1 < cur_.characters[c].input->sticks.size() && !out_of_runs();) {
                const auto& s = cur_.characters[c].input->sticks;
                bool done = false;
                for (int variant = 0; variant < 2 && !done; ++variant) {
                    Scenario cand = cur_;
                    auto& v = cand.characters[c].input.edit().sticks;
                    if (variant == 0) {
                        v[i].to = s[i + 1].to;
                    } else {
                        v[i + 1].from = s[i].from;
                    }
                    v.erase(v.begin() + static_cast<std::ptrdiff_t>(variant == 0 ? i + 1 : i));
                    done = attempt(std::move(cand));
                }
                if (done) {
                    ++merged;
                } else {
                    ++i;
                }
            }
        }
        removed += merged;
        if (removed == 0) return false;
        say("input: removed " + std::to_string(removed - merged) + " of " + std::to_string(before) +
            " events, merged " + std::to_string(merged) + " stick segments");
        return true;
    }

    // (e) expectation items other than the failing one
    bool expectations() {
        const Scenario base = cur_;
        struct Ref {
            int kind;
            size_t index;
        };
        std::vector<Ref> refs;
        auto target = [&](const SourceRef& at) {
            return sig_.kind == FailureSignature::Kind::kExpectation &&
                   at.index == sig_.expect_index;
        };
        for (size_t i = 0; i < base.expect_states.size(); ++i) {
            if (!target(base.expect_states[i].at)) refs.push_back({0, i});
        }
        for (size_t i = 0; i < base.expect_metrics.size(); ++i) {
            if (!target(base.expect_metrics[i].at)) refs.push_back({1, i});
        }
        for (size_t i = 0; i < base.expect_same_as.size(); ++i) {
            if (!target(base.expect_same_as[i].at)) refs.push_back({2, i});
        }
        const size_t before = refs.size();
        const int removed = ddmin(refs.size(), [&](const std::vector<bool>& keep) {
            Scenario c = base;
            std::vector<bool> ks(base.expect_states.size(), true),
                km(base.expect_metrics.size(), true), kx(base.expect_same_as.size(), true);
            for (size_t i = 0; i < refs.size(); ++i) {
                (refs[i].kind == 0 ? ks : refs[i].kind == 1 ? km : kx)[refs[i].index] = keep[i];
            }
            c.expect_states.clear();
            c.expect_metrics.clear();
            c.expect_same_as.clear();
            for (size_t i = 0; i < ks.size(); ++i)
                if (ks[i]) c.expect_states.push_back(base.expect_states[i]);
            for (size_t i = 0; i < km.size(); ++i)
                if (km[i]) c.expect_metrics.push_back(base.expect_metrics[i]);
            for (size_t i = 0; i < kx.size(); ++i)
                if (kx[i]) c.expect_same_as.push_back(base.expect_same_as[i]);
            return c;
        });
        if (removed == 0) return false;
        say("expectations: removed " + std::to_string(removed) + " of " + std::to_string(before) +
            " other items");
        return true;
    }

    Scenario cur_;
    const FailureSignature& sig_;
    const ShrinkOracle& oracle_;
    const ShrinkOptions& opts_;
    int runs_ = 0;
    int64_t tick_ = -1;
};

} // namespace

ShrinkSizes shrink_sizes(const Scenario& sc) {
    ShrinkSizes s;
    s.ticks = sc.ticks;
    s.characters = static_cast<int64_t>(sc.characters.size());
    s.world_items = count_world(sc);
    for (const CharacterDef& c : sc.characters) {
        s.input_events += static_cast<int64_t>(c.input->sticks.size() + c.input->jumps.size() +
                                               c.input->impulses.size());
    }
    s.expectations = static_cast<int64_t>(sc.expect_states.size() + sc.expect_metrics.size() +
                                          sc.expect_same_as.size());
    return s;
}

std::string format_sizes(const ShrinkSizes& s) {
    return "ticks " + std::to_string(s.ticks) + ", characters " + std::to_string(s.characters) +
           ", world items " + std::to_string(s.world_items) + ", input events " +
           std::to_string(s.input_events) + ", expectations " + std::to_string(s.expectations);
}

ShrinkResult shrink_scenario(const Scenario& sc, const FailureSignature& sig,
                             const ShrinkOracle& oracle, const ShrinkOptions& options) {
    Scenario start = sc;
    auto is_target = [&](const SourceRef& at) {
        return sig.kind == FailureSignature::Kind::kExpectation && at.index == sig.expect_index;
    };
    if (sig.kind == FailureSignature::Kind::kDesync) {
        start.expect_states.clear();
        start.expect_metrics.clear();
        start.expect_same_as.clear();
    } else {
        std::erase_if(start.expect_same_as,
                      [&](const SameAsExpectation& e) { return !is_target(e.at); });
    }
    Shrinker s(start, sig, oracle, options);
    while (!s.out_of_runs()) { // rounds of every pass until one changes nothing
        bool any = false;
        any = s.ticks() || any;
        any = s.characters() || any;
        any = s.world() || any;
        any = s.input() || any;
        any = s.expectations() || any;
        if (!any) break;
    }
    ShrinkResult r;
    r.scenario = std::move(s.cur_);
    r.runs = s.runs_;
    r.out_of_runs = s.out_of_runs();
    r.tick = s.tick_;
    return r;
}

} // namespace fx::harness

// The loader's `characters` (settings and input streams) and `frames` sections (docs/scenarios.md).
#include <algorithm>

#include "fx/decimal.h"
#include "kcc/settings.h"
#include "loader_context.h"
#include "loader_text.h"

namespace fx::harness::detail {
namespace {

struct SettingField {
    const char* name;
    Scalar kcc::Settings::*scalar;
    const Bound* bound;
    int kcc::Settings::*integer;
    int lo, hi;
};

const std::vector<SettingField>& setting_fields() {
    using S = kcc::Settings;
    static const std::vector<SettingField> f = {
        {"radius", &S::radius, &detail::kLength, nullptr, 0, 0},
        {"height", &S::height, &detail::kLength, nullptr, 0, 0},
        {"skin", &S::skin, &detail::kLength, nullptr, 0, 0},
        {"max_slope_enter_deg", &S::max_slope_enter_deg, &detail::kAngle, nullptr, 0, 0},
        {"max_slope_stay_deg", &S::max_slope_stay_deg, &detail::kAngle, nullptr, 0, 0},
        {"probe_distance", &S::probe_distance, &detail::kLength, nullptr, 0, 0},
        {"probe_skin", &S::probe_skin, &detail::kLength, nullptr, 0, 0},
        {"probe_max_hits", nullptr, nullptr, &S::probe_max_hits, 1, kcc::kMaxProbeHits},
        {"snap_distance", &S::snap_distance, &detail::kLength, nullptr, 0, 0},
        {"depenetration_cap", &S::depenetration_cap, &detail::kLength, nullptr, 0, 0},
        {"max_slide_iterations", nullptr, nullptr, &S::max_slide_iterations, 1,
         kcc::kMaxSlideIterations},
        {"step_height", &S::step_height, &detail::kLength, nullptr, 0, 0},
        {"step_min_forward", &S::step_min_forward, &detail::kLength, nullptr, 0, 0},
        {"max_speed", &S::max_speed, &detail::kSpeed, nullptr, 0, 0},
        {"ground_accel", &S::ground_accel, &detail::kAccel, nullptr, 0, 0},
        {"ground_brake", &S::ground_brake, &detail::kAccel, nullptr, 0, 0},
        {"air_accel", &S::air_accel, &detail::kAccel, nullptr, 0, 0},
        {"jump_speed", &S::jump_speed, &detail::kSpeed, nullptr, 0, 0},
        {"gravity", &S::gravity, &detail::kAccel, nullptr, 0, 0},
        {"dead_zone", &S::dead_zone, &detail::kDeadZone, nullptr, 0, 0},
        {"turn_rate_deg", &S::turn_rate_deg, &detail::kTurnRate, nullptr, 0, 0},
        {"tick_rate_hz", nullptr, nullptr, &S::tick_rate_hz, 1, 1000},
        {"max_ticks_per_frame", nullptr, nullptr, &S::max_ticks_per_frame, 1, 1000},
    };
    return f;
}

/// Settings keys of `v` (a mapping) applied over `st`, then validated (kcc::validate's message
/// at `at`, the `settings` key).
kcc::Settings overlay_settings(Ctx& ctx, const Value& v, const Value& at, kcc::Settings st) {
    std::vector<std::string> names;
    for (const SettingField& f : setting_fields())
        names.push_back(f.name);
    names.push_back("collide_characters");
    const Map m(v, names);
    if (auto c = m.opt("collide_characters")) st.collide_characters = c->boolean();
    for (const SettingField& f : setting_fields()) {
        const std::optional<Value> fv = m.opt(f.name);
        if (!fv) continue;
        if (f.scalar != nullptr) {
            st.*f.scalar = fv->number(*f.bound);
        } else {
            st.*f.integer = static_cast<int>(fv->integer(f.lo, f.hi));
        }
    }
    if (st.tick_rate_hz != ctx.tick_rate) {
        m.opt("tick_rate_hz")
            ->fail("tick_rate_hz " + std::to_string(st.tick_rate_hz) +
                   " disagrees with the scenario's tick_rate " + std::to_string(ctx.tick_rate) +
                   " (set tick_rate only, or the same value in both)");
    }
    std::string error;
    if (!kcc::validate(st, &error)) at.fail(error);
    return st;
}

kcc::Settings load_settings(Ctx& ctx, const Map& character) {
    kcc::Settings st;
    st.tick_rate_hz = ctx.tick_rate;
    const std::optional<Value> v = character.opt("settings");
    if (!v || v->is_null()) return st;
    return overlay_settings(ctx, *v, character.key_node("settings"), st);
}

/// The first tick outside [join, leave) where the input is not idle, or -1.
int64_t input_outside(const InputStream& in, int64_t join, int64_t leave) {
    auto outside = [&](int64_t t) {
        return t < join || (leave != CharacterDef::kNever && t >= leave);
    };
    int64_t first = -1;
    auto note = [&](int64_t t) {
        if (first < 0 || t < first) first = t;
    };
    for (const StickSegment& sg : in.sticks) {
        if (sg.x.raw() == 0 && sg.y.raw() == 0) continue;
        if (sg.from < join) note(sg.from);
        if (leave != CharacterDef::kNever && sg.to > leave) note(std::max(sg.from, leave));
    }
    for (int64_t t : in.jumps) {
        if (outside(t)) note(t);
    }
    for (const ImpulseEvent& e : in.impulses) {
        if (outside(e.tick)) note(e.tick);
    }
    return first;
}

SharedInput load_input(Ctx& ctx, const Map& character) {
    InputStream in;
    const std::optional<Value> v = character.opt("input");
    if (!v || v->is_null()) return SharedInput(std::move(in));
    const Map m(*v, {"csv", "segments", "jumps", "impulses"});
    if (auto csv = m.opt("csv")) {
        if (m.has("segments") || m.has("jumps") || m.has("impulses")) {
            m.fail("expected either 'csv' or 'segments'/'jumps'/'impulses', found both");
        }
        const std::shared_ptr<const Ref> r = read_ref(ctx, *csv, kMaxReferencedBytes);
        const std::string key = r->resolved.string();
        if (const auto it = ctx.input_csvs.find(key); it != ctx.input_csvs.end()) return it->second;
        detail::parse_input_csv(r->bytes, r->display, ctx.ticks, &in);
        return ctx.input_csvs.emplace(key, SharedInput(std::move(in))).first->second;
    }
    if (auto segs = m.opt("segments")) {
        segs->require_sequence("a sequence of segments [{ticks, stick}, ...]");
        int64_t t = 0;
        for (size_t i = 0; i < segs->size(); ++i) {
            const Map sm(segs->item(i), {"ticks", "stick"});
            StickSegment seg;
            seg.from = t;
            // Segments play from tick 0 in order and must end within the run, like the CSV's rows,
            // the jumps and the impulses.
            if (t >= ctx.ticks) {
                sm.fail("expected no more segments (those before fill the run's " +
                        std::to_string(ctx.ticks) + " ticks), found another");
            }
            const Value tv = sm.get("ticks");
            const int64_t n = tv.integer(1, kMaxTicks);
            if (n > ctx.ticks - t) {
                tv.fail("expected at most " + std::to_string(ctx.ticks - t) +
                        " ticks (the segment starts at tick " + std::to_string(t) + " of a " +
                        std::to_string(ctx.ticks) + "-tick run), found '" + tv.node.scalar() + "'");
            }
            seg.to = t + n;
            if (auto stick = sm.opt("stick")) {
                const char* what = "a sequence of 2 numbers [x, y]";
                stick->require_sequence(what);
                if (stick->size() != 2) {
                    stick->fail(std::string("expected ") + what + ", found " +
                                std::to_string(stick->size()) +
                                (stick->size() == 1 ? " item" : " items"));
                }
                seg.x = stick->item(0).number(detail::kStick);
                seg.y = stick->item(1).number(detail::kStick);
            }
            t = seg.to;
            in.sticks.push_back(seg);
        }
    }
    if (auto jumps = m.opt("jumps")) {
        jumps->require_sequence("a sequence of ticks");
        for (size_t i = 0; i < jumps->size(); ++i) {
            const Value jv = jumps->item(i);
            const int64_t tick = tick_in_run(ctx, jv);
            if (!in.jumps.empty() && tick <= in.jumps.back()) {
                jv.fail("expected a tick after " + std::to_string(in.jumps.back()) +
                        " (jump ticks ascending and unique), found '" + jv.node.scalar() + "'");
            }
            in.jumps.push_back(tick);
        }
    }
    if (auto imps = m.opt("impulses")) {
        imps->require_sequence("a sequence of impulses [{tick, velocity}, ...]");
        for (size_t i = 0; i < imps->size(); ++i) {
            const Map im(imps->item(i), {"tick", "velocity"});
            ImpulseEvent e;
            e.tick = tick_in_run(ctx, im.get("tick"));
            e.velocity = im.get("velocity").vec3(detail::kSpeed);
            in.impulses.push_back(e);
        }
        std::stable_sort(
            in.impulses.begin(), in.impulses.end(),
            [](const ImpulseEvent& a, const ImpulseEvent& b) { return a.tick < b.tick; });
    }
    return SharedInput(std::move(in));
}

/// round(ms * 10^6) of a positive Q31.32 value, exact (ties away from zero).
int64_t ms_to_ns(Scalar ms) {
    const int64_t raw = ms.raw();
    const int64_t whole = raw >> Scalar::kFracBits;
    const uint64_t frac = static_cast<uint64_t>(raw & kFracMask);
    const uint64_t frac_ns = (frac * 1000000u + (uint64_t{1} << 31)) >> Scalar::kFracBits;
    return whole * 1000000 + static_cast<int64_t>(frac_ns);
}

} // namespace

void load_characters(Ctx& ctx, const Value& v, Scenario* s) {
    v.require_sequence("a sequence of characters");
    if (v.size() == 0) v.fail("expected at least one character, found none");
    if (static_cast<int64_t>(v.size()) > kMaxCharacters) {
        v.fail("expected at most " + std::to_string(kMaxCharacters) + " characters, found " +
               std::to_string(v.size()));
    }
    struct Where {
        Value id, join;
        size_t index;
    };
    std::vector<Where> where;
    for (size_t i = 0; i < v.size(); ++i) {
        const Map m(v.item(i), {"id", "spawn", "join", "leave", "settings", "input"});
        CharacterDef c;
        const Value idv = m.get("id");
        c.id = static_cast<kcc::CharacterId>(idv.integer(0, kMaxId));
        ctx.character_ids.emplace(c.id, IdUse{idv.path, idv.line}); // the first entry of the id
        c.spawn = m.get("spawn").vec3(detail::kCoordinate);
        if (auto j = m.opt("join")) c.join = tick_in_run(ctx, *j);
        if (auto l = m.opt("leave")) {
            c.leave = l->integer(c.join + 1, std::max(c.join + 1, ctx.ticks - 1));
            if (c.leave >= ctx.ticks) {
                l->fail("expected a tick after the join (" + std::to_string(c.join) +
                        ") and before the run's end (" + std::to_string(ctx.ticks) +
                        " ticks), found '" + l->node.scalar() + "'");
            }
        }
        c.settings = load_settings(ctx, m);
        c.input = load_input(ctx, m);
        const int64_t out = input_outside(*c.input, c.join, c.leave);
        if (out >= 0) {
            (m.has("input") ? m.key_node("input") : idv)
                .fail("input at tick " + std::to_string(out) + ", when character " +
                      std::to_string(c.id) + " is not present (it is from tick " +
                      std::to_string(c.join) +
                      (c.leave == CharacterDef::kNever ? std::string(" on")
                                                       : " to " + std::to_string(c.leave)) +
                      "): input outside the presence must be idle");
        }
        where.push_back({idv, m.has("join") ? m.get("join") : idv, i});
        s->characters.push_back(std::move(c));
    }
    // Entries in (id, join) order; entries of one id must not overlap (a rejoin follows a leave).
    std::vector<size_t> order(s->characters.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const CharacterDef &x = s->characters[a], &y = s->characters[b];
        return x.id != y.id ? x.id < y.id : x.join < y.join;
    });
    for (size_t k = 1; k < order.size(); ++k) {
        const CharacterDef &prev = s->characters[order[k - 1]], &c = s->characters[order[k]];
        if (prev.id != c.id) continue;
        if (prev.leave == CharacterDef::kNever || prev.leave > c.join) {
            const Where& w = where[order[k]];
            const Where& pw = where[order[k - 1]];
            if (c.join == 0 && c.leave == CharacterDef::kNever && prev.join == 0 &&
                prev.leave == CharacterDef::kNever) {
                w.id.fail("duplicate id " + std::to_string(c.id) + " (first used at " + pw.id.path +
                          ", line " + std::to_string(pw.id.line) +
                          ")"); // neither joins nor leaves: a plain duplicate
            }
            (c.join == 0 && prev.join == 0 ? w.id : w.join)
                .fail("character " + std::to_string(c.id) + " is already present at tick " +
                      std::to_string(c.join) + " (characters[" + std::to_string(pw.index) +
                      "], line " + std::to_string(pw.id.line) + ", from tick " +
                      std::to_string(prev.join) +
                      (prev.leave == CharacterDef::kNever ? std::string(" on")
                                                          : " to " + std::to_string(prev.leave)) +
                      "): an id may appear again only after it leaves");
        }
    }
    std::vector<CharacterDef> sorted;
    sorted.reserve(order.size());
    for (size_t i : order)
        sorted.push_back(std::move(s->characters[i]));
    s->characters = std::move(sorted);
}

void load_events(Ctx& ctx, const Value& v, Scenario* s) {
    if (v.is_null()) return;
    v.require_sequence("a sequence of events [{tick, character, teleport | settings}, ...]");
    // Each entry's settings as the events so far leave them.
    std::vector<kcc::Settings> current;
    for (const CharacterDef& c : s->characters)
        current.push_back(c.settings);
    for (size_t i = 0; i < v.size(); ++i) {
        const Map m(v.item(i), {"tick", "character", "teleport", "settings"});
        EventDef e;
        e.line = m.self().line;
        const Value tv = m.get("tick");
        e.tick = tick_in_run(ctx, tv);
        if (!s->events.empty() && e.tick < s->events.back().tick) {
            tv.fail("expected a tick from " + std::to_string(s->events.back().tick) +
                    " on (events in the order of their ticks), found '" + tv.node.scalar() + "'");
        }
        const Value cv = m.get("character");
        e.character = static_cast<kcc::CharacterId>(cv.integer(0, kMaxId));
        const size_t k = entry_at(*s, e.character, e.tick);
        if (k == s->characters.size()) {
            cv.fail("character " + std::to_string(e.character) + " is not present at tick " +
                    std::to_string(e.tick) + " (see its join and leave)");
        }
        const bool tp = m.has("teleport"), st = m.has("settings");
        if (tp == st)
            m.fail("expected exactly one of 'teleport' and 'settings', found " +
                   std::string(tp ? "both" : "neither"));
        // One change of each kind per character and tick: two teleports or two settings changes
        // of one character at one tick would give another world in the other order.
        for (auto it = s->events.rbegin(); it != s->events.rend() && it->tick == e.tick; ++it) {
            if (it->character == e.character && (it->kind == EventDef::Kind::kTeleport) == tp) {
                m.fail(std::string("expected at most one ") +
                       (tp ? "teleport" : "settings change") + " of character " +
                       std::to_string(e.character) + " at tick " + std::to_string(e.tick) +
                       " (the event at line " + std::to_string(it->line) +
                       " is one), found another");
            }
        }
        if (tp) {
            e.kind = EventDef::Kind::kTeleport;
            e.feet = m.get("teleport").vec3(detail::kCoordinate);
        } else {
            e.kind = EventDef::Kind::kSettings;
            e.settings = current[k] =
                overlay_settings(ctx, m.get("settings"), m.key_node("settings"), current[k]);
        }
        s->events.push_back(e);
    }
}

void load_frames(const Value& v, Scenario* s) {
    if (v.is_null()) return;
    v.require_sequence("a sequence of frame segments [{ms, count}, ...]");
    for (size_t i = 0; i < v.size(); ++i) {
        const Map m(v.item(i), {"ms", "count"});
        FrameSegment f;
        const Value msv = m.get("ms");
        f.ns = ms_to_ns(msv.number(detail::kFrameMs));
        if (f.ns == 0) {
            msv.fail(std::string("expected ") + detail::kFrameMs.what + ", found '" +
                     msv.node.scalar() + "' (rounds to 0 ns)");
        }
        f.count = m.get("count").integer(1, kMaxTicks);
        s->frames.push_back(f);
    }
}

} // namespace fx::harness::detail

// Families of bodies in motion: platforms and their riders, a platform that crushes its rider
// into a ceiling, crowds, roaming characters with every kind of input, and runtime changes.
#include <algorithm>
#include <optional>

#include "fx/sqrt.h"
#include "gen_context.h"

namespace fx::harness::swarm {

namespace {

int64_t whole(Scalar v) {
    return floor_to_int(v);
}

/// A random stick in the unit square, on the thousandths grid.
std::pair<Scalar, Scalar> random_stick(Gen& g) {
    return {g.rng.milli(-1000, 1000), g.rng.milli(-1000, 1000)};
}

/// Random-walk input on [from, to): segments of 5 to 40 ticks, each a random stick or idle.
void random_walk(Gen& g, CharacterDef& c, int64_t from, int64_t to) {
    for (int64_t t = from; t < to;) {
        const int64_t len = std::min(to - t, g.rng.range(5, 40));
        if (!g.rng.chance(1, 5)) {
            const auto [x, y] = random_stick(g);
            Gen::hold(c, t, t + len, x, y);
        }
        t += len;
    }
}

/// A platform moving from c0 at velocity u (m/s) until tick t1, back to c0 by 2 * t1, looping.
void moving_platform(Gen& g, uint32_t id, const Vec3& c0, const Vec3& half, const Vec3& u,
                     int64_t t1) {
    PlatformDef p;
    p.id = id;
    p.half_extents = half;
    const Vec3 c1 = c0 + u * g.seconds(t1);
    p.waypoints.push_back(kcc::Waypoint{c0, 0});
    p.waypoints.push_back(kcc::Waypoint{c1, t1});
    p.waypoints.push_back(kcc::Waypoint{c0, 2 * t1});
    g.sc.platforms.push_back(p);
}

} // namespace

void gen_platform(Gen& g) {
    const int count = static_cast<int>(g.rng.range(1, 2));
    for (int k = 0; k < count; ++k) {
        const kcc::Settings s = g.settings();
        const Vec3 half{g.rng.milli(1000, 2500), g.rng.milli(100, 300), g.rng.milli(1000, 2500)};
        // 50 m apart: each travels at most 20 m, so neither meets the other or its rider.
        const Vec3 c0 = g.lot + Vec3{Scalar{}, half.y + g.rng.milli(500, 2000), metres(50 * k)};
        const int kind = static_cast<int>(g.rng.range(0, 3)); // horizontal, up, down, diagonal
        const bool fast = g.rng.chance(1, 4);
        const Scalar speed = fast ? g.rng.milli(8000, 25000) : g.rng.milli(500, 8000);
        const Vec3 flat = horizontal_dir(metres(g.rng.range(0, 359)));
        // Down no faster than half the snap distance a tick (the rider stays carried).
        const Scalar down =
            min(g.rng.milli(500, 5000), (s.snap_distance * Scalar::from_int(g.rate)).div_int(2));
        Vec3 u;
        switch (kind) {
        case 0:
            u = flat * speed;
            break;
        case 1:
            u = Vec3{Scalar{}, min(speed, metres(8)), Scalar{}};
            break;
        case 2:
            u = Vec3{Scalar{}, -down, Scalar{}};
            break;
        default:
            u = flat * speed + Vec3{Scalar{}, min(speed, metres(4)), Scalar{}};
            break;
        }
        // At most 20 m of travel before turning back (down: no deeper than the floor allows).
        const Scalar run = kind == 2 ? c0.y - half.y - mm(100) : metres(20);
        const int64_t t1 = std::max<int64_t>(
            2, std::min<int64_t>(g.ticks + 10, whole(run / length(u) * Scalar::from_int(g.rate))));
        const uint32_t id = g.shape_id();
        moving_platform(g, id, c0, half, u, t1);
        const Vec3 off{g.rng.milli(0, 1000) * (half.x - s.radius - mm(100)), Scalar{},
                       g.rng.milli(-1000, 0) * (half.z - s.radius - mm(100))};
        const Vec3 spawn = c0 + Vec3{off.x, half.y, off.z};
        CharacterDef& c = g.character(spawn, s);
        const Scalar t_air = (s.jump_speed + s.jump_speed) / s.gravity;
        const int64_t air_ticks = whole(t_air * Scalar::from_int(g.rate));
        const int64_t tj = g.ticks_of_ms(300) + g.rng.range(0, g.ticks_of_ms(300));
        const bool jump = g.rng.chance(1, 2) && tj + air_ticks + 6 < std::min(t1, g.ticks);
        if (!jump) {
            // KCC-SPEC: a moving platform carries the character standing on it.
            const int64_t last = std::min(t1, g.ticks) - 1;
            // (A platform whose whole run takes two ticks leaves no tick to ride from tick 2 on:
            // seed 20261209 run 765 wrote a range [2, 1], which the loader refused.)
            if (last >= 2) g.expect_grounded("platform-ride", c.id, 2, last, true, id);
            const Vec3 at = spawn + u * g.seconds(last + 1);
            const Scalar slack = mm(50) + length(u) * g.dt();
            g.expect_state("platform-carry", c.id, last, last, StateField::kX, at.x - slack,
                           at.x + slack);
            g.expect_state("platform-carry", c.id, last, last, StateField::kZ, at.z - slack,
                           at.z + slack);
            continue;
        }
        c.input.edit().jumps.push_back(tj);
        // docs/controller.md (behaviour 6): a jump off a moving platform is made in its frame: in
        // that frame it rises and falls as on still ground, for 2 jump_speed / gravity, and lands
        // where it left (within a tick either way).
        g.expect_grounded("platform-jump-flight", c.id, tj + 1, tj + air_ticks - 2, false);
        g.expect_grounded("platform-jump-land", c.id, tj + air_ticks + 3, tj + air_ticks + 5, true,
                          id);
        const int64_t check = tj + air_ticks + 4;
        const Vec3 at = spawn + u * g.seconds(check + 1);
        const Scalar slack = mm(50) + length(u) * g.dt();
        g.expect_state("platform-jump-land", c.id, check, check, StateField::kX, at.x - slack,
                       at.x + slack);
        g.expect_state("platform-jump-land", c.id, check, check, StateField::kZ, at.z - slack,
                       at.z + slack);
    }
}

void gen_crush(Gen& g) {
    const kcc::Settings s = g.settings();
    // A platform of 1.5 to 2.5 m, or a wide one (5 to 8 m: a long way out sideways), in the open
    // or in a shaft of walls up to the ceiling (no way out sideways at all).
    const bool wide = g.rng.chance(1, 3);
    const bool shaft = g.rng.chance(1, 2);
    const Vec3 half = wide ? Vec3{g.rng.milli(5000, 8000), mm(200), g.rng.milli(5000, 8000)}
                           : Vec3{g.rng.milli(1500, 2500), mm(200), g.rng.milli(1500, 2500)};
    const Vec3 c0 = g.lot + Vec3{Scalar{}, half.y + mm(500), Scalar{}};
    const Scalar top0 = c0.y + half.y;
    const Scalar ceiling = top0 + s.height + g.rng.milli(200, 1000);
    g.box(g.lot + Vec3{Scalar{}, ceiling + mm(150), Scalar{}},
          Vec3{half.x + metres(1), mm(150), half.z + metres(1)});
    if (shaft) {
        // Walls 2 to 20 mm clear of the platform's sides, from the floor to the ceiling.
        const Scalar clear = g.rng.milli(2, 20), t = mm(250), hy = ceiling.div_int(2);
        for (int side = -1; side <= 1; side += 2) {
            const Scalar sx = Scalar::from_int(side);
            g.box(g.lot + Vec3{sx * (half.x + clear + t), hy, Scalar{}},
                  Vec3{t, hy, half.z + clear + t + t});
            g.box(g.lot + Vec3{Scalar{}, hy, sx * (half.z + clear + t)},
                  Vec3{half.x + clear, hy, t});
        }
    }
    // Rises until the room left is 3 % to 80 % of the rider's height, then stays; or (through)
    // into the slab itself, up to half a metre past its underside.
    const bool through = g.rng.chance(1, 3);
    const Scalar end_top =
        through ? ceiling + g.rng.milli(0, 500) : ceiling - s.height * g.rng.milli(30, 800);
    // Slow (under the depenetration cap a tick) or fast (past it).
    const Scalar speed = g.rng.chance(1, 2) ? g.rng.milli(500, 3000) : g.rng.milli(3000, 20000);
    const int64_t t1 =
        std::max<int64_t>(2, whole((end_top - top0) / speed * Scalar::from_int(g.rate)));
    PlatformDef p;
    p.id = g.shape_id();
    p.half_extents = half;
    const Vec3 c1 = c0 + Vec3{Scalar{}, end_top - top0, Scalar{}};
    p.waypoints.push_back(kcc::Waypoint{c0, 0});
    p.waypoints.push_back(kcc::Waypoint{c1, t1});
    p.waypoints.push_back(kcc::Waypoint{c1, t1 + g.ticks + 10});
    g.sc.platforms.push_back(p);
    CharacterDef& c =
        g.character(c0 + Vec3{g.rng.milli(-500, 500), half.y, g.rng.milli(-500, 500)}, s);
    // Whatever the crush rule, a rider is never pushed through a solid: its feet never rise
    // above the ceiling's underside (it would have to pass through the slab).
    if (!through)
        g.expect_state("crush-no-tunnel", c.id, 0, g.ticks - 1, StateField::kY, std::nullopt,
                       ceiling - mm(1));
    // KCC-SPEC: a platform that pushes a character into a solid leaves it to depenetration,
    // within its per-tick cap: the head is never deeper in the ceiling than one tick of the
    // platform's rise plus the cap.
    g.expect_state("crush-depth", c.id, 0, g.ticks - 1, StateField::kY, std::nullopt,
                   ceiling - s.height + s.depenetration_cap + speed * g.dt() + mm(1));
}

void gen_crowd(Gen& g) {
    const int kind =
        static_cast<int>(g.rng.range(0, 4)); // spread, cluster, coincident, wall, corner
    const int n = static_cast<int>(kind == 2 && g.rng.chance(1, 4) ? g.rng.range(25, 64)
                                                                   : g.rng.range(2, 24));
    kcc::Settings base = g.settings();
    const bool mixed = g.random_settings && g.rng.chance(1, 2);
    const Scalar side = metres(2) + base.radius * Scalar::from_int(2 * (1 + n / 4));
    const int64_t push_until = g.ticks * 2 / 5;
    if (kind >= 3) {
        const Scalar high = metres(2), thick = mm(500);
        g.box(g.lot + Vec3{Scalar{}, high.div_int(2), thick.div_int(2)},
              Vec3{metres(5), high.div_int(2), thick.div_int(2)});
        if (kind == 4) {
            g.box(g.lot + Vec3{-thick.div_int(2), high.div_int(2), -metres(4)},
                  Vec3{thick.div_int(2), high.div_int(2), metres(4)});
        }
    }
    const Vec3 point = kind >= 3 ? g.lot + Vec3{metres(1), Scalar{}, -metres(1)} : g.lot;
    const bool jitter = kind == 2 && g.rng.chance(1, 3);
    CrowdRule rule;
    Scalar widest, widest_skin, least_cap = metres(1000);
    bool moved = kind >= 3; // pushed into the wall or the corner, or walking, until push_until
    for (int i = 0; i < n; ++i) {
        const kcc::Settings s = mixed ? g.settings() : base;
        widest = max(widest, s.radius);
        widest_skin = max(widest_skin, s.skin);
        least_cap = min(least_cap, s.depenetration_cap);
        Vec3 at = point;
        if (kind == 0) {
            at = g.lot + Vec3{g.rng.milli(0, 1000) * side, Scalar{}, g.rng.milli(0, 1000) * side};
        } else if (kind == 1 || kind >= 3) {
            at = point + Vec3{g.rng.milli(-1000, 1000), Scalar{}, g.rng.milli(-1000, 1000)};
        } else if (jitter) {
            at = point + Vec3{Scalar::from_raw(g.rng.range(-1, 1)), Scalar{},
                              Scalar::from_raw(g.rng.range(-1, 1))};
        }
        CharacterDef& c = g.character(at, s);
        // The arrangement in the id (1000 * code + 100 * (kind + 1) + i): findings name it.
        c.id = c.id - static_cast<uint32_t>(c.id % 1000) +
               static_cast<uint32_t>(100 * (kind + 1) + i + 1);
        if (kind >= 3) {
            const Vec3 into = kind == 3 ? Vec3{g.rng.milli(-300, 300), Scalar{}, Scalar::one()}
                                        : Vec3{-Scalar::one(), Scalar{}, Scalar::one()};
            Gen::hold(c, 0, push_until, into.x, into.z);
        } else if (g.rng.chance(1, 3)) {
            random_walk(g, c, 0, push_until);
            moved = true;
        }
        rule.ids.push_back(c.id);
    }
    // KCC-SPEC: characters are solid to one another, and their overlaps are resolved like
    // depenetration: an idle crowd on a floor ends apart, standing (on the floor or on others).
    // Apart from the tick crowd-separation's derivation gives (scenarios/conformance/
    // derivations/crowd-separation.py, apart_tick), counted from the end of the pushes: n discs
    // of radius r + skin / 2 packed hexagonally (density 0.9069) fill a disc, a half disc
    // against a wall, a quarter disc in a corner; its outermost body moves at most the cap a
    // tick, ten times that time plus 20 ticks. Not before four fifths of the run.
    const int share = kind == 3 ? 2 : kind == 4 ? 4 : 1; // the packing's area times this
    const Scalar disc = widest + widest_skin.div_int(2);
    const Scalar reach = disc * sqrt(Scalar::ratio(int64_t{n} * share * 10000, 9069));
    const Scalar travel = max(reach - disc, Scalar{});
    const int64_t at_cap = (travel.raw() + least_cap.raw() - 1) / least_cap.raw();
    rule.from = std::max(g.ticks * 4 / 5, (moved ? push_until : 0) + 10 * at_cap + 20);
    if (rule.from >= g.ticks) return; // the run ends before the crowd must be apart
    g.run.crowds.push_back(rule);
    for (const kcc::CharacterId id : rule.ids)
        g.expect_grounded("crowd-stand", id, rule.from, g.ticks - 1, true);
}

void gen_roam(Gen& g) {
    // Obstacles outside a clear disc of 3 m around the lot's origin.
    const int obstacles = static_cast<int>(g.rng.range(3, 20));
    for (int i = 0; i < obstacles; ++i) {
        const Vec3 dir = horizontal_dir(metres(g.rng.range(0, 359)));
        const Vec3 at = g.lot + dir * g.rng.milli(4000, 14000);
        const int kind = static_cast<int>(g.rng.range(0, 3));
        if (kind == 0) {
            const Vec3 half{g.rng.milli(200, 2000), g.rng.milli(100, 1500), g.rng.milli(200, 2000)};
            g.box(at + Vec3{Scalar{}, half.y, Scalar{}}, half, metres(g.rng.range(0, 89)));
        } else if (kind == 1) {
            const Scalar r = g.rng.milli(200, 1500);
            g.sc.spheres.push_back(SphereDef{
                g.shape_id(), at + Vec3{Scalar{}, g.rng.milli(0, 1000) * r, Scalar{}}, r});
        } else {
            const Scalar r = g.rng.milli(100, 800);
            Vec3 b = at + Vec3{Scalar{}, g.rng.milli(500, 3000), Scalar{}};
            if (g.rng.chance(1, 2)) {
                const Vec3 way =
                    horizontal_dir(metres(g.rng.range(0, 359))); // one draw a statement:
                b = at + way * g.rng.milli(500, 3000); // operands are unsequenced
            }
            g.sc.capsules.push_back(CapsuleDef{g.shape_id(), at + Vec3{Scalar{}, r, Scalar{}},
                                               b + Vec3{Scalar{}, r, Scalar{}}, r});
        }
    }
    const int roamers = static_cast<int>(g.rng.range(1, 6));
    for (int i = 0; i < roamers; ++i) {
        const kcc::Settings s = g.settings();
        CharacterDef& c = g.character(
            g.lot + Vec3{g.rng.milli(-2000, 2000), Scalar{}, g.rng.milli(-2000, 2000)}, s);
        const int style =
            static_cast<int>(g.rng.range(0, 4)); // held, walk, dead zone, jump spam, impulses
        if (style == 0) {
            const Vec3 dir = horizontal_dir(g.rng.milli(0, 359999));
            const Vec3 d = dir * g.rng.milli(0, 1000);
            Gen::hold(c, 0, g.ticks, d.x, d.z);
        } else if (style == 2) {
            for (int64_t t = 0; t < g.ticks; t += 20) {
                const Vec3 dir = horizontal_dir(g.rng.milli(0, 359999));
                const Vec3 d =
                    dir *
                    (s.dead_zone + Scalar::from_raw(g.rng.range(-3, 3) * (Scalar::kOneRaw / 1000)));
                Gen::hold(c, t, std::min(g.ticks, t + 20), d.x, d.z);
            }
        } else {
            random_walk(g, c, 0, g.ticks);
        }
        if (style == 3) {
            const int64_t every = g.rng.range(1, 3);
            for (int64_t t = g.rng.range(0, 10); t < g.ticks; t += every)
                c.input.edit().jumps.push_back(t);
        }
        if (style == 4) {
            std::vector<int64_t> at;
            for (int k = static_cast<int>(g.rng.range(1, 5)); k > 0; --k)
                at.push_back(g.rng.range(0, g.ticks - 1));
            std::sort(at.begin(), at.end());
            for (const int64_t t : at) {
                c.input.edit().impulses.push_back(
                    ImpulseEvent{t, Vec3{g.rng.milli(-15000, 15000), g.rng.milli(-5000, 10000),
                                         g.rng.milli(-15000, 15000)}});
            }
            continue;
        }
        // KCC-SPEC: the air clamp and the ground's target keep the horizontal speed at or under
        // max_speed (no jump, dash or combination gains speed); only a jump makes a body rise
        // (resolving characters never launches anyone).
        g.expect_metric("speed-clamp", c.id, kMaxHorizontalSpeed, std::nullopt,
                        s.max_speed + mm(1));
        g.expect_state("no-launch", c.id, 0, g.ticks - 1, StateField::kVy, std::nullopt,
                       s.jump_speed + mm(1));
    }
}

void gen_lifecycle(Gen& g) {
    const int count = static_cast<int>(g.rng.range(2, 4));
    for (int i = 0; i < count; ++i) {
        const kcc::Settings s = g.settings();
        const Vec3 spawn =
            g.lot + Vec3{g.rng.milli(-3000, 3000), Scalar{}, g.rng.milli(-3000, 3000)};
        const int64_t join = g.rng.chance(1, 2) ? 0 : g.rng.range(1, g.ticks / 3);
        const bool leaves = g.rng.chance(1, 2);
        const int64_t leave = leaves ? g.rng.range(join + 1, g.ticks - 2) : CharacterDef::kNever;
        CharacterDef& c = g.character(spawn, s);
        c.join = join;
        c.leave = leave;
        const kcc::CharacterId id = c.id;
        const int64_t until = leaves ? leave : g.ticks;
        random_walk(g, c, join, until);
        // Events while present: teleports and settings changes, sometimes both at one tick.
        for (int e = static_cast<int>(g.rng.range(0, 3)); e > 0; --e) {
            if (until - join < 2) break;
            const int64_t t = g.rng.range(join + 1, until - 1);
            const bool both = g.rng.chance(1, 3);
            EventDef tp;
            tp.tick = t;
            tp.character = id;
            tp.kind = EventDef::Kind::kTeleport;
            tp.feet = g.lot + Vec3{g.rng.milli(-3000, 3000), Scalar{}, g.rng.milli(-3000, 3000)};
            EventDef st;
            st.tick = t;
            st.character = id;
            st.kind = EventDef::Kind::kSettings;
            st.settings = s;
            st.settings.max_speed = g.rng.milli(1000, 9000);
            st.settings.radius =
                g.rng.milli(250, std::min<int64_t>(600, s.height.raw() * 500 / Scalar::kOneRaw));
            if (g.rng.chance(1, 4)) st.settings.collide_characters = !s.collide_characters;
            // At most one change of each kind per character and tick (the scenario format's
            // rule: two would give another world in the other order).
            const auto has = [&](EventDef::Kind kind) {
                return std::any_of(g.sc.events.begin(), g.sc.events.end(), [&](const EventDef& o) {
                    return o.tick == t && o.character == id && o.kind == kind;
                });
            };
            if ((both || g.rng.chance(1, 2)) && !has(EventDef::Kind::kTeleport))
                g.sc.events.push_back(tp);
            if ((both || g.sc.events.empty() || g.sc.events.back().tick != t) &&
                !has(EventDef::Kind::kSettings))
                g.sc.events.push_back(st);
        }
        // A rejoin of the same id later, sometimes.
        if (leaves && leave + 2 < g.ticks && g.rng.chance(1, 2)) {
            CharacterDef& again = g.character(spawn, s);
            again.id = id;
            again.join = g.rng.range(leave, g.ticks - 2);
            random_walk(g, again, again.join, g.ticks);
        }
    }
}

} // namespace fx::harness::swarm

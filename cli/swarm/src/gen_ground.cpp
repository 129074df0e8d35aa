// Families of ground: raised floors with seams, steps and stairs, ledges, ramps, a ceiling over a
// step. Each threshold of KCC-SPEC (step height, snap distance, slope angles, height plus step
// height) is met from both sides, and the expectation says which side the body must end on.
#include <algorithm>
#include <optional>

#include "fx/sqrt.h"
#include "gen_context.h"

namespace fx::harness::swarm {

namespace {

/// Thousandths of a Scalar (for ranges of Rng::milli).
int64_t milli_of(Scalar v) {
    return v.raw() * 1000 / Scalar::kOneRaw;
}

/// A stick magnitude in [lo, 1] thousandths above the dead zone, or a full stick.
Scalar pick_magnitude(Gen& g, const kcc::Settings& s, int64_t lo_milli) {
    if (g.rng.chance(1, 2)) return Scalar::one();
    return g.rng.milli(std::max(lo_milli, milli_of(s.dead_zone) + 150), 1000);
}

/// The tick by which a body starting from rest at full speed v (ground_accel a) has gone at
/// least `dist` at 80 % of the ideal pace: 0.8 v (t - v / a) >= dist; -1 when past `limit`.
int64_t tick_reaching(const Gen& g, Scalar v, Scalar accel, Scalar dist, int64_t limit) {
    if (v.raw() <= 0) return -1;
    const Scalar t = dist / (v.mul_int(4).div_int(5)) + v / accel;
    const int64_t tick = ceil(t * Scalar::from_int(g.rate)).raw() / Scalar::kOneRaw;
    return tick < limit ? tick : -1;
}

/// A yaw whose local +x runs within 20 degrees of a world axis (so a bound on that axis reads
/// progress along local +x), and the axis (0: x, 2: z) with the sign of local +x on it.
struct AxisYaw {
    Scalar yaw;
    Mat3 turn;
    int axis;
    bool increasing;
};
AxisYaw pick_axis_yaw(Gen& g) {
    AxisYaw a;
    const int64_t quarter = g.rng.range(0, 3);
    a.yaw = metres(90 * quarter + g.rng.range(-20, 20));
    a.turn = Mat3::from_yaw_pitch_roll_degrees(a.yaw, Scalar{}, Scalar{});
    a.axis = abs(a.turn.row[0].x) >= abs(a.turn.row[2].x) ? 0 : 2;
    a.increasing = a.turn.row[static_cast<size_t>(a.axis)].x > Scalar{};
    return a;
}

/// Bound of the world coordinate on a.axis for local x >= x_min with local z in [z_lo, z_hi].
Scalar progress_bound(const Gen& g, const AxisYaw& a, Scalar x_min, Scalar z_lo, Scalar z_hi) {
    const Vec3& row = a.turn.row[static_cast<size_t>(a.axis)];
    const Scalar base = (a.axis == 0 ? g.lot.x : g.lot.z) + row.x * x_min;
    const Scalar lo = row.z * z_lo, hi = row.z * z_hi;
    return a.increasing ? base + min(lo, hi) : base + max(lo, hi);
}

void expect_progress(Gen& g, const std::string& rule, kcc::CharacterId id, int64_t tick,
                     const AxisYaw& a, Scalar bound) {
    const StateField f = a.axis == 0 ? StateField::kX : StateField::kZ;
    g.expect_state(rule, id, tick, tick, f,
                   a.increasing ? std::optional<Scalar>(bound) : std::nullopt,
                   a.increasing ? std::nullopt : std::optional<Scalar>(bound));
}

/// A body at local (0, y, z0) running along local +x with the stick's magnitude `mag`.
CharacterDef& runner(Gen& g, const AxisYaw& a, const kcc::Settings& s, Scalar y, Scalar z0,
                     Scalar mag, int64_t until) {
    CharacterDef& c = g.character(g.lot + a.turn * Vec3{Scalar{}, y, z0}, s);
    const Vec3 dir = a.turn * Vec3{mag, Scalar{}, Scalar{}};
    Gen::hold(c, 0, until, dir.x, dir.z);
    return c;
}

/// How far above a nosing's round the round base ends a tick that rolls it up the nosing by a
/// horizontal `stride`: the base's centre moves around the nosing's edge on a circle of radius
/// R = r + skin; rolling along the tangent at a contact angle t from the vertical it rises
/// stride * tan t while the circle, at the new horizontal offset x = stride - R sin t from the
/// edge, is sqrt(R^2 - x^2) above it (R once past it: the tread). The most over the angles a
/// grounded body stands at, 0 to the stay limit, sampled in sixteenths.
Scalar nosing_roll_lift(const kcc::Settings& s, Scalar stride) {
    const Scalar r = s.radius + s.skin;
    Scalar most;
    for (int k = 0; k <= 16; ++k) {
        const SinCos t = sincos_deg(s.max_slope_stay_deg * Scalar::ratio(k, 16));
        if (t.cos < Scalar::ratio(1, 64)) continue;
        const Scalar x = stride - r * t.sin;
        const Scalar circle = x.raw() >= 0 ? r : sqrt(max(r * r - x * x, Scalar{}));
        most = max(most, r * t.cos + stride * t.sin / t.cos - circle);
    }
    return most;
}

} // namespace

void gen_seams(Gen& g) {
    const AxisYaw a = pick_axis_yaw(g);
    const kcc::Settings s = g.settings();
    const Scalar top = g.rng.milli(200, 1000);
    const Scalar cell0 = g.rng.milli(500, 2000);
    const int kind = static_cast<int>(g.rng.range(0, 2)); // 0 mesh, 1 tiles, 2 mesh then tiles
    const Scalar mag = pick_magnitude(g, s, 400);
    const Scalar v = Gen::target_speed(s, mag);
    const Scalar z0 = g.rng.milli(-1000, 1000);
    const int64_t t_end = tick_reaching(g, v, s.ground_accel, metres(14), g.ticks);
    // The floor runs past anything the body can reach: full speed until the stick is released,
    // then its braking distance, and 2 m more.
    const int64_t held = t_end < 0 ? g.ticks : t_end + 1;
    const Scalar reach =
        v * g.seconds(held) + v * v / (s.ground_brake + s.ground_brake) + metres(2);
    const Scalar x_from = -metres(2), x_to = max(metres(16), reach), z_half = metres(4);
    const Scalar cell = max(cell0, (x_to - x_from).div_int(40));
    const Scalar split = kind == 0 ? x_to : kind == 1 ? x_from : (x_from + x_to).div_int(2);
    if (split > x_from) {
        MeshDef mesh;
        mesh.id = g.shape_id();
        // Columns and rows of equal width (a last sliver of a column made a triangle of zero
        // area after rotation and rounding: seed 20261205, run 101).
        const int nx = static_cast<int>(
            std::max<int64_t>(1, ceil((split - x_from) / cell).raw() / Scalar::kOneRaw));
        const int nz = static_cast<int>(
            std::min<int64_t>(16, ceil(z_half.mul_int(2) / cell).raw() / Scalar::kOneRaw));
        for (int i = 0; i <= nx; ++i) {
            for (int j = 0; j <= nz; ++j) {
                const Scalar x =
                    x_from + mul_div(split - x_from, Scalar::from_int(i), Scalar::from_int(nx));
                const Scalar z =
                    -z_half + mul_div(z_half.mul_int(2), Scalar::from_int(j), Scalar::from_int(nz));
                mesh.vertices.push_back(g.lot + a.turn * Vec3{x, top, z});
            }
        }
        auto v_at = [nz](int i, int j) { return static_cast<uint32_t>(i * (nz + 1) + j); };
        for (int i = 0; i < nx; ++i) {
            for (int j = 0; j < nz; ++j) {
                // Wound so that the normal points up: (a, c, b) and (b, c, d) of the quad.
                mesh.indices.insert(mesh.indices.end(),
                                    {v_at(i, j), v_at(i, j + 1), v_at(i + 1, j)});
                mesh.indices.insert(mesh.indices.end(),
                                    {v_at(i + 1, j), v_at(i, j + 1), v_at(i + 1, j + 1)});
            }
        }
        g.sc.meshes.push_back(std::move(mesh));
    }
    if (split < x_to) {
        const Scalar thick = g.rng.milli(100, milli_of(top));
        for (Scalar x = split; x < x_to; x = x + cell) {
            for (Scalar z = -z_half; z < z_half; z = z + cell) {
                const Vec3 half{cell.div_int(2), thick.div_int(2), cell.div_int(2)};
                g.box(g.lot + a.turn * Vec3{x + half.x, top - half.y, z + half.z}, half, a.yaw);
            }
        }
    }
    CharacterDef& c = runner(g, a, s, top, z0, mag, held);
    if (t_end < 0) return;
    // KCC-SPEC: flat ground is walked at full speed; internal edges between the triangles of a
    // mesh, or between boxes whose tops are coplanar, are no steps: never a hop, never a stop.
    g.expect_metric("seam-no-hop", c.id, kAirborneTicks, std::nullopt, Scalar{});
    g.expect_state("seam-no-hop", c.id, 0, g.ticks - 1, StateField::kY, top - mm(1), top + mm(50));
    expect_progress(g, "seam-run", c.id, t_end, a,
                    progress_bound(g, a, metres(14), z0 - mm(10), z0 + mm(10)));
}

void gen_step(Gen& g) {
    const AxisYaw a = pick_axis_yaw(g);
    const kcc::Settings s = g.settings();
    const int kind =
        static_cast<int>(g.rng.range(0, 2)); // 0 climbable step, 1 blocking ledge, 2 stairs
    const Scalar d0 = s.radius + g.rng.milli(50, 1500);
    const Scalar mag = pick_magnitude(g, s, 400);
    const Scalar v = Gen::target_speed(s, mag);
    const Scalar z_half = metres(3);
    if (kind == 1) {
        const Scalar h = s.step_height + g.rng.milli(5, 150);
        g.standing_box(d0 + metres(2), Scalar{}, Vec3{metres(2), h.div_int(2), z_half}, a.yaw,
                       a.turn);
        CharacterDef& c = runner(g, a, s, Scalar{}, Scalar{}, mag, g.ticks);
        // KCC-SPEC: a ledge higher than step_height blocks the body (0.40 m for 0.35).
        g.expect_state("step-block", c.id, 0, g.ticks - 1, StateField::kY, std::nullopt, h - mm(2));
        return;
    }
    const int steps = kind == 0 ? 1 : static_cast<int>(g.rng.range(2, 6));
    const Scalar rise = kind == 0 ? max(mm(20), s.step_height - g.rng.milli(5, 150))
                                  : max(mm(20), s.step_height - g.rng.milli(5, 200));
    const Scalar run = kind == 0 ? Scalar{} : g.rng.milli(250, 600);
    const Scalar ahead = d0 + run * Scalar::from_int(steps - 1) + s.radius.mul_int(2) + mm(200);
    const int64_t t_end = tick_reaching(g, v, s.ground_accel, ahead, g.ticks);
    const Scalar top_depth = v * g.seconds(std::max<int64_t>(t_end, 0) + 1) + metres(2);
    for (int k = 0; k < steps; ++k) {
        const Scalar h = rise * Scalar::from_int(k + 1);
        const Scalar x0 = d0 + run * Scalar::from_int(k);
        const Scalar depth = k == steps - 1 ? top_depth : run;
        g.standing_box(x0 + depth.div_int(2), Scalar{},
                       Vec3{depth.div_int(2), h.div_int(2), z_half}, a.yaw, a.turn);
    }
    CharacterDef& c = runner(g, a, s, Scalar{}, Scalar{}, mag, t_end < 0 ? g.ticks : t_end + 1);
    if (t_end < 0) return;
    // KCC-SPEC: a step lower than step_height "must not stop the character at all": at 80 % of
    // the flat-ground pace the body is on the top step, and stays there after release.
    g.expect_state(kind == 0 ? "step-climb" : "stairs-climb", c.id, t_end, g.ticks - 1,
                   StateField::kY, rise * Scalar::from_int(steps) - mm(1), std::nullopt);
    // KCC-SPEC: on the ground the velocity is the run speed along the stick (rising by
    // ground_accel a second from rest); docs/controller.md, "The reported velocity": a step
    // climbed, a nosing rolled over or a riser held at for its step take nothing from it. So
    // from the tick the run speed is reached until the stick is released it reads v (1 mm/s).
    const int64_t t_full =
        ceil(v / s.ground_accel * Scalar::from_int(g.rate)).raw() / Scalar::kOneRaw - 1;
    // ... as long as the body stays on the ground: KCC-SPEC's snap reaches snap_distance down,
    // and ground farther below is a fall, whose landing on the next nosing is a collide-and-slide
    // that takes its share of the velocity. Rolling up over a nosing (behaviour 3: at full
    // horizontal speed) follows its tangent, which leaves the nosing's round by
    // nosing_roll_lift() in a tick; the rule holds only where that stays within the snap.
    // (Seed 20261220 run 26902: radius 0.458 m on 0.27 m treads at 7.2 m/s and 30 Hz rose 0.21 m
    // above the nosing it rolled over, with a snap distance of 0.21 m.)
    const bool stays_grounded =
        nosing_roll_lift(s, v * g.seconds(1)) + s.skin + mm(5) <= s.snap_distance;
    if (t_full < t_end && stays_grounded)
        g.expect_state("step-velocity", c.id, std::max<int64_t>(t_full, 0), t_end,
                       StateField::kHorizontalSpeed, v - mm(1), v + mm(1));
}

void gen_ledge(Gen& g) {
    const AxisYaw a = pick_axis_yaw(g);
    const kcc::Settings s = g.settings();
    const bool fall = g.rng.chance(1, 2);
    const Scalar h = fall ? s.snap_distance + g.rng.milli(5, 150)
                          : max(mm(30), s.snap_distance - g.rng.milli(20, 150));
    const Scalar d0 = g.rng.milli(50, 1500);
    const Scalar mag = pick_magnitude(g, s, 400);
    const Scalar v = Gen::target_speed(s, mag);
    // The upper floor: local x from -6 m to the edge at 0.
    g.standing_box(-metres(3), Scalar{}, Vec3{metres(3), h.div_int(2), metres(3)}, a.yaw, a.turn);
    CharacterDef& c = g.character(g.lot + a.turn * Vec3{-d0, h, Scalar{}}, s);
    const int64_t t_end = tick_reaching(g, v, s.ground_accel, d0 + s.radius + metres(1),
                                        g.ticks - g.ticks_of_ms(800));
    const Vec3 dir = a.turn * Vec3{mag, Scalar{}, Scalar{}};
    Gen::hold(c, 0, t_end < 0 ? g.ticks : t_end + 1, dir.x, dir.z);
    if (t_end < 0) return;
    // docs/controller.md (behaviour 6): a drop higher than snap_distance is a fall; a lower one
    // is snapped down (KCC-SPEC: "without this, every walk down a step becomes small hops").
    if (fall) {
        g.expect_metric("ledge-fall", c.id, kAirborneTicks, Scalar::one(), std::nullopt);
    } else {
        g.expect_metric("ledge-snap", c.id, kAirborneTicks, std::nullopt, Scalar{});
    }
    g.expect_state("ledge-land", c.id, g.ticks - 1, g.ticks - 1, StateField::kY, -mm(1), mm(50));
}

void gen_slope(Gen& g) {
    const kcc::Settings s = g.settings();
    const int kind =
        static_cast<int>(g.rng.range(0, 2)); // 0 walkable, 1 too steep, 2 between enter and stay
    Scalar angle;
    if (kind == 0) {
        angle = g.rng.milli(5000, milli_of(s.max_slope_enter_deg) - 1000);
    } else if (kind == 1) {
        angle = g.rng.milli(milli_of(s.max_slope_stay_deg) + 1000, 85000);
    } else {
        angle = g.rng.milli(milli_of(s.max_slope_enter_deg), milli_of(s.max_slope_stay_deg));
    }
    const Scalar yaw = metres(g.rng.range(-180, 179));
    const Scalar length = g.rng.milli(3000, 8000), width = metres(4), thick = mm(500);
    const Scalar d0 = s.radius + g.rng.milli(200, 2000);
    // The ramp as the loader makes it (docs/scenarios.md, "Generated geometry").
    const Mat3 r = Mat3::from_yaw_pitch_roll_degrees(yaw, -angle, Scalar{});
    const SinCos ys = sincos_deg(yaw), as = sincos_deg(angle);
    const Vec3 dir{ys.sin, Scalar{}, ys.cos};
    const Vec3 n{r.row[0].y, r.row[1].y, r.row[2].y};
    const Vec3 foot = g.lot + dir * d0;
    const Scalar half_len = length.div_int(2);
    BoxDef b;
    b.id = g.shape_id();
    b.center = foot + dir * (half_len * as.cos) + Vec3{Scalar{}, half_len * as.sin, Scalar{}} -
               n * thick.div_int(2);
    b.half_extents = Vec3{width.div_int(2), thick.div_int(2), half_len};
    b.rotation.yaw = yaw;
    b.rotation.pitch = -angle;
    g.sc.boxes.push_back(b);
    // A landing at the top, as deep as the body can run, so that a climber never runs off the
    // ramp's far edge: a box whose top is the ramp's top edge.
    const Vec3 top_edge =
        foot + dir * (length * as.cos) + Vec3{Scalar{}, length * as.sin, Scalar{}};
    const Scalar landing = metres(12);
    BoxDef land;
    land.id = g.shape_id();
    land.half_extents = Vec3{width.div_int(2), top_edge.y.div_int(2), landing.div_int(2)};
    land.center = Vec3{top_edge.x, top_edge.y.div_int(2), top_edge.z} + dir * landing.div_int(2);
    land.rotation.yaw = yaw;
    g.sc.boxes.push_back(land);
    const Scalar mag = pick_magnitude(g, s, 500);
    const Scalar v = Gen::target_speed(s, mag);
    CharacterDef& c = g.character(g.lot, s);
    const int64_t t_end =
        kind == 0 ? tick_reaching(g, v, s.ground_accel, d0 + length - metres(1), g.ticks) : -1;
    Gen::hold(c, 0, t_end < 0 ? g.ticks : t_end + 1, dir.x * mag, dir.z * mag);
    if (kind == 1) {
        // KCC-SPEC: steeper than the stay angle is a wall for the horizontal pass, and no step
        // lands on it (the landing must be walkable).
        g.expect_state("slope-wall", c.id, 0, g.ticks - 1, StateField::kY, std::nullopt,
                       s.step_height + s.skin + mm(10));
    } else if (kind == 0 && t_end >= 0) {
        // KCC-SPEC: walkable slopes are walked at full speed along the surface.
        const Scalar climbed = (length - metres(1)) * as.sin;
        g.expect_state("slope-climb", c.id, t_end, t_end, StateField::kY,
                       climbed.mul_int(3).div_int(4), std::nullopt);
    }
}

void gen_ceiling(Gen& g) {
    const AxisYaw a = pick_axis_yaw(g);
    kcc::Settings s = g.settings();
    const bool cancel = g.rng.chance(1, 2);
    const Scalar h = max(mm(30), s.step_height - g.rng.milli(50, 150));
    Scalar c_y;
    if (cancel) {
        const Scalar room = s.step_height - s.skin - mm(20); // the body must still fit under it
        if (room < mm(20)) return;
        c_y = s.height + s.step_height - g.rng.milli(10, std::min<int64_t>(150, milli_of(room)));
    } else {
        c_y = s.height + s.step_height + s.skin.mul_int(2) + g.rng.milli(10, 100);
    }
    const Scalar d0 = s.radius + g.rng.milli(100, 1000);
    const Scalar depth = metres(6);
    g.standing_box(d0 + depth.div_int(2), Scalar{}, Vec3{depth.div_int(2), h.div_int(2), metres(3)},
                   a.yaw, a.turn);
    const Vec3 slab{metres(5) + depth.div_int(2), mm(150), metres(3)};
    g.box(g.lot + a.turn * Vec3{d0 + depth.div_int(2) - metres(3), c_y + slab.y, Scalar{}}, slab,
          a.yaw);
    const Scalar v = s.max_speed;
    const int64_t t_end =
        tick_reaching(g, v, s.ground_accel, d0 + s.radius.mul_int(2) + mm(200), g.ticks);
    CharacterDef& c =
        runner(g, a, s, Scalar{}, Scalar{}, Scalar::one(), t_end < 0 ? g.ticks : t_end + 1);
    // A step whose edge the round base meets at a walkable angle is no block: the body rolls
    // over its edge as over ground (docs/controller.md, "Edges at a walkable angle") and
    // KCC-SPEC's step-up, with its ceiling check, is not tried; the invariants then hold it out
    // of the ceiling. (Seed 11 run 92: a 0.147 m step, radius 0.408, stay 59 degrees, climbed
    // under a ceiling it fitted under.) The base's centre rests r + skin up, and meets the edge
    // within r + skin (the grown capsule) or r (the body's): walkable up to an edge height of
    // skin + (r + skin) (1 - cos stay), 5 mm of margin beyond it.
    const Scalar edge_rise =
        s.skin + (s.radius + s.skin) * (Scalar::one() - sincos_deg(s.max_slope_stay_deg).cos);
    if (cancel && h > edge_rise + mm(5)) {
        // KCC-SPEC: if the upward sweep (by step_height) hits a ceiling, the whole attempt is
        // cancelled: the body stays below the step.
        g.expect_state("ceiling-cancel", c.id, 0, g.ticks - 1, StateField::kY, std::nullopt,
                       h - mm(2));
    } else if (!cancel && t_end >= 0) {
        g.expect_state("ceiling-climb", c.id, t_end, g.ticks - 1, StateField::kY, h - mm(1),
                       std::nullopt);
    }
}

} // namespace fx::harness::swarm

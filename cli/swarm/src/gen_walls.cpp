// Families of walls: boxes laid end to end, corners, unions of overlapping solids, slots narrower
// than a body, notches between two round obstacles. Each builds in its lot's frame (turned by a yaw
// about the lot's origin) and derives its expectations from KCC-SPEC (docs/swarm.md says how,
// family by family).
#include <optional>

#include "fx/sqrt.h"

#include "gen_context.h"

namespace fx::harness::swarm {

namespace {

/// A lower (sign > 0) or upper (sign < 0) bound of the world coordinate on axis a (0: x, 2: z)
/// of origin + turn * (xl, 0, zl) for xl >= x_min (sign of turn's a-row x entry) and zl in
/// [z_lo, z_hi].
Scalar axis_bound(const Vec3& origin, const Mat3& turn, int a, Scalar x_min, Scalar z_lo,
                  Scalar z_hi) {
    const Vec3& row = turn.row[static_cast<size_t>(a)];
    const Scalar base = (a == 0 ? origin.x : origin.z) + row.x * x_min;
    const Scalar lo = row.z * z_lo, hi = row.z * z_hi;
    return row.x > Scalar{} ? base + min(lo, hi) : base + max(lo, hi);
}

/// The axis (0: x, 2: z) along which local +x moves the most.
int main_axis(const Mat3& turn) {
    return abs(turn.row[0].x) >= abs(turn.row[2].x) ? 0 : 2;
}

StateField axis_field(int a) {
    return a == 0 ? StateField::kX : StateField::kZ;
}

/// Bounds the world coordinate along `a` at ticks [from, to]: at least `bound` when local +x
/// increases it, at most otherwise.
void expect_along(Gen& g, const std::string& rule, kcc::CharacterId id, int64_t from, int64_t to,
                  const Mat3& turn, int a, Scalar bound) {
    const bool increasing = turn.row[static_cast<size_t>(a)].x > Scalar{};
    g.expect_state(rule, id, from, to, axis_field(a),
                   increasing ? std::optional<Scalar>(bound) : std::nullopt,
                   increasing ? std::nullopt : std::optional<Scalar>(bound));
}

/// A yaw in whole degrees: any, or (axis_aligned) a multiple of 90.
Scalar pick_yaw(Gen& g, bool axis_aligned) {
    return axis_aligned ? metres(90 * g.rng.range(0, 3)) : metres(g.rng.range(-180, 179));
}

} // namespace

void gen_wall_joint(Gen& g) {
    const int walls = static_cast<int>(g.rng.range(1, 2));
    // The walls of one run are parallel (or run opposite ways along parallel lines, 12 m apart
    // in z: at least 6 m apart across): two walls with yaws of their own crossed, and a body
    // meeting the other wall's corner is no slide along a wall of joints.
    const int64_t turn_deg = g.rng.range(-60, 60);
    for (int w = 0; w < walls; ++w) {
        const Scalar yaw = metres(turn_deg + (g.rng.chance(1, 2) ? 180 : 0));
        const Mat3 turn = Mat3::from_yaw_pitch_roll_degrees(yaw, Scalar{}, Scalar{});
        const Vec3 origin = g.lot + Vec3{Scalar{}, Scalar{}, metres(12 * w)};
        const kcc::Settings s = g.settings();
        const Scalar len = g.rng.milli(500, 3000);
        const Scalar thick = g.rng.milli(200, 1000);
        // Higher than a jump takes the body's head (a body that jumps over the wall leaves it).
        const Scalar apex = s.jump_speed * s.jump_speed / (s.gravity + s.gravity);
        const Scalar high = max(g.rng.milli(1000, 3000), apex + s.height + mm(200));
        const int joint =
            static_cast<int>(g.rng.range(0, 4)); // exact, overlap, gap, tilt, offset face
        const Scalar gap0 = g.rng.milli(20, 300);
        const Scalar x0 = s.radius + g.rng.milli(200, 600);
        const Scalar mag =
            g.rng.chance(1, 2)
                ? Scalar::one()
                : g.rng.milli(
                      std::max<int64_t>(300, s.dead_zone.raw() * 1000 / Scalar::kOneRaw + 100),
                      1000);
        const Scalar v = Gen::target_speed(s, mag);
        const Scalar theta = g.rng.milli(3000, 80000); // deg into the wall
        const SinCos cs = sincos_deg(theta);
        // Time the body stays along the wall: at most 24 m of wall ahead of it.
        const Scalar wall_len = metres(24) + x0;
        // Overlaps take up to 50 mm a joint off the wall's length: 3 m more of boxes covers them.
        const int boxes =
            static_cast<int>(std::min<int64_t>(60, floor_to_int((wall_len + metres(3)) / len) + 2));
        Scalar shift; // the joints' overlaps (-) or gaps (+) so far, each joint its own
        // Tilted and offset joints are laid so that no box's end stands out into the body's path:
        // an end face standing e mm proud is a step, met at acos(1 - e / (r + skin)) from the face
        // (12 degrees at 9 mm), a surface that stops a body pressed into the wall more steeply
        // than that for good (seed 20261216 run 40622: boxes turned about their own centres
        // made a 9 mm step). Tilt: the faces a zigzag polyline, each box turned about the end of
        // the last one's face (as scenarios/conformance/derivations/wall-joints.py lays them);
        // offset: each face set back from the last (the body goes along local +x).
        Vec3 face; // tilt: where this box's face starts (local)
        Scalar turned; // tilt: the last box's turn, degrees
        Scalar recess; // offset: how far the faces are set back so far
        for (int i = 0; i < boxes; ++i) {
            Scalar cz = thick.div_int(2);
            Scalar box_yaw = yaw;
            if (i > 0) {
                switch (joint) {
                case 1:
                    shift = shift - g.rng.milli(1, 50);
                    break;
                case 2:
                    shift = shift + g.rng.milli(1, 5);
                    break;
                case 3: {
                    const Scalar drawn = g.rng.milli(-300, 300);
                    turned = i % 2 == 1 ? drawn : -turned; // back to the line every other joint
                    box_yaw = yaw + turned;
                    break;
                }
                case 4:
                    recess = recess + abs(g.rng.milli(-3, 3));
                    cz = cz + recess;
                    break;
                default:
                    break;
                }
            }
            Scalar cx = len * Scalar::from_int(i) + len.div_int(2) + shift;
            if (joint == 3) {
                // A positive yaw turns local +x toward -z: the face runs along u, the box behind
                // it.
                const SinCos t = sincos_deg(box_yaw - yaw);
                const Vec3 u{t.cos, Scalar{}, -t.sin}, back{t.sin, Scalar{}, t.cos};
                const Vec3 c = face + u * len.div_int(2) + back * thick.div_int(2);
                cx = c.x;
                cz = c.z;
                face = face + u * len;
            }
            g.box(origin + turn * Vec3{cx, high.div_int(2), cz},
                  Vec3{len.div_int(2), high.div_int(2), thick.div_int(2)}, box_yaw);
        }
        const Scalar zs = -(s.radius + gap0);
        const Vec3 spawn = origin + turn * Vec3{x0, Scalar{}, zs};
        CharacterDef& c = g.character(spawn, s);
        const Vec3 dir = turn * Vec3{cs.cos, Scalar{}, cs.sin};
        // The run along the wall: until the body could have gone 22 m along it, then released.
        const Scalar t_acc = (v + v) / s.ground_accel;
        int64_t t_end = g.ticks - 1;
        if (v.raw() > 0)
            t_end =
                std::min<int64_t>(t_end, floor_to_int(metres(22) / v * Scalar::from_int(g.rate)));
        Gen::hold(c, 0, t_end + 1, dir.x * mag, dir.z * mag);
        const bool air = g.rng.chance(1, 3);
        if (air) {
            const int64_t every = g.ticks_of_ms(g.rng.range(500, 1000));
            for (int64_t t = floor_to_int(t_acc * Scalar::from_int(g.rate)) + g.ticks_of_ms(200);
                 t < t_end; t += every) {
                c.input.edit().jumps.push_back(t);
            }
        }
        // KCC-SPEC, collide-and-slide: pressed into a straight wall, the body keeps the stick's
        // component along it, cos(theta) * v. Its along-wall speed reaches that within the time
        // of the speed's rise (v / ground_accel) plus the time constant of the into-wall part
        // being taken away every tick (at most v / ground_accel again): at least 80 % of
        // cos(theta) * v * (t - 2 v / ground_accel) by tick t, whatever the joints.
        // Jumping, the body is mostly in the air, where KCC-SPEC keeps its momentum (the slide
        // leaves it the part along the wall) and accelerates it at air_accel; each landing turns
        // the velocity to the stick at once, at the speed it had plus a tick's ground_accel, of
        // which the wall leaves cos(theta). Its along-wall speed after the first jump is so at
        // least cos(theta) * min(v, ground_accel * dt), and the bound uses that for v (seed
        // 20261232 run 19604: jumping every 0.52 s at 73 degrees, air_accel 4.5 m/s^2, it moved
        // 0.8 m/s along a wall where the ground speed along it is 1.17; a single straight wall
        // gives the same within 5 mm).
        const Scalar v_run = air ? min(v, s.ground_accel * g.dt()) : v;
        const Scalar t_sec = g.seconds(t_end + 1);
        const Scalar progress = (v_run * cs.cos * (t_sec - t_acc)).mul_int(4).div_int(5) - mm(10);
        if (progress > mm(100)) {
            const int a = main_axis(turn);
            const Scalar bound = axis_bound(origin, turn, a, x0 + progress, zs - mm(10), Scalar{});
            expect_along(g, "wall-slide", c.id, t_end, t_end, turn, a, bound);
        }
    }
}

void gen_corner(Gen& g) {
    const Scalar yaw = pick_yaw(g, false);
    const Mat3 turn = Mat3::from_yaw_pitch_roll_degrees(yaw, Scalar{}, Scalar{});
    const kcc::Settings s = g.settings();
    const Scalar high = g.rng.milli(1000, 3000), thick = g.rng.milli(200, 800);
    // Wall A along local +x (face z = 0), wall B along local -z (face x = 0), tilted a little.
    g.standing_box(metres(3), thick.div_int(2), Vec3{metres(3), high.div_int(2), thick.div_int(2)},
                   yaw, turn);
    g.standing_box(-thick.div_int(2), -metres(3),
                   Vec3{thick.div_int(2), high.div_int(2), metres(3)},
                   yaw + g.rng.milli(-10000, 10000), turn);
    const Vec3 spawn = g.lot + turn * Vec3{s.radius + g.rng.milli(300, 2000), Scalar{},
                                           -(s.radius + g.rng.milli(300, 2000))};
    CharacterDef& c = g.character(spawn, s);
    const Vec3 dir =
        turn * horizontal_dir(g.rng.milli(-85000, -5000)); // toward -x, +z: into the corner
    const Vec3 into = Vec3{-dir.x, Scalar{}, -dir.z};
    Gen::hold(c, 0, g.ticks, into.x, into.z);
    // Collide-and-slide never touches (it stops a skin short): from the second half of the run
    // the body is a skin from both walls.
    g.run.rests.push_back(RestRule{c.id, g.ticks / 2, spawn, Scalar{}});
}

void gen_union(Gen& g) {
    const bool aligned = g.rng.chance(1, 2);
    const Scalar yaw = pick_yaw(g, aligned);
    const Mat3 turn = Mat3::from_yaw_pitch_roll_degrees(yaw, Scalar{}, Scalar{});
    const kcc::Settings s = g.settings();
    const Scalar high = metres(3) + g.rng.milli(0, 1000);
    const int parts = static_cast<int>(g.rng.range(2, 3));
    Scalar x = Scalar{};
    Scalar overlap_from, overlap_to;
    for (int i = 0; i < parts; ++i) {
        const Scalar len = g.rng.milli(1500, 4000), depth = g.rng.milli(800, 3000);
        const Scalar start = i == 0 ? Scalar{} : x - g.rng.milli(300, 1200);
        if (i == 1) {
            overlap_from = start;
            overlap_to = x;
        }
        g.standing_box(start + len.div_int(2), depth.div_int(2),
                       Vec3{len.div_int(2), high.div_int(2), depth.div_int(2)}, yaw, turn);
        x = start + len;
    }
    // The body's capsule in the union's front face (z = 0) by p, where the first two boxes
    // overlap: its smallest way out is straight back out of the face.
    const Scalar p =
        g.rng.milli(20, std::min<int64_t>(350, s.radius.raw() * 800 / Scalar::kOneRaw));
    const Scalar xs = overlap_from + (overlap_to - overlap_from).div_int(2);
    const Scalar zs = -(s.radius - p);
    const Vec3 spawn = g.lot + turn * Vec3{xs, Scalar{}, zs};
    CharacterDef& c = g.character(spawn, s);
    (void)c;
    const int64_t settle = (p / s.depenetration_cap).raw() / Scalar::kOneRaw + 6;
    // KCC-SPEC, depenetration: the minimum translation that separates the capsule from the
    // shapes together; the body ends a skin from the face (docs/swarm.md), by the shortest way.
    g.run.rests.push_back(RestRule{c.id, settle, spawn, p + s.skin + mm(2)});
    if (aligned) {
        const Vec3 out_lo = g.lot + turn * Vec3{xs - mm(2), Scalar{}, -(s.radius + s.skin + mm(2))};
        const Vec3 out_hi = g.lot + turn * Vec3{xs + mm(2), Scalar{}, -(s.radius + s.skin - mm(1))};
        g.expect_state("depenetration", c.id, settle, g.ticks - 1, StateField::kX,
                       min(out_lo.x, out_hi.x), max(out_lo.x, out_hi.x));
        g.expect_state("depenetration", c.id, settle, g.ticks - 1, StateField::kZ,
                       min(out_lo.z, out_hi.z), max(out_lo.z, out_hi.z));
    }
}

void gen_slot(Gen& g) {
    const Scalar yaw = pick_yaw(g, true);
    const Mat3 turn = Mat3::from_yaw_pitch_roll_degrees(yaw, Scalar{}, Scalar{});
    const kcc::Settings s = g.settings();
    const Scalar narrower = g.rng.milli(20, s.radius.raw() * 800 / Scalar::kOneRaw);
    const Scalar half_gap = (s.radius.mul_int(2) - narrower).div_int(2);
    const Scalar high = metres(3), thick = g.rng.milli(300, 1000);
    for (int side = -1; side <= 1; side += 2) {
        g.standing_box(metres(3), Scalar::from_int(side) * (half_gap + thick.div_int(2)),
                       Vec3{metres(3), high.div_int(2), thick.div_int(2)}, yaw, turn);
    }
    const Scalar off = g.rng.chance(1, 2) ? Scalar{}
                                          : g.rng.milli(-narrower.raw() * 400 / Scalar::kOneRaw,
                                                        narrower.raw() * 400 / Scalar::kOneRaw);
    const Vec3 spawn = g.lot + turn * Vec3{metres(3), Scalar{}, off};
    CharacterDef& c = g.character(spawn, s);
    // No way out within the cap (the slot is 6 m long and 3 m high): the reading of issue 50 is
    // that such a body stays where it is, without shaking (docs/swarm.md).
    for (const StateField f : {StateField::kX, StateField::kZ}) {
        const Scalar at = f == StateField::kX ? spawn.x : spawn.z;
        g.expect_state("slot-still", c.id, 0, g.ticks - 1, f, at - mm(2), at + mm(2));
    }
}

void gen_notch(Gen& g) {
    const Scalar yaw = pick_yaw(g, false);
    const Mat3 turn = Mat3::from_yaw_pitch_roll_degrees(yaw, Scalar{}, Scalar{});
    const kcc::Settings s = g.settings();
    const bool characters = g.rng.chance(1, 2);
    // Two round obstacles of radius R whose surfaces are g apart, less than the body's width: two
    // pillars (vertical capsules, static), or two idle colliding characters a skin or more apart.
    // (Characters stand on one floor: the obstacles' straight parts reach no higher than the
    // runner's, r to height - r, so that they meet side on, their axes R + r + skin apart.)
    const Scalar drawn = g.rng.milli(150, 900);
    const Scalar r_obst = characters ? min(drawn, s.height - s.radius) : drawn;
    const Scalar lo_gap = characters ? s.skin : Scalar{};
    const Scalar gap =
        lo_gap + g.rng.milli(0, max(s.radius.mul_int(2) - lo_gap - mm(20), mm(1)).raw() * 1000 /
                                    Scalar::kOneRaw);
    const Scalar half = r_obst + gap.div_int(2);
    const Vec3 c1 = g.lot + turn * Vec3{-half, Scalar{}, Scalar{}};
    const Vec3 c2 = g.lot + turn * Vec3{half, Scalar{}, Scalar{}};
    if (characters) {
        kcc::Settings o = s;
        o.radius = r_obst;
        o.height = max(s.height, r_obst.mul_int(2));
        g.character(c1, o);
        g.character(c2, o);
    } else {
        const Scalar top = s.height + metres(2);
        for (const Vec3& c : {c1, c2})
            g.sc.capsules.push_back(CapsuleDef{g.shape_id(),
                                               c - Vec3{Scalar{}, metres(1), Scalar{}},
                                               c + Vec3{Scalar{}, top, Scalar{}}, r_obst});
    }
    // The rest point: on the notch's axis (local -z), reach = R + r + skin from both axes.
    const Scalar reach = r_obst + s.radius + s.skin;
    const Scalar back = fx::sqrt(reach * reach - half * half);
    const Vec3 rest = g.lot + turn * Vec3{Scalar{}, Scalar{}, -back};
    // A stick inside the cone of the two surfaces' pushes (-n1, -n2: from the rest point to each
    // axis), turned so that the straight path into the rest point comes nearer to neither axis
    // before it (d . -n >= 0 for both): d = -n1 + t (-n2), t in [max(0, -n1.n2), 1], or mirrored.
    const Vec3 to1 = (c1 - rest) / reach, to2 = (c2 - rest) / reach;
    const Scalar c12 = dot(to1, to2);
    const Scalar t_lo = max(Scalar{}, -c12);
    // (At t_lo the stick is on the cone's edge, straight at one axis or along the other surface,
    // where rounding decides whether the body slides round: it stays a tenth of the range inside.)
    const Scalar t = t_lo + (Scalar::one() - t_lo) * g.rng.milli(100, 1000);
    Vec3 d = g.rng.chance(1, 2) ? to1 + to2 * t : to2 + to1 * t;
    d = normalize(Vec3{d.x, Scalar{}, d.z});
    const Scalar mag = g.rng.milli(600, 1000);
    const Scalar dist = g.rng.milli(800, 3000);
    CharacterDef& c = g.character(rest - d * dist, s);
    Gen::hold(c, 0, g.ticks, d.x * mag, d.z * mag);
    // KCC-SPEC's multi-plane rule, read with its "or the body jitters" (docs/controller.md,
    // "Notches"): at the rest point the stick has no part that enters neither surface, so the body
    // stops about one skin from both and stays, never moving back and forth (jitter, the largest
    // reversal of the horizontal displacement while pressed: 1 mm, the settling of "about" below,
    // where behaviour 13 went back and forth by centimetres every tick). It is there by the time a
    // run from rest covers dist (speed v after v / accel), plus 25 ticks of slack; "about": each
    // gap a skin less up to 1 mm (rest-skin's allowance: the motion left after the first contact
    // slides along its tangent plane, which leaves the round surface), which moves the body up
    // to 1 mm / sin and 1 mm / cos of the cone's half-angle along the notch's axis and across it.
    g.expect_metric("notch-rest", c.id, Metric::kJitter, std::nullopt, mm(1));
    const Scalar v = Gen::target_speed(s, mag);
    if (v <= mm(100)) return;
    const int64_t arrive =
        g.ticks_of_ms(((dist / v + v / s.ground_accel) * metres(1000)).raw() / Scalar::kOneRaw) +
        25;
    if (arrive >= g.ticks - 5) return;
    const Scalar tol = mm(1) * reach / half + mm(1) * reach / back;
    g.expect_state("notch-rest", c.id, arrive, g.ticks - 1, StateField::kX, rest.x - tol,
                   rest.x + tol);
    g.expect_state("notch-rest", c.id, arrive, g.ticks - 1, StateField::kZ, rest.z - tol,
                   rest.z + tol);
}

} // namespace fx::harness::swarm

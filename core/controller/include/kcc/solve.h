// The pieces of one tick as small pure functions with plain data in and out. Gathering
// contacts (scene queries) is separate from solving them: solve_planes, select_ground,
// apply_input and ground_plane_motion touch no geometry; the sweep helpers in motion.h do.
#pragma once

#include <cstdint>
#include <span>

#include "fx/vec3.h"
#include "geo/queries.h"
#include "kcc/settings.h"
#include "kcc/state.h"

namespace fx::kcc {

// ---- velocity ---------------------------------------------------------------------------

/// Stick after the radial dead zone: below dead_zone -> zero; else same direction with the
/// magnitude remapped linearly from [dead_zone, 1] onto [0, 1] (magnitudes above 1 clamped).
/// Returned as world (x, 0, z).
Vec3 stick_to_direction(Scalar stick_x, Scalar stick_y, Scalar dead_zone);

/// Largest amount, in raw units, by which a stick's computed magnitude can exceed its decimal
/// magnitude (each component rounded to the nearest raw unit, then the length rounded).
inline constexpr int64_t kDeadZoneRounding = 2;

struct VelocityUpdate {
    Vec3 velocity;
    Scalar run_speed; ///< the speed the input update ran at (CharacterState::run_speed)
    Scalar facing;
    bool jumped = false; ///< left the ground this tick: a jump, or an upward impulse
};

/// Velocity from input (KCC-SPEC "Velocity and input"), in this order:
///   ground: the horizontal velocity points along the stick at once. Its speed moves from
///           run_speed toward |stick| * max_speed by at most accel*dt, or brake*dt when the
///           stick asks for less. With the stick released (inside the dead zone) the body keeps
///           its direction and brakes from its actual horizontal speed. y = 0; jump sets
///           y = jump_speed.
///   air:    horizontal += stick * air_accel * dt (no braking); its length is then clamped to
///           max(max_speed, length before the update), so input never gains speed beyond the
///           ground maximum while momentum from an impulse is kept; y -= gravity * dt.
///   then the impulse is added, and the facing turns toward the stick direction by at most
///   turn_per_tick (it does not turn without input, nor when the stick's motion in a tick
///   rounds to zero).
///   The stick's direction, its length and its heading (atan2) are functions of the stick and the
///   dead zone alone; with `memo`, they are kept there and taken from it while the stick and the
///   dead zone stay the same (a held stick: most ticks). Not state: the same results either way.
struct StickMemo {
    bool valid = false;
    Scalar stick_x, stick_y, dead_zone; ///< the key
    Vec3 dir; ///< stick_to_direction()
    Scalar dir_len; ///< length(dir)
    bool has_heading = false;
    Scalar heading; ///< atan2(dir.x, dir.z), once asked for
    bool has_run = false;
    Scalar run_speed; ///< the last grounded speed along dir,
    Vec3 run; ///< that velocity: dir scaled to run_speed (y = 0),
    Scalar run_length; ///< and length(run)
    /// The last horizontal velocity whose length was taken in the air (x, z; y 0) and that
    /// length: a pure function of the key, so a stale entry is only a miss. An airborne tick
    /// takes the length of the velocity it starts with, of the one input and the clamp make, and
    /// of the one it ends with, which are each the one before when nothing was met.
    bool has_flat = false;
    Vec3 flat;
    Scalar flat_length;
};
/// length(v) of a horizontal velocity (v.y ignored), from the stick's memo when v is a velocity
/// whose length is kept there (a tick that nothing slowed: its length is known), keeping it.
Scalar horizontal_speed(const Vec3& v, StickMemo* memo);
VelocityUpdate apply_input(const Vec3& velocity, Scalar run_speed, Scalar facing, bool grounded,
                           const Input& in, const Params& p, StickMemo* memo = nullptr);

/// KCC-SPEC's air clamp kept by the vertical pass's velocity clip (docs/controller.md, "The air
/// clamp"): `velocity` with its horizontal part no longer than max(max_speed, the horizontal
/// length of `before`, the velocity the pass began with).
Vec3 keep_air_clamp(const Vec3& velocity, const Vec3& before, Scalar max_speed);

/// a - b wrapped into (-pi, pi].
Scalar wrap_angle(Scalar a);

// ---- planes -----------------------------------------------------------------------------

enum class PlaneSolveKind : uint8_t {
    kFree = 0, ///< the motion enters no plane: unchanged
    kSlide = 1, ///< clipped onto one plane (plane_a)
    kCrease = 2, ///< along the crease of plane_a and plane_b
    kStop = 3, ///< no direction satisfies every plane: zero
};

struct PlaneSolve {
    Vec3 motion;
    PlaneSolveKind kind = PlaneSolveKind::kFree;
    uint8_t plane_a = 0;
    uint8_t plane_b = 0;
    uint8_t candidates = 0; ///< candidate directions tried (cost, for the trace)
};

/// Largest rounding by which a solved motion may point into a plane: 2^-24 m (6e-8 m).
inline constexpr Scalar kPlaneTolerance = Scalar::from_raw(int64_t{1} << 8);

/// The multi-plane rule. Returns a motion that enters none of the planes (dot(m, n) >=
/// -kPlaneTolerance for every n), trying in a fixed order: the motion itself; its projection
/// onto each plane it enters, newest plane first; the projection onto each crease
/// normalize(cross(ni, nj)), pairs newest first; else zero (three planes constrain it).
/// With `against` (the motion the pass started with), a projection that points against it
/// (dot < 0) is no candidate: in a notch narrower than a right angle (two round bodies side by
/// side, a wedge of walls), the leftover slid along the first surface and clipped by the second
/// points back out of the notch, and the body went back and forth every tick (docs/controller.md,
/// "Notches"). normals are unit; count <= kMaxPlanes.
PlaneSolve solve_planes(const Vec3& motion, const Vec3* normals, int count,
                        const Vec3* against = nullptr);

/// How far a body may move toward a contact found at distance d along a sweep so that one skin
/// stays between it and the contact's tangent plane, measured along the contact normal: the
/// plane is d * c away, c = cos(angle between the motion and -normal) in (0, 1], so the body
/// moves (d * c - skin) / c, and not at all when it is a skin or less away already. KCC-SPEC
/// says d - skin (the skin along the motion), which leaves skin * c: at a shallow angle to a
/// wall (c = 0.26 at 15 degrees) or a slanted landing the body ends millimetres from the
/// surface, the near-contact the skin exists to prevent (docs/controller.md). c <= 0 (a start
/// contact, or a normal that does not oppose the motion): d - skin, at least 0.
Scalar approach_distance(Scalar d, Scalar c, Scalar skin);

/// Height above walkable ground (normal.y = ny > 0) at which a body comes to rest on it, measured
/// straight down: one skin along the normal, skin / ny, but never more than the ground probe's
/// band (skin + probe_skin) less kContactTolerance, so that the probe of the next tick finds it
/// (with the default 0.02 m probe_skin the band never binds: skin / cos 58 = 0.028 < 0.035).
Scalar ground_rest_height(Scalar ny, const Params& p);

/// v with its component into n removed when it points into n (dot < 0); otherwise v.
Vec3 clip_into(const Vec3& v, const Vec3& n);

// ---- ground -----------------------------------------------------------------------------

/// Chooses the ground among probe hits (hit_less order): hits with distance <= band (or a
/// start overlap) whose normal.y >= (was_grounded ? cos_stay : cos_enter) are walkable, but an
/// edge or corner higher than step_height above the ground under the feet: a ledge the body's
/// round base reaches over is no ground to climb (KCC-SPEC's step height; docs/controller.md,
/// "No higher than a step"). The ground under the feet is where the round base touched the ground
/// it stood on (`last_normal`, when was_grounded): a skin below the feet (feet_y - skin) on level
/// ground, (radius + skin)(1 - last_normal.y) higher on a slope or a rim (a base on a steep slope
/// or a rim touches it up to r(1 - cos) above its lowest point: the rim of the slope being climbed,
/// or of the ledge being rolled off, is no ledge above it). The steepest (least normal.y) wins,
/// ties to the earlier hit. None: airborne.
Ground select_ground(std::span<const geo::Hit> hits, const Params& p, bool was_grounded,
                     Scalar feet_y, const Vec3& last_normal = Vec3::unit_y());

/// Another character's capsule a cast starts inside of by more than a skin (geo::kBodyShape,
/// start_overlap, depth > skin): the body is in it, not on it (depenetration ignores bodies, so
/// the overlap can be any depth; only the resolution separates them). No landing for a fall
/// (the probe's and the snap's casts, straight down, never report one: TickScene::meet sets the
/// scene's body pass depth to the skin; docs/controller.md, "Heads").
bool inside_body(const geo::Hit& h, const Params& p);

/// Where a downward snap sweep lands, from its hits (hit_less order). The landing is the first
/// hit walkable by the stay limit (normal.y >= cos_stay); the body is placed one skin from it
/// along its normal (drop = (distance * normal.y - skin) / normal.y, 0 for a start overlap): a
/// body closer than that is lifted, by at most a skin (drop >= -skin; snap_to_ground lifts it
/// only when nothing is in the way). Hits that do not oppose a downward motion
/// (normal.y <= 0: a wall touched at the side) are ignored. A steep hit that does oppose it
/// (a step's front edge) blocks the landing only if the drop would carry the body past it:
/// a walkable edge a millimetre beyond a steep one is still reached, since the body stops a
/// skin short of it. landed = false: no reachable walkable ground.
struct SnapLanding {
    bool landed = false;
    Scalar drop;
    Ground ground;
    /// Not landed because a steep edge or corner is in the way before the landing (the rim of
    /// a ledge the body is rolling off): its normal.
    bool edge_blocks = false;
    Vec3 edge_normal;
};
SnapLanding select_snap(std::span<const geo::Hit> hits, const Params& p);

/// Turns a horizontal motion into motion along the ground plane (unit normal n, n.y > 0) whose
/// length equals the horizontal length, uphill and downhill alike.
Vec3 ground_plane_motion(const Vec3& horizontal, const Vec3& n);
/// Motion over ground that is an edge (Ground::edge) with contact normal n: the horizontal
/// motion unchanged, plus the drop of n's plane below it when that plane descends along the
/// motion (rolling over a step's nosing at full horizontal speed); level otherwise.
Vec3 edge_motion(const Vec3& horizontal, const Vec3& n);

/// Horizontal part of a normal, normalised (walls for the horizontal pass). Zero if vertical.
Vec3 horizontal_normal(const Vec3& n);

} // namespace fx::kcc

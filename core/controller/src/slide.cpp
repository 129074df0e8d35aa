// Steps 3 and 4 of a tick: collide-and-slide (KCC-SPEC "Collide and slide"), the horizontal
// pass along the ground and the vertical pass of gravity and jumps.
#include "kcc/motion.h"

#include "geo/tolerances.h"
#include "sweep.h"
#include "trace_events.h"

namespace fx::kcc {

using namespace detail;

namespace {

/// Rounding allowance of at_step()'s rise (as step-up's: casts stop within kContactTolerance).
constexpr Scalar kStepRiseTolerance = Scalar::from_raw(geo::kContactTolerance.raw() * 4);

/// A contact with an edge or a corner of a shape (its normal is not a face's).
bool is_edge(const geo::Feature& f) {
    return f.kind == geo::FeatureKind::kEdge || f.kind == geo::FeatureKind::kVertex;
}

/// A body met a wall (a contact too steep to stand on, normal n) while `inside` its skin (along
/// n; <= 0: not inside): `feet` moves horizontally away from the wall until the body is one
/// skin from it (at most a skin back), unless that move would come within a skin of something
/// (the grown capsule's sweep meets it): a body that came
/// down along a step's edge, or was held against a wall, rests a skin from it.
/// hn_known: horizontal_normal(n), when the caller has it (else computed here).
void restore_skin(const geo::LocalScene& scene, const Vec3& n, Scalar inside, const Params& p,
                  Vec3* feet, const Vec3* hn_known = nullptr) {
    const Scalar want = min(inside, p.s.skin);
    if (want <= geo::kContactTolerance) return;
    const Vec3 hn = hn_known != nullptr ? *hn_known : horizontal_normal(n);
    if (hn.is_zero()) return;
    const Scalar along = dot(hn, n); // > 0: the normal's horizontal part
    if (along.raw() <= 0) return;
    const Scalar dist = min(want / along, p.s.skin.mul_int(2));
    // Swept grown (as the slide): the move takes the body neither into another surface nor into
    // its skin (pinned between a wall and another character, it stays a skin from the wall).
    geo::Hit blocked;
    if (sweep(scene, grown_capsule_at(*feet, p), hn, dist + geo::kContactTolerance, kNoId,
              &blocked))
        return;
    *feet += hn * dist;
}

/// One collide-and-slide pass (KCC-SPEC "Collide and slide"): sweep, move up to a skin from
/// what was met, clip what is left by every plane met so far, again, at most
/// max_slide_iterations times. Each special case of the loop is one member below, named by the
/// rule it implements.
class SlidePass {
public:
    /// The pass writes its result into *out, the caller's return value: returned by value from
    /// a member, its 96 bytes were copied, on wasm32 a memory.copy (docs/performance.md, issue
    /// 55).
    SlidePass(const geo::LocalScene& scene, const SlideRequest& r, const Params& p, const Tracer& t,
              SlideResult* out)
        : scene_(scene), r_(r), p_(p), t_(t), out_(*out), motion_(r.motion) {
        out_.position = r.position;
        out_.velocity = r.velocity;
    }

    void run() {
        const int iterations = p_.s.max_slide_iterations;
        for (int iter = 0; iter < iterations; ++iter) {
            const Scalar len = length(motion_);
            if (len < kMinMove) break;
            geo::Hit h;
            bool own = false;
            const bool hit = sweep_body(len, &h, &own);
            trace::sweep(t_, r_.pass, iter, motion_, out_.position, hit, h);
            if (!hit) {
                out_.position += motion_;
                if (out_.landed) out_.moved_after_landing = true;
                break;
            }
            out_.hit = true;
            const Scalar c = h.start_overlap ? Scalar{} : -(dot(motion_, h.normal) / len);
            const Scalar keep = own ? p_.s.skin : grown_keep(h.normal, p_);
            const Vec3 advance = scaled(motion_, approach(h, c, keep, len), len);
            out_.position += advance;
            if (out_.landed && !advance.is_zero()) out_.moved_after_landing = true;
            // How far inside the skin the body is of this contact, along its normal (> 0: inside).
            const Scalar inside = h.start_overlap ? h.depth + keep : keep - c * h.distance;
            const Vec3 leftover = motion_ - advance;

            Vec3 n = h.normal;
            bool clips_velocity = true; // false: walkable for the pass
            bool keeps_velocity = false; // a riser held at for its step (at_step)
            if (r_.pass == Pass::kHorizontal) {
                if (walkable_for_pass(h)) {
                    clips_velocity = false;
                } else {
                    if (r_.grounded && step_up(h, leftover)) break;
                    n = wall(h, inside);
                    // Held at a step's riser (kHeld: its motion is kept for the step): the
                    // riser stops this tick's motion but takes nothing from the velocity
                    // (docs/controller.md, "The reported velocity").
                    keeps_velocity = held_ && at_step(h);
                }
            } else if (falling() && n.y >= p_.cos_enter && !out_.landed && !inside_body(h, p_)) {
                land(h);
            } else if (r_.pass == Pass::kVertical && n.y < p_.cos_enter && -n.y < p_.cos_enter) {
                restore_skin(scene_, h.normal, inside, p_, &out_.position); // sliding along a wall
            }
            touch(n, clips_velocity && !keeps_velocity, iter, h.shape);
            if (iter == iterations - 1) {
                out_.capped = true;
                trace::iteration_cap(t_, r_.pass, iter, leftover);
                break;
            }
            const PlaneSolve ps = solve_planes(leftover, planes_.items, plane_count_, &r_.motion);
            motion_ = ps.motion;
            if (r_.pass == Pass::kHorizontal && r_.grounded)
                keep_horizontal_length(leftover, h, ps, clips_velocity);
            trace::plane_solve(t_, r_.pass, iter, ps);
            if (ps.kind == PlaneSolveKind::kStop) break;
        }
    }

private:
    bool falling() const { return r_.pass == Pass::kVertical && r_.motion.y.raw() < 0; }

    /// Both passes sweep the body grown by a skin (grown_capsule_at): a wall is met where the
    /// body comes within a skin of it, at any angle (swept as it is, a skin further along the
    /// motion, it missed walls passed at a shallow angle and ended inside the skin). A fall onto
    /// something walkable is the exception: whether and where the body lands is its own
    /// capsule's, swept a skin further (the grown one reaches the rim of ground beside the body).
    bool sweep_body(Scalar len, geo::Hit* h, bool* own) const {
        const bool hit = sweep(scene_, grown_capsule_at(out_.position, p_), motion_, len, kNoId, h);
        if (!hit || !falling() || h->normal.y < p_.cos_enter) return hit;
        *own = true;
        return sweep(scene_, capsule_at(out_.position, p_), motion_, len + p_.s.skin, kNoId, h);
    }

    /// How far the body moves toward hit h (c: the cosine between the motion and -normal; keep:
    /// the skin still to leave): one skin from the contact along its normal (approach_distance),
    /// nothing from a start contact; a fall onto ground ends no higher above it than the next
    /// tick's probe reaches (ground_rest_height). Never beyond the motion.
    Scalar approach(const geo::Hit& h, Scalar c, Scalar keep, Scalar len) const {
        Scalar move = h.start_overlap ? Scalar{} : approach_distance(h.distance, c, keep);
        if (!h.start_overlap && falling() && h.normal.y >= p_.cos_stay)
            move =
                max(move, h.distance + (p_.s.skin - keep) / c - ground_rest_height(h.normal.y, p_));
        return min(move, len);
    }

    /// Walkable for the horizontal pass (the stay limit for a grounded body, the enter limit in
    /// the air): the motion climbs it, and the velocity is not clipped, so that walking onto a
    /// ramp costs no speed. An edge or corner met higher than step_height above the ground under
    /// the feet is not, whatever its angle (KCC-SPEC's step height is the highest ledge a body
    /// climbs; docs/controller.md, "Edges at a walkable angle"): it is a wall, and the step-up
    /// tried at it finds it too high.
    bool walkable_for_pass(const geo::Hit& h) const {
        if (h.normal.y < (r_.grounded ? p_.cos_stay : p_.cos_enter)) return false;
        return !(r_.grounded && is_edge(h.feature) &&
                 h.point.y - rise_base() > p_.s.step_height + kStepRiseTolerance);
    }

    /// A grounded body tries a step-up at every steep hit of the pass (KCC-SPEC: "when the
    /// horizontal pass is blocked by a surface that is not walkable"), not only the first: a body
    /// sliding along a wall meets the step after the wall. True when it stepped: the pass ends.
    bool step_up(const geo::Hit& h, const Vec3& leftover) {
        const StepAttempt a = try_step_up(scene_, out_.position, rise_base(), leftover,
                                          paid_ ? Scalar{} : r_.step_hold, h.normal, h.point.y,
                                          r_.rule_out_steps, p_, t_);
        held_ = a.result == StepResult::kHeld;
        if (held_) out_.step_hold = a.held;
        if (a.result != StepResult::kAccepted) return false;
        out_.position = a.position;
        out_.stepped = true;
        return true;
    }

    /// The ground under the feet that step rises are measured from (try_step_up's `base`): a
    /// skin below the feet, or the edge the body rests on where that is higher.
    Scalar rise_base() const {
        const Scalar below = out_.position.y - p_.s.skin;
        return r_.on_edge ? max(below, r_.edge_support_y + (out_.position.y - r_.position.y))
                          : below;
    }

    /// A hit on a step: the round base meets the riser's top edge (an edge, its normal leaning
    /// up) no higher than step_height above the ground under the feet, and above it; or the
    /// riser level with the base, with nothing in the way over it.
    bool at_step(const geo::Hit& h) const {
        if (is_edge(h.feature) && h.normal.y.raw() > 0) {
            const Scalar rise = h.point.y - rise_base();
            return rise > kStepRiseTolerance && rise <= p_.s.step_height + kStepRiseTolerance;
        }
        // A level contact (a riser's face, or its top edge met level with the base's centre):
        // a riser when the body raised by step_height (the step-up's up sweep was free) meets
        // nothing two skins on into it; a wall, or a wall's corner, does a skin on.
        const Vec3 hn = horizontal_normal(h.normal);
        if (hn.is_zero()) return false;
        const Vec3 raised = out_.position + Vec3{Scalar{}, p_.s.step_height, Scalar{}};
        geo::Hit over;
        return !sweep(scene_, capsule_at(raised, p_), -hn * p_.s.skin, p_.s.skin.mul_int(2), kNoId,
                      &over);
    }

    /// Too steep to walk on: a vertical wall for the horizontal pass (its horizontal normal, so
    /// the body never climbs it), and the body back out to one skin from it (restore_skin).
    Vec3 wall(const geo::Hit& h, Scalar inside) {
        const Vec3 hn = horizontal_normal(h.normal);
        restore_skin(scene_, h.normal, inside, p_, &out_.position, &hn);
        return hn.is_zero() ? h.normal : hn;
    }

    /// The first walkable hit of a fall is where the body lands.
    void land(const geo::Hit& h) {
        out_.landed = true;
        out_.landed_normal = h.normal;
        out_.landed_shape = h.shape;
    }

    /// Every plane met in the pass constrains the motion left; those that clip the velocity
    /// (all but walkable ones in the horizontal pass) clip it.
    void touch(const Vec3& n, bool clips_velocity, int iter, geo::ShapeId shape) {
        if (add_plane(planes_.items, &plane_count_, n, true))
            trace::plane_added(t_, r_.pass, iter, n, shape, plane_count_);
        if (!clips_velocity) return;
        add_plane(velocity_planes_.items, &velocity_plane_count_, n, false);
        out_.velocity =
            solve_planes(out_.velocity, velocity_planes_.items, velocity_plane_count_, &r_.velocity)
                .motion;
        if (r_.pass == Pass::kVertical) keep_air_clamp();
    }

    /// KCC-SPEC's air clamp ("no jump, dash or combination may gain speed"): a fall or a jump
    /// clipped by a slope turns vertical speed into horizontal; the vertical pass leaves the
    /// horizontal speed no higher than max_speed, or than it was when the pass began if that was
    /// more (behaviour 15: a fall at 4.2 m/s landing on a 16 degree slope at 6.05 m/s reported
    /// 6.76 m/s for a tick; the swarm's `rule:speed-clamp`). The squares compared exactly here,
    /// the rest out of line (docs/performance.md, behaviour 15: inlined, it cost the pass its
    /// own inlining of fx::length).
    void keep_air_clamp() {
        const Vec3 h{out_.velocity.x, Scalar{}, out_.velocity.z};
        using B = wide::Default;
        if (B::ucmp(length_sq_q64(h), length_sq_q64(Vec3{p_.s.max_speed, Scalar{}, Scalar{}})) <= 0)
            return;
        out_.velocity = kcc::keep_air_clamp(out_.velocity, r_.velocity, p_.s.max_speed);
    }

    /// A grounded body's slide keeps the horizontal length its motion asked for. A walkable-angle
    /// contact with an edge is the round base meeting a step's nosing, not a slope: climbed at
    /// the full horizontal speed (projected, the motion keeps cos(angle) of its length: stairs
    /// cost 44% of the speed), plus the motion held back at this riser the tick before, once.
    /// Any other slide carries it no further horizontally than asked (a drop along an edge's
    /// tangent met by the next nosing turned into forward motion). Faces keep the spec's surface
    /// speed.
    void keep_horizontal_length(const Vec3& leftover, const geo::Hit& h, const PlaneSolve& ps,
                                bool clips_velocity) {
        Scalar want = length(Vec3{leftover.x, Scalar{}, leftover.z});
        const Scalar have = length(Vec3{motion_.x, Scalar{}, motion_.z});
        if (!clips_velocity && is_edge(h.feature) && ps.kind == PlaneSolveKind::kSlide) {
            if (!paid_) {
                want += r_.step_hold;
                paid_ = true;
            }
            if (have.raw() > 0 && have != want) motion_ = scaled(motion_, want, have);
        } else if (have > want) {
            motion_ = scaled(motion_, want, have);
        }
    }

    const geo::LocalScene& scene_;
    const SlideRequest& r_;
    const Params& p_;
    const Tracer& t_;
    SlideResult& out_;
    Vec3 motion_;
    Results<Vec3, kMaxPlanes> planes_; // (written before read: not zeroed every pass)
    Results<Vec3, kMaxPlanes> velocity_planes_;
    int plane_count_ = 0;
    int velocity_plane_count_ = 0;
    bool paid_ = false; ///< r.step_hold given back (keep_horizontal_length)
    bool held_ = false; ///< the last step attempt was kHeld
};

} // namespace

SlideResult collide_and_slide(const geo::LocalScene& scene, const SlideRequest& r, const Params& p,
                              const Tracer& t) {
    SlideResult out; // the return value itself (NRVO)
    SlidePass(scene, r, p, t, &out).run();
    return out;
}

} // namespace fx::kcc

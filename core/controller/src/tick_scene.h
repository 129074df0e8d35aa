// The seam between a character's tick and what the character keeps from one tick to the next
// (TickCache; not installed): step_character() asks its queries of a TickScene as it would of a
// plain scene, and the TickScene answers from the cache where the cache knows the answer.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <type_traits>

#include "kcc/motion.h"

namespace fx::kcc::detail {

/// The scene of one character's tick: the shapes gathered around its tick_region, and the
/// queries of KCC-SPEC's steps that a TickCache can answer. Without a cache
/// (World::set_reuse_casts(false)) every query is made afresh: the plain path, which the tests
/// compare with the cached one bit for bit (tests/controller/reuse_test.cpp,
/// tests/harness/reuse_casts_test.cpp). What the cache holds, and why each answer is the one the
/// query would give: GroundMemo, StickMemo and TickCache (motion.h, solve.h).
class TickScene {
public:
    /// `carried`: a platform moved the body before this tick's queries (its last cast is not
    /// where it stands). `leaving`: the platforms an airborne body is leaving (Movers), or null.
    TickScene(const geo::StaticScene& world, const geo::Aabb& region, TickCache* cache,
              bool carried, const Movers* leaving)
        : cache_(cache), leaving_(leaving), carried_(carried) {
        // The shapes gathered around a wider region on an earlier tick serve while this tick's
        // region lies inside it (a scene without kinematic shapes: those move every tick).
        if (cache != nullptr && !world.has_kinematic()) {
            std::optional<geo::LocalScene>& kept = cache->scene;
            if (!kept || &kept->scene() != &world || !kept->covers(region))
                kept.emplace(world, region.expanded(kTickRegionPadding));
            if (kept->covers(region))
                scene_ = &*kept; // (not when the wider region holds too many shapes)
        }
        if (scene_ == nullptr) scene_ = std::construct_at(&own_.scene, world, region);
        scene_->set_bodies({});
    }

    /// For the slides and step-ups (collide_and_slide, try_step_up).
    const geo::LocalScene& local() const { return *scene_; }

    /// Step 0 (depenetrate()). The other characters are not met here (meet()).
    Depenetration depenetrate(const Vec3& feet, const Params& p, const Tracer& t) {
        GroundMemo* const memo = ground_memo();
        // Where the body ended its last tick, unmoved, with only static shapes around, that
        // tick's last downward cast answers this tick's overlap and probe queries.
        reuse_ = memo != nullptr && !carried_ && leaving_ == nullptr &&
                 memo_fits(*memo, *scene_, capsule_at(feet, p), p);
        if (memo != nullptr)
            memo->valid = false; // this tick's own cast replaces it (or nothing does)
        const Depenetration d = reuse_ && memo->clear
                                    ? nothing_to_depenetrate(feet, t)
                                    : kcc::depenetrate(*scene_, feet, p, t, leaving_);
        reuse_ = reuse_ && d.push.is_zero(); // the probe's answer holds where the cast was made
        return d;
    }
    /// Every query from here on meets the other characters' bodies too (they must outlive it).
    /// A body more than a skin inside another passes it vertically (its probe, snap and
    /// vertical pass): it is in it, not on it or under it (docs/controller.md, "Heads").
    void meet(std::span<const geo::Body> bodies, const Params& p) {
        scene_->set_bodies(bodies);
        scene_->set_body_pass_depth(p.s.skin);
    }
    /// Step 1 (probe_ground()), where depenetrate() left the body.
    Ground probe(const Vec3& feet, const Params& p, bool was_grounded, const Tracer& t,
                 const Vec3& last_normal) {
        if (reuse_)
            return probe_from_memo(*ground_memo(), *scene_, feet, p, was_grounded, t, last_normal);
        return probe_ground(*scene_, feet, p, was_grounded, t, leaving_, nullptr, last_normal);
    }
    /// Step 5 (snap_to_ground()), its cast kept for the next tick.
    Snap snap(const Vec3& feet, Scalar max_drop, const Params& p, const Tracer& t) {
        return snap_to_ground(*scene_, feet, max_drop, p, t, ground_memo());
    }
    /// The ground where the tick ends, when the snap did not decide it; its cast kept.
    Ground probe_end(const Vec3& feet, const Params& p, bool was_grounded, const Tracer& t,
                     const Vec3& last_normal = Vec3::unit_y()) {
        return probe_ground(*scene_, feet, p, was_grounded, t, nullptr, ground_memo(), last_normal);
    }
    /// Step 2's memo of the stick (apply_input(), horizontal_speed()), or null.
    StickMemo* stick() const { return cache_ != nullptr ? &cache_->stick : nullptr; }
    /// Whether a step-up is ruled out by the height of the blocking contact without its sweeps
    /// (SlideRequest::rule_out_steps: the same outcome, with the cache's other shortcuts).
    bool rule_out_steps() const { return cache_ != nullptr; }

private:
    GroundMemo* ground_memo() const { return cache_ != nullptr ? &cache_->ground : nullptr; }

    /// Room for a LocalScene of its own, constructed only when the cache cannot serve
    /// (std::optional zeroed all ~500 bytes of it on every tick). A LocalScene is trivially
    /// destructible: nothing to destroy.
    union Own {
        Own() {}
        geo::LocalScene scene;
    };
    static_assert(std::is_trivially_destructible_v<geo::LocalScene>);
    Own own_;
    geo::LocalScene* scene_ = nullptr;
    TickCache* cache_;
    const Movers* leaving_;
    bool carried_;
    bool reuse_ = false; ///< the last tick's cast answers the overlap and probe queries
};

} // namespace fx::kcc::detail

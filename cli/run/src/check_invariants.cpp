// The invariants every scenario must hold on every tick (docs/conformance.md, "Invariants").
#include "checker.h"

#include <algorithm>

namespace fx::harness::checking {

void Checker::invariant(int64_t tick, std::string message) {
    invariant_failures_.push_back({CheckFailure::Kind::kInvariant, tick, std::move(message)});
}

Scalar Checker::penetration(const geo::Capsule& cap, const geo::Contact& c) const {
    if (!is_mesh(c.shape)) return c.depth;
    const Vec3 d = cap.b - cap.a;
    const Scalar dd = dot(d, d);
    const Scalar along = dot(c.point - cap.a, d);
    Vec3 on_core = cap.a;
    if (along >= dd) {
        on_core = cap.b;
    } else if (along.raw() > 0) {
        on_core = cap.a + d * (along / dd); // along < dd: the quotient is below 1
    }
    // A segment that crosses the triangle has a gap of 0 up to the rounding of these few
    // operations (fuzz_controller: 1 raw unit for a body whose core crossed a 15 km triangle,
    // which read 0.4 m instead of its 0.67 m and "grew" the next tick): within 2^-20 m the
    // cores touch, and the contact's depth stands.
    const Scalar gap = length(c.point - on_core);
    return gap > kCoresApart ? min(c.depth, cap.radius - gap) : c.depth;
}

void Checker::character_overlaps(std::span<const kcc::CharacterState> chars) {
    // Each colliding character's deepest overlap with another (upright capsules: the sum of the
    // radii less the distance between their segments, from the axes' horizontal distance and
    // the vertical gap between the segments; 0 when none overlaps). The characters in order of
    // x, each compared outward in that order with the others until their x alone is too far
    // for more overlap than it has found: 4,096 characters at one point cost a few comparisons
    // each, not 4,095.
    overlap_now_.assign(chars.size(), Scalar{});
    by_x_.clear();
    Scalar widest;
    for (size_t i = 0; i < chars.size(); ++i) {
        const kcc::Params& p = world_->params(i);
        if (!p.s.collide_characters) continue;
        by_x_.push_back(static_cast<uint32_t>(i));
        widest = max(widest, p.s.radius);
    }
    std::sort(by_x_.begin(), by_x_.end(), [&](uint32_t a, uint32_t b) {
        const Scalar xa = chars[a].position.x, xb = chars[b].position.x;
        return xa != xb ? xa < xb : a < b;
    });
    for (size_t k = 0; k < by_x_.size(); ++k) {
        const size_t i = by_x_[k];
        const geo::Capsule cap = kcc::capsule_at(chars[i].position, world_->params(i));
        Scalar worst;
        // One direction: step -1 or +1 through by_x_ from k.
        const auto sweep = [&](ptrdiff_t step) {
            for (ptrdiff_t m = static_cast<ptrdiff_t>(k) + step;
                 m >= 0 && m < static_cast<ptrdiff_t>(by_x_.size()); m += step) {
                const size_t o = by_x_[static_cast<size_t>(m)];
                const Vec3 d{cap.a.x - chars[o].position.x, Scalar{},
                             cap.a.z - chars[o].position.z};
                // No overlap deeper than radius + widest - |dx| here or further on.
                if (abs(d.x) >= cap.radius + widest - worst) return;
                const geo::Capsule other = kcc::capsule_at(chars[o].position, world_->params(o));
                const Scalar reach = cap.radius + other.radius;
                if (abs(d.x) >= reach || abs(d.z) >= reach) continue;
                const Scalar gy = max(max(cap.a.y - other.b.y, other.a.y - cap.b.y), Scalar{});
                worst = max(worst, reach - length(Vec3{d.x, gy, d.z}));
            }
        };
        sweep(-1);
        sweep(1);
        overlap_now_[i] = worst;
    }
}

bool Checker::cast_static(uint32_t id, const geo::Capsule& cap, Scalar reach, geo::Hit* hit) const {
    const auto it = std::lower_bound(statics_.begin(), statics_.end(), id,
                                     [](const auto& v, uint32_t want) { return v.id < want; });
    if (it == statics_.end() || it->id != id) return false;
    const Vec3 down{Scalar{}, -Scalar::one(), Scalar{}};
    switch (it->kind) {
    case geo::ShapeKind::kSphere:
        return geo::cast(cap, down, reach, it->sphere, hit);
    case geo::ShapeKind::kCapsule:
        return geo::cast(cap, down, reach, it->capsule, hit);
    case geo::ShapeKind::kBox:
        return geo::cast(cap, down, reach, it->box, hit);
    case geo::ShapeKind::kPlane:
        return geo::cast(cap, down, reach, it->plane, hit);
    case geo::ShapeKind::kMesh:
        break;
    }
    return false;
}

void Checker::invariants(int64_t tick, const kcc::CharacterState& s, const kcc::Params& p,
                         Tracker& t, std::span<const kcc::CharacterState> chars) {
    // 0. A halted body (kcc/settings.h, kWorkingVolumeMetres): reported once, in every build.
    if (s.halted && !t.halt_reported) {
        t.halt_reported = true;
        const Vec3& q = s.position;
        const std::string why =
            kcc::outside_working_volume(q)
                ? "left the working volume at (" + num6(q.x) + ", " + num6(q.y) + ", " + num6(q.z) +
                      ") m (each coordinate less than " +
                      std::to_string(kcc::kWorkingVolumeMetres) + " m)"
                : "its speed reached " + num6(length(s.velocity)) + " m/s, over the bound of " +
                      std::to_string(kcc::kMaxBodySpeedMetresPerSecond) +
                      " m/s (input, gravity and impulses of one tick added up)";
        invariant(tick, "tick " + std::to_string(tick) + ", character " + std::to_string(s.id) +
                            ": halted: " + why + "; it is not moved again (docs/numeric.md)");
    }
    const geo::StaticScene& scene = world_->scene();
    const geo::Capsule cap = kcc::capsule_at(s.position, p);
    // 1. Penetration of static geometry: within tolerance, or not growing (depenetration at work).
    // overlap returns how many contacts there are in all; only the first contacts.size()
    // are written (reading past them was an out-of-bounds read).
    std::array<geo::Contact, 32>& contacts = contacts_;
    const size_t n = std::min(scene.overlap(cap, Scalar{}, contacts), contacts.size());
    Scalar depth;
    uint32_t deepest = kcc::kNoId;
    bool touches_platform = false;
    for (size_t k = 0; k < n; ++k) {
        if (is_platform(contacts[k].shape)) {
            touches_platform = true;
            continue;
        }
        const Scalar d = penetration(cap, contacts[k]);
        if (d > depth) {
            depth = d;
            deepest = contacts[k].shape;
        }
    }
    raise(t, kMaxPenetration, depth);
    // Overlap with the other colliding characters (character_overlaps, for the whole tick).
    if (p.s.collide_characters)
        raise(t, kMaxCharacterOverlap, overlap_now_[static_cast<size_t>(&s - chars.data())]);
    // Growth is measured from the least depth since the last tick that set it (a platform
    // contact, or a decrease), with kPenetrationGrowthTolerance for rounding: a body stuck
    // inside solids that overlap one another (spawned there) and sliding along the face it
    // is nearest to drifted deeper by rounding, 1e-7 m a tick, which the bare comparison
    // "deeper than the tick before" reported as growing; accumulated drift is still caught.
    const Scalar before = t.have_prev ? t.prev_depth : depth;
    if (depth > kPenetrationTolerance && depth > before + kPenetrationGrowthTolerance &&
        !touches_platform && !t.depth_failed) {
        t.depth_failed = true;
        invariant(tick, "tick " + std::to_string(tick) + ", character " + std::to_string(s.id) +
                            ": penetrates shape " + std::to_string(deepest) + " by " + num6(depth) +
                            " m (tolerance " + num6(kPenetrationTolerance) + " m; " + num6(before) +
                            " m the tick before: the depth grew)");
    }
    t.prev_depth = touches_platform || !t.have_prev ? depth : std::min(before, depth);
    // 1b. Out of static geometry in the time depenetration needs: a body deeper than the
    // tolerance tick after tick must be out within kInsideAllowance(deepest, cap) ticks.
    // (A body inside two overlapping boxes that pushed opposite ways stayed 0.9 m deep for
    // ever while its depth did not grow.)
    // A body pinched between static solids closer than its width (a slot narrower than it: a
    // shape it is more than 1 mm into and another pushing the opposite way, none as deep as the
    // radius, so its axis is in the free space between them) has no way out that does not cross one
    // of them; it stays where it is (docs/controller.md, "Pinched"), and only the growth of its
    // depth above is an error.
    bool pinched = false;
    for (size_t i = 0; i < n && depth > kPenetrationTolerance; ++i) {
        const Scalar di = penetration(cap, contacts[i]);
        if (di >= cap.radius) {
            pinched = false;
            break;
        }
        if (di <= kPenetrationTolerance) continue;
        for (size_t j = 0; j < n; ++j)
            pinched = pinched || (j != i && dot(contacts[i].normal, contacts[j].normal).raw() < 0);
    }
    if (depth > kPenetrationTolerance && !touches_platform && !pinched) {
        ++t.inside_ticks;
        t.inside_depth = max(t.inside_depth, depth);
        const int64_t allowed = inside_allowance(t.inside_depth, p.s.depenetration_cap);
        if (t.inside_ticks > allowed && !t.inside_failed) {
            t.inside_failed = true;
            invariant(tick, "tick " + std::to_string(tick) + ", character " + std::to_string(s.id) +
                                ": inside shape " + std::to_string(deepest) + " for " +
                                std::to_string(t.inside_ticks) + " ticks (" + num6(depth) +
                                " m deep, " + num6(t.inside_depth) +
                                " m at most): depenetration, up to " + num6(p.s.depenetration_cap) +
                                " m a tick, gets a body out within " + std::to_string(allowed) +
                                " ticks");
        }
    } else {
        t.inside_ticks = 0;
        t.inside_depth = Scalar{};
    }

    // 2. Grounded implies walkable ground within the probe band. On another character
    // (kBodyShape): a colliding character's capsule within the band below, where that one
    // stood at the start of the tick (characters meet one another there).
    if (s.grounded && !t.ground_failed && s.ground_shape == geo::kBodyShape) {
        const Scalar reach = p.ground_band + kGroundTolerance;
        bool found = false;
        for (size_t o = 0; o < chars.size() && !found; ++o) {
            const kcc::Params& po = world_->params(o);
            if (chars[o].id == s.id || !po.s.collide_characters) continue;
            const geo::Capsule other = kcc::capsule_at(chars[o].previous_position, po);
            geo::Hit hit;
            found = geo::cast(cap, Vec3{Scalar{}, -Scalar::one(), Scalar{}}, reach, other, &hit);
        }
        if (!found) {
            t.ground_failed = true;
            invariant(tick, "tick " + std::to_string(tick) + ", character " + std::to_string(s.id) +
                                ": grounded on another character but none within " + num6(reach) +
                                " m below");
        }
    } else if (s.grounded && !t.ground_failed) {
        std::string why;
        if (s.ground_normal.y < p.cos_stay) {
            why = "its ground normal is " + num6(rad_to_deg(acos(s.ground_normal.y))) +
                  " deg from up, steeper than max_slope_stay_deg " + num(p.s.max_slope_stay_deg);
        } else {
            // cast_all returns how many hits there are in all, which may exceed the room
            // given: only the nearest hits.size() are written (reading past them was an
            // out-of-bounds read, found by fuzz_controller with more than 8 hits in the band).
            std::array<geo::Hit, kGroundCheckHits>& hits = ground_hits_;
            const Scalar reach = p.ground_band + kGroundTolerance;
            // The shape the body says it stands on, alone, first: walkable where the cast down
            // meets it within the band, that is ground (the whole scene's cast lists that hit
            // too); a body on anything else, or on nothing, has the whole scene cast.
            geo::Hit own;
            bool found =
                cast_static(s.ground_shape, cap, reach, &own) && own.normal.y >= p.cos_stay;
            size_t total = 0, h = 0;
            if (!found) {
                total = scene.cast_all(cap, Vec3{Scalar{}, -Scalar::one(), Scalar{}}, reach, hits);
                h = std::min(total, hits.size());
            }
            for (size_t k = 0; k < h && !found; ++k)
                found = hits[k].normal.y >= p.cos_stay;
            if (!found) {
                why = "no walkable ground within " + num6(reach) + " m below (" +
                      std::to_string(total) + " hits";
                if (h > 0)
                    why += "; nearest shape " + std::to_string(hits[0].shape) + " at " +
                           num6(hits[0].distance) + " m";
                why += ")";
            }
        }
        if (!why.empty()) {
            t.ground_failed = true;
            invariant(tick, "tick " + std::to_string(tick) + ", character " + std::to_string(s.id) +
                                ": grounded but " + why);
        }
    }
}

} // namespace fx::harness::checking

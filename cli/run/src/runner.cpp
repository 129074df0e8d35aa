#include "run/runner.h"

#include <algorithm>

#include "fx/mat3.h"
#include "tick_loop.h"

namespace fx::harness {

kcc::Input InputCursor::find(int64_t tick) {
    const InputStream& s = *stream_;
    kcc::Input in;
    int64_t until = INT64_MAX; // the next tick whose input may differ
    while (stick_ < s.sticks.size() && s.sticks[stick_].to <= tick)
        ++stick_;
    if (stick_ < s.sticks.size()) {
        const StickSegment& seg = s.sticks[stick_];
        if (seg.from <= tick) {
            in.stick_x = seg.x;
            in.stick_y = seg.y;
            until = seg.to;
        } else {
            until = seg.from;
        }
    }
    while (jump_ < s.jumps.size() && s.jumps[jump_] < tick)
        ++jump_;
    in.jump = jump_ < s.jumps.size() && s.jumps[jump_] == tick;
    if (jump_ < s.jumps.size()) until = std::min(until, in.jump ? tick + 1 : s.jumps[jump_]);
    while (impulse_ < s.impulses.size() && s.impulses[impulse_].tick < tick)
        ++impulse_;
    // Several impulses at one tick add up, in file order, the sum limited as the controller
    // limits an impulse (kcc::limit_impulse), so that no count of impulses can overflow it.
    for (size_t i = impulse_; i < s.impulses.size() && s.impulses[i].tick == tick; ++i) {
        in.impulse = kcc::limit_impulse(in.impulse + s.impulses[i].velocity);
    }
    if (impulse_ < s.impulses.size())
        until = std::min(until,
                         s.impulses[impulse_].tick == tick ? tick + 1 : s.impulses[impulse_].tick);
    same_ = in;
    same_from_ = tick;
    same_until_ = until;
    return in;
}

Timeline::Timeline(const Scenario& sc) : sc_(&sc) {
    cursors_.reserve(sc.characters.size());
    for (const CharacterDef& c : sc.characters) {
        cursors_.emplace_back(*c.input);
        if (c.join != 0) change_ticks_.push_back(c.join);
        if (c.leave != CharacterDef::kNever) change_ticks_.push_back(c.leave);
    }
    for (const EventDef& e : sc.events)
        change_ticks_.push_back(e.tick);
    std::sort(change_ticks_.begin(), change_ticks_.end());
    change_ticks_.erase(std::unique(change_ticks_.begin(), change_ticks_.end()),
                        change_ticks_.end());
}

bool Timeline::changes_at(int64_t t) const {
    return std::binary_search(change_ticks_.begin(), change_ticks_.end(), t);
}

bool Timeline::apply(int64_t t, kcc::World* world, std::string* error) const {
    if (!changes_at(t)) return true;
    auto at = [&](std::string* e) {
        *e = "tick " + std::to_string(t) + ": " + *e;
        return false;
    };
    for (const CharacterDef& c : sc_->characters) {
        if (c.leave == t && !world->remove_character(c.id, error)) return at(error);
    }
    for (const CharacterDef& c : sc_->characters) { // tick 0's joins are the world's build
        if (t > 0 && c.join == t && !world->add_character(c.id, c.spawn, c.settings, error))
            return at(error);
    }
    const auto first = std::lower_bound(sc_->events.begin(), sc_->events.end(), t,
                                        [](const EventDef& e, int64_t v) { return e.tick < v; });
    for (auto it = first; it != sc_->events.end() && it->tick == t; ++it) {
        const bool ok = it->kind == EventDef::Kind::kTeleport
                            ? world->teleport(it->character, it->feet, error)
                            : world->set_settings(it->character, it->settings, error);
        if (!ok) return at(error);
    }
    return true;
}

void Timeline::inputs(int64_t t, std::vector<kcc::Input>* out) {
    if (present_tick_ < 0 || changes_at(t) || t < present_tick_) {
        present_.clear();
        for (size_t k = 0; k < sc_->characters.size(); ++k) {
            if (sc_->characters[k].present_at(t))
                present_.push_back(k); // (id, join) order: ascending id
        }
    }
    present_tick_ = t;
    out->resize(present_.size());
    for (size_t i = 0; i < present_.size(); ++i)
        (*out)[i] = cursors_[present_[i]].at(t);
}

namespace {

kcc::Platform to_platform(const PlatformDef& d) {
    kcc::Platform p;
    p.id = d.id;
    p.half_extents = d.half_extents;
    p.rotation = d.rotation.to_mat3();
    p.waypoints = d.waypoints;
    return p;
}

} // namespace

bool build_world(const Scenario& sc, kcc::World* world, std::string* error) {
    geo::StaticScene& scene = world->scene();
    for (const BoxDef& b : sc.boxes) {
        scene.add_box(b.id, geo::Box{b.center, b.half_extents, b.rotation.to_mat3()});
    }
    for (const PlaneDef& p : sc.planes)
        scene.add_plane(p.id, geo::Plane{p.normal, p.offset});
    for (const SphereDef& s : sc.spheres)
        scene.add_sphere(s.id, geo::Sphere{s.center, s.radius});
    for (const CapsuleDef& c : sc.capsules)
        scene.add_capsule(c.id, geo::Capsule{c.a, c.b, c.radius});
    for (const MeshDef& m : sc.meshes) {
        geo::TriangleMesh mesh;
        if (!geo::TriangleMesh::build(m.vertices, m.indices, &mesh, error)) {
            *error = "mesh " + std::to_string(m.id) + ": " + *error;
            return false;
        }
        scene.add_mesh(m.id, std::move(mesh));
    }
    for (const PlatformDef& p : sc.platforms) {
        if (!world->add_platform(to_platform(p), error)) return false;
    }
    for (const CharacterDef& c : sc.characters) {
        if (c.join == 0 && !world->add_character(c.id, c.spawn, c.settings, error)) return false;
    }
    return world->build(error);
}

bool run_scenario(const Scenario& sc, RunSink& sink, const RunOptions& options,
                  std::string* error) {
    kcc::World world;
    if (!build_world(sc, &world, error)) return false;
    world.set_reuse_casts(options.reuse_casts);

    std::vector<kcc::Platform> platforms;
    platforms.reserve(sc.platforms.size());
    for (const PlatformDef& p : sc.platforms)
        platforms.push_back(to_platform(p));
    std::sort(
        platforms.begin(), platforms.end(),
        [](const kcc::Platform& a, const kcc::Platform& b) { return a.id < b.id; }); // ids unique
    std::vector<std::pair<uint32_t, Vec3>> poses(platforms.size());

    Timeline timeline(sc);
    std::vector<kcc::Input> inputs;
    std::vector<Vec3> render;
    sink.on_start(world);
    TeeObserver tee;
    tee.second = options.observer;
    return run_ticks(
        {sc, sink, options, error, world, platforms, poses, timeline, inputs, render, tee});
}

} // namespace fx::harness

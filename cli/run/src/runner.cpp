#include "run/runner.h"

#include <algorithm>

#include "fx/mat3.h"
#include "kcc/clock.h"

namespace fx::harness {

kcc::Input InputCursor::at(int64_t tick) {
    const InputStream& s = *stream_;
    kcc::Input in;
    while (stick_ < s.sticks.size() && s.sticks[stick_].to <= tick) ++stick_;
    if (stick_ < s.sticks.size() && s.sticks[stick_].from <= tick) {
        in.stick_x = s.sticks[stick_].x;
        in.stick_y = s.sticks[stick_].y;
    }
    while (jump_ < s.jumps.size() && s.jumps[jump_] < tick) ++jump_;
    in.jump = jump_ < s.jumps.size() && s.jumps[jump_] == tick;
    while (impulse_ < s.impulses.size() && s.impulses[impulse_].tick < tick) ++impulse_;
    // Several impulses at one tick add up, in file order, the sum limited as the controller
    // limits an impulse (kcc::limit_impulse), so that no count of impulses can overflow it.
    for (size_t i = impulse_; i < s.impulses.size() && s.impulses[i].tick == tick; ++i) {
        in.impulse = kcc::limit_impulse(in.impulse + s.impulses[i].velocity);
    }
    return in;
}

Timeline::Timeline(const Scenario& sc) : sc_(&sc) {
    cursors_.reserve(sc.characters.size());
    for (const CharacterDef& c : sc.characters) {
        cursors_.emplace_back(*c.input);
        if (c.join != 0) change_ticks_.push_back(c.join);
        if (c.leave != CharacterDef::kNever) change_ticks_.push_back(c.leave);
    }
    for (const EventDef& e : sc.events) change_ticks_.push_back(e.tick);
    std::sort(change_ticks_.begin(), change_ticks_.end());
    change_ticks_.erase(std::unique(change_ticks_.begin(), change_ticks_.end()), change_ticks_.end());
}

bool Timeline::changes_at(int64_t t) const { return std::binary_search(change_ticks_.begin(), change_ticks_.end(), t); }

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
        if (t > 0 && c.join == t && !world->add_character(c.id, c.spawn, c.settings, error)) return at(error);
    }
    const auto first = std::lower_bound(sc_->events.begin(), sc_->events.end(), t,
                                        [](const EventDef& e, int64_t v) { return e.tick < v; });
    for (auto it = first; it != sc_->events.end() && it->tick == t; ++it) {
        const bool ok = it->kind == EventDef::Kind::kTeleport ? world->teleport(it->character, it->feet, error)
                                                              : world->set_settings(it->character, it->settings, error);
        if (!ok) return at(error);
    }
    return true;
}

void Timeline::inputs(int64_t t, std::vector<kcc::Input>* out) {
    if (present_tick_ < 0 || changes_at(t) || t < present_tick_) {
        present_.clear();
        for (size_t k = 0; k < sc_->characters.size(); ++k) {
            if (sc_->characters[k].present_at(t)) present_.push_back(k); // (id, join) order: ascending id
        }
    }
    present_tick_ = t;
    out->resize(present_.size());
    for (size_t i = 0; i < present_.size(); ++i) (*out)[i] = cursors_[present_[i]].at(t);
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

/// Sends every event to two observers, in order.
class TeeObserver final : public kcc::TraceObserver {
public:
    kcc::TraceObserver* first = nullptr;
    kcc::TraceObserver* second = nullptr;
    void on_event(const kcc::TraceEvent& e) override {
        first->on_event(e);
        second->on_event(e);
    }
};

} // namespace

bool build_world(const Scenario& sc, kcc::World* world, std::string* error) {
    geo::StaticScene& scene = world->scene();
    for (const BoxDef& b : sc.boxes) {
        scene.add_box(b.id, geo::Box{b.center, b.half_extents, b.rotation.to_mat3()});
    }
    for (const PlaneDef& p : sc.planes) scene.add_plane(p.id, geo::Plane{p.normal, p.offset});
    for (const SphereDef& s : sc.spheres) scene.add_sphere(s.id, geo::Sphere{s.center, s.radius});
    for (const CapsuleDef& c : sc.capsules) scene.add_capsule(c.id, geo::Capsule{c.a, c.b, c.radius});
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

bool run_scenario(const Scenario& sc, RunSink& sink, const RunOptions& options, std::string* error) {
    kcc::World world;
    if (!build_world(sc, &world, error)) return false;
    world.set_reuse_casts(options.reuse_casts);

    std::vector<kcc::Platform> platforms;
    platforms.reserve(sc.platforms.size());
    for (const PlatformDef& p : sc.platforms) platforms.push_back(to_platform(p));
    std::sort(platforms.begin(), platforms.end(),
              [](const kcc::Platform& a, const kcc::Platform& b) { return a.id < b.id; }); // ids unique
    std::vector<std::pair<uint32_t, Vec3>> poses(platforms.size());

    Timeline timeline(sc);
    std::vector<kcc::Input> inputs;
    std::vector<Vec3> render;
    sink.on_start(world);
    TeeObserver tee;
    tee.second = options.observer;

    const int64_t last = options.stop_after >= 0 && options.stop_after < sc.ticks ? options.stop_after : sc.ticks - 1;
    auto step_once = [&](bool frame_end, Scalar alpha) -> bool {
        const int64_t t = world.tick();
        if (!timeline.apply(t, &world, error)) return false;
        timeline.inputs(t, &inputs);
        const bool traced = options.trace != nullptr && t >= options.trace_from && t <= options.trace_to;
        if (traced) options.trace->begin_tick(t);
        kcc::TraceObserver* observer = options.observer;
        if (traced) {
            tee.first = options.trace;
            observer = options.observer != nullptr ? static_cast<kcc::TraceObserver*>(&tee) : options.trace;
        }
        world.step(inputs, observer);
        if (options.fault != nullptr && options.fault->tick == t && !apply_fault(*options.fault, &world, "fault", error))
            return false;
        for (size_t i = 0; i < platforms.size(); ++i) poses[i] = {platforms[i].id, platforms[i].center_at(world.tick())};
        render.clear();
        if (frame_end) {
            for (size_t i = 0; i < world.characters().size(); ++i) render.push_back(world.render_position(i, alpha));
        }
        return sink.on_tick(t, world.characters(), poses, render, error);
    };

    if (sc.frames.empty()) {
        while (world.tick() <= last) {
            if (!step_once(false, Scalar{})) return false;
        }
        return true;
    }
    const int max_per_frame = sc.characters.empty() ? 4 : sc.characters.front().settings.max_ticks_per_frame;
    kcc::FrameClock clock(sc.tick_rate_hz, max_per_frame);
    size_t seg = 0;
    int64_t used = 0;
    while (world.tick() <= last) {
        const FrameSegment& f = sc.frames[seg];
        if (++used >= f.count && seg + 1 < sc.frames.size()) {
            ++seg; // the last segment repeats until the run is over
            used = 0;
        }
        const int n = clock.advance(f.ns);
        for (int i = 0; i < n && world.tick() <= last; ++i) {
            const bool frame_end = i == n - 1 || world.tick() == last;
            if (!step_once(frame_end, clock.alpha())) return false;
        }
    }
    return true;
}

} // namespace fx::harness

#include "kcc/recorder.h"

#include "kcc/scenario_limits.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>

#include "fx/decimal.h"
#include "kcc/checksum.h"

namespace fx::kcc {

namespace {

std::string num(Scalar v) {
    return to_string_shortest(v);
}
std::string vec3(const Vec3& v) {
    return "[" + num(v.x) + ", " + num(v.y) + ", " + num(v.z) + "]";
}
/// The exact matrix, rows (Mat3::row), as the scenario format reads it.
std::string mat3(const Mat3& m) {
    return "[" + vec3(m.row[0]) + ", " + vec3(m.row[1]) + ", " + vec3(m.row[2]) + "]";
}

bool is_idle(const Input& in) {
    return in.stick_x.raw() == 0 && in.stick_y.raw() == 0 && !in.jump && in.impulse.is_zero();
}

/// Whether a plane's normal is written `exact: true` (used as written by the loader): when the
/// loader's normalising it again would move it (measured: about 1.7 % of normalised vectors
/// move by 1 raw unit when normalised again; docs/embedding.md).
bool needs_exact(const Vec3& n) {
    Vec3 u;
    return !try_normalize(n, &u) || !(u == n);
}

/// Largest impulse component a scenario's input may hold (docs/scenarios.md, "speed").
constexpr int64_t kMaxImpulse = limits::kMaxSpeed;

} // namespace

Recorder::~Recorder() {
    if (world_ != nullptr) world_->recorder_.r = nullptr;
}

void Recorder::reserve(size_t ticks, size_t inputs) {
    tick_begin_.reserve(ticks);
    sums_.reserve(ticks);
    marks_.reserve(ticks);
    inputs_.reserve(inputs);
}

bool Recorder::begin(const World& world, uint64_t snapshot_hash, std::string* error) {
    auto fail = [&](const std::string& why) {
        if (error != nullptr) *error = "set_recorder: " + why;
        return false;
    };
    const std::span<const Platform> platforms = world.platforms();
    auto is_platform = [&](geo::ShapeId id) {
        return std::any_of(platforms.begin(), platforms.end(),
                           [&](const Platform& p) { return p.id == id; });
    };
    std::string items;
    const geo::StaticScene& scene = world.scene();
    // What the scenario format cannot hold is refused now, with the reason, rather than by the
    // loader when the recording is replayed (kcc/scenario_limits.h).
    auto check = [&](const std::string& what, const std::string& why) {
        return why.empty() ? "" : what + ": " + why;
    };
    auto rotation_error = [](const Mat3& r) {
        const std::string why = limits::rotation_error(r);
        return why.empty() ? why : "its rotation is not one a scenario holds: " + why;
    };
    for (size_t i = 0; i < scene.size(); ++i) {
        const geo::StaticScene::ShapeView v = scene.shape(i);
        const std::string id = std::to_string(v.id);
        std::string why;
        if (static_cast<int64_t>(v.id) > limits::kMaxId) why = "an id beyond 4000000000";
        switch (v.kind) {
        case geo::ShapeKind::kBox:
            if (why.empty()) why = limits::coordinate_error("centre", v.box.center);
            for (const Scalar h :
                 {v.box.half_extents.x, v.box.half_extents.y, v.box.half_extents.z}) {
                if (why.empty()) why = limits::size_error("half extent", h);
            }
            if (why.empty()) why = rotation_error(v.box.rotation);
            break;
        case geo::ShapeKind::kPlane:
            if (why.empty() &&
                limits::coordinate_error("offset", Vec3{v.plane.offset, Scalar{}, Scalar{}}) != "")
                why = "offset " + num(v.plane.offset) + " m: beyond 1000000 m";
            break;
        case geo::ShapeKind::kSphere:
            if (why.empty()) why = limits::coordinate_error("centre", v.sphere.center);
            if (why.empty()) why = limits::size_error("radius", v.sphere.radius);
            break;
        case geo::ShapeKind::kCapsule:
            if (why.empty()) why = limits::coordinate_error("end a", v.capsule.a);
            if (why.empty()) why = limits::coordinate_error("end b", v.capsule.b);
            if (why.empty()) why = limits::size_error("radius", v.capsule.radius);
            break;
        case geo::ShapeKind::kMesh: {
            for (const Vec3& p : v.mesh->vertices()) {
                if (why.empty()) why = limits::coordinate_error("vertex", p);
            }
            std::vector<uint32_t> indices;
            for (const geo::MeshTriangle& t : v.mesh->triangles())
                indices.insert(indices.end(), {t.i[0], t.i[1], t.i[2]});
            if (why.empty()) why = geo::repeated_triangle(v.mesh->vertices(), indices);
            break;
        }
        }
        if (!why.empty()) return fail(check("shape " + id, why) + ", which a scenario cannot hold");
        if (v.motion == geo::Motion::kKinematic) {
            if (v.kind == geo::ShapeKind::kBox && is_platform(v.id)) continue;
            return fail("shape " + id +
                        ": a kinematic shape that is not a platform cannot be recorded");
        }
        switch (v.kind) {
        case geo::ShapeKind::kBox:
            items += "  - box: {id: " + id + ", center: " + vec3(v.box.center) +
                     ", half_extents: " + vec3(v.box.half_extents);
            if (!(v.box.rotation == Mat3{})) items += ", rotation: " + mat3(v.box.rotation);
            items += "}\n";
            break;
        case geo::ShapeKind::kPlane:
            items += "  - plane: {id: " + id + ", normal: " + vec3(v.plane.normal) +
                     ", offset: " + num(v.plane.offset) +
                     (needs_exact(v.plane.normal) ? ", exact: true" : "") + "}\n";
            break;
        case geo::ShapeKind::kSphere:
            items += "  - sphere: {id: " + id + ", center: " + vec3(v.sphere.center) +
                     ", radius: " + num(v.sphere.radius) + "}\n";
            break;
        case geo::ShapeKind::kCapsule:
            items += "  - capsule: {id: " + id + ", a: " + vec3(v.capsule.a) +
                     ", b: " + vec3(v.capsule.b) + ", radius: " + num(v.capsule.radius) + "}\n";
            break;
        case geo::ShapeKind::kMesh: {
            items += "  - mesh:\n      id: " + id + "\n      vertices: [";
            const std::span<const Vec3> vs = v.mesh->vertices();
            for (size_t k = 0; k < vs.size(); ++k)
                items += (k ? ", " : "") + vec3(vs[k]);
            items += "]\n      triangles: [";
            const std::span<const geo::MeshTriangle> ts = v.mesh->triangles();
            for (size_t k = 0; k < ts.size(); ++k) {
                items += (k ? ", [" : "[") + std::to_string(ts[k].i[0]) + ", " +
                         std::to_string(ts[k].i[1]) + ", " + std::to_string(ts[k].i[2]) + "]";
            }
            items += "]\n";
            break;
        }
        }
    }
    std::string yaml;
    if (!items.empty()) yaml += "world:\n" + items;
    if (!platforms.empty()) {
        yaml += "platforms:\n";
        for (const Platform& p : platforms) {
            const std::string id = std::to_string(p.id);
            if (p.waypoints.size() < 2 || p.waypoints.front().tick != 0)
                return fail(
                    "platform " + id +
                    ": a scenario's platform has at least 2 waypoints, the first at tick 0");
            std::string why =
                static_cast<int64_t>(p.id) > limits::kMaxId ? "an id beyond 4000000000" : "";
            for (const Scalar h : {p.half_extents.x, p.half_extents.y, p.half_extents.z}) {
                if (why.empty()) why = limits::size_error("half extent", h);
            }
            if (why.empty()) why = rotation_error(p.rotation);
            for (const Waypoint& w : p.waypoints) {
                if (why.empty()) why = limits::coordinate_error("waypoint", w.center);
                if (why.empty() && w.tick > limits::kMaxTicks)
                    why = "a waypoint tick beyond 10000000";
            }
            if (!why.empty())
                return fail("platform " + id + ": " + why + ", which a scenario cannot hold");
            yaml += "  - id: " + id + "\n    half_extents: " + vec3(p.half_extents) + "\n";
            if (!(p.rotation == Mat3{})) yaml += "    rotation: " + mat3(p.rotation) + "\n";
            yaml += "    waypoints:\n";
            for (const Waypoint& w : p.waypoints)
                yaml += "      - {tick: " + std::to_string(w.tick) + ", center: " + vec3(w.center) +
                        "}\n";
        }
    }
    std::vector<Initial> initial;
    for (const CharacterState& c : world.characters())
        initial.push_back({c.id, c.position, *world.settings(c.id)});

    world_yaml_ = std::move(yaml);
    platforms_.assign(platforms.begin(), platforms.end());
    initial_ = std::move(initial);
    changes_.clear();
    marks_.clear();
    marks_.push_back({0, snapshot_hash, 0});
    inputs_.clear();
    tick_begin_.clear();
    sums_.clear();
    invalid_.clear();
    return true;
}

size_t Recorder::changes_at(int64_t tick) const {
    const auto first = std::lower_bound(changes_.begin(), changes_.end(), tick,
                                        [](const Change& c, int64_t t) { return c.tick < t; });
    return static_cast<size_t>(changes_.end() - first);
}

void Recorder::on_change(const Change& change) {
    changes_.push_back(change);
}

void Recorder::on_step(int64_t tick, std::span<const CharacterState> characters,
                       std::span<const Input> inputs) {
    if (tick != ticks() && invalid_.empty())
        invalid_ = "tick " + std::to_string(tick) + " stepped after " + std::to_string(ticks()) +
                   " recorded ticks";
    tick_begin_.push_back(inputs_.size());
    for (size_t i = 0; i < characters.size(); ++i) {
        if (i >= inputs.size()) break; // missing inputs are idle
        Input in = inputs[i];
        in.impulse = limit_impulse(in.impulse); // what the controller applies
        if (!is_idle(in)) inputs_.push_back({characters[i].id, in});
    }
}

void Recorder::on_stepped(uint64_t checksum) {
    if (sums_.size() + 1 == tick_begin_.size()) sums_.push_back(checksum);
}

void Recorder::on_snapshot(int64_t tick, std::span<const uint8_t> bytes) {
    const Mark m{tick, xxh3_64(bytes), changes_at(tick)};
    if (!marks_.empty() && marks_.back().tick == m.tick && marks_.back().hash == m.hash &&
        marks_.back().changes == m.changes)
        return;
    marks_.push_back(m);
}

void Recorder::on_restore(int64_t tick, std::span<const uint8_t> bytes) {
    const uint64_t hash = xxh3_64(bytes);
    // The latest snapshot of these bytes (snapshots of equal bytes at one tick differ at most by
    // changes that had no effect on the world).
    const Mark* found = nullptr;
    for (auto it = marks_.rbegin(); it != marks_.rend() && found == nullptr; ++it) {
        if (it->tick == tick && it->hash == hash) found = &*it;
    }
    if (found == nullptr) {
        if (invalid_.empty())
            invalid_ =
                "a snapshot of tick " + std::to_string(tick) +
                " was restored that the recorder never saw taken (taken before it was attached, in "
                "another world, or in a timeline a later restore dropped)";
        return;
    }
    const size_t keep_at_tick = found->changes;
    // Changes: those of earlier ticks, and those of this tick made before the snapshot.
    const size_t first_at_tick = changes_.size() - changes_at(tick);
    const size_t at_tick =
        static_cast<size_t>(
            std::find_if(changes_.begin() + static_cast<std::ptrdiff_t>(first_at_tick),
                         changes_.end(), [&](const Change& c) { return c.tick > tick; }) -
            changes_.begin()) -
        first_at_tick;
    changes_.resize(first_at_tick + std::min(keep_at_tick, at_tick));
    // Marks of later ticks, and of this tick after those changes, belong to a dropped timeline.
    std::erase_if(marks_, [&](const Mark& m) {
        return m.tick > tick || (m.tick == tick && m.changes > keep_at_tick);
    });
    // Inputs of this tick and later.
    if (static_cast<size_t>(tick) < tick_begin_.size()) {
        inputs_.resize(tick_begin_[static_cast<size_t>(tick)]);
        tick_begin_.resize(static_cast<size_t>(tick));
        sums_.resize(std::min(sums_.size(), static_cast<size_t>(tick)));
    } else if (static_cast<size_t>(tick) > tick_begin_.size() && invalid_.empty()) {
        invalid_ = "a snapshot of tick " + std::to_string(tick) + " was restored after only " +
                   std::to_string(tick_begin_.size()) + " ticks were recorded";
    }
}

bool Recorder::files(const std::string& name, std::vector<RecordedFile>* out,
                     std::string* error) const {
    auto fail = [&](const std::string& why) {
        if (error != nullptr) *error = "recording: " + why;
        return false;
    };
    if (!limits::valid_scenario_name(name))
        return fail("'" + name +
                    "' is not a scenario name ([a-z0-9][a-z0-9._-]*, at most 64 characters)");
    if (!invalid_.empty()) return fail(invalid_);
    const int64_t ticks = this->ticks();
    if (ticks == 0) return fail("nothing recorded: no tick was stepped");

    // The net effect of every tick's changes in the order a replay applies them: leaves, joins,
    // then events. A leave drops the changes made to that character earlier in the same tick,
    // and a join and a leave at one tick cancel out.
    struct Entry {
        CharacterId id = 0;
        Vec3 spawn;
        int64_t join = 0;
        int64_t leave = -1;
        Settings settings;
        bool dropped = false;
        std::vector<std::pair<int64_t, Input>> rows; ///< non-idle inputs
    };
    struct Event {
        size_t entry = 0;
        const Change* change = nullptr;
        bool dropped = false;
    };
    std::vector<Entry> entries;
    std::vector<Event> events;
    std::map<CharacterId, size_t> present;
    for (const Initial& c : initial_) {
        present[c.id] = entries.size();
        entries.push_back({c.id, c.spawn, 0, -1, c.settings, false, {}});
    }
    size_t next = 0;
    for (int64_t t = 0; t < ticks; ++t) {
        const size_t tick_events = events.size();
        for (; next < changes_.size() && changes_[next].tick == t; ++next) {
            const Change& c = changes_[next];
            const auto it = present.find(c.id);
            if (c.kind == ChangeKind::kJoin) {
                if (it != present.end())
                    return fail("internal: character " + std::to_string(c.id) + " joined twice");
                present[c.id] = entries.size();
                entries.push_back({c.id, c.feet, t, -1, c.settings, false, {}});
                continue;
            }
            if (it == present.end())
                return fail("internal: a change to character " + std::to_string(c.id) +
                            ", which is not present");
            const size_t e = it->second;
            if (c.kind == ChangeKind::kLeave) {
                for (size_t v = tick_events; v < events.size(); ++v) {
                    if (events[v].entry == e) events[v].dropped = true;
                }
                if (entries[e].join == t) {
                    entries[e].dropped = true;
                } else {
                    entries[e].leave = t;
                }
                present.erase(it);
            } else {
                events.push_back({e, &c, false});
            }
        }
        const size_t end = static_cast<size_t>(t) + 1 < tick_begin_.size()
                               ? tick_begin_[static_cast<size_t>(t) + 1]
                               : inputs_.size();
        for (size_t i = tick_begin_[static_cast<size_t>(t)]; i < end; ++i) {
            const TickInput& in = inputs_[i];
            const auto it = present.find(in.id);
            if (it == present.end())
                return fail("internal: an input for character " + std::to_string(in.id) +
                            ", which is not present");
            const Scalar one = Scalar::one();
            const Scalar most = Scalar::from_int(kMaxImpulse);
            const std::string who =
                "tick " + std::to_string(t) + ", character " + std::to_string(in.id) + ": ";
            if (in.input.stick_x < -one || in.input.stick_x > one || in.input.stick_y < -one ||
                in.input.stick_y > one)
                return fail(who + "stick [" + num(in.input.stick_x) + ", " + num(in.input.stick_y) +
                            "] has a component outside [-1, 1], which a scenario cannot hold");
            const Vec3& im = in.input.impulse;
            if (abs(im.x) > most || abs(im.y) > most || abs(im.z) > most)
                return fail(who + "impulse " + vec3(im) +
                            " has a component beyond 1000 m/s, which a scenario cannot hold");
            entries[it->second].rows.emplace_back(t, in.input);
        }
    }

    // Characters by id, then join; one tick rate.
    std::vector<size_t> order;
    for (size_t e = 0; e < entries.size(); ++e) {
        if (!entries[e].dropped) order.push_back(e);
    }
    if (order.empty()) return fail("no character was present while recording");
    // The scenario format's bounds (kcc/scenario_limits.h): refused here, with the reason,
    // rather than by the loader at the replay.
    if (ticks > limits::kMaxTicks)
        return fail(std::to_string(ticks) + " ticks recorded: a scenario holds at most 10000000");
    if (static_cast<int64_t>(order.size()) > limits::kMaxCharacters)
        return fail(std::to_string(order.size()) +
                    " character entries (a rejoin is another): a scenario holds at most 4096");
    for (size_t e : order) {
        const Entry& en = entries[e];
        const std::string who =
            "character " + std::to_string(en.id) + " (from tick " + std::to_string(en.join) + "): ";
        if (static_cast<int64_t>(en.id) > limits::kMaxId)
            return fail(who + "an id beyond 4000000000, which a scenario cannot hold");
        if (const std::string why = limits::coordinate_error("spawn", en.spawn); !why.empty())
            return fail(who + why + ", which a scenario cannot hold");
        if (const std::string why = limits::settings_error(en.settings); !why.empty())
            return fail(who + why + ", which a scenario cannot hold");
    }
    for (const Event& v : events) {
        if (v.dropped) continue;
        const Change& c = *v.change;
        const std::string who =
            "tick " + std::to_string(c.tick) + ", character " + std::to_string(c.id) + ": ";
        const std::string why = c.kind == ChangeKind::kTeleport
                                    ? limits::coordinate_error("teleport to", c.feet)
                                    : limits::settings_error(c.settings);
        if (!why.empty()) return fail(who + why + ", which a scenario cannot hold");
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return entries[a].id != entries[b].id ? entries[a].id < entries[b].id
                                              : entries[a].join < entries[b].join;
    });
    const int rate = entries[order.front()].settings.tick_rate_hz;
    auto check_rate = [&](CharacterId id, const Settings& s) {
        return s.tick_rate_hz == rate
                   ? std::string()
                   : "character " + std::to_string(id) + ": tick_rate_hz " +
                         std::to_string(s.tick_rate_hz) + " differs from " + std::to_string(rate) +
                         " (a scenario has one tick rate)";
    };
    for (size_t e : order) {
        if (const std::string why = check_rate(entries[e].id, entries[e].settings); !why.empty())
            return fail(why);
    }
    for (const Event& v : events) {
        if (v.dropped || v.change->kind != ChangeKind::kSettings) continue;
        if (const std::string why = check_rate(v.change->id, v.change->settings); !why.empty())
            return fail(why);
    }

    for (const Platform& p :
         platforms_) { // at most 1000 m/s between waypoints, as the loader requires
        for (size_t k = 1; k < p.waypoints.size(); ++k) {
            const int64_t dt = p.waypoints[k].tick - p.waypoints[k - 1].tick;
            if (dt < 4000 * static_cast<int64_t>(rate) &&
                distance(p.waypoints[k - 1].center, p.waypoints[k].center) >
                    Scalar::ratio(1000 * dt, rate))
                return fail("platform " + std::to_string(p.id) +
                            ": faster than 1000 m/s from waypoint " + std::to_string(k - 1) +
                            " at " + std::to_string(rate) + " Hz, which a scenario cannot hold");
        }
    }

    std::vector<RecordedFile> files;
    // The name quoted: a name such as `null` or `true` is a YAML keyword unquoted.
    std::string y =
        "format: 1\nname: \"" + name +
        "\"\ndescription: \"recorded by kcc::Recorder\"\ntick_rate: " + std::to_string(rate) +
        "\nticks: " + std::to_string(ticks) + "\n" + world_yaml_ + "characters:\n";
    CharacterId last_id = 0;
    int nth = 0;
    for (size_t k = 0; k < order.size(); ++k) {
        const Entry& en = entries[order[k]];
        nth = k > 0 && en.id == last_id ? nth + 1 : 1;
        last_id = en.id;
        y += "  - id: " + std::to_string(en.id) + "\n    spawn: " + vec3(en.spawn) + "\n";
        if (en.join > 0) y += "    join: " + std::to_string(en.join) + "\n";
        if (en.leave >= 0) y += "    leave: " + std::to_string(en.leave) + "\n";
        const auto diff = settings_diff(en.settings, Settings{});
        if (!diff.empty()) {
            y += "    settings:\n";
            for (const auto& [key, value] : diff)
                y += "      " + key + ": " + value + "\n";
        }
        if (en.rows.empty()) continue;
        RecordedFile csv;
        csv.path = name + ".c" + std::to_string(en.id) +
                   (nth > 1 ? "." + std::to_string(nth) : "") + ".csv";
        y += "    input: {csv: " + csv.path + "}\n";
        const bool impulses = std::any_of(en.rows.begin(), en.rows.end(), [](const auto& r) {
            return !r.second.impulse.is_zero();
        });
        csv.text = impulses ? "tick,stick_x,stick_y,jump,impulse_x,impulse_y,impulse_z\n"
                            : "tick,stick_x,stick_y,jump\n";
        size_t r = 0;
        for (int64_t t = 0; t <= en.rows.back().first; ++t) {
            csv.text += std::to_string(t);
            if (r < en.rows.size() && en.rows[r].first == t) {
                const Input& in = en.rows[r++].second;
                csv.text += "," + num(in.stick_x) + "," + num(in.stick_y) + (in.jump ? ",1" : ",0");
                if (impulses)
                    csv.text +=
                        "," + num(in.impulse.x) + "," + num(in.impulse.y) + "," + num(in.impulse.z);
            } else {
                csv.text += impulses ? ",0,0,0,0,0,0" : ",0,0,0";
            }
            csv.text += "\n";
        }
        files.push_back(std::move(csv));
    }
    // Events: each character's settings overlaid on its current ones (only the keys that change).
    std::vector<Settings> current(entries.size());
    for (size_t e = 0; e < entries.size(); ++e)
        current[e] = entries[e].settings;
    std::string ev;
    for (const Event& v : events) {
        if (v.dropped) continue;
        const Change& c = *v.change;
        const std::string head =
            "  - {tick: " + std::to_string(c.tick) + ", character: " + std::to_string(c.id) + ", ";
        if (c.kind == ChangeKind::kTeleport) {
            ev += head + "teleport: " + vec3(c.feet) + "}\n";
            continue;
        }
        const auto diff = settings_diff(c.settings, current[v.entry]);
        current[v.entry] = c.settings;
        if (diff.empty()) continue;
        ev += head + "settings: {";
        for (size_t k = 0; k < diff.size(); ++k)
            ev += (k ? ", " : "") + diff[k].first + ": " + diff[k].second;
        ev += "}}\n";
    }
    if (!ev.empty()) y += "events:\n" + ev;
    if (y.size() > limits::kMaxScenarioBytes)
        return fail("the scenario would have " + std::to_string(y.size()) +
                    " bytes, more than the 2 MiB a scenario may have");
    files.insert(files.begin(), RecordedFile{name + ".yaml", std::move(y)});
    // The checksum the world had after every tick (docs/formats.md, "Checksum file"), which a
    // replay must give: `fxkcc run <name>.yaml --checksums <name>.checksums`.
    std::string sums =
        "fxkcc-checksums 1\nhash xxh3-64\nticks " + std::to_string(sums_.size()) + "\n";
    for (size_t t = 0; t < sums_.size(); ++t) {
        static const char kHex[] = "0123456789abcdef";
        char hex[17];
        for (int k = 0; k < 16; ++k)
            hex[k] = kHex[(sums_[t] >> (60 - 4 * k)) & 15];
        hex[16] = '\0';
        sums += std::to_string(t) + " " + hex + "\n";
    }
    sums += "end " + std::to_string(sums_.size()) + "\n";
    files.push_back(RecordedFile{name + ".checksums", std::move(sums)});
    *out = std::move(files);
    return true;
}

} // namespace fx::kcc

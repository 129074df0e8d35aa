// "No allocation per tick once a world is built": the global allocation functions of this test
// binary count calls while a flag is set, and the flag is set only around World::step.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "kcc/recorder.h"
#include "kcc/trace.h"
#include "kcc/world.h"
#include "kcc_test_util.h"

namespace {
bool g_counting = false;
long g_allocations = 0;
} // namespace

void* operator new(std::size_t size) {
    if (g_counting) ++g_allocations;
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
    return operator new(size);
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}
// The nothrow forms too (Catch2 registers tests with new(std::nothrow)): under AddressSanitizer,
// whose runtime defines every form, an unreplaced nothrow new would pair ASan's allocation with
// the free() above (alloc-dealloc-mismatch).
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    if (g_counting) ++g_allocations;
    return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept {
    return operator new(size, tag);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}

using namespace fx;
using namespace fx::kcc;
using namespace kcctest;

namespace {
// A level with every kind of work a tick can do: floor, walls, a step, a slope and a platform.
void busy_level(World& w) {
    add_floor(w);
    add_aabb(w, 2, v3(4, 0, -10), v3(5, 2, 10));
    add_aabb(w, 3, v3(-3, 0, 3), v3(3, 0.2L, 6));
    add_slope_plane(w, 4, 30);
    Platform p;
    p.id = 50;
    p.half_extents = v3(1, 0.25L, 1);
    p.waypoints = {{v3(-6, 0.25L, -6), 0}, {v3(-2, 0.25L, -6), 100}, {v3(-6, 0.25L, -6), 200}};
    std::string error;
    REQUIRE(w.add_platform(p, &error));
}

struct CountingObserver : TraceObserver {
    long events = 0;
    void on_event(const TraceEvent&) override { ++events; }
};
} // namespace

TEST_CASE("a built world steps without allocating", "[world][alloc]") {
    World w;
    busy_level(w);
    std::string error;
    for (uint32_t id = 1; id <= 8; ++id) {
        REQUIRE(w.add_character(id, v3(-8 + 2 * static_cast<long double>(id), rest_height(), -2),
                                kDefaults, &error));
    }
    // The counter sees allocations: building a world does allocate (its trees and buffers).
    g_allocations = 0;
    g_counting = true;
    const bool built = w.build(&error);
    g_counting = false;
    REQUIRE(built);
    REQUIRE(g_allocations > 0);
    std::vector<Input> inputs(w.characters().size());
    CountingObserver observer;
    long ticks = 0;
    for (int t = 0; t < 400; ++t) {
        for (size_t i = 0; i < inputs.size(); ++i) {
            const int phase = (t / 40 + static_cast<int>(i)) % 4;
            inputs[i] =
                stick(phase == 0 ? 1 : (phase == 2 ? -1 : 0),
                      phase == 1 ? 1 : (phase == 3 ? -1 : 0), (t + static_cast<int>(i)) % 53 == 0);
        }
        g_allocations = 0;
        g_counting = true;
        w.step(inputs, (t % 2) ? &observer : nullptr);
        g_counting = false;
        REQUIRE(g_allocations == 0);
        ++ticks;
    }
    CHECK(ticks == 400);
    CHECK(observer.events > 0); // the traced ticks did real work
}

TEST_CASE("after characters join, leave, teleport and change settings, ticks allocate nothing",
          "[world][alloc]") {
    // Colliding bodies close together (the characters' grid is used), then changes at given
    // ticks: each change may allocate, the ticks after it may not.
    World w;
    busy_level(w);
    std::string error;
    for (uint32_t id = 1; id <= 4; ++id)
        REQUIRE(w.add_character(id, v3(-2 + static_cast<long double>(id), rest_height(), -2),
                                kDefaults, &error));
    REQUIRE(w.build(&error));
    Settings slow = kDefaults;
    slow.max_speed = Scalar::from_int(3);
    std::vector<Input> inputs;
    for (int t = 0; t < 300; ++t) {
        if (t == 40)
            for (uint32_t id = 10; id < 22; ++id) // twelve join, in a cluster
                REQUIRE(w.add_character(id, v3(0.9L * (id % 4), rest_height(), 0.9L * (id / 4)),
                                        kDefaults, &error));
        if (t == 100) REQUIRE(w.remove_character(2, &error));
        if (t == 150) REQUIRE(w.teleport(11, v3(-5, 1, -5), &error));
        if (t == 200) REQUIRE(w.set_settings(12, slow, &error));
        inputs.assign(w.characters().size(), stick(t % 80 < 40 ? 1 : -1, 1));
        g_allocations = 0;
        g_counting = true;
        w.step(inputs);
        g_counting = false;
        INFO("tick " << t << ", " << w.characters().size() << " characters");
        REQUIRE(g_allocations == 0);
    }
    CHECK(w.characters().size() == 15);
}

TEST_CASE("with a recorder attached and reserved, ticks and snapshots allocate nothing",
          "[world][alloc][recorder]") {
    World w;
    busy_level(w);
    std::string error;
    for (uint32_t id = 1; id <= 8; ++id)
        REQUIRE(w.add_character(id, v3(-8 + 2 * static_cast<long double>(id), rest_height(), -2),
                                kDefaults, &error));
    REQUIRE(w.build(&error));
    Recorder rec;
    REQUIRE(w.set_recorder(&rec, &error));
    rec.reserve(400, 400 * 8);
    std::vector<Input> inputs(w.characters().size());
    std::vector<uint8_t> snap;
    w.snapshot(&snap); // the buffer's capacity, once
    for (int t = 0; t < 400; ++t) {
        for (size_t i = 0; i < inputs.size(); ++i)
            inputs[i] = stick(t % 80 < 40 ? 1 : -1, 1, (t + static_cast<int>(i)) % 53 == 0);
        g_allocations = 0;
        g_counting = true;
        w.snapshot(&snap);
        w.step(inputs);
        g_counting = false;
        INFO("tick " << t);
        REQUIRE(g_allocations == 0);
    }
    CHECK(rec.ticks() == 400);
}

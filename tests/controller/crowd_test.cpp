// Characters among themselves where the spec's geometry gives no answer of its own: bodies in one
// place, on one vertical line, and crowds pressed against walls (docs/controller.md, "Characters";
// issue 50, classes 2 and 3).
#include "kcc_test_util.h"

#include <algorithm>
#include <set>

#include "kcc/motion.h"
#include "kcc/state_bytes.h"

using namespace kcctest;
using namespace fx::kcc;
using fx::geo::Capsule;

namespace {
Capsule body_at(long double x, long double y, long double z, long double r = 0.4L) {
    return Capsule::upright(v3(x, y, z), sc(r), sc(1.8L));
}
} // namespace

TEST_CASE("body_separation: bodies on one vertical line separate, exactly antisymmetric",
          "[characters]") {
    const Scalar gap = sc(0.015L);
    SECTION("the same capsule in one place: along tie_direction, the lower id along it") {
        const Capsule a = body_at(1.25L, 0.015L, -3.5L), b = a;
        const Vec3 p = body_separation(a, b, gap, 3, 7);
        CHECK(p == -body_separation(b, a, gap, 7, 3)); // argument order changes nothing
        CHECK(p.y.raw() == 0);
        CHECK(std::fabs(hlen(p) - 0.4075L) < 1e-6L); // half of 0.4 + 0.4 + 0.015
        CHECK(p == tie_direction(3, 7) * sc(0.815L).div_int(2));
        // The ids' values, not the order of the arguments, choose the direction.
        CHECK(body_separation(a, b, gap, 4, 7) != p);
    }
    SECTION("two sizes at one point: told apart by place, along x") {
        const Capsule small = body_at(0, 0.015L, 0, 0.3L), large = body_at(0, 0.015L, 0, 0.5L);
        const Vec3 p = body_separation(small, large, gap, 9, 2);
        CHECK(p == -body_separation(large, small, gap, 2, 9));
        CHECK(p.z.raw() == 0);
        CHECK(std::fabs(std::fabs(ld(p.x)) - 0.4075L) < 1e-6L);
        // Swapping the ids changes nothing: the ids are not asked.
        CHECK(body_separation(small, large, gap, 2, 9) == p);
    }
    SECTION("one over the other, overlapping: along x; one standing on the other's head: none") {
        const Capsule low = body_at(2, 0.015L, 2), high = body_at(2, 1.0L, 2);
        const Vec3 p = body_separation(low, high, gap, 1, 2);
        CHECK(p == -body_separation(high, low, gap, 2, 1));
        CHECK(p.z.raw() == 0);
        CHECK(ld(abs(p.x)) > 0.3L);
        const Capsule on_head = body_at(2, 0.015L + 1.8L + 0.015L, 2);
        CHECK(body_separation(low, on_head, gap, 1, 2).is_zero());
    }
}

TEST_CASE("tie_direction: a horizontal unit vector, spread over every way", "[characters]") {
    std::set<int> octants;
    for (CharacterId lo = 1; lo < 40; ++lo) {
        for (CharacterId hi = lo + 1; hi < lo + 40; ++hi) {
            const Vec3 d = tie_direction(lo, hi);
            REQUIRE(d.y.raw() == 0);
            REQUIRE(std::fabs(hlen(d) - 1.0L) < 1e-6L);
            const long double a = std::atan2(ld(d.z), ld(d.x));
            octants.insert(static_cast<int>(std::floor((a + 3.14159265L) / (3.14159265L / 4))));
        }
    }
    CHECK(octants.size() == 8);
}

namespace {
/// `n` characters released at one point on a floor, ids 1..n added in `order`; every tick's
/// states (by id). `wall`: a wall 0.6 m beyond the point along +z, and every character holding
/// its stick into it for the first 40 ticks.
std::vector<std::vector<CharacterState>> released(int n, const std::vector<int>& order, bool wall,
                                                  int ticks) {
    World w;
    add_floor(w);
    if (wall) add_aabb(w, 2, v3(-10, 0, 1.0L), v3(10, 3, 1.5L)); // its face at z = 1
    std::string error;
    for (int k : order) {
        // Against the wall: scattered over 0.6 m, overlapping; else all at one point.
        const long double x = wall ? 0.1L * (k % 7) - 0.3L : 0.37L;
        const long double z = wall ? 0.08L * (k % 5) - 0.2L : -0.21L;
        REQUIRE(w.add_character(static_cast<CharacterId>(k + 1), v3(x, rest_height(), z), kDefaults,
                                &error));
    }
    REQUIRE(w.build(&error));
    std::vector<std::vector<CharacterState>> out;
    std::vector<Input> in(static_cast<size_t>(n));
    for (int t = 0; t < ticks; ++t) {
        for (auto& i : in)
            i = wall && t < 40 ? stick(0, 1) : Input{};
        w.step(in);
        out.emplace_back(w.characters().begin(), w.characters().end());
    }
    return out;
}

/// Deepest overlap of two of the states' bodies (radius 0.4 each).
long double deepest(const std::vector<CharacterState>& s) {
    long double worst = 0;
    for (size_t i = 0; i < s.size(); ++i)
        for (size_t j = i + 1; j < s.size(); ++j)
            worst = std::max(worst, 0.8L - hlen(s[i].position - s[j].position));
    return worst;
}
} // namespace

TEST_CASE("characters released at one point separate, standing, whatever their listing order",
          "[characters]") {
    for (int n : {2, 5, 17, 30}) {
        INFO(n << " characters");
        std::vector<int> forward, backward, evens_first;
        for (int k = 0; k < n; ++k) {
            forward.push_back(k);
            backward.push_back(n - 1 - k);
        }
        for (int k = 0; k < n; k += 2)
            evens_first.push_back(k);
        for (int k = 1; k < n; k += 2)
            evens_first.push_back(k);
        const auto a = released(n, forward, false, 100);
        const auto b = released(n, backward, false, 100);
        const auto c = released(n, evens_first, false, 100);
        for (size_t t = 0; t < a.size(); ++t) {
            for (size_t i = 0; i < a[t].size(); ++i) {
                INFO("tick " << t << ", character " << a[t][i].id);
                REQUIRE(serialize_state(a[t][i]) == serialize_state(b[t][i]));
                REQUIRE(serialize_state(a[t][i]) == serialize_state(c[t][i]));
                // Never airborne on the floor, never lifted or sunk, never launched.
                REQUIRE(a[t][i].grounded);
                REQUIRE(a[t][i].position.y == sc(rest_height()));
                REQUIRE(a[t][i].velocity.is_zero());
            }
        }
        CHECK(deepest(a.front()) > 0.3L); // they did start in one another
        CHECK(deepest(a.back()) < 1e-6L); // and are apart
    }
}

TEST_CASE("overlapping characters pressed against a wall separate along it, a skin from it",
          "[characters]") {
    std::vector<int> order;
    for (int k = 0; k < 12; ++k)
        order.push_back(k);
    const auto run = released(12, order, true, 150);
    for (size_t t = 0; t < run.size(); ++t) {
        for (const CharacterState& s : run[t]) {
            INFO("tick " << t << ", character " << s.id);
            REQUIRE(ld(s.position.z) <= 1.0L - 0.4L - 0.015L + 1e-6L); // never in the wall's skin
            REQUIRE(s.grounded);
        }
    }
    CHECK(deepest(run[39]) < 0.001L); // apart while still pressed into the wall
    CHECK(deepest(run.back()) < 1e-6L);
    // They spread along the wall: the crowd is wider than it was.
    long double lo = 1e9L, hi = -1e9L;
    for (const CharacterState& s : run.back())
        lo = std::min(lo, ld(s.position.x)), hi = std::max(hi, ld(s.position.x));
    CHECK(hi - lo > 2.0L);
}

namespace {
/// `n` characters released at one point (0.37 + dx, rest height, -0.21 + dz) on a floor, idle,
/// ids 1..n added in `order`: every tick's states, and the most pairs the resolution met in a
/// tick.
std::vector<std::vector<CharacterState>> clump(int n, const std::vector<int>& order, int ticks,
                                               long double dx, long double dz,
                                               uint64_t* most_pairs) {
    World w;
    add_aabb(w, 1, v3(-2000, -1, -2000), v3(2000, 0, 2000)); // a floor under every shift
    std::string error;
    for (int k : order)
        REQUIRE(w.add_character(static_cast<CharacterId>(k + 1),
                                v3(0.37L + dx, rest_height(), -0.21L + dz), kDefaults, &error));
    REQUIRE(w.build(&error));
    std::vector<std::vector<CharacterState>> out;
    const std::vector<Input> in(static_cast<size_t>(n));
    *most_pairs = 0;
    for (int t = 0; t < ticks; ++t) {
        const uint64_t before = w.pairs_met();
        w.step(in);
        *most_pairs = std::max(*most_pairs, w.pairs_met() - before);
        out.emplace_back(w.characters().begin(), w.characters().end());
    }
    return out;
}
} // namespace

TEST_CASE("a crowd at one point separates in bounded work a tick, whatever its listing order or "
          "place",
          "[characters]") {
    // docs/controller.md, "Crowded cells": bodies of cells holding more than could stand there
    // apart meet a few neighbours in the crowd's orders, not every body of the crowd. 256 at one
    // point must still come apart (1 mm), standing on the floor and never launched; each tick's
    // pairs stay within a few per body (every pair of the 256 is 32,640; behaviour 10 met them
    // all); and the run is the same listed backward and moved by whole metres (the cells are
    // counted from the bodies' lowest x and z, not from the world's origin).
    const int n = 256, ticks = 450;
    std::vector<int> forward, backward;
    for (int k = 0; k < n; ++k) {
        forward.push_back(k);
        backward.push_back(n - 1 - k);
    }
    uint64_t most = 0, most_backward = 0, most_moved = 0;
    const auto a = clump(n, forward, ticks, 0, 0, &most);
    const auto b = clump(n, backward, ticks, 0, 0, &most_backward);
    const auto c = clump(n, forward, ticks, 1001, -37, &most_moved);
    CHECK(most <= 10 * static_cast<uint64_t>(n)); // two orders, 4 places each way: 8 a body
    CHECK(most_backward == most);
    CHECK(most_moved == most);
    for (size_t t = 0; t < a.size(); ++t) {
        for (size_t i = 0; i < a[t].size(); ++i) {
            INFO("tick " << t << ", character " << a[t][i].id);
            REQUIRE(serialize_state(a[t][i]) == serialize_state(b[t][i]));
            CharacterState moved = c[t][i];
            moved.position = moved.position - v3(1001, 0, -37);
            moved.previous_position = moved.previous_position - v3(1001, 0, -37);
            REQUIRE(serialize_state(a[t][i]) == serialize_state(moved));
            REQUIRE(a[t][i].grounded);
            REQUIRE(a[t][i].position.y == sc(rest_height()));
            REQUIRE(a[t][i].velocity.is_zero());
        }
    }
    CHECK(deepest(a.front()) > 0.79L);
    CHECK(deepest(a.back()) < 0.001L);
}

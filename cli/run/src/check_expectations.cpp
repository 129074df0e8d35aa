// The scenario's own expectations: states at ticks, metrics over the run, and same_as another
// scenario (docs/conformance.md, "Expectations").
#include "checker.h"

#include <algorithm>

namespace fx::harness::checking {

namespace {

/// Collects every character state of a run (the other side of a same_as expectation).
class StatesSink final : public RunSink {
public:
    std::vector<std::vector<kcc::CharacterState>> ticks;
    bool on_tick(int64_t, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>>, std::span<const Vec3>,
                 std::string*) override {
        ticks.emplace_back(chars.begin(), chars.end());
        return true;
    }
};

} // namespace

bool Checker::prepare(std::string* error) {
    for (const SameAsExpectation& e : sc_.expect_same_as) {
        StatesSink s;
        std::string err;
        if (!run_scenario(*e.other, s, RunOptions{}, &err)) {
            *error = where(e.at) + ": same_as '" + e.path + "': " + err;
            return false;
        }
        others_.push_back(std::move(s.ticks));
    }
    return true;
}

Scalar Checker::field(StateField f, const kcc::CharacterState& s, size_t index) const {
    switch (f) {
    case StateField::kX:
        return s.position.x;
    case StateField::kY:
        return s.position.y;
    case StateField::kZ:
        return s.position.z;
    case StateField::kVx:
        return s.velocity.x;
    case StateField::kVy:
        return s.velocity.y;
    case StateField::kVz:
        return s.velocity.z;
    case StateField::kSpeed:
        return length(s.velocity);
    case StateField::kHorizontalSpeed:
        return horizontal_length(s.velocity);
    case StateField::kSurfaceSpeed:
        return length(s.position - s.previous_position).mul_int(sc_.tick_rate_hz);
    case StateField::kGroundAngle:
        return s.grounded ? rad_to_deg(acos(s.ground_normal.y)) : Scalar{};
    case StateField::kFacing:
        return rad_to_deg(s.facing);
    case StateField::kCharacterOverlap:
        return index < overlap_now_.size() ? overlap_now_[index] : Scalar{};
    }
    return Scalar{};
}

void Checker::expectations(int64_t tick, std::span<const kcc::CharacterState> chars) {
    if (first_tick_.size() != sc_.expect_states.size())
        first_tick_.assign(sc_.expect_states.size(), -1);
    for (size_t k = 0; k < sc_.expect_states.size(); ++k) {
        const StateExpectation& e = sc_.expect_states[k];
        if (tick < e.from || tick > e.to) continue;
        std::string failed;
        if (e.character != kcc::kNoId &&
            std::none_of(chars.begin(), chars.end(),
                         [&](const kcc::CharacterState& s) { return s.id == e.character; })) {
            // A check of a character that has left (or not yet joined) cannot hold.
            StateProgress& sp = state_progress_[k];
            if (sp.failed_ticks++ == 0) {
                first_tick_[k] = tick;
                sp.first = where(e.at) + ": tick " + std::to_string(tick) + ", character " +
                           std::to_string(e.character) + ": not present at this tick";
            }
            continue;
        }
        for (const kcc::CharacterState& s : chars) {
            if (e.character != kcc::kNoId && s.id != e.character) continue;
            if (e.grounded >= 0 && s.grounded != (e.grounded == 1)) {
                failed = std::string("grounded is ") + (s.grounded ? "true" : "false") +
                         ", expected " + (e.grounded == 1 ? "true" : "false");
            } else if (e.check_platform && s.platform != e.platform) {
                auto name = [](uint32_t id) {
                    return id == kcc::kNoId ? std::string("none") : std::to_string(id);
                };
                failed = "platform is " + name(s.platform) + ", expected " + name(e.platform);
            } else {
                for (const auto& [f, c] : e.checks) {
                    const Scalar v = field(f, s, static_cast<size_t>(&s - chars.data()));
                    if (!c.holds(v)) {
                        failed = std::string(state_field_names()[static_cast<int>(f)]) + " = " +
                                 num(v) + ", expected " + check_text(c);
                        break;
                    }
                }
            }
            if (!failed.empty()) {
                StateProgress& sp = state_progress_[k];
                if (sp.failed_ticks++ == 0) {
                    first_tick_[k] = tick;
                    sp.first = where(e.at) + ": tick " + std::to_string(tick) + ", character " +
                               std::to_string(s.id) + ": " + failed;
                }
                break;
            }
        }
    }
}

void Checker::same_as(int64_t tick, std::span<const kcc::CharacterState> chars) {
    for (size_t k = 0; k < sc_.expect_same_as.size(); ++k) {
        if (same_failed_[k]) continue;
        const SameAsExpectation& e = sc_.expect_same_as[k];
        const std::string head =
            where(e.at) + ": same_as '" + e.path + "': tick " + std::to_string(tick);
        auto fail = [&](const std::string& why) {
            same_failed_[k] = true;
            expectation_failures_.push_back(
                {CheckFailure::Kind::kExpectation, tick, head + ": " + why});
        };
        if (tick >= static_cast<int64_t>(others_[k].size())) {
            fail("the other scenario ran only " + std::to_string(others_[k].size()) + " ticks");
            continue;
        }
        const std::vector<kcc::CharacterState>& o = others_[k][static_cast<size_t>(tick)];
        if (o.size() != chars.size()) {
            fail(std::to_string(chars.size()) + " characters here, " + std::to_string(o.size()) +
                 " there");
            continue;
        }
        for (size_t i = 0; i < chars.size(); ++i) {
            const kcc::CharacterState& a = chars[i];
            const kcc::CharacterState& b = o[i];
            std::string why;
            auto vec = [](const Vec3& v) {
                return "(" + num(v.x) + ", " + num(v.y) + ", " + num(v.z) + ")";
            };
            if (a.id != b.id)
                why = "character ids differ";
            else if (a.position != b.position + e.offset)
                why = "position " + vec(a.position) + ", expected " + vec(b.position + e.offset);
            else if (a.velocity != b.velocity)
                why = "velocity " + vec(a.velocity) + ", expected " + vec(b.velocity);
            else if (a.facing != b.facing)
                why = "facing " + num(a.facing) + ", expected " + num(b.facing);
            else if (a.grounded != b.grounded)
                why = std::string("grounded ") + (a.grounded ? "true" : "false") + ", expected " +
                      (b.grounded ? "true" : "false");
            else if (a.ground_normal != b.ground_normal)
                why =
                    "ground normal " + vec(a.ground_normal) + ", expected " + vec(b.ground_normal);
            else if (a.platform != b.platform)
                why = "platform differs";
            if (!why.empty()) {
                fail("character " + std::to_string(a.id) + ": " + why);
                break;
            }
        }
    }
}

void Checker::metric_expectations() {
    for (const MetricExpectation& e : sc_.expect_metrics) {
        for (const Tracker& t : trackers_) {
            if (e.character != kcc::kNoId && t.m.id != e.character) continue;
            for (const auto& [m, c] : e.checks) {
                const MetricValue& v = t.m.values[static_cast<size_t>(m)];
                std::string why;
                if (!v.present)
                    why = "no value (the run gave it nothing to measure)";
                else if (!c.holds(v.value))
                    why = num(v.value) + ", expected " + check_text(c);
                if (!why.empty()) {
                    expectation_failures_.push_back({CheckFailure::Kind::kExpectation, -1,
                                                     where(e.at) + ": character " +
                                                         std::to_string(t.m.id) + ": " +
                                                         metric_info()[m].name + " = " + why});
                }
            }
        }
    }
}

} // namespace fx::harness::checking

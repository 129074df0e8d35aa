// The feel metrics of every character, tick by tick (docs/conformance.md, "Metrics").
#include "checker.h"

#include <algorithm>

namespace fx::harness::checking {

void Checker::track(int64_t tick, const kcc::CharacterState& s, const kcc::Input& in,
                    const kcc::Params& p, Tracker& t, const TickEvents& ev) {
    const bool held = stick_held(in, p.s.dead_zone);
    const Scalar hspeed = horizontal_length(s.velocity);
    const Vec3 disp = s.position - s.previous_position;
    // Counters that every run has (present from the first tick, even when zero).
    add(t, kFlickerCount, 0);
    add(t, kStepAttempts, ev.step_attempts);
    add(t, kStepSuccesses, ev.step_successes);
    add(t, kTicksAtCap, ev.at_cap ? 1 : 0);
    add(t, kAirborneTicks, s.grounded ? 0 : 1);
    raise(t, kMaxDepenetration, ev.push);
    raise(t, kMaxSlideIterations, Scalar::from_int(ev.max_iteration));
    raise(t, kMaxHorizontalSpeed, hspeed);
    raise(t, kJitter, Scalar{});

    // Stop time: from the tick the stick is released (grounded, moving) to zero velocity.
    if (t.have_prev && t.prev_held && !held && t.prev.grounded &&
        horizontal_length(t.prev.velocity).raw() != 0) {
        t.release_tick = tick;
    }
    if (t.release_tick >= 0) {
        if (held || !s.grounded) {
            t.release_tick = -1;
        } else if (s.velocity.x.raw() == 0 && s.velocity.z.raw() == 0) {
            t.stop_ticks = std::max(t.stop_ticks, tick - t.release_tick + 1);
            t.release_tick = -1;
        }
    }

    // Surface speed over flat speed on walkable slopes.
    if (t.have_prev && t.prev.grounded && s.grounded && t.prev.ground_normal == s.ground_normal &&
        s.ground_normal.y < cos_half_degree_ && hspeed >= Scalar::ratio(1, 2) && !ev.pressed &&
        !ev.stepped && ev.push.raw() == 0 && !ev.carried && !ev.jumped &&
        s.platform == kcc::kNoId && t.prev.platform == kcc::kNoId) {
        const Scalar flat = hspeed.div_int(sc_.tick_rate_hz);
        const Scalar ratio = length(disp) / flat;
        lower(t, kSlopeSpeedRatioMin, ratio);
        raise(t, kSlopeSpeedRatioMax, ratio);
    }

    // Flicker: short airborne spells that no jump or impulse explains.
    const bool kicked = !in.impulse.is_zero();
    if (t.have_prev && t.prev.grounded && !s.grounded) {
        t.spell_start = tick;
        t.spell_excused = ev.jumped || kicked;
    } else if (t.spell_start >= 0 && !s.grounded) {
        t.spell_excused = t.spell_excused || ev.jumped || kicked;
    } else if (t.spell_start >= 0 && s.grounded) {
        const int64_t spell = tick - t.spell_start;
        const int64_t limit = std::max(1, sc_.tick_rate_hz / 10);
        if (spell <= limit && !t.spell_excused) add(t, kFlickerCount, 1);
        t.spell_start = -1;
    }

    // Jitter: a reversal of the horizontal displacement while pressed into something with
    // the stick held (vertical motion is a jump's or a fall's, not jitter).
    if (held && ev.pressed) {
        const Vec3 hdisp{disp.x, Scalar{}, disp.z};
        if (t.prev_pressed && dot(hdisp, t.prev_pressed_disp) < Scalar{}) {
            raise(t, kJitter, std::min(length(hdisp), length(t.prev_pressed_disp)));
        }
        t.prev_pressed_disp = hdisp;
        t.prev_pressed = true;
    } else {
        t.prev_pressed = false;
    }
}

} // namespace fx::harness::checking

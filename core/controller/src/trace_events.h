// Internal: the solver's trace events, one inline function per TraceKind, so that each step of
// the solve reports what it did in one line. Each tests whether an observer wants its kind
// (TraceObserver::kinds) before it builds anything: with tracing off, or that kind not wanted,
// an event costs one test, no stores and no arithmetic (an
// argument is a value the solve already has; anything derived for the event, such as the
// carried displacement, is computed behind the test).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kcc/motion.h"

namespace fx::kcc::trace {

inline void tick_begin(const Tracer& t, const CharacterState& s) {
    if (!t.wants(TraceKind::kTickBegin)) return;
    TraceEvent e;
    e.kind = TraceKind::kTickBegin;
    e.a = s.position;
    e.b = s.velocity;
    e.s = s.facing;
    t.emit(e);
}

/// b = where the carry ended minus where the body stood (the swept part of `shift`).
inline void platform_carry(const Tracer& t, uint32_t platform, const Vec3& shift, const Vec3& from,
                           const Vec3& to) {
    if (!t.wants(TraceKind::kPlatformCarry)) return;
    TraceEvent e;
    e.kind = TraceKind::kPlatformCarry;
    e.shape = platform;
    e.a = shift;
    e.b = to - from;
    t.emit(e);
}

/// Reported only when the capsule overlapped something.
inline void depenetrate(const Tracer& t, const Depenetration& d, const Vec3& feet) {
    if (!t.wants(TraceKind::kDepenetrate) || d.contacts == 0) return;
    TraceEvent e;
    e.kind = TraceKind::kDepenetrate;
    e.count = d.contacts;
    e.a = d.push;
    e.s = d.wanted;
    e.c = feet;
    t.emit(e);
}

/// `hits`: the probe's hits within the ground band (what select_ground() looked at). `reused`: 0
/// when the probe cast, 1 when its answer came from the last tick's cast (GroundMemo), 2 when
/// depenetration's overlap query was answered from it too; plus kProbeBodiesCast when the other
/// characters' hits were cast afresh and merged in.
inline void probe(const Tracer& t, const Ground& g, size_t hits, const Vec3& feet,
                  uint8_t reused = 0) {
    if (!t.wants(TraceKind::kProbe)) return;
    TraceEvent e;
    e.kind = TraceKind::kProbe;
    e.reason = reused;
    e.count = static_cast<uint32_t>(hits);
    e.shape = g.shape;
    e.a = g.normal;
    e.flag = g.grounded;
    e.s = g.distance;
    e.c = feet;
    t.emit(e);
}

inline void velocity(const Tracer& t, const VelocityUpdate& vu) {
    if (!t.wants(TraceKind::kVelocity)) return;
    TraceEvent e;
    e.kind = TraceKind::kVelocity;
    e.a = vu.velocity;
    e.flag = vu.jumped;
    t.emit(e);
}

/// `h` is read only when `hit`.
inline void sweep(const Tracer& t, Pass pass, int iteration, const Vec3& motion, const Vec3& from,
                  bool hit, const geo::Hit& h) {
    if (!t.wants(TraceKind::kSweep)) return;
    TraceEvent e;
    e.kind = TraceKind::kSweep;
    e.pass = pass;
    e.iteration = static_cast<uint8_t>(iteration);
    e.a = motion;
    e.c = from;
    e.flag = hit;
    if (hit) {
        e.s = h.distance;
        e.shape = h.shape;
        e.b = h.normal;
    }
    t.emit(e);
}

inline void plane_added(const Tracer& t, Pass pass, int iteration, const Vec3& normal,
                        geo::ShapeId shape, int planes) {
    if (!t.wants(TraceKind::kPlaneAdded)) return;
    TraceEvent e;
    e.kind = TraceKind::kPlaneAdded;
    e.pass = pass;
    e.iteration = static_cast<uint8_t>(iteration);
    e.a = normal;
    e.shape = shape;
    e.count = static_cast<uint32_t>(planes);
    t.emit(e);
}

inline void iteration_cap(const Tracer& t, Pass pass, int iteration, const Vec3& dropped) {
    if (!t.wants(TraceKind::kIterationCap)) return;
    TraceEvent e;
    e.kind = TraceKind::kIterationCap;
    e.pass = pass;
    e.iteration = static_cast<uint8_t>(iteration);
    e.a = dropped;
    t.emit(e);
}

/// a = the solver's motion, before the edge-climb rescale collide_and_slide may apply to it.
inline void plane_solve(const Tracer& t, Pass pass, int iteration, const PlaneSolve& ps) {
    if (!t.wants(TraceKind::kPlaneSolve)) return;
    TraceEvent e;
    e.kind = TraceKind::kPlaneSolve;
    e.pass = pass;
    e.iteration = static_cast<uint8_t>(iteration);
    e.reason = static_cast<uint8_t>(ps.kind);
    e.count = ps.candidates;
    e.a = ps.motion;
    t.emit(e);
}

inline void step_attempt(const Tracer& t, const StepAttempt& a, const Vec3& motion,
                         const Vec3& feet) {
    if (!t.wants(TraceKind::kStepAttempt)) return;
    TraceEvent e;
    e.kind = TraceKind::kStepAttempt;
    e.pass = Pass::kStep;
    e.reason = static_cast<uint8_t>(a.result);
    e.a = motion;
    e.b = a.position;
    e.s = a.rise;
    e.c = feet;
    e.flag = a.result == StepResult::kAccepted;
    t.emit(e);
}

inline void snap(const Tracer& t, const Snap& s, const Vec3& feet) {
    if (!t.wants(TraceKind::kSnap)) return;
    TraceEvent e;
    e.kind = TraceKind::kSnap;
    e.flag = s.landed;
    e.s = s.drop;
    e.shape = s.ground.shape;
    e.a = s.ground.normal;
    e.c = feet;
    t.emit(e);
}

inline void landed(const Tracer& t, const Ground& g) {
    if (!t.wants(TraceKind::kLanded)) return;
    TraceEvent e;
    e.kind = TraceKind::kLanded;
    e.shape = g.shape;
    e.a = g.normal;
    t.emit(e);
}

inline void tick_end(const Tracer& t, const CharacterState& s) {
    if (!t.wants(TraceKind::kTickEnd)) return;
    TraceEvent e;
    e.kind = TraceKind::kTickEnd;
    e.a = s.position;
    e.b = s.velocity;
    e.flag = s.grounded;
    t.emit(e);
}

} // namespace fx::kcc::trace

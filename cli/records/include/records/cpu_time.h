// The processor time a command has used, for reports of long runs (fxkcc swarm counts its
// core-hours by it: on a shared machine the wall time says little about the work done).
#pragma once

#include <cstdint>

namespace fx::harness {

/// User plus system time of this process so far, in milliseconds: every thread of it, and on
/// POSIX also the children it has waited for (getrusage: RUSAGE_SELF and RUSAGE_CHILDREN; a
/// swarm's sides are such children). Windows: the process's own threads (GetProcessTimes).
/// -1 when the system does not say, and under node (emscripten's getrusage answers zeros).
int64_t process_cpu_ms();

} // namespace fx::harness

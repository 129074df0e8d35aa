#include "records/cpu_time.h"

#ifdef _WIN32
#include "windows_api.h"
#else
#include <sys/resource.h>
#endif

namespace fx::harness {

int64_t process_cpu_ms() {
#if defined(__EMSCRIPTEN__)
    return -1; // emscripten's getrusage answers zeros: not known
#elif defined(_WIN32)
    FILETIME created, ended, kernel, user;
    if (GetProcessTimes(GetCurrentProcess(), &created, &ended, &kernel, &user) == 0) return -1;
    const auto ms = [](const FILETIME& t) { // 100 ns units
        return static_cast<int64_t>(
            ((static_cast<uint64_t>(t.dwHighDateTime) << 32) | t.dwLowDateTime) / 10000);
    };
    return ms(kernel) + ms(user);
#else
    int64_t us = 0;
    for (const int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
        rusage u{};
        if (getrusage(who, &u) != 0) return -1;
        us += (static_cast<int64_t>(u.ru_utime.tv_sec) + u.ru_stime.tv_sec) * 1000000 +
              u.ru_utime.tv_usec + u.ru_stime.tv_usec;
    }
    return us / 1000;
#endif
}

} // namespace fx::harness

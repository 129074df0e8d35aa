#include "records/build_info.h"

#include "fx/overflow.h"
#include "fx/wide.h"
#include "kcc/state_bytes.h"

#ifndef FX_BUILD_FLAGS
#define FX_BUILD_FLAGS "unknown"
#endif

namespace fx::harness {
namespace {

const char* arch() {
#if defined(__x86_64__) || defined(_M_X64)
    return "x86_64";
#elif defined(__aarch64__) || defined(_M_ARM64)
    return "aarch64";
#elif defined(__wasm32__)
    return "wasm32";
#elif defined(__i386__) || defined(_M_IX86)
    return "i686";
#elif defined(__s390x__)
    return "s390x";
#elif defined(__arm__)
    return "arm";
#else
    return "unknown";
#endif
}

const char* os() {
#if defined(__EMSCRIPTEN__)
    return "emscripten";
#elif defined(_WIN32)
    return "windows";
#elif defined(__APPLE__)
    return "macos";
#elif defined(__linux__)
    return "linux";
#else
    return "unknown";
#endif
}

std::string compiler() {
#if defined(__clang__)
    return "clang-" + std::to_string(__clang_major__) + "." + std::to_string(__clang_minor__) +
           "." + std::to_string(__clang_patchlevel__);
#elif defined(__GNUC__)
    return "gcc-" + std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + "." +
           std::to_string(__GNUC_PATCHLEVEL__);
#elif defined(_MSC_VER)
    return "msvc-" + std::to_string(_MSC_VER);
#else
    return "unknown";
#endif
}

BuildInfo& mutable_build_info() {
    static BuildInfo info{std::string(arch()) + "-" + os(), compiler(), FX_BUILD_FLAGS,
                          wide::default_backend_name(), FX_CHECKED != 0};
    return info;
}

} // namespace

const BuildInfo& build_info() {
    return mutable_build_info();
}

void set_source_info(const char* commit, bool dirty) {
    mutable_build_info().commit = commit;
    mutable_build_info().dirty = dirty;
}

std::string version_text() {
    const BuildInfo& b = build_info();
    return std::string(kEngine) + " (behaviour " + std::to_string(kBehaviourVersion) + ")\n" +
           "source:   " + b.commit +
           (b.dirty ? " (dirty: tracked files differ from this commit)" : "") + "\n" +
           "target:   " + b.target + "\n" + "compiler: " + b.compiler + "\n" +
           "flags:    " + b.flags + "\n" + "numeric:  Q31.32 fixed point, 128-bit path " + b.wide +
           (b.checked ? ", checked" : "") + "\n" + "hash:     xxh3-64 of state-bytes " +
           std::to_string(kcc::kStateBytesVersion) + "\n";
}

} // namespace fx::harness

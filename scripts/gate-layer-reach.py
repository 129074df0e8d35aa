#!/usr/bin/env python3
"""Gate: what the deterministic layers (core/, geometry/) may reach. The other gates look at the
layers' own code; this one keeps everything else out of it, so that nothing they do not read can
feed the simulation:
  - files: only CMakeLists.txt, .h and .cpp (a .inc, .ipp or .inl file is code the compilers read
    and the token gates were not written for), and no folder named test* or bench* (tests and
    benchmarks live in tests/ and bench/, which the gates leave out);
  - includes: a quoted one names a file of the layers (never a project header outside them: a
    helper there could read a clock and hand the layer an int64_t); an angled one, a standard
    header of the list below (not <complex>, whose abs is a square root of doubles, nor
    <execution>, <filesystem>, <typeindex>, <unistd.h>, ...), the recorder's and the overflow
    report's file headers in those files alone;
  - the environment and the machine: getenv, secure_getenv, sysconf, thread_local, typeid's
    hash_code and std::type_index (their values are the implementation's), std::shuffle,
    std::sample and random_shuffle (each library draws its own permutation from a generator),
    execution policies, the filesystem's clock;
  - preprocessor branches on the platform or the compiler (_WIN32, __GNUC__, __x86_64__, ...)
    only in the files that hold one today: the clang gate parses the host's, wasm32's and
    AArch64's branches, not Windows', i686's or GCC-only ones, so a new branch elsewhere could
    hide anything from it;
  - inline assembly only in fx/wide.h, and only the statements listed (x86-64's 128/64 division).
Comments, strings and character literals do not count (scripts/strip-comments.py).

    scripts/gate-layer-reach.py [ROOT]        exit 0 clean, 1 naming each violation
    scripts/gate-layer-reach.py --self-test   violations planted the ways a contributor might
                                              write them must each fail it; the tree must pass
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LAYERS = ("core", "geometry")
STANDARD = {"algorithm", "array", "bit", "cassert", "cstddef", "cstdint", "climits", "compare",
            "concepts", "cstring", "charconv", "initializer_list", "iterator", "limits", "map",
            "memory", "numeric", "optional", "span", "stdexcept", "string", "string_view", "tuple",
            "type_traits", "utility", "vector"}
# File headers of the code that writes files or reports a fault, not the simulation's.
PER_FILE = {
    "core/controller/src/recorder_write.cpp": {"cstdio", "fcntl.h", "io.h", "sys/stat.h"},
    "core/controller/src/recorder.cpp": {"cstdio"},
    "core/math/src/overflow.cpp": {"cstdio", "cstdlib"},
}
PLATFORM_MACRO = re.compile(
    r"\b(_WIN32|_WIN64|_MSC_VER|__MINGW32__|__MINGW64__|__CYGWIN__|__GNUC__|__clang__|__INTEL_COMPILER"
    r"|__x86_64__|__amd64__|__i386__|_M_X64|_M_IX86|__aarch64__|__arm__|_M_ARM64|__s390x__|__s390__"
    r"|__powerpc\w*__|__riscv|__wasm\w*__|__EMSCRIPTEN__|__APPLE__|__linux__|__unix__|__FreeBSD__"
    r"|__ANDROID__|__BYTE_ORDER__|__SIZEOF_INT128__|__SSE\w*__|__AVX\w*__|__ARM_NEON\w*|__FMA__)\b")
BRANCHING_FILES = {"core/math/include/fx/wide.h", "core/math/include/fx/scalar.h",
                   "geometry/include/geo/queries.h", "core/controller/src/recorder_write.cpp"}
ASM = re.compile(r"\b(asm|__asm__|__asm)\b")
ASM_FILE = "core/math/include/fx/wide.h"
ASM_ALLOWED = {'"divq %4"'}
REFUSED = re.compile(
    r"\b(getenv|secure_getenv|sysconf|thread_local|_Thread_local|hash_code|type_index|random_shuffle"
    r"|file_clock|__file_clock|file_time_type)\b|\b(std|ranges)::(shuffle|sample)\b|\bexecution::")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def stripped(path):
    """The file's code lines, comments and literals blanked: {line number: text} (blank lines
    left out)."""
    out = subprocess.run([sys.executable, os.path.join(HERE, "strip-comments.py"), path],
                         capture_output=True, text=True, check=True).stdout
    lines = {}
    for line in out.split("\n"):
        m = re.match(r"^:(\d+):(.*)$", line[len(path):]) if line.startswith(path) else None
        if m:
            lines[int(m.group(1))] = m.group(2)
    return lines


def include_dirs(root):
    dirs = []
    for layer in LAYERS:
        for dirpath, dirnames, _ in os.walk(os.path.join(root, layer)):
            dirnames.sort()
            if os.path.basename(dirpath) == "include":
                dirs.append(dirpath)
    return dirs


def check(root):
    root = os.path.realpath(root)
    findings = []
    layer_roots = [os.path.join(root, layer) + os.sep for layer in LAYERS]
    inc_dirs = include_dirs(root)
    files = []
    for layer in LAYERS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, layer)):
            dirnames.sort()
            for d in dirnames:
                if d.lower().startswith(("test", "bench")):
                    rel = os.path.relpath(os.path.join(dirpath, d), root)
                    findings.append(f"{rel}/: a folder of tests or benchmarks inside a deterministic "
                                    f"layer, where the gates do not look (they go in tests/ or bench/)")
            dirnames[:] = [d for d in dirnames if not d.lower().startswith(("test", "bench"))]
            files += [os.path.join(dirpath, f) for f in sorted(filenames)]
    for path in files:
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        name = os.path.basename(path)
        if name == "CMakeLists.txt":
            continue
        if not name.endswith((".h", ".cpp")):
            findings.append(f"{rel}: a file of the layers that is neither .h nor .cpp (the gates "
                            f"read those; code belongs in them)")
            continue
        raw = open(path, encoding="utf-8", errors="replace").read().split("\n")
        code = stripped(path)
        for no, line in enumerate(raw, 1):
            m = INCLUDE.match(line)
            if m:
                kind, target = m.groups()
                if kind == "<" and target not in STANDARD and target not in PER_FILE.get(rel, set()):
                    findings.append(f"{rel}:{no}: #include <{target}>: not a header the layers may use "
                                    f"(scripts/gate-layer-reach.py lists them)")
                elif kind == '"':
                    found = [os.path.realpath(os.path.join(d, target))
                             for d in [os.path.dirname(path)] + inc_dirs
                             if os.path.isfile(os.path.join(d, target))]
                    if not found or not any(f.startswith(r) for f in found[:1] for r in layer_roots):
                        findings.append(f'{rel}:{no}: #include "{target}": not a file of the layers '
                                        f"(core/, geometry/)")
        for no, line in sorted(code.items()):
            if re.match(r"^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef)\b", line) and \
                    PLATFORM_MACRO.search(raw[no - 1] if no - 1 < len(raw) else line) and \
                    rel not in BRANCHING_FILES:
                findings.append(f"{rel}:{no}: a preprocessor branch on the platform or the compiler, "
                                f"outside the files the clang gate parses each branch of")
            m = REFUSED.search(line)
            if m:
                findings.append(f"{rel}:{no}: '{m.group(0)}': the environment, the machine or the "
                                f"library's own choice feeding a deterministic layer")
            if ASM.search(line):
                text = raw[no - 1]
                strings = re.findall(r'"(?:[^"\\]|\\.)*"', text)
                if rel != ASM_FILE or not strings or strings[0] not in ASM_ALLOWED:
                    findings.append(f"{rel}:{no}: inline assembly other than wide.h's 128/64 division")
    if findings:
        print("gate-layer-reach: the deterministic layers reach what they may not:")
        for f in findings:
            print(f"  {f}")
        return 1
    print(f"gate-layer-reach: {len(files)} files of core/ and geometry/ include only the layers' own "
          f"headers and the listed standard ones; no environment, thread-local, library shuffle, "
          f"new platform branch or inline assembly")
    return 0


PLANTS = [
    ("the environment read", "core/controller/src/world.cpp",
     '\nnamespace fx::kcc { int substeps() { return std::getenv("FXKCC_SUBSTEPS") != nullptr; } }\n'),
    ("the number of cores", "core/controller/src/world.cpp",
     "\n#include <unistd.h>\nnamespace fx::kcc { long cores() { return sysconf(_SC_NPROCESSORS_ONLN); } }\n"),
    ("a clock behind a helper header outside the layers", "core/controller/src/world.cpp",
     '\n#include "../../../common/budget.h"\n'),
    ("std::shuffle with a home-made generator", "geometry/src/bvh.cpp",
     "\nnamespace fx::geo { template <class V, class G> void mix(V& v, G& g) { std::shuffle(v.begin(), v.end(), g); } }\n"),
    ("std::ranges::sample", "geometry/src/bvh.cpp",
     "\nnamespace fx::geo { template <class V, class O, class G> void pick(V& v, O o, G& g) { std::ranges::sample(v, o, 2, g); } }\n"),
    ("a thread-local value", "core/controller/src/world.cpp",
     "\nnamespace fx::kcc { thread_local int64_t carried = 0; }\n"),
    ("a type's hash code", "core/controller/src/world.cpp",
     "\n#include <typeinfo>\nnamespace fx::kcc { size_t h(int v) { return typeid(v).hash_code(); } }\n"),
    ("<complex>'s square root", "core/math/include/fx/vec3.h",
     "\n#include <complex>\n"),
    ("an execution policy", "geometry/src/bvh.cpp",
     "\n#include <execution>\nnamespace fx::geo { template <class V> void s(V& v) { std::sort(std::execution::par, v.begin(), v.end()); } }\n"),
    ("the filesystem's clock", "core/controller/src/world.cpp",
     "\nnamespace fx::kcc { auto t() { return std::filesystem::file_time_type::clock::now(); } }\n"),
    ("a .inc file", "core/controller/src/names.inc", "constexpr int kX = 1;\n"),
    ("a tests folder in a layer", "geometry/src/tests/overlap.cpp", "int x;\n"),
    ("a Windows branch in another file", "core/controller/src/world.cpp",
     "\n#if defined(_WIN32)\nnamespace fx::kcc { int w() { return 1; } }\n#endif\n"),
    ("a GCC-only branch", "geometry/src/bvh.cpp",
     "\n#if !defined(__clang__)\nnamespace fx::geo { int g() { return 1; } }\n#endif\n"),
    ("inline assembly outside wide.h", "core/math/src/vec3.cpp",
     '\nnamespace fx { inline unsigned long long tsc() { unsigned lo, hi; __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi)); return lo; } }\n'),
    ("other assembly in wide.h", "core/math/include/fx/wide.h",
     '\ninline void fx_planted_sqrt(double* x) { asm("sqrtsd %0, %0" : "+x"(*x)); }\n'),
]


def self_test():
    repo = os.path.realpath(os.path.join(HERE, ".."))
    fails = 0
    with tempfile.TemporaryDirectory() as tmp:
        for layer in LAYERS:
            shutil.copytree(os.path.join(repo, layer), os.path.join(tmp, layer))
        shutil.copy(os.path.join(HERE, "strip-comments.py"), tmp)
        if check(tmp) != 0:
            print("self-test: the tree itself fails the gate", file=sys.stderr)
            return 1
        os.makedirs(os.path.join(tmp, "common"), exist_ok=True)
        with open(os.path.join(tmp, "common", "budget.h"), "w") as f:
            f.write("#pragma once\n#include <chrono>\ninline long elapsed() { return 0; }\n")
        for name, rel, code in PLANTS:
            path = os.path.join(tmp, rel)
            before = open(path).read() if os.path.exists(path) else None
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "a") as f:
                f.write(code)
            caught = check(tmp) != 0
            if before is None:
                os.remove(path)
                d = os.path.dirname(path)
                if not os.listdir(d):
                    os.rmdir(d)
            else:
                with open(path, "w") as f:
                    f.write(before)
            print(f"self-test: {'caught' if caught else 'NOT caught'}: {name}")
            fails += 0 if caught else 1
    if fails:
        return 1
    print("self-test: every planted violation failed the gate; the tree passed")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(check(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..")))

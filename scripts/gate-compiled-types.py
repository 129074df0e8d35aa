#!/usr/bin/python3
"""Gate: the deterministic layers (core/, geometry/) as the compiler reads them hold no floating
point, no platform hashing, and nothing else whose value differs from run to run or machine to
machine: no threads, clocks or random sources, no address used as a number or an order. Where
scripts/gate-no-float.sh looks for tokens, this gate asks
clang (libclang, Debian's python3-clang-14) for the type of every declaration and expression:
a `sqrt(v)` reached through a using-declaration, `std::atof`, a default template argument
(`std::uniform_real_distribution<>`), a macro from a system header or an alias that hides
`double` have a floating type whatever their tokens say.

What is parsed, each translation unit with every diagnostic of error severity fatal:
  - every source of core/ and geometry/ (tests and benchmarks aside);
  - one unit including every header of core/ and geometry/ (so every inline function, called or
    not, every template and every uninstantiated branch of `if constexpr` is read), under the
    host's configuration and each one whose preprocessor branches differ: the portable 128-bit
    path (FX_STANDARD_CPP_ONLY, FX_FORCE_PORTABLE_WIDE), checked arithmetic (FX_CHECKED), the
    wasm32 branches (__wasm__), and AArch64 (a real --target=aarch64-linux-gnu parse with the
    cross compiler's headers). That each header compiles alone is scripts/gate-standard-cpp.sh's.
What is refused, in code located in core/ or geometry/ (after macro expansion):
  - a declaration or expression whose type, as clang spells it canonically, names float,
    double, long double, _FloatN, __fp16, __bf16, __float128, __ibm128 or _DecimalN;
  - a floating literal;
  - a type naming std::hash or an unordered container (their order is the platform's);
  - an #include of <cmath>, <math.h>, <cfloat>, <float.h> or <stdfloat>;
  - threads, clocks and random sources: an #include of <thread>, <future>, <mutex>, <atomic>,
    <chrono>, <ctime>, <random> and their kin, a type naming std::thread, std::atomic, a mutex,
    a std::chrono clock, std::random_device or a distribution (their results are the standard
    library's own), a call of time, clock, rand, getpid and their kin or of a cycle counter;
  - addresses: a pointer cast to an integer (reinterpret_cast, a C-style or functional cast,
    std::bit_cast), two pointers compared for order (<, >, <=, >=, <=>), a comparator or ordered
    container over pointers (std::less<T *>, std::map<T *, V>), pointers sorted or searched by
    address (std::sort or std::ranges::sort of pointers without a comparator, with the standard's
    std::less<> or std::ranges::less, or with a lambda comparing its own parameters, generic ones
    too), a pointer's bytes copied or compared (memcpy(&n, &p, ...)): where objects happen to
    lie in memory is not the same on two machines, nor in two runs.

    scripts/gate-compiled-types.py [ROOT]       exit 0 clean, 1 naming each violation, 2 usage,
                                                125 libclang or a compiler missing
    scripts/gate-compiled-types.py --self-test  violations planted where the token gate and the
                                                -mgeneral-regs-only compile do not look must each
                                                fail it; a clean tree must pass
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import clang.cindex as ci
except ImportError:
    print("gate-compiled-types: libclang's Python bindings are missing "
          "(scripts/setup.sh installs python3-clang-14; run with /usr/bin/python3)", file=sys.stderr)
    sys.exit(125)

LAYERS = ("core", "geometry")
FLOAT_TYPE = re.compile(r"\b(float|double|_Float\d+x?|__fp16|__bf16|__float128|__ibm128|_Decimal\d+)\b")
HASHING = re.compile(r"\bstd::(hash|unordered_(map|set|multimap|multiset))\b|\bstd::__detail::_Hash")
MATH_HEADERS = {"cmath", "math.h", "cfloat", "float.h", "stdfloat"}
# Threads, clocks and random sources: their headers, types and functions.
VARYING_HEADERS = {"thread", "future", "mutex", "shared_mutex", "condition_variable", "stop_token",
                   "semaphore", "latch", "barrier", "atomic", "stdatomic.h", "pthread.h", "threads.h",
                   "chrono", "ctime", "time.h", "sys/time.h", "sys/times.h", "random", "x86intrin.h",
                   "immintrin.h", "ia32intrin.h"}
VARYING_TYPE = re.compile(
    r"\bstd::(thread|jthread|future|shared_future|promise|packaged_task|atomic|atomic_ref|atomic_flag"
    r"|mutex|recursive_mutex|timed_mutex|shared_mutex|condition_variable|random_device)\b"
    r"|\bstd::chrono::(_V2::)?(system_clock|steady_clock|high_resolution_clock|file_clock|utc_clock)\b"
    r"|\bstd::\w+_distribution<|\bpthread_\w+_t\b|\bstd::__atomic_base\b")
VARYING_CALLS = {"time", "clock", "gettimeofday", "clock_gettime", "timespec_get", "ftime", "times",
                 "rand", "srand", "rand_r", "random", "srandom", "drand48", "erand48", "lrand48",
                 "nrand48", "mrand48", "jrand48", "arc4random", "arc4random_uniform", "getrandom",
                 "getentropy", "getpid", "gettid", "pthread_self", "__rdtsc", "__rdtscp", "_rdtsc",
                 "__builtin_readcyclecounter", "__builtin_ia32_rdtsc", "__builtin_ia32_rdtscp"}
# Pointers ordered by address: a comparator over pointers (std::set<T *> and std::map<T *, V>
# spell theirs), or a pointer-to-pointer iterator sorted or searched without a comparator.
POINTER_ORDER = re.compile(r"\bstd::(less|greater|less_equal|greater_equal|compare_three_way)<[^<>]*\*\s*>")
ORDERED = {"set": 1, "multiset": 1, "map": 2, "multimap": 2}  # the comparator's place
SORTS = {"sort", "stable_sort", "partial_sort", "nth_element", "min_element", "max_element",
         "minmax_element", "is_sorted", "is_sorted_until"}
# The same algorithms of std::ranges (function objects: a call of __sort_fn::operator()), with the
# searches and extremes that order too.
RANGES_ORDERING = SORTS | {"lower_bound", "upper_bound", "equal_range", "binary_search", "min",
                           "max", "minmax", "partial_sort_copy", "merge", "inplace_merge"}
# Comparators that compare what they are given as the standard compares it: of pointers, by address.
STANDARD_ORDER = re.compile(r"^std::(ranges::)?(less|greater|less_equal|greater_equal|compare_three_way)"
                            r"(<(void)?>)?$")
# Byte copies and comparisons: of a pointer's own bytes, its address as a number.
BYTE_CALLS = {"memcpy", "memmove", "memcmp", "bcmp", "__builtin_memcpy", "__builtin_memmove",
              "__builtin_memcmp", "__builtin_bcmp", "__builtin_memcpy_inline"}
RELATIONAL = ("<", ">", "<=", ">=", "<=>")
INTEGER_KINDS = {ci.TypeKind.BOOL, ci.TypeKind.CHAR_U, ci.TypeKind.UCHAR, ci.TypeKind.CHAR16,
                 ci.TypeKind.CHAR32, ci.TypeKind.USHORT, ci.TypeKind.UINT, ci.TypeKind.ULONG,
                 ci.TypeKind.ULONGLONG, ci.TypeKind.UINT128, ci.TypeKind.CHAR_S, ci.TypeKind.SCHAR,
                 ci.TypeKind.WCHAR, ci.TypeKind.SHORT, ci.TypeKind.INT, ci.TypeKind.LONG,
                 ci.TypeKind.LONGLONG, ci.TypeKind.INT128, ci.TypeKind.ENUM}
POINTER_KINDS = {ci.TypeKind.POINTER, ci.TypeKind.MEMBERPOINTER, ci.TypeKind.NULLPTR,
                 ci.TypeKind.BLOCKPOINTER, ci.TypeKind.OBJCOBJECTPOINTER}
CASTS = {ci.CursorKind.CSTYLE_CAST_EXPR, ci.CursorKind.CXX_REINTERPRET_CAST_EXPR,
         ci.CursorKind.CXX_FUNCTIONAL_CAST_EXPR, ci.CursorKind.CXX_STATIC_CAST_EXPR}
CONFIGS = [
    ("the host's", []),
    ("FX_STANDARD_CPP_ONLY (portable 128-bit path)", ["-DFX_STANDARD_CPP_ONLY"]),
    ("FX_FORCE_PORTABLE_WIDE", ["-DFX_FORCE_PORTABLE_WIDE"]),
    ("FX_CHECKED (checked arithmetic)", ["-DFX_CHECKED"]),
    ("__wasm__ (the wasm32 branches)", ["-D__wasm__", "-D__wasm32__"]),
    ("aarch64-linux-gnu", ["--target=aarch64-linux-gnu"]),
]


def layer_files(root, pattern):
    out = []
    for layer in LAYERS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, layer)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(("test", "bench")))
            for name in sorted(filenames):
                if re.search(pattern, name):
                    out.append(os.path.join(dirpath, name))
    return out


def include_dirs(root):
    dirs = []
    for layer in LAYERS:
        base = os.path.join(root, layer)
        for dirpath, dirnames, _ in os.walk(base):
            dirnames.sort()
            if os.path.basename(dirpath) == "include":
                dirs.append(dirpath)
                dirnames[:] = []
    return dirs


def template_args(text, at):
    """The top-level template arguments of the name whose '<' is at text[at]."""
    args, depth, start = [], 0, at + 1
    for i in range(at, len(text)):
        c = text[i]
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth -= 1
            if depth == 0:
                args.append(text[start:i].strip())
                return args
        elif c == "," and depth == 1:
            args.append(text[start:i].strip())
            start = i + 1
    return args


def keyed_by_address(spelled):
    """An ordered container whose keys are pointers, compared as the standard compares them (no
    comparator given, or std::less and its kin of the pointer): clang's spelling leaves out the
    default arguments, so std::set<T *> shows no std::less."""
    for m in re.finditer(r"\bstd::(?:__\w+::)?(multiset|set|multimap|map)<", spelled):
        args = template_args(spelled, m.end() - 1)
        place = ORDERED[m.group(1)]
        # A key that is or holds a pointer (std::pair<const T *, int> compares its pointer too),
        # with no comparator, the pointer's own, or a transparent one (clang 14 spells
        # std::less<void> as std::less<>).
        if args and "*" in args[0] and (len(args) <= place or POINTER_ORDER.match(args[place])
                                       or re.match(r"std::(less|greater)<(void)?>$", args[place])):
            return True
    return False


class Gate:
    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.index = ci.Index.create()
        self.findings = []
        self.seen = set()
        self.units = 0

    def ours(self, path):
        path = os.path.realpath(path)
        return any(path.startswith(os.path.join(self.root, layer) + os.sep) for layer in LAYERS)

    def rel(self, path):
        return os.path.relpath(os.path.realpath(path), self.root)

    def report(self, cursor, what):
        loc = cursor.location
        # The first finding of each kind on a line names it.
        key = (self.rel(loc.file.name), loc.line, re.split(r" '|:", what)[0])
        if key not in self.seen:
            self.seen.add(key)
            self.findings.append(f"{key[0]}:{loc.line}:{loc.column}: {what}")

    def check_type(self, cursor, t, role):
        if t is None or t.kind == ci.TypeKind.INVALID:
            return
        spelled = t.get_canonical().spelling
        if FLOAT_TYPE.search(spelled):
            self.report(cursor, f"floating type '{spelled}' ({role}, {cursor.kind.name.lower()})")
        elif HASHING.search(spelled):
            self.report(cursor, f"platform hashing '{spelled}' ({role}, {cursor.kind.name.lower()})")
        elif VARYING_TYPE.search(spelled):
            self.report(cursor, f"a thread, clock or random source '{spelled}' ({role}, "
                                f"{cursor.kind.name.lower()})")
        elif POINTER_ORDER.search(spelled) or keyed_by_address(spelled):
            self.report(cursor, f"pointers ordered by address '{spelled}' ({role}, "
                                f"{cursor.kind.name.lower()})")

    @staticmethod
    def kind_of(t):
        return t.get_canonical().kind if t is not None else ci.TypeKind.INVALID

    def operands(self, cursor):
        """The expressions a cast or an operator applies to (type references left out)."""
        return [c for c in cursor.get_children()
                if c.kind not in (ci.CursorKind.TYPE_REF, ci.CursorKind.TEMPLATE_REF,
                                  ci.CursorKind.NAMESPACE_REF)]

    def ours_decl(self, cursor):
        ref = cursor.referenced
        return ref is not None and ref.location.file is not None and self.ours(ref.location.file.name)

    @staticmethod
    def unwrapped(cursor):
        """The expression under implicit conversions and parentheses."""
        while cursor.kind in (ci.CursorKind.UNEXPOSED_EXPR, ci.CursorKind.PAREN_EXPR):
            inner = [c for c in cursor.get_children()]
            if len(inner) != 1:
                break
            cursor = inner[0]
        return cursor

    def of_pointers(self, spelled):
        """A canonical type spelling of an iterator over pointers (T **) or a range of them
        (std::vector<T *>, std::span<T *, N>; not __normal_iterator<int *, ...>, over ints)."""
        return re.search(r"\*\s*(const\s*)?\*|<[^<>]*\*\s*(const\s*)?(>|,\s*\d)", spelled) is not None

    def compares_its_parameters(self, lam):
        """A lambda that orders its own parameters with a relational operator (a generic one's
        parameters have no type to judge until it is called: clang leaves them dependent)."""
        params = {c.get_usr() or c.hash for c in lam.get_children() if c.kind == ci.CursorKind.PARM_DECL}

        def walk(c):
            if c.kind == ci.CursorKind.BINARY_OPERATOR:
                ops = self.operands(c)
                if len(ops) == 2:
                    refs = [self.unwrapped(o) for o in ops]
                    if all(r.kind == ci.CursorKind.DECL_REF_EXPR and r.referenced is not None and
                           (r.referenced.get_usr() or r.referenced.hash) in params for r in refs):
                        between = [t.spelling for t in c.get_tokens()
                                   if t.extent.start.offset >= ops[0].extent.end.offset
                                   and t.extent.end.offset <= ops[1].extent.start.offset]
                        if any(op in RELATIONAL for op in between):
                            return True
            return any(walk(ch) for ch in c.get_children())
        return walk(lam)

    def check_ordering_call(self, cursor, name, args, signature):
        """A sort or search of pointers ordered by address: with no comparator, the standard's
        own (std::less<>, std::ranges::less), or a lambda comparing its parameters themselves."""
        if not any(self.of_pointers(a.type.get_canonical().spelling) for a in args[:2]):
            return
        lambdas = [self.unwrapped(a) for a in args if self.unwrapped(a).kind == ci.CursorKind.LAMBDA_EXPR]
        if any(self.compares_its_parameters(lam) for lam in lambdas):
            self.report(cursor, f"pointers ordered by address: {name} with a comparator that "
                                "compares its parameters' addresses")
            return
        comparators = [a.type.get_canonical().spelling for a in args[1:]]
        if signature is not None:  # std::ranges: the comparator and projection as instantiated
            params = template_args("<" + signature.split("(", 1)[-1].rsplit(")", 1)[0] + ">", 0)
            if "std::identity" in params and any(STANDARD_ORDER.match(p) for p in params):
                self.report(cursor, f"pointers ordered by address: {name} of pointers with the "
                                    "standard's comparison and no projection")
        elif any(STANDARD_ORDER.match(c) for c in comparators):
            self.report(cursor, f"pointers ordered by address: {name} of pointers with the "
                                "standard's comparison")

    def check_expression(self, cursor):
        kind = cursor.kind
        if kind in CASTS:
            ops = self.operands(cursor)
            if ops and self.kind_of(cursor.type) in INTEGER_KINDS and \
                    self.kind_of(ops[-1].type) in POINTER_KINDS:
                self.report(cursor, f"an address as a number: '{ops[-1].type.spelling}' cast to "
                                    f"'{cursor.type.spelling}'")
        elif kind == ci.CursorKind.BINARY_OPERATOR:
            ops = self.operands(cursor)
            if len(ops) == 2 and all(self.kind_of(o.type) in POINTER_KINDS for o in ops):
                between = [t.spelling for t in cursor.get_tokens()
                           if t.extent.start.offset >= ops[0].extent.end.offset
                           and t.extent.end.offset <= ops[1].extent.start.offset]
                if any(op in ("<", ">", "<=", ">=", "<=>") for op in between):
                    self.report(cursor, "two addresses compared for order")
        elif kind == ci.CursorKind.CALL_EXPR and (cursor.spelling.startswith("__")
                                                  or not self.ours_decl(cursor)):
            # (A builtin's implicit declaration lies where it is first called: in our file.)
            name = cursor.spelling
            args = list(cursor.get_arguments())
            if name in VARYING_CALLS:
                self.report(cursor, f"a call of {name}: a clock, a random source or the process's id")
            elif name == "bit_cast" and args and self.kind_of(args[0].type) in POINTER_KINDS:
                self.report(cursor, f"an address as a number: std::bit_cast of '{args[0].type.spelling}'")
            elif name in SORTS and len(args) >= 2 and \
                    args[-1].type.get_canonical().spelling == args[0].type.get_canonical().spelling and \
                    re.search(r"\*\s*\*", args[0].type.get_canonical().spelling):
                self.report(cursor, f"pointers ordered by address: std::{name} of "
                                    f"'{args[0].type.get_canonical().spelling}' without a comparator")
            elif name in SORTS:
                self.check_ordering_call(cursor, f"std::{name}", args, None)
            elif name == "operator()" and cursor.referenced is not None and \
                    cursor.referenced.semantic_parent is not None and \
                    re.fullmatch(r"__(\w+)_fn", cursor.referenced.semantic_parent.spelling or "") and \
                    cursor.referenced.semantic_parent.spelling[2:-3] in RANGES_ORDERING:
                algorithm = cursor.referenced.semantic_parent.spelling[2:-3]
                self.check_ordering_call(cursor, f"std::ranges::{algorithm}", args,
                                         cursor.referenced.type.get_canonical().spelling)
            elif name in BYTE_CALLS:
                for a in args[:2]:
                    t = self.unwrapped(a).type.get_canonical()
                    if t.kind == ci.TypeKind.POINTER and \
                            t.get_pointee().get_canonical().kind in POINTER_KINDS:
                        self.report(cursor, f"an address as a number: {name} of a pointer's bytes "
                                            f"('{t.spelling}')")
                        break

    def walk(self, cursor):
        kind = cursor.kind
        if kind == ci.CursorKind.FLOATING_LITERAL:
            self.report(cursor, "floating literal")
        elif kind == ci.CursorKind.INCLUSION_DIRECTIVE:
            if cursor.spelling in MATH_HEADERS:
                self.report(cursor, f"#include <{cursor.spelling}>")
            elif cursor.spelling in VARYING_HEADERS:
                self.report(cursor, f"#include <{cursor.spelling}>: threads, clocks or random sources")
        try:
            self.check_expression(cursor)
            self.check_type(cursor, cursor.type, "type")
            if kind in (ci.CursorKind.TYPEDEF_DECL, ci.CursorKind.TYPE_ALIAS_DECL):
                self.check_type(cursor, cursor.underlying_typedef_type, "aliased type")
        except ValueError:  # a cursor or type kind this libclang's Python enum does not know
            pass
        for child in cursor.get_children():
            self.walk(child)

    def parse(self, path, args, only=None, label=""):
        """Parses one unit and walks what lies in `only` (a file) or in any file of the layers."""
        opts = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD | ci.TranslationUnit.PARSE_INCOMPLETE
        try:
            tu = self.index.parse(path, args=args, options=opts)
        except ci.TranslationUnitLoadError as e:
            self.findings.append(f"{self.rel(path)}: clang could not parse it{label}: {e}")
            return
        self.units += 1
        for d in tu.diagnostics:
            if d.severity >= ci.Diagnostic.Error:
                where = f"{self.rel(d.location.file.name)}:{d.location.line}:{d.location.column}" \
                    if d.location.file else self.rel(path)
                self.findings.append(f"{where}: does not compile{label}: {d.spelling}")
        for top in tu.cursor.get_children():
            f = top.location.file
            if f is None:
                continue
            if only is not None and os.path.realpath(f.name) != only:
                continue
            if only is None and not self.ours(f.name):
                continue
            self.walk(top)

    def run(self):
        base = ["-x", "c++", "-std=c++20"] + [f"-I{d}" for d in include_dirs(self.root)]
        headers = layer_files(self.root, r"\.(h|hpp)$")
        sources = layer_files(self.root, r"\.(cpp|cc)$")
        with tempfile.TemporaryDirectory() as tmp:
            for s in sources:
                self.parse(s, base, only=os.path.realpath(s))
            unit = os.path.join(tmp, "all_headers.cpp")
            with open(unit, "w") as f:
                f.writelines(f'#include "{os.path.realpath(h)}"\n' for h in headers)
            for label, extra in CONFIGS:
                self.parse(unit, base + extra, label=f" ({label})")
        return headers, sources


def check(root):
    gate = Gate(root)
    headers, sources = gate.run()
    if gate.findings:
        print("gate-compiled-types: floating point, platform hashing, a thread, clock or random "
              "source, or an address used as a value in a deterministic layer, as clang reads it:")
        for line in gate.findings:
            print(f"  {line}")
        return 1
    print(f"gate-compiled-types: {len(sources)} sources, and {len(headers)} headers under "
          f"{len(CONFIGS)} configurations: no floating type or literal, no math "
          f"header, no platform hashing, no thread, clock or random source, no address used as a "
          f"number or an order ({gate.units} units parsed by clang)")
    return 0


CLEAN_HEADER = r"""#pragma once
#include <cstdint>
#include <vector>
// A comment may say double, 0.5 and std::sqrt(2): it is not code.
namespace fx::planted {
inline constexpr const char* kWhy = "double 0.5 std::hash";
inline int64_t twice(int64_t v) { return v * 2; }
template <class T> T half(T v) { return v / 2; }
struct Cell { std::vector<int64_t> items; };
} // namespace fx::planted
"""

# name | file (relative to the scratch tree) | code. Each is written so that the token gate
# (scripts/gate-no-float.sh) or the -mgeneral-regs-only compile of the sources misses it: through
# a using-declaration, a library function or a default template argument with no floating token,
# in a header function nothing calls, in a branch only another target's preprocessor takes.
PLANTS = [
    ("sqrt reached through a using-declaration, in a header nothing includes",
     "core/planted/include/fx/planted2.h",
     "#pragma once\n#include <cstdint>\n#include <complex>\nnamespace fx::planted {\n"
     "inline int64_t root(int64_t v) {\n    using std::sqrt;\n"
     "    return static_cast<int64_t>(sqrt(static_cast<int64_t>(v)));\n}\n}\n"),
    ("std::atof in a source", "geometry/src/planted.cpp",
     "#include <cstdlib>\n#include <cstdint>\nnamespace fx::planted {\n"
     "int64_t parse(const char* s) { return static_cast<int64_t>(std::atof(s)); }\n}\n"),
    ("a default template argument", "core/planted/include/fx/planted2.h",
     "#pragma once\n#include <random>\nnamespace fx::planted {\n"
     "inline int pick(std::mt19937& g) { std::uniform_real_distribution<> d; return d(g) > 0; }\n}\n"),
    ("a macro the compiler predefines", "core/planted/include/fx/planted2.h",
     "#pragma once\n#include <cstdint>\nnamespace fx::planted {\n"
     "inline bool tiny(int64_t v) { return v < __DBL_EPSILON__; }\n}\n"),
    ("a floating value in the wasm32 branch of a header", "core/planted/include/fx/planted2.h",
     "#pragma once\n#include <cstdint>\nnamespace fx::planted {\n#if defined(__wasm__)\n"
     "inline auto scale(int64_t v) { return v / std::int64_t{3} * (1 / 3.l); }\n#endif\n}\n"),
    ("in the portable path of a header", "core/planted/include/fx/planted2.h",
     "#pragma once\n#include <cstdint>\nnamespace fx::planted {\n#ifdef FX_STANDARD_CPP_ONLY\n"
     "template <class T> auto mean(T a, T b) { return (a + b) * .5e0; }\n#endif\n}\n"),
    ("in an AArch64 branch", "geometry/include/fx/planted3.h",
     "#pragma once\nnamespace fx::planted {\n#if defined(__aarch64__)\n"
     "using real = decltype(sizeof(int) * 1.f);\ninline real r;\n#endif\n}\n"),
    ("an unordered container behind an alias", "core/planted/include/fx/planted2.h",
     "#pragma once\n#include <unordered_map>\nnamespace fx::planted {\n"
     "template <class K, class V> using Table = std::unordered_map<K, V>;\ninline Table<int, int> table;\n}\n"),
    ("the math header, at global scope", "geometry/src/planted.cpp",
     "#include <cmath>\nint planted_abs(int v) { return v < 0 ? -v : v; }\n"),
    ("a lambda inside an uninstantiated member template", "core/planted/include/fx/planted2.h",
     "#pragma once\nnamespace fx::planted {\nstruct S {\n    template <class T> T f(T v) const {\n"
     "        auto g = [](T x) { return x / 2.0L; };\n        return static_cast<T>(g(v));\n    }\n};\n}\n"),
    ("std::rand through <cstdlib>", "geometry/src/planted.cpp",
     "#include <cstdlib>\nnamespace fx::planted {\nint noise() { return std::rand() % 3; }\n}\n"),
    ("a cycle counter, in a header function nothing calls", "core/planted/include/fx/planted2.h",
     "#pragma once\nnamespace fx::planted {\n"
     "inline unsigned long long stamp() { return __builtin_readcyclecounter(); }\n}\n"),
    ("an atomic flag reached through <memory>", "core/planted/include/fx/planted2.h",
     "#pragma once\n#include <memory>\nnamespace fx::planted {\ninline std::atomic_flag busy;\n}\n"),
    ("an address as a number through reinterpret_cast", "core/planted/include/fx/planted2.h",
     "#pragma once\n#include <cstdint>\nnamespace fx::planted {\n"
     "inline std::uint64_t key(const int* p) { return reinterpret_cast<std::uintptr_t>(p); }\n}\n"),
    ("an address as a number through a C-style cast of this", "core/planted/include/fx/planted2.h",
     "#pragma once\nnamespace fx::planted {\n"
     "struct S {\n    unsigned long long id() const { return (unsigned long long)this; }\n};\n}\n"),
    ("an address as a number through std::bit_cast", "geometry/src/planted.cpp",
     "#include <bit>\n#include <cstdint>\nnamespace fx::planted {\n"
     "std::uint64_t key(const int* p) { return std::bit_cast<std::uint64_t>(p); }\n}\n"),
    ("two addresses compared for order", "core/planted/include/fx/planted2.h",
     "#pragma once\nnamespace fx::planted {\nstruct S { int v; };\n"
     "inline bool before(const S* a, const S* b) { return a < b; }\n}\n"),
    ("a set ordered by address", "core/planted/include/fx/planted2.h",
     "#pragma once\n#include <set>\nnamespace fx::planted {\nstruct S {};\n"
     "inline std::set<const S*> seen;\n}\n"),
    ("pointers sorted by address", "geometry/src/planted.cpp",
     "#include <algorithm>\n#include <vector>\nnamespace fx::planted {\nstruct S {};\n"
     "void order(std::vector<S*>& v) { std::sort(v.begin(), v.end()); }\n}\n"),
    ("a set ordered by address through a transparent comparator", "core/planted/include/fx/planted2.h",
     "#pragma once\n#include <functional>\n#include <set>\nnamespace fx::planted {\nstruct S {};\n"
     "inline std::set<const S*, std::less<>> seen;\n}\n"),
    ("a set of pairs that start with an address", "core/planted/include/fx/planted2.h",
     "#pragma once\n#include <set>\n#include <utility>\nnamespace fx::planted {\nstruct S {};\n"
     "inline std::set<std::pair<const S*, int>> seen;\n}\n"),
    ("pointers sorted by address through std::ranges", "geometry/src/planted.cpp",
     "#include <algorithm>\n#include <vector>\nnamespace fx::planted {\nstruct S {};\n"
     "void order(std::vector<const S*>& v) { std::ranges::sort(v); }\n}\n"),
    ("pointers sorted by a generic lambda comparing them", "core/planted/include/fx/planted2.h",
     "#pragma once\n#include <algorithm>\n#include <vector>\nnamespace fx::planted {\nstruct S {};\n"
     "inline void order(std::vector<S*>& v) {\n"
     "    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a < b; });\n}\n}\n"),
    ("pointers sorted by the transparent std::less", "geometry/src/planted.cpp",
     "#include <algorithm>\n#include <functional>\n#include <vector>\nnamespace fx::planted {\n"
     "struct S {};\nvoid order(std::vector<S*>& v) { std::sort(v.begin(), v.end(), std::less<>{}); }\n}\n"),
    ("an address as a number through memcpy", "core/planted/include/fx/planted2.h",
     "#pragma once\n#include <cstdint>\n#include <cstring>\nnamespace fx::planted {\n"
     "inline std::uint64_t key(const int* p) {\n    std::uint64_t k = 0;\n"
     "    std::memcpy(&k, &p, sizeof p);\n    return k;\n}\n}\n"),
    ("a thread's count of cores", "core/planted/include/fx/planted2.h",
     "#pragma once\n#include <thread>\nnamespace fx::planted {\n"
     "inline unsigned cores() { return std::thread::hardware_concurrency(); }\n}\n"),
]


# What each plant must be reported as (a plant caught by another rule only proves that rule).
EXPECTED = {
    "sqrt reached through a using-declaration, in a header nothing includes": "floating type",
    "std::atof in a source": "floating type",
    "a default template argument": "floating type",
    "a macro the compiler predefines": "floating type",
    "a floating value in the wasm32 branch of a header": "floating type",
    "in the portable path of a header": "floating literal",
    "in an AArch64 branch": "floating type",
    "an unordered container behind an alias": "platform hashing",
    "the math header, at global scope": "#include <cmath>",
    "a lambda inside an uninstantiated member template": "floating literal",
    "std::rand through <cstdlib>": "a call of rand",
    "a cycle counter, in a header function nothing calls": "a call of __builtin_readcyclecounter",
    "an atomic flag reached through <memory>": "a thread, clock or random source 'std::atomic_flag'",
    "an address as a number through reinterpret_cast": "an address as a number",
    "an address as a number through a C-style cast of this": "an address as a number",
    "an address as a number through std::bit_cast": "an address as a number: std::bit_cast",
    "two addresses compared for order": "two addresses compared for order",
    "a set ordered by address": "pointers ordered by address 'std::set",
    "pointers sorted by address": "pointers ordered by address: std::sort",
    "a set ordered by address through a transparent comparator": "pointers ordered by address 'std::set",
    "a set of pairs that start with an address": "pointers ordered by address 'std::set",
    "a thread's count of cores": "#include <thread>",
    "pointers sorted by address through std::ranges": "pointers ordered by address: std::ranges::sort",
    "pointers sorted by a generic lambda comparing them": "compares its parameters' addresses",
    "pointers sorted by the transparent std::less": "pointers ordered by address: std::sort of pointers",
    "an address as a number through memcpy": "an address as a number: memcpy",
}


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        for d in ("core/planted/include/fx", "core/planted/src", "geometry/include/fx", "geometry/src"):
            os.makedirs(os.path.join(tmp, d))
        with open(os.path.join(tmp, "core/planted/include/fx/planted.h"), "w") as f:
            f.write(CLEAN_HEADER)
        with open(os.path.join(tmp, "core/planted/src/planted.cpp"), "w") as f:
            f.write('#include "fx/planted.h"\nnamespace fx::planted {\n'
                    "int64_t thrice(int64_t v) { return twice(v) + half<int64_t>(v) * 2; }\n}\n")
        gate = Gate(tmp)
        gate.run()
        if gate.findings:
            print("gate-compiled-types: self-test: the clean tree failed:", *gate.findings, sep="\n  ",
                  file=sys.stderr)
            return 1
        missed = 0
        for name, rel, code in PLANTS:
            path = os.path.join(tmp, rel)
            with open(path, "w") as f:
                f.write(code)
            gate = Gate(tmp)
            gate.run()
            os.remove(path)
            if not gate.findings:
                print(f"self-test: NOT caught: {name}", file=sys.stderr)
                missed += 1
            elif not any(EXPECTED[name] in x for x in gate.findings):
                print(f"self-test: caught, but not as '{EXPECTED[name]}': {name}:", *gate.findings,
                      sep="\n  ", file=sys.stderr)
                missed += 1
            elif any("does not compile" in x for x in gate.findings):
                print(f"self-test: the plant does not compile, so it proves nothing: {name}:",
                      *gate.findings, sep="\n  ", file=sys.stderr)
                missed += 1
            else:
                print(f"self-test: caught: {name}: "
                      f"{next(x for x in gate.findings if EXPECTED[name] in x)}")
        if missed:
            return 1
    print("self-test: every planted violation failed the gate; the clean tree passed")
    return 0


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-") and argv[1] != "--self-test"):
        print(__doc__, file=sys.stderr)
        return 2
    if os.uname().machine != "aarch64" and not shutil.which("aarch64-linux-gnu-g++"):
        print("gate-compiled-types: aarch64-linux-gnu-g++ not found (scripts/setup.sh installs "
              "g++-aarch64-linux-gnu): the AArch64 configuration needs its headers", file=sys.stderr)
        return 125
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    root = argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    return check(root)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

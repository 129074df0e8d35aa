// fx::parse_decimal on arbitrary text (tests/fuzz/corpus/decimal/). Properties:
//   - it never crashes, and a rejection names an offset inside the text;
//   - a parsed value printed by to_string_shortest parses back to the same raw value, and the
//     shortest text is no longer than the exact expansion, which parses back too;
//   - the first 8 bytes taken as a raw Q31.32 value round-trip through both printers (every raw
//     value of the range, not only those a short decimal reaches).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "fuzz_util.h"
#include "fx/decimal.h"

namespace {

using fx::fuzz::require;

void round_trip(fx::Scalar v, const std::string& context) {
    const std::string shortest = fx::to_string_shortest(v);
    const fx::DecimalResult a = fx::parse_decimal(shortest);
    require(a.ok && a.value.raw() == v.raw(),
            context + ": to_string_shortest gave '" + shortest +
                "', which does not parse back to raw " + fx::to_string_raw_hex(v) +
                (a.ok ? " (got " + fx::to_string_raw_hex(a.value) + ")" : " (" + a.error + ")"));
    const std::string exact = fx::to_string_exact(v);
    const fx::DecimalResult b = fx::parse_decimal(exact);
    require(b.ok && b.value.raw() == v.raw(), context + ": to_string_exact gave '" + exact +
                                                  "', which does not parse back to raw " +
                                                  fx::to_string_raw_hex(v));
    require(shortest.size() <= exact.size(),
            context + ": shortest '" + shortest + "' longer than exact '" + exact + "'");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const fx::DecimalResult r = fx::parse_decimal(text);
    if (r.ok) {
        round_trip(r.value, "parsed '" + std::string(text) + "'");
    } else {
        require(!r.error.empty(), "rejected '" + std::string(text) + "' without a message");
        require(r.error_offset <= size, "rejected '" + std::string(text) + "' at offset " +
                                            std::to_string(r.error_offset) + " past its end");
    }
    uint64_t raw = 0;
    std::memcpy(&raw, data, size < sizeof raw ? size : sizeof raw);
    round_trip(fx::Scalar::from_raw(static_cast<int64_t>(raw)), "raw bytes");
    return 0;
}

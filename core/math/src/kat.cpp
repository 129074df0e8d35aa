#include "fx/kat.h"

#include <charconv>
#include <cstdint>

#include "fx/decimal.h"
#include "fx/mat3.h"
#include "fx/sqrt.h"
#include "fx/trig.h"
#include "fx/vec3.h"

namespace fx::kat {
namespace {

bool parse_i64(const std::string& s, int64_t* out) {
    const char* end = s.data() + s.size();
    const auto [ptr, ec] = std::from_chars(s.data(), end, *out);
    return ec == std::errc() && ptr == end;
}

std::string str(Scalar v) {
    return std::to_string(v.raw());
}

struct Args {
    const std::vector<std::string>& text;
    std::string* error;
    bool ok = true;

    int64_t i64(std::size_t i) {
        int64_t v = 0;
        if (i >= text.size() || !parse_i64(text[i], &v)) {
            if (ok) *error = "operand " + std::to_string(i + 1) + " is not an integer";
            ok = false;
        }
        return v;
    }
    Scalar s(std::size_t i) { return Scalar::from_raw(i64(i)); }
    Vec3 v(std::size_t i) { return {s(i), s(i + 1), s(i + 2)}; }
};

using Results = std::vector<std::string>;

} // namespace

bool evaluate(std::string_view op, const std::vector<std::string>& args,
              std::vector<std::string>* results, std::string* error) {
    Args a{args, error};
    Results& r = *results;
    r.clear();
    auto arity = [&](std::size_t n) {
        if (args.size() != n) {
            *error = std::string(op) + " takes " + std::to_string(n) + " operands, got " +
                     std::to_string(args.size());
            return false;
        }
        return true;
    };
    auto one = [&](std::size_t n, auto f) {
        if (!arity(n)) return false;
        const Scalar v = f();
        if (!a.ok) return false;
        r.push_back(str(v));
        return true;
    };
    auto vec = [&](std::size_t n, auto f) {
        if (!arity(n)) return false;
        const Vec3 v = f();
        if (!a.ok) return false;
        r = {str(v.x), str(v.y), str(v.z)};
        return true;
    };

    if (op == "add") return one(2, [&] { return a.s(0) + a.s(1); });
    if (op == "sub") return one(2, [&] { return a.s(0) - a.s(1); });
    if (op == "mul") return one(2, [&] { return a.s(0) * a.s(1); });
    if (op == "div") return one(2, [&] { return a.s(0) / a.s(1); });
    if (op == "mul_div") return one(3, [&] { return mul_div(a.s(0), a.s(1), a.s(2)); });
    if (op == "min") return one(2, [&] { return min(a.s(0), a.s(1)); });
    if (op == "max") return one(2, [&] { return max(a.s(0), a.s(1)); });
    if (op == "mul_int") return one(2, [&] { return a.s(0).mul_int(a.i64(1)); });
    if (op == "div_int") return one(2, [&] { return a.s(0).div_int(a.i64(1)); });
    if (op == "neg") return one(1, [&] { return -a.s(0); });
    if (op == "abs") return one(1, [&] { return abs(a.s(0)); });
    if (op == "floor") return one(1, [&] { return floor(a.s(0)); });
    if (op == "ceil") return one(1, [&] { return ceil(a.s(0)); });
    if (op == "round") return one(1, [&] { return round(a.s(0)); });
    if (op == "trunc") return one(1, [&] { return trunc(a.s(0)); });
    if (op == "sqrt") return one(1, [&] { return sqrt(a.s(0)); });
    if (op == "rsqrt") return one(1, [&] { return rsqrt(a.s(0)); });
    if (op == "sin") return one(1, [&] { return sin(a.s(0)); });
    if (op == "cos") return one(1, [&] { return cos(a.s(0)); });
    if (op == "asin") return one(1, [&] { return asin(a.s(0)); });
    if (op == "acos") return one(1, [&] { return acos(a.s(0)); });
    if (op == "deg_to_rad") return one(1, [&] { return deg_to_rad(a.s(0)); });
    if (op == "rad_to_deg") return one(1, [&] { return rad_to_deg(a.s(0)); });
    if (op == "atan2") return one(2, [&] { return atan2(a.s(0), a.s(1)); });
    if (op == "sincos_deg") {
        if (!arity(1)) return false;
        const SinCos sc = sincos_deg(a.s(0));
        if (!a.ok) return false;
        r = {str(sc.sin), str(sc.cos)};
        return true;
    }
    if (op == "dot") return one(6, [&] { return dot(a.v(0), a.v(3)); });
    if (op == "cross") return vec(6, [&] { return cross(a.v(0), a.v(3)); });
    if (op == "length") return one(3, [&] { return length(a.v(0)); });
    if (op == "length_sq") return one(3, [&] { return length_sq(a.v(0)); });
    if (op == "normalize") return vec(3, [&] { return normalize(a.v(0)); });
    if (op == "rotate_ypr")
        return vec(
            6, [&] { return Mat3::from_yaw_pitch_roll_degrees(a.s(0), a.s(1), a.s(2)) * a.v(3); });
    if (op == "parse") {
        if (!arity(1)) return false;
        const DecimalResult d = parse_decimal(args[0]);
        r.push_back(d.ok ? str(d.value) : std::string("error"));
        return true;
    }
    if (op == "shortest" || op == "exact") {
        if (!arity(1)) return false;
        const Scalar v = a.s(0);
        if (!a.ok) return false;
        r.push_back(op == "shortest" ? to_string_shortest(v) : to_string_exact(v));
        return true;
    }
    *error = "unknown operation '" + std::string(op) + "'";
    return false;
}

} // namespace fx::kat

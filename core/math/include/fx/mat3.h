// fx::Mat3: a 3x3 matrix of Scalars, stored by rows; used for the rotation of oriented boxes.
//
// Convention: y is up, right-handed, column vectors (v' = M v). A rotation from yaw, pitch and
// roll in degrees is R = Ry(yaw) * Rx(pitch) * Rz(roll): roll about +z first, then pitch about
// +x, then yaw about +y (the order Unity uses for Euler angles, which the source articles'
// levels were authored in). Each product entry is one wide dot product rounded once, so a
// rotation's rows are orthonormal to within a few raw units.
#pragma once

#include "fx/vec3.h"

namespace fx {

struct Mat3 {
    Vec3 row[3] = {Vec3::unit_x(), Vec3::unit_y(), Vec3::unit_z()};

    static constexpr Mat3 identity() noexcept { return {}; }
    static Mat3 rotation_y(Scalar degrees);
    static Mat3 rotation_x(Scalar degrees);
    static Mat3 rotation_z(Scalar degrees);
    static Mat3 from_yaw_pitch_roll_degrees(Scalar yaw, Scalar pitch, Scalar roll);

    friend constexpr bool operator==(const Mat3&, const Mat3&) noexcept = default;

    Vec3 column(int i) const {
        auto pick = [i](const Vec3& r) { return i == 0 ? r.x : (i == 1 ? r.y : r.z); };
        return {pick(row[0]), pick(row[1]), pick(row[2])};
    }
    Mat3 transposed() const;
    /// M v: each component one rounding.
    Vec3 operator*(const Vec3& v) const { return {dot(row[0], v), dot(row[1], v), dot(row[2], v)}; }
    /// M^T v: the inverse rotation for an orthonormal M.
    Vec3 transpose_mul(const Vec3& v) const {
        return {dot(column(0), v), dot(column(1), v), dot(column(2), v)};
    }
    Mat3 operator*(const Mat3& m) const;
};

} // namespace fx

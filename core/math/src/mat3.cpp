#include "fx/mat3.h"

#include "fx/trig.h"

namespace fx {

Mat3 Mat3::rotation_y(Scalar degrees) {
    const SinCos a = sincos_deg(degrees);
    return {
        {{a.cos, Scalar{}, a.sin}, {Scalar{}, Scalar::one(), Scalar{}}, {-a.sin, Scalar{}, a.cos}}};
}

Mat3 Mat3::rotation_x(Scalar degrees) {
    const SinCos a = sincos_deg(degrees);
    return {
        {{Scalar::one(), Scalar{}, Scalar{}}, {Scalar{}, a.cos, -a.sin}, {Scalar{}, a.sin, a.cos}}};
}

Mat3 Mat3::rotation_z(Scalar degrees) {
    const SinCos a = sincos_deg(degrees);
    return {
        {{a.cos, -a.sin, Scalar{}}, {a.sin, a.cos, Scalar{}}, {Scalar{}, Scalar{}, Scalar::one()}}};
}

Mat3 Mat3::from_yaw_pitch_roll_degrees(Scalar yaw, Scalar pitch, Scalar roll) {
    return rotation_y(yaw) * (rotation_x(pitch) * rotation_z(roll));
}

Mat3 Mat3::transposed() const {
    return {{column(0), column(1), column(2)}};
}

Mat3 Mat3::operator*(const Mat3& m) const {
    const Vec3 c0 = m.column(0), c1 = m.column(1), c2 = m.column(2);
    Mat3 out;
    for (int i = 0; i < 3; ++i)
        out.row[i] = {dot(row[i], c0), dot(row[i], c1), dot(row[i], c2)};
    return out;
}

} // namespace fx

// The drawing geometry of `fxkcc plot` (private to fx_forensics): doubles for drawing only (the
// pictures are not part of any result), views that map world planes onto the page, clipping,
// hulls, capsules and the grid.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "fx/mat3.h"
#include "fx/vec3.h"

namespace fx::harness::plot_detail {

/// The exact Q31.32 value as a double (exact up to 2^21 m; drawing needs far less).
inline double D(Scalar s) {
    return static_cast<double>(s.raw()) / 4294967296.0;
}

struct P3 {
    double x = 0, y = 0, z = 0;
};
inline P3 D3(const Vec3& v) {
    return {D(v.x), D(v.y), D(v.z)};
}

/// A point in a view's world plane (u to the right, v up or down the page, metres), or on the
/// page (pixels).
struct P2 {
    double u = 0, v = 0;
};

/// Fixed precision (2 decimals), trailing zeros trimmed, never "-0": the same double always
/// prints the same text.
inline std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0')
            s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    if (s == "-0") s = "0";
    return s;
}

struct View {
    bool top = true; ///< top view (x, z), else side view (x or z, y)
    int side_axis = 0; ///< side view's horizontal axis: 0 = x, 2 = z
    std::string id; ///< "top" or "side"
    double fx = 0, fy = 0, fw = 0, fh = 0; ///< the frame on the page
    double ulo = 0, uhi = 0, vlo = 0, vhi = 0; ///< world range shown
    double s = 1; ///< pixels per metre
    double depth_mid = 0; ///< middle of the trajectories' range along the viewing direction

    P2 uv(const P3& p) const {
        if (top) return {p.x, p.z};
        return {side_axis == 0 ? p.x : p.z, p.y};
    }
    double depth(const P3& p) const { return top ? p.y : (side_axis == 0 ? p.z : p.x); }
    /// Page coordinates. Top view: x to the right, z down the page (the view from above of a
    /// right-handed y-up world). Side view: u to the right, y up.
    P2 page(P2 w) const {
        const double X = fx + (w.u - ulo) * s;
        const double Y = top ? fy + (w.v - vlo) * s : fy + fh - (w.v - vlo) * s;
        return {X, Y};
    }
    std::string pt(P2 w) const {
        const P2 p = page(w);
        return num(p.u) + "," + num(p.v);
    }
    /// The clipping rectangle in world units: the frame plus 10 px.
    double pad() const { return 10.0 / s; }
};

/// Fits [u0,u1] x [v0,v1] into the frame at one scale, centred; the view's range fills it.
void fit(View* v, double u0, double u1, double v0, double v1);

/// The z of (a - o) x (b - o): positive when o, a, b turn counter-clockwise.
double cross(P2 o, P2 a, P2 b);

/// Andrew's monotone chain; counter-clockwise, collinear points dropped.
std::vector<P2> convex_hull(std::vector<P2> p);

/// Sutherland-Hodgman against the view's rectangle (plus pad): keeps huge shapes small in the
/// file and away from the renderer's coordinate limits.
std::vector<P2> clip_polygon(const std::vector<P2>& poly, const View& v);

/// Liang-Barsky: the part of segment a-b inside the view's rectangle (plus pad).
bool clip_segment(P2* a, P2* b, const View& v);

/// Whether a world-space box [lo, hi] touches the view's rectangle.
bool visible(const View& v, double u0, double u1, double v0, double v1);

std::string points_attr(const std::vector<P2>& poly, const View& v);

/// The outline of a capsule seen from the side: the two end circles and their tangents (world
/// units in, page path out). A capsule seen end-on is a circle.
std::string stadium_path(P2 a, P2 b, double r, const View& v);

/// The 8 corners of a rotated box, computed in fixed point exactly as the world builds it.
std::vector<P3> box_corners(const Vec3& center, const Vec3& half, const Mat3& r);

/// The convex hull of a box's corners in the view, clipped; "" when it is out of view.
std::string box_polygon(const std::vector<P3>& corners, const View& v, const std::string& attrs);

/// 1, 2 or 5 times a power of ten, about `span / 8`.
double nice_step(double span);

std::string grid_label(double value, double step);

std::string grid(const View& v);

/// Two arrows in a corner naming the view's axes.
std::string axis_arrows(const View& v);

} // namespace fx::harness::plot_detail

#include "plot_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "fx/mat3.h"

namespace fx::harness::plot_detail {

/// Fits [u0,u1] x [v0,v1] into the frame at one scale, centred; the view's range fills it.
void fit(View* v, double u0, double u1, double v0, double v1) {
    const double du = std::max(u1 - u0, 1e-3), dv = std::max(v1 - v0, 1e-3);
    v->s = std::min(v->fw / du, v->fh / dv);
    const double uc = (u0 + u1) / 2, vc = (v0 + v1) / 2;
    v->ulo = uc - v->fw / (2 * v->s);
    v->uhi = uc + v->fw / (2 * v->s);
    v->vlo = vc - v->fh / (2 * v->s);
    v->vhi = vc + v->fh / (2 * v->s);
}

// ---- 2D geometry -----------------------------------------------------------------------------

double cross(P2 o, P2 a, P2 b) {
    return (a.u - o.u) * (b.v - o.v) - (a.v - o.v) * (b.u - o.u);
}

/// Andrew's monotone chain; counter-clockwise, collinear points dropped.
std::vector<P2> convex_hull(std::vector<P2> p) {
    std::sort(p.begin(), p.end(),
              [](P2 a, P2 b) { return a.u < b.u || (a.u == b.u && a.v < b.v); });
    p.erase(std::unique(p.begin(), p.end(), [](P2 a, P2 b) { return a.u == b.u && a.v == b.v; }),
            p.end());
    if (p.size() < 3) return p;
    std::vector<P2> h(2 * p.size());
    size_t k = 0;
    for (size_t i = 0; i < p.size(); ++i) {
        while (k >= 2 && cross(h[k - 2], h[k - 1], p[i]) <= 0)
            --k;
        h[k++] = p[i];
    }
    for (size_t i = p.size() - 1, t = k + 1; i > 0; --i) {
        while (k >= t && cross(h[k - 2], h[k - 1], p[i - 1]) <= 0)
            --k;
        h[k++] = p[i - 1];
    }
    h.resize(k - 1);
    return h;
}

/// Sutherland-Hodgman against the view's rectangle (plus pad): keeps huge shapes small in the
/// file and away from the renderer's coordinate limits.
std::vector<P2> clip_polygon(const std::vector<P2>& poly, const View& v) {
    const double pad = v.pad();
    const double lo[2] = {v.ulo - pad, v.vlo - pad}, hi[2] = {v.uhi + pad, v.vhi + pad};
    std::vector<P2> out = poly;
    for (int edge = 0; edge < 4 && !out.empty(); ++edge) {
        const int axis = edge / 2;
        const bool is_lo = edge % 2 == 0;
        const double bound = is_lo ? lo[axis] : hi[axis];
        auto coord = [axis](P2 p) { return axis == 0 ? p.u : p.v; };
        auto inside = [&](P2 p) { return is_lo ? coord(p) >= bound : coord(p) <= bound; };
        std::vector<P2> in = std::move(out);
        out.clear();
        for (size_t i = 0; i < in.size(); ++i) {
            const P2 a = in[i], b = in[(i + 1) % in.size()];
            const bool ia = inside(a), ib = inside(b);
            if (ia) out.push_back(a);
            if (ia != ib) {
                const double t = (bound - coord(a)) / (coord(b) - coord(a));
                out.push_back({a.u + t * (b.u - a.u), a.v + t * (b.v - a.v)});
            }
        }
    }
    return out;
}

/// Liang-Barsky: the part of segment a-b inside the view's rectangle (plus pad).
bool clip_segment(P2* a, P2* b, const View& v) {
    const double pad = v.pad();
    double t0 = 0, t1 = 1;
    const double du = b->u - a->u, dv = b->v - a->v;
    const double p[4] = {-du, du, -dv, dv};
    const double q[4] = {a->u - (v.ulo - pad), (v.uhi + pad) - a->u, a->v - (v.vlo - pad),
                         (v.vhi + pad) - a->v};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0) return false;
            continue;
        }
        const double r = q[i] / p[i];
        if (p[i] < 0) {
            t0 = std::max(t0, r);
        } else {
            t1 = std::min(t1, r);
        }
        if (t0 > t1) return false;
    }
    const P2 a0 = *a;
    *a = {a0.u + t0 * du, a0.v + t0 * dv};
    *b = {a0.u + t1 * du, a0.v + t1 * dv};
    return true;
}

/// Whether a world-space box [lo, hi] touches the view's rectangle.
bool visible(const View& v, double u0, double u1, double v0, double v1) {
    return u1 >= v.ulo && u0 <= v.uhi && v1 >= v.vlo && v0 <= v.vhi;
}

std::string points_attr(const std::vector<P2>& poly, const View& v) {
    std::string s;
    for (const P2& p : poly)
        s += (s.empty() ? "" : " ") + v.pt(p);
    return s;
}

/// The outline of a capsule seen from the side: the two end circles and their tangents (world
/// units in, page path out). A capsule seen end-on is a circle.
std::string stadium_path(P2 a, P2 b, double r, const View& v) {
    const P2 pa = v.page(a), pb = v.page(b);
    const double R = r * v.s;
    const double du = pb.u - pa.u, dv = pb.v - pa.v, len = std::sqrt(du * du + dv * dv);
    const std::string rr = num(R) + " " + num(R);
    if (len < 1e-6) {
        return "M" + num(pa.u - R) + "," + num(pa.v) + " A" + rr + " 0 1 0 " + num(pa.u + R) + "," +
               num(pa.v) + " A" + rr + " 0 1 0 " + num(pa.u - R) + "," + num(pa.v) + " Z";
    }
    const double nu = -dv / len * R, nv = du / len * R;
    auto at = [](double u, double w) { return num(u) + "," + num(w); };
    return "M" + at(pa.u + nu, pa.v + nv) + " L" + at(pb.u + nu, pb.v + nv) + " A" + rr +
           " 0 0 0 " + at(pb.u - nu, pb.v - nv) + " L" + at(pa.u - nu, pa.v - nv) + " A" + rr +
           " 0 0 0 " + at(pa.u + nu, pa.v + nv) + " Z";
}

/// The 8 corners of a rotated box, computed in fixed point exactly as the world builds it.
std::vector<P3> box_corners(const Vec3& center, const Vec3& half, const Mat3& r) {
    std::vector<P3> out;
    for (int i = 0; i < 8; ++i) {
        const Vec3 local{(i & 1) ? half.x : -half.x, (i & 2) ? half.y : -half.y,
                         (i & 4) ? half.z : -half.z};
        out.push_back(D3(center + r * local));
    }
    return out;
}

/// The convex hull of a box's corners in the view, clipped; "" when it is out of view.
std::string box_polygon(const std::vector<P3>& corners, const View& v, const std::string& attrs) {
    std::vector<P2> p;
    for (const P3& c : corners)
        p.push_back(v.uv(c));
    const std::vector<P2> hull = clip_polygon(convex_hull(p), v);
    if (hull.size() < 2) return "";
    return "<polygon" + attrs + " points=\"" + points_attr(hull, v) + "\"/>\n";
}

// ---- grid ------------------------------------------------------------------------------------

/// 1, 2 or 5 times a power of ten, about `span / 8`.
double nice_step(double span) {
    const double raw = span / 8;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0}) {
        if (m * p >= raw) return m * p;
    }
    return 10 * p;
}

std::string grid_label(double value, double step) {
    const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    std::string s = buf;
    if (s.find_first_not_of("-0.") == std::string::npos) s = "0";
    return s;
}

std::string grid(const View& v) {
    std::string o = "<g class=\"grid\" stroke=\"#e6e6e6\" stroke-width=\"1\">\n";
    std::string labels =
        "<g class=\"axis-labels\" font-family=\"sans-serif\" font-size=\"10\" fill=\"#666666\">\n";
    const double step = nice_step(std::max(v.uhi - v.ulo, v.vhi - v.vlo));
    for (int64_t k = static_cast<int64_t>(std::ceil(v.ulo / step));
         static_cast<double>(k) * step <= v.uhi; ++k) {
        const double u = static_cast<double>(k) * step;
        const double X = v.page({u, v.vlo}).u;
        o += "<line x1=\"" + num(X) + "\" y1=\"" + num(v.fy) + "\" x2=\"" + num(X) + "\" y2=\"" +
             num(v.fy + v.fh) + "\"/>\n";
        labels += "<text x=\"" + num(X) + "\" y=\"" + num(v.fy + v.fh + 13) +
                  "\" text-anchor=\"middle\">" + grid_label(u, step) + "</text>\n";
    }
    for (int64_t k = static_cast<int64_t>(std::ceil(v.vlo / step));
         static_cast<double>(k) * step <= v.vhi; ++k) {
        const double w = static_cast<double>(k) * step;
        const double Y = v.page({v.ulo, w}).v;
        o += "<line x1=\"" + num(v.fx) + "\" y1=\"" + num(Y) + "\" x2=\"" + num(v.fx + v.fw) +
             "\" y2=\"" + num(Y) + "\"/>\n";
        labels += "<text x=\"" + num(v.fx + 3) + "\" y=\"" + num(Y - 2) + "\">" +
                  grid_label(w, step) + "</text>\n";
    }
    return o + "</g>\n" + labels + "</g>\n";
}

/// Two arrows in a corner naming the view's axes.
std::string axis_arrows(const View& v) {
    const char* h = v.top || v.side_axis == 0 ? "+x" : "+z";
    const char* w = v.top ? "+z" : "+y";
    const double x0 = v.fx + v.fw - 62;
    const double y0 = v.top ? v.fy + 14 : v.fy + v.fh - 14;
    const double y1 = v.top ? y0 + 36 : y0 - 36;
    std::string o =
        "<g class=\"axes\" stroke=\"#333333\" stroke-width=\"1.5\" fill=\"#333333\" font-family=\"sans-serif\" "
        "font-size=\"11\">\n";
    o += "<line x1=\"" + num(x0) + "\" y1=\"" + num(y0) + "\" x2=\"" + num(x0 + 36) + "\" y2=\"" +
         num(y0) + "\" marker-end=\"url(#arrow)\"/>\n";
    o += "<line x1=\"" + num(x0) + "\" y1=\"" + num(y0) + "\" x2=\"" + num(x0) + "\" y2=\"" +
         num(y1) + "\" marker-end=\"url(#arrow)\"/>\n";
    o += "<text stroke=\"none\" x=\"" + num(x0 + 42) + "\" y=\"" + num(y0 + 4) + "\">" + h +
         "</text>\n";
    o += "<text stroke=\"none\" x=\"" + num(x0 - 6) + "\" y=\"" + num(v.top ? y1 + 12 : y1 - 4) +
         "\">" + w + "</text>\n";
    return o + "</g>\n";
}

} // namespace fx::harness::plot_detail

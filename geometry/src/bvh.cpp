#include "geo/bvh.h"

#include <algorithm>

namespace fx::geo {

namespace {

Scalar axis_of(const Vec3& v, int axis) {
    return axis == 0 ? v.x : (axis == 1 ? v.y : v.z);
}

/// Twice the centre of a box along an axis (lo + hi: no halving, no rounding).
Scalar centre2(const Aabb& b, int axis) {
    return axis_of(b.lo, axis) + axis_of(b.hi, axis);
}

} // namespace

void Bvh::build(std::span<const Aabb> boxes, std::span<const uint32_t> keys) {
    nodes_.clear();
    boxes_.assign(boxes.begin(), boxes.end());
    items_.resize(boxes.size());
    for (uint32_t i = 0; i < items_.size(); ++i)
        items_[i] = i;
    if (boxes.empty()) return;
    // Start from the key order so the tree never depends on the order items were given in.
    std::sort(items_.begin(), items_.end(),
              [&](uint32_t x, uint32_t y) { return keys[x] < keys[y]; });
    nodes_.reserve(2 * boxes.size());
    nodes_.push_back(Node{});
    build_node(0, 0, static_cast<uint32_t>(items_.size()), boxes, keys);
}

void Bvh::build_node(uint32_t node, uint32_t begin, uint32_t end, std::span<const Aabb> boxes,
                     std::span<const uint32_t> keys) {
    Aabb box = boxes[items_[begin]];
    Aabb cbox{{centre2(box, 0), centre2(box, 1), centre2(box, 2)},
              {centre2(box, 0), centre2(box, 1), centre2(box, 2)}};
    for (uint32_t i = begin + 1; i < end; ++i) {
        const Aabb& b = boxes[items_[i]];
        box = box.merged(b);
        const Vec3 c{centre2(b, 0), centre2(b, 1), centre2(b, 2)};
        cbox = {fx::min(cbox.lo, c), fx::max(cbox.hi, c)};
    }
    nodes_[node].box = box;
    if (end - begin <= kLeafSize) {
        nodes_[node].first = begin;
        nodes_[node].count = end - begin;
        return;
    }
    // Longest axis of the centres' extent; ties prefer x, then y, then z.
    const Vec3 ext = cbox.hi - cbox.lo;
    int axis = 0;
    if (ext.y > ext.x) axis = 1;
    if (ext.z > axis_of(ext, axis)) axis = 2;
    // Total order: centre along the axis, then the unique key. No two items compare equal, so
    // std::sort's treatment of ties can never show.
    std::sort(items_.begin() + begin, items_.begin() + end, [&](uint32_t x, uint32_t y) {
        const Scalar cx = centre2(boxes[x], axis), cy = centre2(boxes[y], axis);
        if (cx != cy) return cx < cy;
        return keys[x] < keys[y];
    });
    const uint32_t mid = begin + (end - begin) / 2;
    const uint32_t left = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back(Node{});
    nodes_.push_back(Node{});
    nodes_[node].first = left;
    nodes_[node].count = 0;
    build_node(left, begin, mid, boxes, keys);
    build_node(left + 1, mid, end, boxes, keys);
}

void Bvh::refit(std::span<const Aabb> boxes) {
    boxes_.assign(boxes.begin(), boxes.end());
    // Children are always stored after their parent: one backward pass.
    for (size_t k = nodes_.size(); k-- > 0;) {
        Node& n = nodes_[k];
        if (n.count > 0) {
            Aabb b = boxes[items_[n.first]];
            for (uint32_t i = 1; i < n.count; ++i)
                b = b.merged(boxes[items_[n.first + i]]);
            n.box = b;
        } else {
            n.box = nodes_[n.first].box.merged(nodes_[n.first + 1].box);
        }
    }
}

} // namespace fx::geo

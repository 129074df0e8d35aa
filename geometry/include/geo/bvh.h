// A bounding-volume tree over items with axis-aligned bounds, built deterministically.
//
// Build (top-down): the items of a node are sorted by the centre of their bounds along the
// longest axis of the centres' extent (ties between axes: x, then y, then z), with the
// caller's unique key (shape id, triangle index) as tie-breaker, so that the order is total
// and never depends on insertion order, addresses or the sort algorithm; then split at the
// median. Leaves hold at most kLeafSize items. Nodes live in one array, children after their
// parent, so refit() (for moving shapes) is one backward pass with no allocation.
// Queries allocate nothing: traversal uses a fixed stack (median splits bound the depth by
// log2(n) + 1, far below kMaxDepth for any n < 2^32).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "geo/aabb.h"

namespace fx::geo {

class Bvh {
public:
    static constexpr uint32_t kLeafSize = 2;
    static constexpr int kMaxDepth = 64;

    struct Node {
        Aabb box;
        uint32_t first =
            0; ///< leaf: first slot in items(); inner: index of the left child (right = first + 1)
        uint32_t count = 0; ///< leaf: number of items (> 0); inner: 0
    };

    /// Builds over items 0..n-1 with bounds boxes[i] and unique keys[i] (the tie-breaker).
    void build(std::span<const Aabb> boxes, std::span<const uint32_t> keys);
    /// Recomputes every node's bounds from new item bounds (same items, same tree shape).
    void refit(std::span<const Aabb> boxes);

    bool empty() const { return nodes_.empty(); }
    std::span<const Node> nodes() const { return nodes_; }
    std::span<const uint32_t> items() const { return items_; }

    /// Calls visit(item) for every item whose bounds overlap q. The visiting order is fixed by
    /// the tree (deterministic), but callers order their results by their own total order.
    template <class Visit> void query(const Aabb& q, Visit&& visit) const {
        if (nodes_.empty()) return;
        uint32_t stack[kMaxDepth * 2];
        int top = 0;
        stack[top++] = 0;
        while (top > 0) {
            const Node& node = nodes_[stack[--top]];
            if (!node.box.overlaps(q)) continue;
            if (node.count > 0) {
                for (uint32_t k = 0; k < node.count; ++k) {
                    const uint32_t item = items_[node.first + k];
                    if (boxes_[item].overlaps(q)) visit(item);
                }
            } else {
                stack[top++] = node.first + 1;
                stack[top++] = node.first;
            }
        }
    }

private:
    void build_node(uint32_t node, uint32_t begin, uint32_t end, std::span<const Aabb> boxes,
                    std::span<const uint32_t> keys);
    std::vector<Node> nodes_;
    std::vector<uint32_t> items_;
    std::vector<Aabb> boxes_; ///< item bounds, by item
};

} // namespace fx::geo

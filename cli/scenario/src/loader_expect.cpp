// The loader's `expect` section: state, metric and same_as expectations (docs/scenarios.md).
#include <memory>

#include "fx/decimal.h"
#include "loader_context.h"
#include "scenario/metric_names.h"

namespace fx::harness::detail {
namespace {

/// `value` (exact), `[min, max]`, or `{min: a, max: b}` (either may be left out).
Check load_check(const Value& v) {
    const char* what = "a number, [min, max] or {min: a, max: b}";
    Check c;
    if (v.node.is_sequence()) {
        if (v.size() != 2)
            v.fail(std::string("expected ") + what + ", found " + std::to_string(v.size()) +
                   (v.size() == 1 ? " item" : " items"));
        c.min = v.item(0).number();
        c.max = v.item(1).number();
        c.has_min = c.has_max = true;
        if (c.max < c.min) {
            v.item(1).fail("expected a maximum >= the minimum " + to_string_shortest(c.min) +
                           ", found '" + v.item(1).node.scalar() + "'");
        }
        return c;
    }
    if (v.node.is_map()) {
        const Map m(v, {"min", "max"}, what);
        if (auto lo = m.opt("min")) {
            c.min = lo->number();
            c.has_min = true;
        }
        if (auto hi = m.opt("max")) {
            c.max = hi->number();
            c.has_max = true;
        }
        if (!c.has_min && !c.has_max)
            v.fail(std::string("expected ") + what + ", found an empty mapping");
        if (c.has_min && c.has_max && c.max < c.min) {
            m.get("max").fail("expected a maximum >= the minimum " + to_string_shortest(c.min) +
                              ", found '" + m.get("max").node.scalar() + "'");
        }
        return c;
    }
    if (v.is_null() || !v.node.is_scalar())
        v.fail(std::string("expected ") + what + ", found " + v.found());
    c.min = c.max = v.number();
    c.has_min = c.has_max = true;
    return c;
}

uint32_t expect_character(const Ctx& ctx, const Map& m) {
    const auto cv = m.opt("character");
    if (!cv) return kcc::kNoId;
    const auto id = static_cast<uint32_t>(cv->integer(0, kMaxId));
    if (ctx.character_ids.count(id) == 0) {
        std::string known;
        for (const auto& [k, use] : ctx.character_ids)
            known += (known.empty() ? "" : ", ") + std::to_string(k);
        cv->fail("expected the id of a character of this scenario (" + known + "), found '" +
                 cv->node.scalar() + "'");
    }
    return id;
}

} // namespace

void load_expect(Ctx& ctx, const LoadOptions& opts, const Value& v, Scenario* s) {
    if (v.is_null()) return;
    v.require_sequence("a sequence of expectations");
    std::vector<std::string> state_keys{"tick", "ticks", "character", "grounded", "platform"};
    for (const char* f : state_field_names())
        state_keys.emplace_back(f);
    std::vector<std::string> metric_names;
    for (const MetricInfo& mi : metric_info())
        metric_names.emplace_back(mi.name);
    for (size_t i = 0; i < v.size(); ++i) {
        const Value item = v.item(i);
        const SourceRef at{static_cast<int>(i), item.line};
        const bool is_map = item.node.is_map();
        if (is_map && item.node.has_key("same_as")) {
            const Map m(item, {"same_as", "offset"});
            if (ctx.nested)
                m.key_node("same_as").fail(
                    "a same_as scenario cannot itself have same_as expectations");
            SameAsExpectation e;
            e.at = at;
            const Value pv = m.get("same_as");
            const std::shared_ptr<const Ref> ref = read_ref(ctx, pv, kMaxScenarioBytes);
            const Ref& r = *ref;
            e.path = pv.node.scalar();
            if (auto off = m.opt("offset")) e.offset = off->vec3(detail::kCoordinate);
            auto other = std::make_shared<Scenario>();
            LoadOptions o = opts;
            o.root = ctx.root.string();
            LoadError err;
            if (!load(r.bytes, r.display, r.resolved.parent_path(), o, /*nested=*/true, other.get(),
                      &err)) {
                throw detail::Failure{err};
            }
            if (other->characters.size() != s->characters.size()) {
                pv.fail("expected a scenario with the same " +
                        std::to_string(s->characters.size()) + " characters, found " +
                        std::to_string(other->characters.size()));
            }
            for (const std::string& input : other->inputs)
                ctx.add_input(input);
            e.other = std::move(other);
            s->expect_same_as.push_back(std::move(e));
            continue;
        }
        if (is_map && item.node.has_key("metrics")) {
            const Map m(item, {"character", "metrics"});
            MetricExpectation e;
            e.at = at;
            e.character = expect_character(ctx, m);
            const Map mm(m.get("metrics"), metric_names, "a mapping of metric bounds");
            for (const Map::Entry& entry : mm.entries()) {
                e.checks.emplace_back(find_metric(entry.key), load_check(mm.get(entry.key)));
            }
            if (e.checks.empty())
                m.get("metrics").fail("expected at least one metric bound, found none");
            s->expect_metrics.push_back(std::move(e));
            continue;
        }
        const Map m(item, state_keys, "a mapping (an expectation)");
        StateExpectation e;
        e.at = at;
        e.from = 0;
        e.to = ctx.ticks - 1;
        if (m.has("tick") && m.has("ticks"))
            m.key_node("ticks").fail("expected either 'tick' or 'ticks', found both");
        if (auto t = m.opt("tick")) e.from = e.to = tick_in_run(ctx, *t);
        if (auto r = m.opt("ticks")) {
            const char* what = "a tick range [first, last]";
            r->require_sequence(what);
            if (r->size() != 2)
                r->fail(std::string("expected ") + what + ", found " + std::to_string(r->size()) +
                        (r->size() == 1 ? " item" : " items"));
            e.from = tick_in_run(ctx, r->item(0));
            e.to = tick_in_run(ctx, r->item(1));
            if (e.to < e.from) {
                r->item(1).fail("expected a last tick >= the first " + std::to_string(e.from) +
                                ", found '" + r->item(1).node.scalar() + "'");
            }
        }
        e.character = expect_character(ctx, m);
        if (auto g = m.opt("grounded")) e.grounded = g->boolean() ? 1 : 0;
        if (auto p = m.opt("platform")) {
            e.check_platform = true;
            if (p->node.is_scalar() && p->node.scalar() == "none") {
                e.platform = kcc::kNoId;
            } else {
                e.platform = static_cast<uint32_t>(p->integer(0, kMaxId));
                const bool known =
                    std::any_of(s->platforms.begin(), s->platforms.end(),
                                [&](const PlatformDef& d) { return d.id == e.platform; });
                if (!known)
                    p->fail("expected the id of a platform of this scenario or 'none', found '" +
                            p->node.scalar() + "'");
            }
        }
        const auto names = state_field_names();
        for (int f = 0; f < kStateFieldCount; ++f) {
            if (auto fv = m.opt(names[static_cast<size_t>(f)]))
                e.checks.emplace_back(static_cast<StateField>(f), load_check(*fv));
        }
        if (e.checks.empty() && e.grounded < 0 && !e.check_platform) {
            m.fail(
                "expected at least one check (grounded, platform, or one of x, y, z, vx, vy, vz, speed, "
                "horizontal_speed, surface_speed, ground_angle, facing, character_overlap), found none");
        }
        s->expect_states.push_back(std::move(e));
    }
}

} // namespace fx::harness::detail

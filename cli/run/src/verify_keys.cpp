// Which top-level keys of a scenario changed since its golden was written: a digest per key of
// what the scenario simulates, recorded in the hash file's optional `keys` line (docs/formats.md).
#include <algorithm>
#include <cstddef>
#include <sstream>

#include "run/verify.h"
#include "scenario/writer.h"

namespace fx::harness {

std::string scenario_key_digests(const Scenario& sc) {
    // What simulated_digest (scenario/writer.cpp) digests, the scenario without what cannot
    // change a run, by top-level key.
    std::istringstream text(simulated_text(sc));
    // The text's top-level blocks: a line that starts with a key at column 0 and the indented
    // lines under it.
    std::vector<std::pair<std::string, std::string>> blocks;
    for (std::string line; std::getline(text, line);) {
        const size_t colon = line.find(':');
        const bool top =
            !line.empty() && line[0] >= 'a' && line[0] <= 'z' && colon != std::string::npos &&
            std::all_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(colon),
                        [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
        if (top) {
            blocks.emplace_back(line.substr(0, colon), "");
        } else if (blocks.empty()) {
            continue;
        }
        blocks.back().second += line + "\n";
    }
    std::string out;
    for (const auto& [key, body] : blocks) {
        // Cleared above, the same in every scenario: nothing to tell.
        if (key == "format" || key == "name" || key == "description") continue;
        out += (out.empty() ? "" : " ") + key + "=" + content_digest(body);
    }
    return out;
}

std::vector<std::string> changed_keys(const std::string& then, const std::string& now) {
    auto parse = [](const std::string& line) {
        std::vector<std::pair<std::string, std::string>> kv;
        std::istringstream in(line);
        for (std::string item; in >> item;) {
            const size_t eq = item.find('=');
            if (eq != std::string::npos) kv.emplace_back(item.substr(0, eq), item.substr(eq + 1));
        }
        return kv;
    };
    std::vector<std::string> changed;
    if (then.empty() || now.empty()) return changed;
    const auto a = parse(then), b = parse(now);
    auto find = [](const auto& kv, const std::string& key) -> const std::string* {
        for (const auto& [k, v] : kv)
            if (k == key) return &v;
        return nullptr;
    };
    for (const auto& [k, v] : b) {
        const std::string* old = find(a, k);
        if (old == nullptr || *old != v) changed.push_back(k);
    }
    for (const auto& [k, v] : a) {
        if (find(b, k) == nullptr) changed.push_back(k); // a key the scenario no longer has
    }
    return changed;
}

std::string stale_keys_text(const std::string& then, const Scenario& sc) {
    const std::vector<std::string> keys = changed_keys(then, scenario_key_digests(sc));
    if (keys.empty()) return {};
    std::string list;
    for (const std::string& k : keys)
        list += (list.empty() ? "" : ", ") + k;
    return "the scenario changed (" + list + ")";
}

} // namespace fx::harness

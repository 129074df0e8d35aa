// Goldens without a scenario (verify --orphans): a golden pair of golden/<target>/ whose
// scenario was renamed or deleted, found only when the whole suite is selected.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

#include "records/text.h"
#include "run/verify.h"

namespace fs = std::filesystem;

namespace fx::harness {

bool whole_suite(const SuiteOptions& suite) {
    return suite.inputs.empty() && suite.filter.empty() && suite.shard_count <= 1;
}

bool find_orphans(const SuiteOptions& suite, const std::vector<std::string>& names,
                  std::vector<Orphan>* orphans, std::string* error) {
    orphans->clear();
    const fs::path folder = fs::path(suite.golden_dir) / suite_target(suite);
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) return true; // no goldens, no orphans (missing ones fail)
    const std::set<std::string> known(names.begin(), names.end());
    std::map<std::string, std::vector<std::string>> found;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path p = it->path();
        const std::string file = p.filename().string();
        std::string_view base;
        if (file.empty() || file[0] == '.' || is_temporary_name(file, &base)) continue;
        if (p.extension() != ".hashes" && p.extension() != ".csv") continue;
        if (*error = text::acting_name_error(p.generic_string()); !error->empty()) return false;
        const std::string stem = p.stem().string();
        if (known.count(stem) == 0) found[stem].push_back(p.generic_string());
    }
    if (ec) {
        *error = "cannot list the golden folder '" + folder.generic_string() + "': " + ec.message();
        return false;
    }
    for (auto& [name, files] : found) {
        // The hash file first: it is what names the golden.
        std::sort(files.begin(), files.end(), [](const std::string& a, const std::string& b) {
            const bool ha = fs::path(a).extension() == ".hashes",
                       hb = fs::path(b).extension() == ".hashes";
            return ha != hb ? ha : a < b;
        });
        orphans->push_back({name, std::move(files)});
    }
    return true;
}

} // namespace fx::harness

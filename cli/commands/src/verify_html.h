// verify --html DIR (verify_html.cpp). Private to the commands library.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "run/suite.h"
#include "run/verify.h"

namespace fx::harness {

/// Writes DIR/index.html (every scenario, its status and summary, linked to its page) and
/// DIR/<name>.html for each scenario that did not pass (a golden mismatched, stale or missing, or
/// a failed check): the viewer's page of its golden, when its CSV reads, against this build's
/// run, the failed checks marked. `outcomes[i]` is `loaded[i]`'s. False with *err when a page
/// cannot be written.
bool write_verify_pages(const std::string& dir, const SuiteOptions& suite,
                        const std::vector<Outcome>& outcomes, const std::vector<Loaded>& loaded,
                        const std::string& title, std::ostream& out, std::string* err);

} // namespace fx::harness

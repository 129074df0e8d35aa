// review --html DIR (review_html.cpp). Private to the commands library.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "review_pending.h"

namespace fx::harness::review_detail {

/// Writes DIR/index.html (every pending golden: its target, scenario and what it changes,
/// linked to its page) and DIR/<target>/<name>.html for each pending golden of a scenario that
/// loads: the viewer's page of the accepted golden against the pending one (the pending alone
/// for a new scenario), where their rows first differ as the focus. False with *err when a page
/// cannot be written.
bool write_review_pages(const std::string& dir, const ReviewCommand& cmd,
                        const std::vector<Pending>& pending,
                        const std::map<std::string, const Scenario*>& scenarios, std::ostream& out,
                        std::string* err);

} // namespace fx::harness::review_detail

// `fxkcc review`: pending goldens (bless --pending, verify --pending-dir) shown against the
// accepted ones, then accepted into the golden folder or rejected (docs/goldens.md): all those
// shown, those named, or one at a time as a terminal's user answers for each.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <istream>
#include <map>
#include <sstream>
#include <system_error>

#include "records/atomic_file.h"
#include "records/build_info.h"
#include "records/folder_lock.h"
#include "records/paths.h"
#include "records/text.h"
#include "records/trajectory.h"
#include "review_html.h"
#include "review_pending.h"
#include "subcommands.h"

#if defined(_WIN32)
#include <io.h>
#define FX_REVIEW_ISATTY(fd) (_isatty(fd) != 0)
#elif defined(__EMSCRIPTEN__)
#define FX_REVIEW_ISATTY(fd) false // node's streams say; no one answers prompts there
#else
#include <unistd.h>
#define FX_REVIEW_ISATTY(fd) (isatty(fd) != 0)
#endif

namespace fs = std::filesystem;

namespace fx::harness {
namespace rd = review_detail;

namespace {

/// What review takes beyond ReviewCommand (commands.h).
struct ReviewExtras {
    /// --accept NAME... / --reject NAME...: only the pending goldens named (NAME or TARGET/NAME).
    std::vector<std::string> names;
    /// Ask, for each pending golden, what to do with it (a terminal's review without --accept
    /// or --reject): answers are read from `in`.
    bool interactive = false;
    std::istream* in = nullptr;
    /// --html DIR: the viewer's page of each pending golden against the accepted one.
    std::string html_dir;
};

/// Keeps the pending goldens `names` name (NAME: every target's; TARGET/NAME: one); false, with
/// a message, when a name names none of them.
bool keep_named(const std::vector<std::string>& names, std::vector<rd::Pending>* pending,
                const char* action, std::ostream& err) {
    std::vector<bool> keep(pending->size(), false);
    for (const std::string& n : names) {
        bool any = false;
        for (size_t i = 0; i < pending->size(); ++i) {
            const rd::Pending& p = (*pending)[i];
            if (n == p.name || n == p.target + "/" + p.name) keep[i] = any = true;
        }
        if (!any) {
            std::string shown;
            for (const rd::Pending& p : *pending)
                shown += (shown.empty() ? "" : ", ") + p.target + "/" + p.name;
            err << "fxkcc review: no pending golden is named '" << n << "' (pending: " << shown
                << "); nothing " << action << "\n";
            return false;
        }
    }
    std::vector<rd::Pending> kept;
    for (size_t i = 0; i < pending->size(); ++i) {
        if (keep[i]) kept.push_back(std::move((*pending)[i]));
    }
    *pending = std::move(kept);
    return true;
}

void print_pending(const rd::Pending& p, size_t width, std::ostream& out, const Style& style) {
    const std::string label = p.target + "/" + p.name;
    if (!p.error.empty()) {
        out << fmt::format("{}  {:<{}}  {}\n", style.bad("ERROR  "), label, width, p.error);
        return;
    }
    out << fmt::format("{}  {:<{}}  {}; {}\n", style.warning("pending"), label, width, p.change,
                       p.checks);
    std::istringstream lines(p.detail);
    for (std::string line; std::getline(lines, line);)
        out << "           " << line << "\n";
}

/// Removes one pending golden (--reject, or the answer r): only a pending golden, never
/// through a link.
bool reject_one(const ReviewCommand& cmd, const std::string& root, const rd::Pending& p,
                std::ostream& out, std::ostream& err) {
    SuiteOptions from = cmd.suite;
    from.golden_dir = root;
    from.target = p.target;
    std::string why = golden_write_refusal(from, p.name);
    if (why.empty()) why = rd::not_a_pending_golden(root, p);
    if (!why.empty()) {
        err << "fxkcc review: " << why << "; not rejected\n";
        return false;
    }
    std::error_code ec;
    fs::remove(golden_hashes_path(from, p.name), ec);
    fs::remove(golden_csv_path(from, p.name), ec);
    out << "rejected " << p.target << "/" << p.name << "\n";
    return true;
}

/// The answer to "accept (a), reject (r), skip (s), quit (q)?": 'a', 'r', 's' or 'q' (end of
/// input: 'q'); 0 for anything else.
char read_answer(std::istream& in, bool can_accept) {
    std::string line;
    if (!std::getline(in, line)) return 'q';
    std::string a;
    for (const char c : line) {
        if (c != ' ' && c != '\t' && c != '\r')
            a += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if ((a == "a" || a == "accept") && can_accept) return 'a';
    if (a == "r" || a == "reject") return 'r';
    if (a == "s" || a == "skip") return 's';
    if (a == "q" || a == "quit") return 'q';
    return 0;
}

/// A terminal's review: each pending golden shown, then what to do with it asked and done at
/// once. One that cannot be accepted (ERROR) may be rejected or skipped.
int ask_each(const ReviewCommand& cmd, const std::string& root,
             const std::vector<rd::Pending>& pending, size_t width, std::istream& in,
             std::ostream& out, std::ostream& err, const Style& style) {
    const size_t n = pending.size();
    out << n << " pending golden" << (n == 1 ? "" : "s") << " in " << root
        << ": for each, accept (a), reject (r), skip (s) or quit (q)\n";
    size_t accepted = 0, rejected = 0, i = 0;
    for (; i < n; ++i) {
        const rd::Pending& p = pending[i];
        out << "\n";
        print_pending(p, width, out, style);
        char answer = 0;
        while (answer == 0) {
            out << "[" << i + 1 << "/" << n << "] "
                << (p.error.empty() ? "accept (a), reject (r), skip (s), quit (q)? "
                                    : "cannot be accepted; reject (r), skip (s), quit (q)? ")
                << std::flush;
            answer = read_answer(in, p.error.empty());
            if (answer == 0) out << "answer " << (p.error.empty() ? "a, " : "") << "r, s or q\n";
        }
        if (answer == 'q') break;
        if (answer == 's') {
            out << "skipped " << p.target << "/" << p.name << "\n";
            continue;
        }
        if (answer == 'r') {
            if (!reject_one(cmd, root, p, out, err)) return kExitBadInput;
            ++rejected;
            continue;
        }
        SuiteOptions from = cmd.suite;
        from.golden_dir = root;
        from.target = p.target;
        if (const std::string why = golden_write_refusal(from, p.name); !why.empty()) {
            err << "fxkcc review: " << why << "; not accepted\n";
            return kExitBadInput;
        }
        if (!rd::accept_target(cmd, root, p.target, {&p}, out, err)) return kExitCannotTest;
        ++accepted;
    }
    rd::remove_empty(root);
    out << "\n"
        << accepted << " accepted, " << rejected << " rejected, " << n - accepted - rejected
        << " left pending\n";
    return kExitOk;
}

int review_with(const ReviewCommand& cmd, const ReviewExtras& extras, std::ostream& out,
                std::ostream& err, const Style& style) {
    if (cmd.accept && cmd.reject) {
        err << "fxkcc review: --accept and --reject together; choose one\n";
        return kExitBadInput;
    }
    if (const char* ci = std::getenv("CI"); cmd.accept && ci_is_set(ci)) {
        err << "fxkcc review: refusing to accept goldens because CI is set (CI=" << text::shown(ci)
            << "); goldens change only by a deliberate, reviewed commit (review without --accept shows them)\n";
        return kExitBadInput;
    }
    const std::string root =
        cmd.pending_dir.empty() ? default_pending_dir(cmd.suite.golden_dir) : cmd.pending_dir;
    std::error_code ec;
    {
        // Accepting a folder's goldens into itself would remove them.
        if (folders_overlap(root, cmd.suite.golden_dir)) {
            err << "fxkcc review: the pending folder '" << root << "' and the golden folder '"
                << cmd.suite.golden_dir
                << "' overlap; pending goldens live in a folder of their own (default: " +
                       default_pending_dir(cmd.suite.golden_dir) + ")\n";
            return kExitBadInput;
        }
    }
    if (!fs::exists(root, ec)) {
        out << "nothing pending (" << root << " does not exist)\n";
        return kExitOk;
    }
    if (!fs::is_directory(root, ec)) {
        err << "fxkcc review: '" << root << "' is not a folder\n";
        return kExitBadInput;
    }
    std::string found_error;
    std::vector<rd::Pending> pending = rd::find_pending(root, cmd, &found_error);
    if (!found_error.empty()) {
        err << "fxkcc review: " << found_error << "\n";
        return kExitBadInput;
    }
    if (pending.empty()) {
        if (!cmd.suite.filter.empty() && !cmd.suite.allow_empty) {
            err << "fxkcc review: no pending golden's name contains '" << cmd.suite.filter
                << "' (in " << root << "; --allow-empty accepts a filter that selects nothing)\n";
            return kExitBadInput;
        }
        out << "nothing pending in " << root << "\n";
        return kExitOk;
    }
    if (!extras.names.empty() &&
        !keep_named(extras.names, &pending, cmd.accept ? "accepted" : "rejected", err)) {
        return kExitBadInput;
    }
    // Accepting and rejecting remove the pending files: never through a link, never a special
    // file, never in a linked folder (a pending target folder linked to the golden one had
    // --reject delete the accepted goldens: issue 51).
    if (cmd.accept || cmd.reject) {
        SuiteOptions from = cmd.suite;
        from.golden_dir = root;
        for (const rd::Pending& p : pending) {
            from.target = p.target;
            if (const std::string why = golden_write_refusal(from, p.name); !why.empty()) {
                err << "fxkcc review: " << why << "; nothing "
                    << (cmd.accept ? "accepted" : "rejected") << "\n";
                return kExitBadInput;
            }
        }
    }
    if (cmd.reject) {
        // Only pending goldens are removed: a hash file the tool wrote for this scenario and
        // folder, and the CSV it records (any *.hashes / *.csv under a --pending-dir was deleted
        // before: issue 51). One that is not refuses the whole rejection.
        for (const rd::Pending& p : pending) {
            if (const std::string why = rd::not_a_pending_golden(root, p); !why.empty()) {
                err << "fxkcc review: " << why
                    << "; nothing rejected (only pending goldens, written by bless --pending or verify --pending-dir, are removed)\n";
                return kExitBadInput;
            }
        }
        for (const rd::Pending& p : pending) {
            if (!reject_one(cmd, root, p, out, err)) return kExitBadInput;
        }
        rd::remove_empty(root);
        return kExitOk;
    }
    // The scenarios as they are now, by name: each pending golden is checked against its scenario.
    std::vector<std::string> paths;
    std::string error;
    if (!discover_scenarios(cmd.suite, &paths, &error)) {
        err << "fxkcc review: " << error << "\n";
        return kExitBadInput;
    }
    const std::vector<Loaded> loaded = load_all(cmd.suite, paths, 0, err);
    std::map<std::string, const Scenario*> by_name;
    for (const Loaded& l : loaded) {
        if (l.ok) by_name.emplace(l.sc.name, &l.sc);
    }
    int errors = 0;
    size_t width = 8;
    std::map<std::string, rd::ChecksMemo> memo;
    for (rd::Pending& p : pending) {
        rd::examine(root, cmd, by_name, &memo, &p);
        if (!p.error.empty()) ++errors;
        width = std::max(width, p.target.size() + 1 + p.name.size());
    }
    if (!extras.html_dir.empty()) {
        std::string why;
        if (folders_overlap(extras.html_dir, cmd.suite.golden_dir) ||
            folders_overlap(extras.html_dir, root)) {
            err << "fxkcc review: --html '" << extras.html_dir
                << "' overlaps the golden or the pending folder; the pages go to a folder of their own\n";
            return kExitBadInput;
        }
        if (!rd::write_review_pages(extras.html_dir, cmd, pending, by_name, out, &why)) {
            err << "fxkcc review: --html: " << why << "\n";
            return kExitCannotTest;
        }
    }
    if (extras.interactive) return ask_each(cmd, root, pending, width, *extras.in, out, err, style);
    for (const rd::Pending& p : pending)
        print_pending(p, width, out, style);
    if (errors > 0) {
        err << "fxkcc review: " << errors << " pending golden"
            << (errors == 1 ? " cannot" : "s cannot") << " be accepted (ERROR above); "
            << (cmd.accept ? "nothing was accepted" : "reject them with --reject") << "\n";
        return kExitBadInput;
    }
    if (!cmd.accept) {
        out << "\n"
            << pending.size() << " pending golden" << (pending.size() == 1 ? "" : "s") << " in "
            << root << "; accept: fxkcc review"
            << (cmd.pending_dir.empty() ? "" : " --pending-dir " + cmd.pending_dir)
            << " --accept (NAME... or -k TEXT for some), reject: --reject; one at a time: "
               "fxkcc review on a terminal\n";
        return kExitOk;
    }
    std::map<std::string, std::vector<const rd::Pending*>> by_target;
    for (const rd::Pending& p : pending)
        by_target[p.target].push_back(&p);
    out << "\n";
    for (const auto& [target, list] : by_target) {
        if (!rd::accept_target(cmd, root, target, list, out, err)) return kExitCannotTest;
    }
    rd::remove_empty(root);
    return kExitOk;
}

} // namespace

int review_command(const ReviewCommand& cmd, std::ostream& out, std::ostream& err,
                   const Style& style) {
    return review_with(cmd, ReviewExtras{}, out, err, style);
}

namespace {

class ReviewSubcommand final : public Subcommand {
public:
    void declare(OptionSet& app) override {
        add_suite_options(app, &cmd_.suite);
        app.add("--pending-dir", &cmd_.pending_dir,
                "The pending folder (default: <golden-dir>.pending)");
        app.add("--accept", &accept_,
                "Accept into the golden folder the pending goldens shown, or those named (NAME: "
                "every target's, TARGET/NAME: one)")
            .expected(0, -1)
            .type_name("[NAME...]");
        app.add("--reject", &reject_,
                "Remove the pending goldens shown, or those named (NAME or TARGET/NAME)")
            .expected(0, -1)
            .type_name("[NAME...]");
        app.add("--html", &html_dir_,
                "Write DIR/index.html and a page per pending golden: the accepted golden against "
                "the pending one, where they part (docs/viewer.md)")
            .type_name("DIR");
        app.flag("--list", &list_,
                 "Only show the pending goldens, never ask (on a terminal, review without "
                 "--accept or --reject asks for each: accept, reject, skip or quit)");
    }
    int run(const Invocation& inv) override {
        // A value CLI11 gives an option that takes none is "": the option alone (all shown).
        ReviewExtras extras;
        extras.html_dir = html_dir_;
        for (const std::vector<std::string>* values : {&accept_, &reject_}) {
            for (const std::string& v : *values) {
                std::error_code ec;
                const fs::path p(v);
                // A scenario file or folder after --accept (as before NAME... existed) is one.
                if ((p.extension() == ".yaml" || p.extension() == ".yml" ||
                     fs::is_directory(p, ec)) &&
                    fs::exists(p, ec)) {
                    cmd_.suite.inputs.push_back(v);
                } else if (!v.empty()) {
                    extras.names.push_back(v);
                }
            }
        }
        cmd_.accept = !accept_.empty();
        cmd_.reject = !reject_.empty();
        extras.interactive = !cmd_.accept && !cmd_.reject && !list_ && FX_REVIEW_ISATTY(0) &&
                             FX_REVIEW_ISATTY(1) && !ci_is_set(std::getenv("CI"));
        extras.in = &std::cin;
        return review_with(cmd_, extras, inv.out, inv.err, inv.out_style);
    }

private:
    ReviewCommand cmd_;
    std::vector<std::string> accept_, reject_;
    bool list_ = false;
    std::string html_dir_;
};

} // namespace

std::unique_ptr<Subcommand> make_review_subcommand() {
    return std::make_unique<ReviewSubcommand>();
}

} // namespace fx::harness

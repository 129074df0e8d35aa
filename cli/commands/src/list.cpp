// `fxkcc list`: the scenarios of a suite, as tab-separated lines or as the Markdown sections of
// docs/conformance.md.
#include <fmt/format.h>

#include "records/text.h"
#include "subcommands.h"

namespace fx::harness {
namespace {

std::string plural(size_t n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// One scenario as a Markdown section (docs/conformance.md is generated from these).
/// A scenario's prose as one line of the list: without its last line breaks (a folded YAML
/// scalar ends with one), what a terminal or a CI log would act on escaped (text::shown).
std::string one_line(std::string_view prose) {
    while (!prose.empty() && (prose.back() == '\n' || prose.back() == '\r'))
        prose.remove_suffix(1);
    return text::shown(prose);
}

/// A scenario's prose as Markdown: its lines kept, each shown (text::shown), and a line that
/// would begin with "::" (a GitHub Actions command, if the list is printed in a CI log) begun
/// with "\:" instead, which Markdown shows as ':'.
std::string markdown_prose(std::string_view prose) {
    std::string o;
    text::Lines lines(prose);
    std::string_view line;
    for (bool first = true; lines.next(&line); first = false) {
        std::string l = text::shown(line);
        const size_t start = l.find_first_not_of(' ');
        if (start != std::string::npos && l.compare(start, 2, "::") == 0) l.insert(start, "\\");
        o += (first ? "" : "\n") + l;
    }
    return o;
}

void list_markdown(const Scenario& sc, const std::string& path, std::ostream& out) {
    const size_t expectations =
        sc.expect_states.size() + sc.expect_metrics.size() + sc.expect_same_as.size();
    out << "### " << sc.name << "\n\n`" << path
        << "`: " << plural(static_cast<size_t>(sc.ticks), "tick") << ", "
        << plural(sc.characters.size(), "character") << ", " << plural(expectations, "expectation")
        << "\n\n"
        << markdown_prose(sc.description) << "\n\n";
    if (!sc.deviation.empty())
        out << "**Accepted deviation from KCC-SPEC:** " << markdown_prose(sc.deviation) << "\n\n";
}

} // namespace

int list_command(const SuiteOptions& suite, bool markdown, std::ostream& out, std::ostream& err) {
    std::vector<std::string> paths;
    std::string error;
    if (!discover_scenarios(suite, &paths, &error)) {
        err << "fxkcc list: " << error << "\n";
        return kExitBadInput;
    }
    int code = kExitOk;
    const std::vector<Loaded> loaded = load_all(suite, paths, 0, err);
    for (size_t i : select_scenarios(suite, paths, loaded)) {
        const std::string& p = paths[i];
        const Scenario& sc = loaded[i].sc;
        if (!loaded[i].ok) {
            err << loaded[i].error << "\n";
            code = kExitBadInput;
            continue;
        }
        if (markdown) {
            list_markdown(sc, p, out);
            continue;
        }
        out << fmt::format("{}\t{} ticks\t{} characters\t{}\t{}\n", sc.name, sc.ticks,
                           sc.characters.size(), p, one_line(sc.description));
    }
    return code;
}

namespace {

class ListSubcommand final : public Subcommand {
public:
    void declare(OptionSet& app) override {
        add_suite_options(app, &suite_);
        app.flag("--markdown", &markdown_,
                 "One Markdown section per scenario (docs/conformance.md)");
    }
    int run(const Invocation& inv) override {
        return list_command(suite_, markdown_, inv.out, inv.err);
    }

private:
    SuiteOptions suite_;
    bool markdown_ = false;
};

} // namespace

std::unique_ptr<Subcommand> make_list_subcommand() {
    return std::make_unique<ListSubcommand>();
}

} // namespace fx::harness

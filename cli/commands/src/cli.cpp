// fxkcc_main: the command line built from the command table, parsed by CLI11; and the
// OptionSet the subcommands declare their options with (commands/option_set.h). The only file
// that includes CLI11.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <limits>

#include <cstdlib>
#include <vector>

#include "records/build_info.h"
#include "records/text.h"
#include "subcommands.h"

namespace fx::harness {
namespace {

const char* kExitCodes = "Exit codes (as git bisect run reads them):\n"
                         "  0    everything matched\n"
                         "  1    a golden mismatch, a stale or a missing golden\n"
                         "  2    bad usage or bad input (scenario, golden or CSV file)\n"
                         "  125  cannot test (cannot write an output, setup failure)\n"
                         "Each command's --help says what its own codes mean.\n";

/// Integers on the command line are decimal, whole and within their type: "010" is ten (CLI11
/// reads a leading 0 as octal, and 0x/0b as hexadecimal and binary), "1e3", "12abc" and a value
/// past the type's range are refused, not read as something else or clamped.
template <typename T> CLI::Validator decimal_integer() {
    return CLI::Validator(
        [](std::string& v) -> std::string {
            T parsed{};
            const char* const begin = v.data();
            const char* const end = begin + v.size();
            const auto [stop, ec] = std::from_chars(begin, end, parsed);
            if (ec == std::errc::result_out_of_range)
                return "expected a whole number from " +
                       std::to_string(std::numeric_limits<T>::min()) + " to " +
                       std::to_string(std::numeric_limits<T>::max()) + ", found " + text::quote(v);
            if (ec != std::errc{} || stop != end)
                return "expected a whole number in decimal digits, found " + text::quote(v);
            v = std::to_string(parsed); // CLI11 then reads no leading zero as octal
            return std::string();
        },
        "");
}

} // namespace

Opt& Opt::required() {
    o_->required();
    return *this;
}
Opt& Opt::expected(int min, int max) {
    o_->expected(min, max);
    return *this;
}
Opt& Opt::take_all() {
    o_->take_all();
    return *this;
}
Opt& Opt::delimiter(char c) {
    o_->delimiter(c);
    return *this;
}
Opt& Opt::range(int64_t lo, int64_t hi) {
    o_->check(CLI::Range(lo, hi));
    return *this;
}
Opt& Opt::show_default() {
    o_->capture_default_str();
    return *this;
}
Opt& Opt::target_name() {
    o_->check(CLI::Validator(
        [](std::string& v) -> std::string {
            return valid_target_name(v)
                       ? std::string()
                       : "expected a target folder name such as x86_64-linux, found '" + v + "'";
        },
        "TARGET"));
    return *this;
}
Opt& Opt::type_name(const char* name) {
    o_->type_name(name);
    return *this;
}

Opt OptionSet::add(const char* names, std::string* value, const char* help) {
    return Opt(app_->add_option(names, *value, help));
}
Opt OptionSet::add(const char* names, std::vector<std::string>* values, const char* help) {
    return Opt(app_->add_option(names, *values, help));
}
Opt OptionSet::add(const char* names, int* value, const char* help) {
    return Opt(app_->add_option(names, *value, help)->transform(decimal_integer<int>()));
}
Opt OptionSet::add(const char* names, int64_t* value, const char* help) {
    return Opt(app_->add_option(names, *value, help)->transform(decimal_integer<int64_t>()));
}
Opt OptionSet::add(const char* names, std::vector<int64_t>* values, const char* help) {
    return Opt(app_->add_option(names, *values, help)->transform(decimal_integer<int64_t>()));
}
Opt OptionSet::flag(const char* names, bool* value, const char* help) {
    return Opt(app_->add_flag(names, *value, help));
}
Opt OptionSet::custom(const char* names, std::function<std::string(const std::string&)> parse,
                      const char* help) {
    const std::string name = names;
    return Opt(app_->add_option_function<std::string>(
        names,
        [name, parse = std::move(parse)](const std::string& v) {
            if (std::string why = parse(v); !why.empty()) throw CLI::ValidationError(name, why);
        },
        help));
}

int fxkcc_main(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
               bool out_terminal, bool err_terminal) {
    CLI::App app{
        "fxkcc: deterministic replay and conformance harness for a fixed-point kinematic character "
        "controller"};
    app.footer(kExitCodes);
    app.require_subcommand(0, 1);
    bool version = false;
    app.add_flag("--version", version,
                 "Print the target, compiler, numeric format, engine and hash versions");
    ColourMode colour = ColourMode::kAuto;
    OptionSet(app)
        .custom(
            "--color",
            [&colour](const std::string& v) {
                return parse_colour_mode(v, &colour)
                           ? std::string()
                           : "expected auto, always or never, found '" + v + "'";
            },
            "Colour the output: auto (on a terminal, unless NO_COLOR is set), always or never")
        .type_name("WHEN");

    struct Declared {
        CLI::App* app;
        std::unique_ptr<Subcommand> command;
    };
    std::vector<Declared> declared;
    for (const CommandEntry& entry : command_table()) {
        Declared d{app.add_subcommand(entry.name, entry.help), entry.make()};
        d.app->footer(entry.exit_codes);
        d.app->fallthrough(); // --color after the subcommand's name, too
        OptionSet options(*d.app);
        d.command->declare(options);
        declared.push_back(std::move(d));
    }
    // Every message may quote an argument (a path, an option's value): one holding a control or
    // bidirectional character would rewrite the terminal, or start a CI log's command line after
    // a line break, so none gets that far.
    for (int i = 1; i < argc; ++i) {
        if (text::has_acting_character(argv[i])) {
            err << "fxkcc: argument " << i << ", '" << text::shown(argv[i])
                << "', holds a control or bidirectional character: refused (a terminal or a CI "
                   "log would act on it; rename the file)\n";
            return kExitBadInput;
        }
    }
    // A first word that is no command, not an option: name the command it was probably meant to be.
    if (argc > 1 && argv[1][0] != '-') {
        std::vector<std::string> names;
        for (const CommandEntry& entry : command_table())
            names.emplace_back(entry.name);
        const std::string word = argv[1];
        if (std::find(names.begin(), names.end(), word) == names.end()) {
            err << "fxkcc: unknown command " << text::quote(word);
            if (const std::string* pick = text::closest_word(word, names); pick != nullptr) {
                err << ", did you mean '" << *pick << "'?\n";
            } else {
                std::string list;
                for (const std::string& n : names)
                    list += (list.empty() ? "" : ", ") + n;
                err << ", expected one of: " << list << "\n";
            }
            return kExitBadInput;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e, out, err);
        return rc == 0 ? kExitOk : kExitBadInput;
    }
    if (version) {
        out << version_text();
        return kExitOk;
    }
    const char* no_color = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    Invocation inv{out,
                   err,
                   Style{colour_wanted(colour, out_terminal, no_color, term)},
                   Style{colour_wanted(colour, err_terminal, no_color, term)},
                   err_terminal,
                   self_path(argc > 0 ? argv[0] : "fxkcc")};
    for (Declared& d : declared) {
        if (d.app->parsed()) return d.command->run(inv);
    }
    out << app.help();
    return kExitBadInput;
}

} // namespace fx::harness

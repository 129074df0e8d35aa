// How a subcommand declares its options without CLI11's headers, which cost seconds of compile
// time in every file that includes them: one file (commands/src/cli.cpp) includes CLI11 and
// implements these over it. Names and behaviour are CLI11's ("-o,--output"; a name without a
// dash is positional).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
} // namespace CLI

namespace fx::harness {

/// One declared option, to refine.
class Opt {
public:
    explicit Opt(CLI::Option* o) : o_(o) {}
    Opt& required();
    Opt& expected(int min, int max); ///< how many values
    Opt& take_all(); ///< given twice: both values kept
    Opt& delimiter(char c); ///< one argument holds several values ("1,2,3")
    Opt& range(int64_t lo, int64_t hi);
    Opt& show_default(); ///< the member's value at declaration, in the help
    Opt& target_name(); ///< each value a golden target folder name (valid_target_name)
    Opt& type_name(const char* name);

private:
    CLI::Option* o_;
};

class OptionSet {
public:
    explicit OptionSet(CLI::App& app) : app_(&app) {}
    Opt add(const char* names, std::string* value, const char* help);
    Opt add(const char* names, std::vector<std::string>* values, const char* help);
    Opt add(const char* names, int* value, const char* help);
    Opt add(const char* names, int64_t* value, const char* help);
    Opt add(const char* names, std::vector<int64_t>* values, const char* help);
    Opt flag(const char* names, bool* value, const char* help);
    /// An option whose text `parse` checks and applies: it returns "" or what was expected,
    /// which the command line reports as "NAME: what was expected" with exit code 2.
    Opt custom(const char* names, std::function<std::string(const std::string&)> parse,
               const char* help);

private:
    CLI::App* app_;
};

} // namespace fx::harness

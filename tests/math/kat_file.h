// Reading the numeric known-answer file (tests/math/kat.txt). Format, one operation a line:
//   <op> <operand>... -> <result>...
// '#' starts a comment line. Tokens are separated by single spaces. See fx/kat.h for operations.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fxtest {

struct KatLine {
    int line_no = 0;
    std::string op;
    std::vector<std::string> args;
    std::vector<std::string> expected;
    bool has_arrow = false;
};

inline std::vector<KatLine> read_kat(std::istream& in) {
    std::vector<KatLine> out;
    std::string text;
    int no = 0;
    while (std::getline(in, text)) {
        ++no;
        if (!text.empty() && text.back() == '\r') text.pop_back();
        if (text.empty() || text[0] == '#') continue;
        std::istringstream ss(text);
        KatLine k;
        k.line_no = no;
        ss >> k.op;
        std::string tok;
        while (ss >> tok) {
            if (tok == "->") {
                k.has_arrow = true;
                continue;
            }
            (k.has_arrow ? k.expected : k.args).push_back(tok);
        }
        out.push_back(std::move(k));
    }
    return out;
}

} // namespace fxtest

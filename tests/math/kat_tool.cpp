// fx_kat: runs known-answer lines through fx::kat::evaluate.
//   fx_kat emit  < ops.txt    prints each "<op> <args>" line with " -> <results>" appended
//   fx_kat check < kat.txt    exit 0 when every line matches, 1 otherwise (first mismatches named)
// scripts/gen-kat.py uses "emit"; cross-target builds may use "check" directly.
#include <iostream>
#include <string>

#include "fx/kat.h"
#include "kat_file.h"

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode != "emit" && mode != "check") {
        std::cerr << "usage: fx_kat emit|check < file\n";
        return 2;
    }
    const auto lines = fxtest::read_kat(std::cin);
    std::vector<std::string> results;
    std::string error;
    int bad = 0;
    for (const auto& k : lines) {
        if (!fx::kat::evaluate(k.op, k.args, &results, &error)) {
            std::cerr << "line " << k.line_no << ": " << error << "\n";
            return 2;
        }
        if (mode == "emit") {
            std::cout << k.op;
            for (const auto& a : k.args)
                std::cout << ' ' << a;
            std::cout << " ->";
            for (const auto& r : results)
                std::cout << ' ' << r;
            std::cout << '\n';
        } else if (results != k.expected && ++bad <= 10) {
            std::cerr << "line " << k.line_no << ": " << k.op << " mismatch\n";
        }
    }
    if (mode == "check")
        std::cout << lines.size() - static_cast<std::size_t>(bad) << " passed, " << bad
                  << " failed\n";
    return bad == 0 ? 0 : 1;
}

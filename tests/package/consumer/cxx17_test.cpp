// A C++17 engine's use of the package: <fxkcc/fxkcc.hpp> alone, compiled as C++17 with
// -pedantic-errors (the controller's own headers need C++20). Given a golden hash file of
// scenarios/conformance/stop-time-62.yaml, that scenario built from its own numbers and every
// tick's checksum matched against the golden; then a rollback (snapshot, 20 ticks, restore, the
// same 20 checksums again), a recording in memory, and the error paths. Exit 0 when every check
// holds, 1 naming the first that fails.
#include <fxkcc/fxkcc.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#if __cplusplus >= 202002L
#error "this test proves the C++17 interface: compile it as C++17"
#endif

namespace {

int failures = 0;
void check(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "cxx17_test: check failed: %s\n", what);
        ++failures;
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: cxx17_test STOP_TIME_62_HASHES\n");
        return 2;
    }
    using fxkcc::fixed_from_decimal;
    fxkcc::World w;
    w.add_box(1, fxkcc::vec3("0", "-0.5", "10"), fxkcc::vec3("30", "0.5", "30"));
    const char* const spawn_x[4] = {"0", "5", "-5", "-10"};
    for (uint32_t k = 0; k < 4; ++k)
        w.add_character(k + 1,
                        fxkcc_vec3{fixed_from_decimal(spawn_x[k]), fixed_from_decimal("0.015"), 0});
    // A refused setting throws with the library's text, and adds nobody.
    fxkcc_settings bad = fxkcc::default_settings();
    bad.radius = -fxkcc::ONE;
    try {
        w.add_character(9, fxkcc_vec3{0, 0, 0}, bad);
        check(false, "a negative radius was accepted");
    } catch (const fxkcc::Error& e) {
        check(e.status() == FXKCC_INVALID_ARGUMENT, "the status of a negative radius");
        check(std::string(e.what()).find("radius") != std::string::npos,
              "the text names the radius");
    }
    w.build();
    check(w.character_count() == 4, "four characters");
    const char* const run[4][2] = {{"0", "1"}, {"0.6", "0.8"}, {"0", "0.575"}, {"0", "1"}};
    const char* const after[4][2] = {{"0", "0"}, {"0", "0"}, {"0", "0"}, {"0.1", "0.05"}};
    std::ifstream golden(argv[1]);
    std::string line;
    int ticks = 0;
    std::vector<uint8_t> snap;
    std::vector<uint64_t> sums;
    std::vector<fxkcc_input> inputs(4, fxkcc_input{});
    while (std::getline(golden, line)) {
        unsigned long long tick = 0, expected = 0;
        if (std::sscanf(line.c_str(), "%llu %16llx", &tick, &expected) != 2) continue;
        for (size_t k = 0; k < 4; ++k) {
            const auto& s = tick < 40 ? run[k] : after[k];
            inputs[k].stick_x = fixed_from_decimal(s[0]);
            inputs[k].stick_y = fixed_from_decimal(s[1]);
        }
        if (tick == 30) snap = w.snapshot();
        w.step(inputs);
        if (tick >= 30 && tick < 50) sums.push_back(w.checksum());
        if (w.checksum() != expected) {
            std::fprintf(stderr,
                         "cxx17_test: tick %llu: checksum %016llx, the golden records %016llx\n",
                         tick, static_cast<unsigned long long>(w.checksum()), expected);
            return 1;
        }
        ++ticks;
    }
    check(ticks == 70, "70 ticks of the golden");
    const fxkcc_character_state c = w.character(0);
    check(c.id == 1 && c.grounded == 1, "character 1 grounded");
    check(c.position.y - fixed_from_decimal("0.015") <= 2 &&
              fixed_from_decimal("0.015") - c.position.y <= 2,
          "one skin above the floor");
    // The rollback: back to before tick 30, the same inputs, the same checksums.
    w.restore(snap);
    check(w.tick() == 30, "restored to tick 30");
    for (size_t t = 30; t < 50; ++t) {
        for (size_t k = 0; k < 4; ++k) {
            const auto& s = t < 40 ? run[k] : after[k];
            inputs[k].stick_x = fixed_from_decimal(s[0]);
            inputs[k].stick_y = fixed_from_decimal(s[1]);
        }
        w.step(inputs);
        check(w.checksum() == sums[t - 30], "the same checksum after the rollback");
    }
    try {
        (void)w.character(4);
        check(false, "character 4 exists");
    } catch (const fxkcc::Error& e) {
        check(e.status() == FXKCC_NOT_FOUND, "no character at index 4");
    }
    fxkcc::World moved = std::move(w);
    check(moved.tick() == 50, "a moved world keeps its state");
    // A recording in memory: the scenario first, the checksums last.
    fxkcc::World r;
    r.add_box(1, fxkcc::vec3("0", "-0.5", "0"), fxkcc::vec3("20", "0.5", "20"));
    r.add_character(1, fxkcc::vec3("0", "0.015", "0"));
    r.build();
    r.record();
    for (int t = 0; t < 10; ++t)
        r.step(std::vector<fxkcc_input>{fxkcc_input{0, fxkcc::ONE, t == 3, {0, 0, 0}}});
    const std::vector<fxkcc::RecordedFile> files = r.recording("cxx17");
    check(files.size() == 3 && files.front().path == "cxx17.yaml" &&
              files.back().path == "cxx17.checksums",
          "a recording of three files");
    check(fxkcc::fixed_to_double(fxkcc::fixed_from_double(0.75)) == 0.75, "the float boundary");
    if (failures != 0) return 1;
    std::printf(
        "cxx17_test: stop-time-62 through <fxkcc/fxkcc.hpp> as C++%ld: %d ticks, every checksum the "
        "golden's; a rollback, a recording and the errors\n",
        static_cast<long>(__cplusplus / 100 % 100), ticks);
    return 0;
}

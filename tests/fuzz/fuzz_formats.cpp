// The readers of the harness's own files (tests/fuzz/corpus/formats/). The first byte picks the
// reader, the rest is the file's text:
//   0  hash file / golden (parse_hash_file): a file it reads writes back (hash_file_text) to
//      text that reads to the same HashFile, and compares equal to itself
//   1  trajectory CSV (parse_trajectory): rows it reads write back (trajectory_row_text) to
//      text that reads to the same rows, and compare equal to themselves
//   2  input CSV of a scenario (the loader's parse_input_csv), ticks from the second byte
//   3  Wavefront OBJ (the loader's parse_obj): indices refer to read vertices
//   4  solver traces: the text split at the first NUL into two traces (first_trace_difference,
//      what `fxkcc desync` reads), and each line as an --inject-fault value (parse_fault)
//   (the first byte 255) a recording's checksum file (parse_checksum_file): what it reads
//      writes back, in the recorder's text, to the same checksums
// Every reader must refuse bad text with a message and never crash.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "forensics/desync.h"
#include "fuzz_util.h"
#include "loader_text.h"
#include "loader_yaml.h"
#include "records/checksums.h"
#include "records/compare.h"
#include "records/hash_file.h"
#include "records/trajectory.h"
#include "run/fault.h"

namespace {

using fx::fuzz::require;
using namespace fx::harness;

void hash_file(std::string_view text) {
    HashFile f;
    std::string err;
    if (!parse_hash_file(text, "fuzz.hashes", &f, &err)) {
        require(!err.empty(), "hash file refused without a message");
        return;
    }
    const std::string written = hash_file_text(f);
    HashFile g;
    require(parse_hash_file(written, "fuzz-written.hashes", &g, &err),
            "a hash file written from one just read does not read: " + err + "\n--- written ---\n" +
                written);
    require(g == f, "a hash file changed through write and read\n--- written ---\n" + written);
    require(hash_file_text(g) == written, "writing a hash file twice gave different text");
    require(!first_divergence(f, g).diverged, "a hash file diverges from itself");
    require(incomparable_reason(f.header, g.header).empty(),
            "a hash file is incomparable with itself");
}

std::string trajectory_text(const std::vector<TrajectoryRow>& rows, bool with_render) {
    std::string out = std::string(kTrajectoryMagic) + " " + std::to_string(kTrajectoryFormat) +
                      "\n" + trajectory_columns(with_render) + "\n";
    for (const TrajectoryRow& r : rows) {
        out +=
            trajectory_row_text(r.tick, r.state, r.has_render ? &r.render : nullptr, with_render) +
            "\n";
    }
    return out;
}

void trajectory(std::string_view text) {
    std::vector<TrajectoryRow> rows;
    bool with_render = false;
    std::string err;
    if (!parse_trajectory(text, "fuzz.csv", &rows, &with_render, &err)) {
        require(!err.empty(), "trajectory refused without a message");
        return;
    }
    const std::string written = trajectory_text(rows, with_render);
    std::vector<TrajectoryRow> again;
    bool with_render2 = false;
    require(parse_trajectory(written, "fuzz-written.csv", &again, &with_render2, &err),
            "a trajectory written from one just read does not read: " + err +
                "\n--- written ---\n" + written);
    require(with_render2 == with_render && again.size() == rows.size(),
            "a trajectory changed shape through write and read");
    const CsvDivergence d = first_divergence(rows, again);
    require(!d.diverged,
            "a trajectory changed through write and read: " + format_csv_divergence(d));
    require(trajectory_text(again, with_render2) == written,
            "writing a trajectory twice gave different text");
}

void input_csv(std::string_view text, int64_t ticks) {
    InputStream in;
    try {
        detail::parse_input_csv(text, "fuzz.csv", ticks, &in);
    } catch (const detail::Failure& f) {
        require(!f.error.message.empty(), "input CSV refused without a message");
        return;
    }
    int64_t last = 0;
    for (const StickSegment& s : in.sticks) {
        require(s.from >= last && s.to > s.from && s.to <= ticks,
                "input CSV: stick segments out of order or range");
        last = s.to;
    }
    for (size_t i = 0; i < in.jumps.size(); ++i) {
        require(in.jumps[i] >= 0 && in.jumps[i] < ticks &&
                    (i == 0 || in.jumps[i] > in.jumps[i - 1]),
                "input CSV: jumps out of order or range");
    }
    for (size_t i = 0; i < in.impulses.size(); ++i) {
        require(in.impulses[i].tick >= 0 && in.impulses[i].tick < ticks &&
                    (i == 0 || in.impulses[i].tick >= in.impulses[i - 1].tick),
                "input CSV: impulses out of order or range");
    }
}

void obj(std::string_view text) {
    std::vector<fx::Vec3> vertices;
    std::vector<uint32_t> indices;
    try {
        detail::parse_obj(text, "fuzz.obj", &vertices, &indices);
    } catch (const detail::Failure& f) {
        require(!f.error.message.empty(), "OBJ refused without a message");
        return;
    }
    require(indices.size() % 3 == 0, "OBJ: indices not in triples");
    for (uint32_t i : indices)
        require(i < vertices.size(), "OBJ: an index past the vertices read");
}

void traces(std::string_view text) {
    const size_t nul = text.find('\0');
    const std::string_view a = text.substr(0, nul);
    const std::string_view b =
        nul == std::string_view::npos ? std::string_view{} : text.substr(nul + 1);
    const TraceDifference same = first_trace_difference(a, a, 3);
    require(!same.differs, "a trace differs from itself");
    const TraceDifference d = first_trace_difference(a, b, 3);
    if (d.differs) {
        require(d.line >= 1 && d.context.size() <= 3 && d.context.size() < d.line,
                "trace difference: bad line or context");
        require(d.a != d.b || d.a.empty(), "trace difference at two equal lines");
    }
    size_t pos = 0;
    while (pos <= a.size()) {
        size_t nl = a.find('\n', pos);
        if (nl == std::string_view::npos) nl = a.size();
        Fault fault;
        std::string err;
        if (parse_fault(a.substr(pos, nl - pos), &fault, &err)) {
            require(fault.bits >= 1 && fault.bits <= 64, "fault: bits out of range");
            fx::kcc::CharacterState s;
            require(apply_fault(fault, &s, &err), "a parsed fault does not apply: " + err);
        } else {
            require(!err.empty(), "fault refused without a message");
        }
        pos = nl + 1;
    }
}

void checksums(std::string_view text) {
    std::vector<uint64_t> sums;
    std::string err;
    if (!parse_checksum_file(text, "fuzz.checksums", &sums, &err)) {
        require(!err.empty() && err.rfind("fuzz.checksums:", 0) == 0,
                "checksum file refused without a located message");
        return;
    }
    std::string written =
        "fxkcc-checksums 1\nhash xxh3-64\nticks " + std::to_string(sums.size()) + "\n";
    for (size_t t = 0; t < sums.size(); ++t)
        written += std::to_string(t) + " " + hex16(sums[t]) + "\n";
    written += "end " + std::to_string(sums.size()) + "\n";
    std::vector<uint64_t> again;
    require(parse_checksum_file(written, "fuzz-written.checksums", &again, &err),
            "written checksums do not read: " + err);
    require(again == sums, "checksums differ after a round trip");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (data[0] == 255) { // (255 % 5 would be 0: the hash file reader has the other bytes)
        checksums(text);
        return 0;
    }
    switch (data[0] % 5) {
    case 0:
        hash_file(text);
        break;
    case 1:
        trajectory(text);
        break;
    case 2:
        input_csv(text.empty() ? text : text.substr(1),
                  text.empty() ? 1 : 1 + static_cast<uint8_t>(text[0]) * 40);
        break;
    case 3:
        obj(text);
        break;
    default:
        traces(text);
        break;
    }
    return 0;
}

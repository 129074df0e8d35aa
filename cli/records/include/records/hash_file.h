// The hash file ("golden" when committed): per-tick hashes of a run, as diffable text.
// Full description with an example: docs/formats.md, "Hash file".
//
// Version 1, LF line endings, one item per line, "key value" with the value running to the end
// of the line (so compiler names and flags may contain spaces):
//
//   fxkcc-hashes 1
//   hash xxh3-64
//   state-bytes 2
//   platform-bytes 1
//   engine fxkcc 0.1.0
//   behaviour 1
//   scenario <name>
//   digest <16 lowercase hex: digest of the scenario's content>
//   target <target triple>
//   compiler <compiler and version>
//   flags <compile flags>
//   wide <int128|portable>
//   ticks <N>
//   every <K>                                 only when K > 1 (scenario key golden_every)
//   csv <16 lowercase hex>                    goldens written by bless: XXH3-64 of the
//                                             trajectory CSV that belongs to this file
//   blessed-by <target>                       only when a build of another target wrote it
//                                             (bless --other-target)
//   keys <key>=<16 hex> ...                   goldens written since issue 53: a digest per
//                                             top-level scenario key (which ones made it stale)
//   entities c1 c2 p50
//   <tick> <world hash> <entity hash> ...     one line per recorded tick, in order
//   end <N>
//
// Recorded ticks: every tick (K = 1), else ticks K-1, 2K-1, ... and the last tick N-1, so that
// a 90,000-tick soak run keeps goldens of a reasonable size.
//
// Tick t is the state after t+1 steps (the initial state is not hashed). Hashes are 16 lowercase
// hex digits. The reader refuses (see read_hash_file) rather than compare what it cannot
// honestly compare.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kcc/state_bytes.h"
#include "records/atomic_file.h"
#include "records/tick_hash.h"

namespace fx::harness {

/// Hash file format version this build writes and reads.
inline constexpr int kHashFileFormat = 1;
inline constexpr std::string_view kHashFileMagic = "fxkcc-hashes";

/// Where a capture was made: informational, compared by nobody (goldens of different targets
/// must agree bit for bit).
struct Provenance {
    std::string target; ///< e.g. "x86_64-linux-gnu"
    std::string compiler; ///< e.g. "GNU 12.2.0"
    std::string flags; ///< e.g. "-O2 -DNDEBUG"
    std::string wide; ///< "int128" or "portable" (the 128-bit path the build used)
    friend bool operator==(const Provenance&, const Provenance&) = default;
};

struct HashFileHeader {
    int format = kHashFileFormat;
    std::string hash_algo = std::string(kHashAlgorithm);
    int state_bytes = kcc::kStateBytesVersion;
    int platform_bytes = kPlatformBytesVersion;
    std::string engine = "fxkcc 0.1.0";
    int behaviour = 1;
    std::string scenario; ///< scenario name (no line breaks)
    std::string digest; ///< 16 lowercase hex digits
    Provenance provenance;
    int64_t ticks = 0; ///< ticks of the run
    int64_t every = 1; ///< recording stride (see recorded_tick)
    /// Goldens (bless): digest of the trajectory CSV blessed with this file (hex16 of XXH3-64
    /// of its bytes); empty in hash files of `run --hashes` and in goldens blessed before it.
    std::string csv_digest;
    /// The target of the build that wrote a golden into another target's folder (`bless
    /// --other-target`); empty when the build's target is the folder's, as it should be.
    std::string blessed_by;
    /// A digest of each top-level scenario key ("world=<16 hex> ticks=<16 hex> ...",
    /// scenario_key_digests), so that a stale golden names what changed; empty in hash files
    /// written before it (optional: they read as before).
    std::string keys;
    std::vector<EntityRef> entities; ///< canonical entity order (records.h)
    friend bool operator==(const HashFileHeader&, const HashFileHeader&) = default;
};

/// Whether tick t of a run of `ticks` ticks is recorded with stride `every`.
constexpr bool recorded_tick(int64_t t, int64_t ticks, int64_t every) {
    return every <= 1 || (t + 1) % every == 0 || t == ticks - 1;
}
/// Number of recorded ticks.
constexpr int64_t recorded_count(int64_t ticks, int64_t every) {
    if (every <= 1 || ticks <= 0) return ticks;
    return ticks / every + (ticks % every != 0 ? 1 : 0);
}

struct HashFile {
    HashFileHeader header;
    std::vector<TickHashes>
        ticks; ///< the recorded ticks in order (ticks[t].tick == t when every is 1)
    friend bool operator==(const HashFile&, const HashFile&) = default;
};

/// Checks a header can be written: text values without line breaks, 16-hex digest, entities in
/// canonical order without duplicates, ticks >= 0. "" when fine, else the reason.
std::string validate_header(const HashFileHeader& h);

/// Streams a hash file: open() writes the header to "<path>.tmp.<pid>", write() appends one tick
/// line, commit() writes the trailer and renames into place. Destroyed without a successful
/// commit(), it removes the temporary file and leaves `path` untouched.
class HashFileWriter {
public:
    bool open(const std::string& path, const HashFileHeader& header, std::string* err);
    /// Ticks must come in order 0, 1, ... with one hash per header entity.
    bool write(const TickHashes& tick, std::string* err);
    /// Refuses (and abandons the file) unless exactly header.ticks ticks were written.
    bool commit(std::string* err);

private:
    AtomicFile file_;
    HashFileHeader header_;
    int64_t next_tick_ = 0;
    std::string line_; ///< reused line buffer
};

/// The whole file as text, identical to what HashFileWriter writes. Writes "ticks"/"end" as
/// file.ticks.size() (header.ticks is expected to equal it).
std::string hash_file_text(const HashFile& file);

/// Reads and validates a hash file. Errors are "<path>:<line>: <what>", e.g.
///   "g.hashes:1: not an fxkcc hash file (first line 'hello')"
///   "g.hashes:1: hash file format 2 is newer than this build reads (1)"
///   "g.hashes:3: hashed with state-bytes 1, this build writes 2: regenerate the goldens"
///   "g.hashes:17: expected tick 2, found '3'"
///   "g.hashes:302: truncated file: expected 'end 300', found end of file"
/// A trailing '\r' on any line is ignored (a checkout with CRLF conversion still reads).
bool read_hash_file(const std::string& path, HashFile* out, std::string* err);
/// Same, from text; `display` names the source in messages.
bool parse_hash_file(std::string_view text, const std::string& display, HashFile* out,
                     std::string* err);

/// Lowercase, 16 digits.
std::string hex16(uint64_t v);
/// An entity's cell in a tick line: hex16, or "-" for kAbsentHash (a character absent then).
std::string entity_cell(uint64_t v);

} // namespace fx::harness

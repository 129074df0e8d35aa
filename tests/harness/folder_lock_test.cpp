// The golden folder's lock and the replacing rename: what lets two blesses run at once on every
// target (docs/reliability.md, "Two blesses at once").
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "harness_test_util.h"
#include "records/atomic_file.h"
#include "records/folder_lock.h"

namespace fs = std::filesystem;
using fx::harness::FolderLock;

namespace {

/// A fresh folder for one test case, removed afterwards (the process's temporary-name suffix keeps
/// two builds' test runs apart).
class Folder {
public:
    explicit Folder(const std::string& name)
        : path_(fx::harness::temp_path_for(
              (fs::temp_directory_path() / ("fxkcc_lock_test_" + name)).string())) {
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~Folder() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    std::string str() const { return path_.string(); }
    std::string file(const std::string& name) const { return (path_ / name).string(); }
    size_t entries() const {
        size_t n = 0;
        for (auto it = fs::directory_iterator(path_); it != fs::directory_iterator(); ++it)
            ++n;
        return n;
    }

private:
    fs::path path_;
};

using fxtest::slurp;
using fxtest::spit;

} // namespace

// Under node (wasm32) there is no lock between processes: emscripten's flock does nothing. The
// folder lock is then a no-op by design (folder_lock.h); renames there are POSIX renames.
#ifndef __EMSCRIPTEN__

TEST_CASE(
    "folder lock: a second holder is refused until the first lets go, and nothing is left behind") {
    Folder dir("exclusive");
    std::string err;
    {
        FolderLock a, b;
        REQUIRE(a.try_lock(dir.str(), &err) == FolderLock::Result::kLocked);
        CHECK(b.try_lock(dir.str(), &err) == FolderLock::Result::kBusy);
        CHECK_FALSE(b.locked());
        a.unlock();
        CHECK(b.try_lock(dir.str(), &err) == FolderLock::Result::kLocked);
        CHECK(a.try_lock(dir.str(), &err) == FolderLock::Result::kBusy);
    } // both destroyed: released
    FolderLock c;
    CHECK(c.try_lock(dir.str(), &err) == FolderLock::Result::kLocked);
    c.unlock();
    CHECK(dir.entries() ==
          0); // POSIX locks the folder itself; Windows deletes its lock file on close
}

TEST_CASE("folder lock: lock() waits for the holder to let go") {
    Folder dir("wait");
    std::string err;
    FolderLock holder;
    REQUIRE(holder.lock(dir.str(), &err));
    const auto start = std::chrono::steady_clock::now();
    std::thread release([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        holder.unlock();
    });
    FolderLock waiter;
    const bool ok = waiter.lock(dir.str(), &err);
    const auto waited = std::chrono::steady_clock::now() - start;
    release.join();
    CHECK(ok);
    CHECK(waiter.locked());
    CHECK(waited >= std::chrono::milliseconds(250)); // it did wait for the release
}

// On Windows a file open for reading (std::ifstream shares read and write, not delete) cannot be
// replaced: MoveFileExW fails with "access denied" until the reader closes it. replace_file waits
// for that. On POSIX the rename is immediate; the case checks the same outcome there.
TEST_CASE("replace_file: replaces a target that a reader holds open, once the reader lets go") {
    Folder dir("replace");
    const std::string target = dir.file("g.hashes"), next = dir.file("g.hashes.tmp");
    spit(target, "old\n");
    spit(next, "new\n");
    auto reader = std::make_unique<std::ifstream>(target, std::ios::binary);
    REQUIRE(reader->is_open());
    std::thread release([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        reader.reset();
    });
    std::string err;
    const bool ok = fx::harness::replace_file(next, target, &err);
    release.join();
    CHECK(ok);
    CHECK(err.empty());
    CHECK(slurp(target) == "new\n");
    CHECK_FALSE(fs::exists(next));
}

#endif

TEST_CASE("folder lock: a folder that does not exist is an error naming it") {
    Folder dir("missing");
    std::string err;
    FolderLock l;
    CHECK(l.try_lock(dir.file("nope"), &err) == FolderLock::Result::kError);
    CHECK(err.rfind("cannot lock '" + dir.file("nope") + "': ", 0) == 0);
    CHECK_FALSE(l.locked());
}

TEST_CASE("replace_file: a missing source fails with both names") {
    Folder dir("replace_missing");
    std::string err;
    CHECK_FALSE(fx::harness::replace_file(dir.file("absent"), dir.file("target"), &err));
    CHECK(err.rfind("cannot rename '" + dir.file("absent") + "' to '" + dir.file("target") + "': ",
                    0) == 0);
}

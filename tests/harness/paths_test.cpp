// records/paths.h: the one rule for "where does this path lead" and "is it inside that folder".
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "records/paths.h"

namespace fs = std::filesystem;
using fx::harness::path_within;
using fx::harness::resolved_path;

TEST_CASE("paths: path_within compares components, not text", "[paths]") {
    CHECK(path_within("/a/golden/t/x.hashes", "/a/golden"));
    CHECK(path_within("/a/golden", "/a/golden"));
    CHECK(path_within("/a/golden/x", "/a/golden/")); // a trailing separator on the folder
    CHECK_FALSE(
        path_within("/a/golden2/x.hashes", "/a/golden")); // a sibling whose name starts alike
    CHECK_FALSE(path_within("/a/gold", "/a/golden"));
    CHECK_FALSE(path_within("/a", "/a/golden"));
    CHECK_FALSE(path_within("/b/golden/x", "/a/golden"));
    CHECK(path_within("/anything", "/"));
}

TEST_CASE("paths: resolved_path is absolute, normal, without a trailing separator, links resolved",
          "[paths]") {
    const fs::path dir = resolved_path(fs::temp_directory_path() / "fxkcc-paths-test");
    fs::remove_all(dir);
    fs::create_directories(dir / "real" / "sub");
    std::error_code ec;
    CHECK(resolved_path(dir / "real" / "sub" / "..", ec) == dir / "real");
    CHECK_FALSE(ec);
    CHECK(resolved_path((dir / "real").string() + "/") == dir / "real");
    CHECK(resolved_path(dir / "not" / "yet" / "made") ==
          dir / "not" / "yet" / "made"); // need not exist
    CHECK(resolved_path(dir).is_absolute());
    fs::create_directory_symlink(dir / "real", dir / "link", ec);
    if (!ec) { // where links can be made: a link to a folder is that folder
        CHECK(resolved_path(dir / "link" / "sub") == dir / "real" / "sub");
        CHECK(path_within(resolved_path(dir / "link" / "sub" / "f"), resolved_path(dir / "real")));
        fs::create_directory_symlink(fs::temp_directory_path(), dir / "real" / "out", ec);
        if (!ec)
            CHECK_FALSE(path_within(resolved_path(dir / "real" / "out" / "f"),
                                    resolved_path(dir / "real")));
    }
    fs::remove_all(dir);
}

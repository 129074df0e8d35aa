// The JSON reports (verify --json, run --metrics F.json, bench --json, swarm --json): documents
// built as values of Json and written by dump_json(). Behind Json is nlohmann/json (keys kept in
// the order written); only json.cpp includes its full header, which costs seconds in every
// compile that does. The harness never reads the reports back; tests and CI tools do
// (docs/formats.md).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

#include <nlohmann/json_fwd.hpp>

namespace fx::harness {

/// A JSON value: null, a boolean, an integer, a number, a string, an array or an object whose
/// members keep the order they were set in. Every string (and key) is stored as json_text().
class Json {
public:
    struct Member;

    Json(); ///< null
    Json(std::nullptr_t); ///< null
    Json(bool b);
    Json(const char* s);
    Json(std::string_view s);
    Json(const std::string& s);
    template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
    Json(T v) : Json() {
        if constexpr (std::is_signed_v<T>)
            set_integer(static_cast<std::int64_t>(v));
        else
            set_unsigned(static_cast<std::uint64_t>(v));
    }
    Json(const Json& other);
    Json(Json&& other) noexcept;
    Json& operator=(const Json& other);
    Json& operator=(Json&& other) noexcept;
    ~Json();

    /// An object with these members, in this order ({{"key", value}, ...}).
    static Json object(std::initializer_list<Member> members = {});
    /// An empty array.
    static Json array();

    /// Sets the member `key` of an object (a null value becomes an empty object first); a new key
    /// goes last, an existing one keeps its place.
    Json& set(std::string_view key, Json value);
    /// Appends to an array (a null value becomes an empty array first).
    void push_back(Json value);

private:
    friend std::string dump_json(const Json& j);
    friend Json json_decimal(std::string_view text);
    void set_integer(std::int64_t v);
    void set_unsigned(std::uint64_t v);
    std::unique_ptr<nlohmann::ordered_json> j_;
};

struct Json::Member {
    std::string_view key;
    Json value;
};

/// A string for a JSON document, whatever bytes `s` holds: well-formed UTF-8 sequences as they
/// are, any other byte b as the character U+00bb (its Latin-1 reading), so that the document is
/// always valid JSON and no byte of a path or a message is lost.
std::string json_text(std::string_view s);

/// A JSON number written as the decimal `text` says ("120", "-0.25", "6.2"): an integer as an
/// integer, exactly; a fraction as the double nearest to it, which prints back as the same
/// digits (the reports' decimals have at most 15 significant digits; below 1e-4 in exponent
/// form, 1e-06). Not a number: null.
Json json_decimal(std::string_view text);

/// The document as text: two-space indentation, a newline at the end.
std::string dump_json(const Json& j);

} // namespace fx::harness

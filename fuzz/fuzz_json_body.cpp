// Fuzz target: a request body of `POST /api/check` read as the server reads it: parse_json_object within the
// server's body cap, then string_member for each field it takes. Properties: nothing crashes, throws or hangs; an
// accepted body nests at most 4 deep, as the cap promises, and its strings are UTF-8; every refusal is a phrase
// the server can put in its one-line error; and the fields, logged as the attempt they make, read back the same
// from the attempt log (an answer cannot add a line to it).
#include "fuzz_support.hpp"

#include <util/json_input.hpp>
#include <util/text.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

using namespace headcount;

namespace {

/// How deep `value` nests arrays and objects (a scalar is 0).
int depth(const nlohmann::json& value) {
    int deepest = 0;
    if (value.is_structured())
        for (const nlohmann::json& item : value)
            deepest = std::max(deepest, depth(item));
    return value.is_structured() ? deepest + 1 : 0;
}

bool is_phrase(const std::string& text) {
    return !text.empty() && text.find('\n') == std::string::npos && is_valid_utf8(text);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    // The server's default body cap (ConnectionLimits::max_body_bytes, 8 KiB).
    auto object = parse_json_object(body, 8 * 1024);
    if (!object) {
        fuzz::require(is_phrase(object.error()), "a refused body's reason is not a one-line UTF-8 phrase");
        return 0;
    }
    fuzz::require(object->is_object(), "an accepted body is not an object");
    fuzz::require(depth(*object) <= 4, "an accepted body nests deeper than 4");
    std::string fields[5];
    bool complete = true;
    const char* names[5] = {"problem", "part", "answer", "student", "token"};
    for (int i = 0; i < 5; ++i) {
        auto value = string_member(*object, names[i]);
        if (!value) {
            fuzz::require(is_phrase(value.error()), "a field's error is not a one-line UTF-8 phrase");
            return 0;
        }
        if (*value)
            fuzz::require(is_valid_utf8(**value), "a string field is not UTF-8");
        complete = complete && (*value || i >= 3);
        fields[i] = value->value_or("");
    }
    if (complete)
        fuzz::require_logged_round_trip({fields[3], fields[0], fields[1], fields[2]});
    return 0;
}

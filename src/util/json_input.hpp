#pragma once
// Untrusted JSON (request bodies, attempt-log lines) read within bounds: a size cap and a nesting cap checked
// before the parser sees the text, so no input can exhaust memory or the stack.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

namespace headcount {

/// `text` as a JSON object no larger than `max_bytes` and nested at most 4 deep, or why not, as a phrase
/// ("is not JSON", "is not a JSON object", "is longer than 8 KiB", "nests too deeply", "is not UTF-8").
std::expected<nlohmann::json, std::string> parse_json_object(std::string_view text, std::size_t max_bytes);

/// The string member `key` of `object`: the value, nullopt when absent or null, or an error phrase when it is
/// there but not a string ("'answer' must be a string").
std::expected<std::optional<std::string>, std::string> string_member(const nlohmann::json& object,
                                                                     std::string_view key);

} // namespace headcount

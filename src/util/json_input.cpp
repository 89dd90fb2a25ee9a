#include <util/json_input.hpp>

#include <util/text.hpp>

#include <fmt/format.h>

namespace headcount {

namespace {

/// The deepest nesting of [ and { outside strings.
int nesting(std::string_view text) {
    int depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

} // namespace

std::expected<nlohmann::json, std::string> parse_json_object(std::string_view text, std::size_t max_bytes) {
    if (text.size() > max_bytes)
        return std::unexpected(fmt::format("is longer than {}", byte_size(max_bytes)));
    if (!is_valid_utf8(text))
        return std::unexpected("is not UTF-8");
    if (nesting(text) > 4)
        return std::unexpected("nests too deeply");
    nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
    if (value.is_discarded())
        return std::unexpected("is not JSON");
    if (!value.is_object())
        return std::unexpected("is not a JSON object");
    return value;
}

std::expected<std::optional<std::string>, std::string> string_member(const nlohmann::json& object,
                                                                     std::string_view key) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return std::optional<std::string>();
    if (!it->is_string())
        return std::unexpected(fmt::format("'{}' must be a string", key));
    return std::optional<std::string>(it->get<std::string>());
}

} // namespace headcount

#include <spec/yaml_reader.hpp>

#include <spec/yaml_syntax.hpp>
#include <util/text.hpp>

#include <set>
#include <sstream>
#include <vector>

namespace headcount::spec::detail {

/// Where a key that is unknown in one mapping belongs instead, as a clause for the message, or "" when it belongs
/// nowhere: `distinct` written inside `vary:` is a misplaced key, not a misspelt given.
std::string where_it_belongs(std::string_view key, std::string_view where) {
    if (where != "the problem" && listed(k_top_keys, key))
        return fmt::format(": '{}' belongs at the top level of the spec, beside 'vary:' and 'parts:'", key);
    if (where != "part" && listed(k_part_keys, key))
        return fmt::format(": '{}' belongs in a part, under 'parts:'", key);
    if (where != "given" && (listed(k_given_keys, key) || listed(k_model_keys, key)))
        return fmt::format(": '{}' belongs under 'given:'", key);
    return {};
}

Mark mark_of(const YAML::Node& node) {
    const YAML::Mark m = node.Mark();
    return m.is_null() ? Mark{} : Mark{m.line + 1, m.column + 1};
}

Result<void> Reader::check_keys(const YAML::Node& map, std::span<const std::string_view> known,
                                std::string_view where) const {
    std::set<std::string> seen;
    for (const auto& entry : map) {
        const std::string key = entry.first.Scalar();
        if (std::find(known.begin(), known.end(), key) == known.end()) {
            const std::string elsewhere = where_it_belongs(key, where);
            // `model:` and `hardware:` are read before the keys are checked: a misspelt one hears of them too.
            std::vector<std::string_view> candidates(known.begin(), known.end());
            if (where == "given")
                candidates.insert(candidates.end(), {"model", "hardware"});
            return error_at(entry.first, fmt::format("unknown key '{}' in {}{}", key, where,
                                                     elsewhere.empty() ? did_you_mean(key, candidates) : elsewhere));
        }
        if (!seen.insert(key).second)
            return error_at(entry.first, fmt::format("duplicate key '{}' in {}", key, where));
    }
    return {};
}

Result<void> Reader::check_mapping(const YAML::Node& node, std::span<const std::string_view> known,
                                   std::string_view where, std::string not_a_mapping) const {
    if (!node.IsMap())
        return this->not_a_mapping(node, std::move(not_a_mapping));
    return check_keys(node, known, where);
}

std::unexpected<Error> Reader::not_a_mapping(const YAML::Node& node, std::string message) const {
    if (auto slip = missing_colon(node, false))
        return error_at(slip->first, fmt::format("{}: {}", message, slip->second));
    return error_at(node, std::move(message));
}

std::optional<std::pair<Mark, std::string>> Reader::missing_colon(const YAML::Node& node, bool lone_word) const {
    const Mark mark = mark_of(node);
    if (!node.IsScalar() || node.Tag() != "?" || mark.line == 0) // "?": plain text, neither quoted nor a block
        return std::nullopt;
    const std::string_view line = source_line(m_source, mark.line);
    const auto at = static_cast<std::size_t>(mark.column - 1);
    if (at > line.size())
        return std::nullopt;
    std::string_view text = node.Scalar();
    if (line.substr(at).starts_with(text)) {
        if (trimmed(line.substr(at + text.size()), " \t").starts_with(':')) // the key's own ':'
            return std::nullopt;
    } else {
        // Text folded from several lines (a key without ':' on a mapping's last line runs on into the lines below
        // it): the slip is on its first.
        const std::string_view first = trimmed(line.substr(at), " \t\r");
        if (first.empty() || !text.starts_with(first) || text.size() == first.size() || text[first.size()] != ' ')
            return std::nullopt;
        text = first;
        lone_word = true;
    }
    if (!lone_word && text.find_first_of(" \t:") == std::string::npos)
        return std::nullopt;
    auto slip = colon_slip(text);
    if (!slip)
        return std::nullopt;
    return std::pair{Mark{mark.line, mark.column + static_cast<int>(slip->offset)}, std::move(slip->message)};
}

Result<YAML::Node> Reader::required(const YAML::Node& map, const char* key, std::string_view where) const {
    YAML::Node value = map[key];
    if (!value)
        return error_at(map, fmt::format("missing required key '{}' in {}", key, where));
    return value;
}

Result<Count> Reader::required_positive_integer(const YAML::Node& map, const char* key, std::string_view where) const {
    auto value = required(map, key, where);
    if (!value)
        return std::unexpected(value.error());
    return positive_integer(*value, key);
}

Result<std::string> Reader::string_of(const YAML::Node& node, std::string_view key) const {
    if (!node.IsScalar() || node.Scalar().empty())
        return error_at(node, fmt::format("{} must be a non-empty string", key));
    return node.Scalar();
}

Result<std::string> Reader::id_of(const YAML::Node& node, std::string_view key) const {
    auto text = string_of(node, key);
    if (!text)
        return text;
    const bool safe = text->size() <= 64 && text->front() != '.' && std::all_of(text->begin(), text->end(), [](char c) {
                          return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
                      });
    if (!safe)
        return error_at(node, fmt::format("{} '{}' must be 1-64 letters, digits, '-', '_' or '.' (not starting "
                                          "with '.')",
                                          key, *text));
    return text;
}

Result<std::string> Reader::required_string(const YAML::Node& map, const char* key, std::string_view where) const {
    auto node = required(map, key, where);
    if (!node)
        return std::unexpected(node.error());
    return string_of(*node, key);
}

Result<std::string> Reader::mapping_id(const YAML::Node& node, std::span<const std::string_view> known,
                                       std::string_view where, std::string_view id_name,
                                       std::string not_a_mapping) const {
    if (auto ok = check_mapping(node, known, where, std::move(not_a_mapping)); !ok)
        return std::unexpected(ok.error());
    auto id = required(node, "id", where);
    if (!id)
        return std::unexpected(id.error());
    return id_of(*id, id_name);
}

Result<Count> Reader::positive_integer(const YAML::Node& node, std::string_view key) const {
    const std::string text = node.IsScalar() ? node.Scalar() : std::string();
    const bool digits =
        !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!node.IsScalar() || !digits || node.Tag() == "!" || text.find_first_not_of('0') == std::string::npos)
        return error_at(node, fmt::format("{} must be a positive integer, got {}", key, describe(node)));
    const std::string_view significant = std::string_view(text).substr(text.find_first_not_of('0'));
    if (significant.size() > 18) // 10^18 and up: a product of two sizes would pass a count's 10^36
        return error_at(node, fmt::format("{} is too large: {} is over 10^18, the largest size headcount reads", key,
                                          significant.size() <= 24
                                              ? std::string(significant)
                                              : fmt::format("a {}-digit number",
                                                            with_thousands(static_cast<Count>(significant.size())))));
    return std::stoll(std::string(significant));
}

Result<int> Reader::attempts(const YAML::Node& node) const {
    auto value = positive_integer(node, "attempts");
    if (!value)
        return std::unexpected(value.error());
    if (*value > 10'000)
        return error_at(
            node, fmt::format("attempts must be at most 10,000, got {}", with_thousands(static_cast<Count>(*value))));
    return static_cast<int>(*value);
}

Result<bool> Reader::boolean(const YAML::Node& node, std::string_view key) const {
    if (node.IsScalar() && node.Tag() != "!") {
        if (node.Scalar() == "true")
            return true;
        if (node.Scalar() == "false")
            return false;
    }
    return error_at(node, fmt::format("{} must be true or false, got {}", key, describe(node)));
}

Result<double> Reader::points(const YAML::Node& node) const {
    if (node.IsScalar() && node.Tag() != "!") {
        std::istringstream in(node.Scalar());
        double value = 0;
        if (in >> value && in.eof() && value >= 0 && value <= 1e6)
            return value;
    }
    return error_at(node, fmt::format("points must be a number from 0 to 1000000, got {}", describe(node)));
}

Result<double> Reader::fraction(const YAML::Node& node, std::string_view key) const {
    if (node.IsScalar() && node.Tag() != "!") {
        std::istringstream in(node.Scalar());
        double value = 0;
        if (in >> value && in.eof() && value >= 0 && value <= 1)
            return value;
    }
    return error_at(node, fmt::format("{} must be a number from 0 to 1, got {}", key, describe(node)));
}

std::string Reader::describe(const YAML::Node& node) {
    if (node.IsMap())
        return "a mapping";
    if (node.IsSequence())
        return "a list";
    if (node.IsNull())
        return "nothing";
    // Quoted in a message, so cut short and without control characters (printable).
    return node.Tag() == "!" ? fmt::format("the quoted string \"{}\"", printable(node.Scalar()))
                             : fmt::format("'{}'", printable(node.Scalar()));
}

} // namespace headcount::spec::detail

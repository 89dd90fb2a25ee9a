#include <spec/yaml_syntax.hpp>

#include <util/ids.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <cctype>
#include <set>
#include <utility>
#include <vector>

namespace headcount::spec::detail {

namespace {

bool is_key_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_key_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'; }

/// Where the text of a line begins: after its indentation and any "- " that opens a list item.
std::size_t content_start(std::string_view line) {
    std::size_t at = line.find_first_not_of(" \t");
    while (at != std::string_view::npos && line[at] == '-' && (at + 1 == line.size() || line[at + 1] == ' '))
        at = line.find_first_not_of(" \t", at + 1);
    return at == std::string_view::npos ? line.size() : at;
}

/// A line's text without its comment (" # ...") and trailing blanks.
std::string_view without_comment(std::string_view text) {
    if (text.starts_with('#'))
        return {};
    for (std::size_t at = text.find('#'); at != std::string_view::npos; at = text.find('#', at + 1))
        if (text[at - 1] == ' ' || text[at - 1] == '\t') {
            text = text.substr(0, at);
            break;
        }
    return trimmed(text, " \t\r");
}

/// The nearest line above `line` that holds more than blanks and a comment, or 0.
int significant_line_above(std::string_view source, int line) {
    for (int above = line - 1; above >= 1; --above) {
        const std::string_view text = source_line(source, above);
        if (!without_comment(text.substr(content_start(text))).empty())
            return above;
    }
    return 0;
}

/// " (...)": what usually causes an illegal map value at `column` of `line`, when it is not a missing ':'.
std::string map_value_hint(std::string_view line, int column) {
    const std::string_view text = line.substr(0, static_cast<std::size_t>(column - 1));
    const std::size_t start = content_start(text);
    const std::size_t colon = text.find(": ", start);
    if (colon == std::string_view::npos) {
        // A word alone before the ':' is a key YAML did not expect, as the line above is still running on;
        // several words are a value's, continued from the line above.
        if (trimmed(text.substr(start), " \t").find_first_of(" \t") == std::string_view::npos)
            return " (the line above may be a key without its ':')";
        return " (a value that holds ': ' must be quoted)";
    }
    const std::string_view key = text.substr(start, colon - start);
    const std::string_view value = without_comment(line.substr(colon + 2));
    if (value.find('"') != std::string_view::npos || value.empty())
        return " (a value that holds ': ' must be quoted)";
    return fmt::format(" (a value that holds ': ' must be quoted: write '{}: \"{}\"')", printable(key),
                       printable(value));
}

} // namespace

std::optional<ColonSlip> colon_slip(std::string_view text) {
    text = without_comment(text);
    if (text.empty() || !is_key_start(text.front()) || text.ends_with(':'))
        return std::nullopt;
    std::size_t end = 0;
    while (end < text.size() && is_key_char(text[end]))
        ++end;
    const std::string_view word = text.substr(0, end);
    if (end < text.size() && text[end] == ':') {
        if (text.find(": ") != std::string_view::npos || end + 1 == text.size())
            return std::nullopt;
        return ColonSlip{end, fmt::format("no space after the ':' of '{}' (write '{}: {}')", printable(text),
                                          printable(word), printable(trimmed(text.substr(end + 1), " \t")))};
    }
    if (end < text.size() && text[end] != ' ' && text[end] != '\t')
        return std::nullopt; // not a word and a space: no key's line
    if (text.find(": ") != std::string_view::npos)
        return std::nullopt;
    const std::string_view rest = trimmed(text.substr(end), " \t");
    return ColonSlip{end, rest.empty() ? fmt::format("missing ':' after '{}'", printable(word))
                                       : fmt::format("missing ':' after '{0}' (write '{0}: {1}')", printable(word),
                                                     printable(rest))};
}

std::string_view source_line(std::string_view source, int line) {
    for (int at = 1; at < line; ++at) {
        const std::size_t end = source.find('\n');
        if (end == std::string_view::npos)
            return {};
        source.remove_prefix(end + 1);
    }
    std::string_view text = source.substr(0, source.find('\n'));
    if (text.ends_with('\r'))
        text.remove_suffix(1);
    return text;
}

Error syntax_error(const std::string& file, std::string_view source, const YAML::Mark& mark,
                   const std::string& message) {
    const int line = mark.line + 1, column = mark.column + 1;
    if (message == YAML::ErrorMsg::MAP_VALUE || message == YAML::ErrorMsg::END_OF_MAP) {
        // yaml-cpp read a line without its ':' on into the next ones; of the lines without one just above the
        // error, the first is where it began.
        int slipped = 0;
        std::optional<ColonSlip> slip;
        for (int above = significant_line_above(source, line); above > 0;
             above = significant_line_above(source, above)) {
            const std::string_view text = source_line(source, above);
            auto found = colon_slip(text.substr(content_start(text)));
            if (!found)
                break;
            slipped = above;
            slip = std::move(found);
        }
        if (slip) {
            const std::string_view text = source_line(source, slipped);
            return Error{file, slipped, static_cast<int>(content_start(text) + slip->offset) + 1,
                         fmt::format("YAML syntax error: {}; YAML read on to line {} and reported: {}", slip->message,
                                     line, message)};
        }
    }
    std::string hint;
    if (message == YAML::ErrorMsg::MAP_VALUE && column >= 1)
        hint = map_value_hint(source_line(source, line), column);
    return Error{file, line, column, "YAML syntax error: " + message + hint};
}

Result<void> check_document(const Reader& r, const YAML::Node& root) {
    // Iterative, and each node visited once even when aliases share it (a node is known by its kind and where it
    // starts), so no document can make this deep or slow.
    std::vector<YAML::Node> pending{root};
    std::set<std::pair<std::size_t, int>> visited;
    std::optional<std::pair<Mark, std::string>> first_slip;
    while (!pending.empty()) {
        const YAML::Node node = pending.back();
        pending.pop_back();
        if (!visited.emplace(node.Mark().pos, static_cast<int>(node.Type())).second)
            continue;
        if (node.IsScalar()) {
            if (const auto problem = unwritable_text_problem(node.Scalar()))
                return r.error_at(node, fmt::format("this text {}; a spec holds printable UTF-8 text (tabs and line "
                                                    "breaks allowed)",
                                                    *problem));
        } else if (node.IsMap()) {
            for (const auto& entry : node) {
                if (entry.second.IsNull())
                    if (auto slip = r.missing_colon(entry.first, true)) {
                        const auto [line, column] = slip->first;
                        if (!first_slip ||
                            std::pair(line, column) < std::pair(first_slip->first.line, first_slip->first.column))
                            first_slip = std::move(slip);
                    }
                pending.push_back(entry.first);
                pending.push_back(entry.second);
            }
        } else if (node.IsSequence()) {
            for (const auto& item : node)
                pending.push_back(item);
        }
    }
    if (first_slip)
        return r.error_at(first_slip->first, first_slip->second);
    return {};
}

} // namespace headcount::spec::detail

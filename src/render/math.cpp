#include <render/math.hpp>

#include <cctype>
#include <optional>

namespace headcount::render {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool is_ascii_punct(char c) { return c > 0 && std::ispunct(static_cast<unsigned char>(c)); }

/// Whether the line starting at `at` holds only spaces: a paragraph break.
bool blank_line_at(std::string_view text, std::size_t at) {
    for (; at < text.size() && text[at] != '\n'; ++at)
        if (text[at] != ' ' && text[at] != '\t' && text[at] != '\r')
            return false;
    return true;
}

/// Whether the line starting at `at` opens or closes a fenced code block (``` or ~~~, indented at most 3).
bool fence_at(std::string_view text, std::size_t at) {
    std::size_t indent = 0;
    while (at + indent < text.size() && text[at + indent] == ' ' && indent < 4)
        ++indent;
    if (indent > 3)
        return false;
    const std::string_view rest = text.substr(at + indent);
    return rest.starts_with("```") || rest.starts_with("~~~");
}

/// The first position at or after `from` where `delimiter` closes a span, within the paragraph; backslash
/// escapes are skipped. `accept` judges a candidate position.
template <class Accept>
std::optional<std::size_t> find_close(std::string_view text, std::size_t from, std::string_view delimiter,
                                      Accept accept) {
    for (std::size_t i = from; i < text.size(); ++i) {
        if (text[i] == '\\') {
            ++i;
            continue;
        }
        if (text[i] == '\n' && blank_line_at(text, i + 1))
            return std::nullopt;
        if (text.substr(i, delimiter.size()) == delimiter && accept(i))
            return i;
    }
    return std::nullopt;
}

/// The length of the run of `c` starting at `at`.
std::size_t run_length(std::string_view text, std::size_t at, char c) {
    std::size_t n = 0;
    while (at + n < text.size() && text[at + n] == c)
        ++n;
    return n;
}

} // namespace

std::vector<MathSpan> find_math(std::string_view text) {
    std::vector<MathSpan> spans;
    bool in_fence = false;
    std::size_t i = 0;
    while (i < text.size()) {
        if (i == 0 || text[i - 1] == '\n') {
            if (fence_at(text, i))
                in_fence = !in_fence;
            if (in_fence || fence_at(text, i)) {
                const std::size_t eol = text.find('\n', i);
                i = eol == std::string_view::npos ? text.size() : eol + 1;
                continue;
            }
        }
        const char c = text[i];
        if (c == '\\') {
            i += i + 1 < text.size() && is_ascii_punct(text[i + 1]) ? 2 : 1;
            continue;
        }
        if (c == '`') {
            // A code span closes at the next run of exactly as many backticks; without one they are text.
            const std::size_t n = run_length(text, i, '`');
            std::size_t j = i + n;
            std::optional<std::size_t> close;
            while (j < text.size()) {
                if (text[j] == '\n' && blank_line_at(text, j + 1))
                    break;
                if (text[j] == '`') {
                    const std::size_t m = run_length(text, j, '`');
                    if (m == n) {
                        close = j + m;
                        break;
                    }
                    j += m;
                    continue;
                }
                ++j;
            }
            i = close ? *close : i + n;
            continue;
        }
        if (c != '$') {
            ++i;
            continue;
        }
        if (text.substr(i, 2) == "$$") {
            const auto close = find_close(text, i + 2, "$$", [](std::size_t) { return true; });
            if (!close) {
                i += 2;
                continue;
            }
            spans.push_back({i, *close + 2, std::string(text.substr(i + 2, *close - i - 2)), true});
            i = *close + 2;
            continue;
        }
        if (i + 1 >= text.size() || is_space(text[i + 1])) {
            ++i;
            continue;
        }
        const auto close = find_close(text, i + 1, "$", [&](std::size_t j) {
            const bool after_digit = j + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[j + 1]));
            return !is_space(text[j - 1]) && !after_digit;
        });
        if (!close) {
            ++i;
            continue;
        }
        spans.push_back({i, *close + 1, std::string(text.substr(i + 1, *close - i - 1)), false});
        i = *close + 1;
    }
    return spans;
}

} // namespace headcount::render

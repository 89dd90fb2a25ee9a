#include <util/error.hpp>

#include <util/utf8.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace headcount {

std::string Error::to_string() const {
    std::string where = file;
    if (line > 0) {
        where += fmt::format(":{}", line);
        if (column > 0)
            where += fmt::format(":{}", column);
    }
    return where.empty() ? message : fmt::format("{}: {}", where, message);
}

namespace {

/// `text` as characters, a control character or a byte that is not UTF-8 shown as '?'.
std::u32string shown_characters(std::string_view text) {
    std::u32string out;
    for (const CodePoint& c : decode_utf8(repair_utf8(text)).value_or(std::vector<CodePoint>{}))
        out += c.value < 0x20 || c.value == 0x7F || c.value == 0xFFFD ? U'?' : c.value;
    return out;
}

void append_utf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

} // namespace

std::string source_excerpt(std::string_view line_text, int line, int column) {
    const std::size_t at = std::min(column > 0 ? static_cast<std::size_t>(column - 1) : 0, line_text.size());
    std::u32string shown = shown_characters(line_text.substr(0, at));
    std::size_t caret = shown.size();
    shown += shown_characters(line_text.substr(at));
    constexpr std::size_t k_width = 100;
    std::u32string before, after;
    if (shown.size() > k_width) {
        const std::size_t start = caret > k_width / 2 ? std::min(caret - k_width / 2, shown.size() - k_width) : 0;
        before = start > 0 ? U"..." : U"";
        after = start + k_width < shown.size() ? U"..." : U"";
        shown = shown.substr(start, k_width);
        caret = caret - start + before.size();
    }
    std::string text;
    for (const char32_t c : before + shown + after)
        append_utf8(text, c);
    const std::string number = fmt::format("{:>5}", line);
    return fmt::format("{} | {}\n{} | {}^\n", number, text, std::string(number.size(), ' '), std::string(caret, ' '));
}

} // namespace headcount

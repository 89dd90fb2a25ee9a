#include <serve/html.hpp>

#include <util/text.hpp>

#include <fmt/format.h>

#include <cctype>
#include <vector>

namespace headcount::serve {

std::string percent_encode(std::string_view text) {
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) != 0 || c == '-' || c == '.' || c == '_' || c == '~')
            out += static_cast<char>(c);
        else
            out += fmt::format("%{:02X}", c);
    }
    return out;
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }

bool is_punctuation(char c) { return std::ispunct(static_cast<unsigned char>(c)) != 0; }

/// The end of the code or math span that starts at `i` (one past its closing delimiter), or `i` when none starts
/// there. Code spans and math bind tighter than emphasis, as in CommonMark.
std::size_t span_end(std::string_view text, std::size_t i) {
    if (text[i] != '`' && text[i] != '$')
        return i;
    const auto end = text.find(text[i], i + 1);
    if (end == std::string_view::npos || (text[i] == '$' && end == i + 1))
        return i;
    return end + 1;
}

/// Whether `mark` at `i` can open emphasis: not followed by a space, and not between a letter and punctuation
/// (12*(34 is arithmetic).
bool opens(std::string_view text, std::size_t i, std::string_view mark) {
    const std::size_t next = i + mark.size();
    if (next >= text.size() || is_space(text[next]))
        return false;
    return !is_punctuation(text[next]) || i == 0 || is_space(text[i - 1]) || is_punctuation(text[i - 1]);
}

/// Where the emphasis opened with `mark` before `from` closes: the next `mark` outside code and math that follows
/// a non-space and is not between punctuation and a letter; npos when none does.
std::size_t closing_mark(std::string_view text, std::size_t from, std::string_view mark) {
    for (std::size_t j = from; j < text.size();) {
        if (const std::size_t end = span_end(text, j); end != j) {
            j = end;
            continue;
        }
        if (j > from && text.substr(j, mark.size()) == mark && !is_space(text[j - 1]) &&
            (mark.size() == 2 || text.substr(j, 2) != "**")) {
            const std::size_t after = j + mark.size();
            if (!is_punctuation(text[j - 1]) || after >= text.size() || is_space(text[after]) ||
                is_punctuation(text[after]))
                return j;
        }
        ++j;
    }
    return std::string_view::npos;
}

std::string inline_html(std::string_view text) {
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (const std::size_t end = span_end(text, i); end != i) {
            // Math stays as written, for KaTeX; code is shown as typed.
            out += c == '`' ? "<code>" + escape_xml(text.substr(i + 1, end - i - 2)) + "</code>"
                            : escape_xml(text.substr(i, end - i));
            i = end;
            continue;
        }
        if (c == '*') {
            const std::string_view mark = text.substr(i, 2) == "**" ? "**" : "*";
            const std::size_t inner = i + mark.size();
            if (opens(text, i, mark)) {
                if (const auto close = closing_mark(text, inner, mark); close != std::string_view::npos) {
                    const char* tag = mark.size() == 2 ? "strong" : "em";
                    out += fmt::format("<{}>{}</{}>", tag, inline_html(text.substr(inner, close - inner)), tag);
                    i = close + mark.size();
                    continue;
                }
            }
        }
        // A character at a time, all its UTF-8 bytes together: escape_xml replaces a lone byte of one.
        std::size_t next = i + 1;
        while (next < text.size() && (static_cast<unsigned char>(text[next]) & 0xC0) == 0x80)
            ++next;
        out += escape_xml(text.substr(i, next - i));
        i = next;
    }
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (is_space(s.front()) || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (is_space(s.back()) || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

bool is_blank(std::string_view line) { return trim(line).empty(); }

/// The heading level of "## text" (1..6), or 0.
int heading_level(std::string_view line) {
    int level = 0;
    while (level < static_cast<int>(line.size()) && line[level] == '#')
        ++level;
    return level >= 1 && level <= 6 && static_cast<int>(line.size()) > level && line[level] == ' ' ? level : 0;
}

/// The length of a list marker ("- ", "* ", "12. ") at the start of `line`, or 0.
std::size_t bullet_marker(std::string_view line) {
    if (line.size() >= 2 && (line[0] == '-' || line[0] == '*') && line[1] == ' ')
        return 2;
    return 0;
}
std::size_t number_marker(std::string_view line) {
    std::size_t digits = 0;
    while (digits < line.size() && digits < 9 && std::isdigit(static_cast<unsigned char>(line[digits])) != 0)
        ++digits;
    return digits > 0 && line.substr(digits, 2) == ". " ? digits + 2 : 0;
}

std::vector<std::string_view> table_cells(std::string_view row) {
    row = trim(row);
    if (!row.empty() && row.front() == '|')
        row.remove_prefix(1);
    if (!row.empty() && row.back() == '|')
        row.remove_suffix(1);
    std::vector<std::string_view> cells;
    for (std::size_t start = 0;;) {
        const auto bar = row.find('|', start);
        cells.push_back(trim(row.substr(start, bar == std::string_view::npos ? std::string_view::npos : bar - start)));
        if (bar == std::string_view::npos)
            return cells;
        start = bar + 1;
    }
}

bool is_table_rule(std::string_view line) {
    line = trim(line);
    if (line.empty() || line.front() != '|')
        return false;
    for (char c : line)
        if (c != '|' && c != '-' && c != ':' && !is_space(c))
            return false;
    return line.find('-') != std::string_view::npos;
}

bool starts_block(std::string_view line) {
    return heading_level(line) != 0 || bullet_marker(line) != 0 || number_marker(line) != 0 ||
           line.starts_with("```") || trim(line).starts_with('|');
}

} // namespace

std::string markdown_html(std::string_view markdown) {
    std::vector<std::string_view> lines;
    for (std::size_t start = 0; start <= markdown.size();) {
        const auto end = markdown.find('\n', start);
        lines.push_back(markdown.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    std::string out;
    std::size_t i = 0;
    while (i < lines.size()) {
        const std::string_view line = lines[i];
        if (is_blank(line)) {
            ++i;
        } else if (line.starts_with("```")) {
            std::string code;
            for (++i; i < lines.size() && !lines[i].starts_with("```"); ++i)
                code += std::string(lines[i]) + "\n";
            ++i;
            out += "<pre><code>" + escape_xml(code) + "</code></pre>\n";
        } else if (const int level = heading_level(line)) {
            const int shown = std::min(6, level + 2);
            out += fmt::format("<h{}>{}</h{}>\n", shown, inline_html(trim(line.substr(level + 1))), shown);
            ++i;
        } else if (trim(line).starts_with('|') && i + 1 < lines.size() && is_table_rule(lines[i + 1])) {
            const auto rule = table_cells(lines[i + 1]);
            const auto row_html = [&](std::string_view row, const char* tag) {
                std::string html = "<tr>";
                const auto cells = table_cells(row);
                for (std::size_t c = 0; c < cells.size(); ++c) {
                    const bool right = c < rule.size() && rule[c].ends_with(':') && !rule[c].starts_with(':');
                    html +=
                        fmt::format("<{}{}>{}</{}>", tag, right ? " class=\"num\"" : "", inline_html(cells[c]), tag);
                }
                return html + "</tr>\n";
            };
            // In a box that scrolls sideways when the table is wider than the screen (headcount.css).
            out += "<div class=\"table-box\"><table>\n<thead>" + row_html(line, "th") + "</thead>\n<tbody>\n";
            for (i += 2; i < lines.size() && trim(lines[i]).starts_with('|'); ++i)
                out += row_html(lines[i], "td");
            out += "</tbody>\n</table></div>\n";
        } else if (bullet_marker(line) != 0 || number_marker(line) != 0) {
            const bool ordered = bullet_marker(line) == 0;
            const auto marker = ordered ? number_marker : bullet_marker;
            out += ordered ? "<ol>\n" : "<ul>\n";
            while (i < lines.size() && marker(lines[i]) != 0) {
                std::string item(lines[i].substr(marker(lines[i])));
                for (++i; i < lines.size() && !is_blank(lines[i]) && is_space(lines[i].front()); ++i)
                    item += "\n" + std::string(trim(lines[i]));
                out += "<li>" + inline_html(item) + "</li>\n";
                // A blank line between items keeps the list going.
                if (i + 1 < lines.size() && is_blank(lines[i]) && marker(lines[i + 1]) != 0)
                    ++i;
            }
            out += ordered ? "</ol>\n" : "</ul>\n";
        } else {
            std::string paragraph(trim(line));
            for (++i; i < lines.size() && !is_blank(lines[i]) && !starts_block(lines[i]); ++i)
                paragraph += "\n" + std::string(trim(lines[i]));
            out += "<p>" + inline_html(paragraph) + "</p>\n";
        }
    }
    return out;
}

} // namespace headcount::serve

#pragma once
// Text written into Markdown that headcount makes.

#include <string>
#include <string_view>

namespace headcount {

/// `text` in a Markdown table cell: a '|' would end the cell (it is escaped) and a line break the row (it becomes a
/// space). For any text, untrusted or not: a student's reason, a spec's formula.
inline std::string table_cell(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        if (c == '|')
            out += "\\|";
        else
            out += c == '\n' || c == '\r' ? ' ' : c;
    }
    return out;
}

} // namespace headcount

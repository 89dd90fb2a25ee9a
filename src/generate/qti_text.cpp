#include <generate/qti_text.hpp>

#include <algorithm>
#include <cctype>

namespace headcount::generate {

namespace {

/// Whether `rest`, the text after a '[', reads as a blank's name and its ']'.
bool names_a_blank(std::string_view rest) {
    std::size_t n = 0;
    while (n < rest.size() &&
           (std::isalnum(static_cast<unsigned char>(rest[n])) || rest[n] == '_' || rest[n] == '-' || rest[n] == '.'))
        ++n;
    return n > 0 && n < rest.size() && rest[n] == ']';
}

/// `tag` (from '<' to '>') with a blank-like '[' in its attribute values followed by U+200B.
std::string tag_text(std::string_view tag) {
    std::string out;
    for (std::size_t i = 0; i < tag.size(); ++i) {
        out += tag[i];
        if (tag[i] == '[' && names_a_blank(tag.substr(i + 1)))
            out += "\u200B";
    }
    return out;
}

} // namespace

std::string canvas_text(std::string_view html) {
    std::string out;
    out.reserve(html.size());
    enum class Where { text, code, math } where = Where::text;
    std::string_view math_end; // "\)" or "\]"
    for (std::size_t i = 0; i < html.size();) {
        const std::string_view rest = html.substr(i);
        if (where != Where::math && rest.front() == '<') {
            // MathJax leaves <code> and <pre> alone: brackets there are text.
            const std::size_t end = std::min(rest.find('>'), rest.size() - 1);
            const std::string_view tag = rest.substr(0, end + 1);
            if (tag.starts_with("<code") || tag.starts_with("<pre"))
                where = Where::code;
            else if (tag.starts_with("</code") || tag.starts_with("</pre"))
                where = Where::text;
            out += tag_text(tag);
            i += tag.size();
        } else if (where == Where::text && (rest.starts_with("\\(") || rest.starts_with("\\["))) {
            where = Where::math;
            math_end = rest[1] == '(' ? "\\)" : "\\]";
            out += rest.substr(0, 2);
            if (rest[1] == '[' && names_a_blank(rest.substr(2)))
                out += "{}"; // "\[part_b]…" holds "[part_b]" too
            i += 2;
        } else if (where == Where::math && rest.starts_with(math_end)) {
            where = Where::text;
            out += math_end;
            i += 2;
        } else if (rest.front() == '[' && names_a_blank(rest.substr(1))) {
            out += where == Where::math ? "[{}" : "<span>[</span>";
            ++i;
        } else {
            out += rest.front();
            ++i;
        }
    }
    return out;
}

} // namespace headcount::generate

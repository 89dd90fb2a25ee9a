#include <generate/lms_html.hpp>

#include <render/html.hpp>

#include <fmt/format.h>

namespace headcount::generate {

namespace {

/// Replaces every occurrence of `from` in `text` with `to`.
void replace_all(std::string& text, std::string_view from, std::string_view to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

/// render::markdown_to_html's formulas, <span class="math">TeX</span>, in MathJax's delimiters. The TeX inside is
/// HTML-escaped, so the first "</span>" after an opening one is its end.
std::string mathjax_delimiters(std::string html) {
    for (const auto& [open, left, right] : {std::tuple{"<span class=\"math display\">", "\\[", "\\]"},
                                            std::tuple{"<span class=\"math\">", "\\(", "\\)"}}) {
        const std::string_view open_tag = open;
        for (std::size_t at = html.find(open_tag); at != std::string::npos; at = html.find(open_tag, at)) {
            const std::size_t close = html.find("</span>", at + open_tag.size());
            if (close == std::string::npos)
                break;
            const std::string tex = html.substr(at + open_tag.size(), close - at - open_tag.size());
            const std::string math = std::string(left) + tex + right;
            html.replace(at, close + 7 - at, math);
            at += math.size();
        }
    }
    return html;
}

} // namespace

std::string lms_html(std::string_view markdown) {
    std::string html = mathjax_delimiters(render::markdown_to_html(markdown));
    // A platform frames the text with its own page and title: headings start two levels down (# -> <h3>).
    for (int level = 4; level >= 1; --level)
        for (const char* tag : {"<h", "</h"})
            replace_all(html, fmt::format("{}{}>", tag, level), fmt::format("{}{}>", tag, level + 2));
    return html;
}

} // namespace headcount::generate

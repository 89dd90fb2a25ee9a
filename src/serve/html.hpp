#pragma once
// Text for web pages: URL query encoding, and the Markdown headcount's feedback and questions are written in, turned
// into HTML by cmark-gfm. Nothing that comes in is ever passed through as markup.

#include <string>
#include <string_view>

namespace headcount::serve {

/// `text` for a URL query component: every byte but A-Z a-z 0-9 - . _ ~ as %XX (upper-case hex), so an id with
/// spaces, '&', '+', '#' or UTF-8 survives the trip.
std::string percent_encode(std::string_view text);

/// Markdown to HTML, for feedback and questions: CommonMark with GitHub's tables, by cmark-gfm as solutions are
/// (render/html.hpp), each table in a <div class="table-box"> (which scrolls sideways on a narrow screen), with
/// headings shown two levels down (the page has its own), right-aligned table columns of class "num", raw HTML shown as
/// escaped text (never passed through), and $math$ (found by Pandoc's rules) kept as written, escaped, for KaTeX to
/// typeset, with nothing inside it read as Markdown.
std::string markdown_html(std::string_view markdown);

} // namespace headcount::serve

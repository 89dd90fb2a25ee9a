#pragma once
// Text for web pages: URL query encoding, and the small, safe part of Markdown that headcount's feedback and
// questions are written in, turned into HTML. Text is escaped with util/text.hpp's escape_xml (the pages quote
// every attribute with "). Nothing that comes in is ever passed through as markup.

#include <string>
#include <string_view>

namespace headcount::serve {

/// `text` for a URL query component: every byte but A-Z a-z 0-9 - . _ ~ as %XX (upper-case hex), so an id with
/// spaces, '&', '+', '#' or UTF-8 survives the trip.
std::string percent_encode(std::string_view text);

/// Markdown to HTML, for feedback and questions. Blocks: paragraphs, # headings (shown two levels down, as the
/// page has its own), - and 1. lists with indented continuation lines, pipe tables with a --- row (each in a
/// <div class="table-box">, which scrolls sideways on a narrow screen), ``` fences.
/// Inline: `code`, **strong**, *emphasis*, and $math$, which is kept as text (escaped) for KaTeX to typeset, with
/// nothing inside it read as Markdown. Everything else, raw HTML included, is escaped text.
std::string markdown_html(std::string_view markdown);

} // namespace headcount::serve

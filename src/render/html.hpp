#pragma once
// Markdown to HTML: CommonMark with GitHub's tables (cmark-gfm), `$…$` math kept for KaTeX, and a standalone,
// printable page around it (templates/html/page.mustache).

#include <render/katex.hpp>
#include <render/math.hpp>
#include <render/templates.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct cmark_node;

namespace headcount::render {

/// The HTML of `markdown` as cmark-gfm renders CommonMark with the table extension (raw HTML omitted, and links
/// whose scheme could run script emptied: cmark-gfm's safe default), after `edit` (if any) has changed the parsed
/// document's tree. Math spans (find_math) are taken out before CommonMark reads the text, which would take `_` and
/// `\,` in them for emphasis and escapes, and put back as `math` writes each.
std::string commonmark_html(std::string_view markdown, const std::function<void(cmark_node*)>& edit,
                            const std::function<std::string(const MathSpan&)>& math);

/// A block of HTML to put where the Markdown has a paragraph holding only `token` (a figure, an SVG chart).
struct HtmlBlock {
    std::string token;
    std::string html;
};

/// The HTML of a Markdown text, as cmark-gfm renders CommonMark with the table extension. Math spans (see
/// find_math) are taken out first and come back as <span class="math">TeX</span> (class "math display" for
/// `$$…$$`), HTML-escaped, for KaTeX to typeset in the page. Raw HTML in the Markdown is not passed through (it
/// may come from a spec): only `blocks`, whose paragraphs are replaced by their HTML.
std::string markdown_to_html(std::string_view markdown, const std::vector<HtmlBlock>& blocks = {});

/// One standalone page (templates/html/page.mustache) holding `documents`, each a Markdown document rendered by
/// markdown_to_html as an <article>, each table in a <div class="table-box"> (which scrolls sideways on a screen too
/// narrow for it); a printed page starts each article on a new sheet. `title` is the page's <title>. Errors come
/// from the template.
Result<std::string> html_page(const std::string& title, const std::vector<std::string>& documents,
                              const KatexLink& katex, const TemplateSet& templates,
                              const std::vector<HtmlBlock>& blocks = {});

} // namespace headcount::render

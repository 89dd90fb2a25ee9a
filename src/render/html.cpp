#include <render/html.hpp>

#include <render/math.hpp>
#include <util/text.hpp>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <fmt/format.h>

#include <memory>
#include <mutex>

namespace headcount::render {

namespace {

/// A word no span of `text` contains, to build placeholders from: "hcmath", "hcmath1", ... Placeholders are
/// letters and digits only, which CommonMark passes through untouched, also inside tables.
std::string fresh_marker(std::string_view text) {
    std::string marker = "hcmath";
    for (int i = 1; text.find(marker) != std::string_view::npos; ++i)
        marker = fmt::format("hcmath{}z", i);
    return marker;
}

std::string placeholder(const std::string& marker, std::size_t index) { return fmt::format("{}x{}x", marker, index); }

/// Replaces every occurrence of `from` in `text` with `to`.
void replace_all(std::string& text, std::string_view from, std::string_view to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

/// cmark-gfm's HTML of `markdown`: CommonMark, GFM tables, raw HTML omitted, `edit` applied to the tree first.
std::string cmark_html(const std::string& markdown, const std::function<void(cmark_node*)>& edit) {
    static std::once_flag registered;
    std::call_once(registered, [] { cmark_gfm_core_extensions_ensure_registered(); });
    const int options = CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8;
    std::unique_ptr<cmark_parser, decltype(&cmark_parser_free)> parser(cmark_parser_new(options), cmark_parser_free);
    if (cmark_syntax_extension* table = cmark_find_syntax_extension("table"))
        cmark_parser_attach_syntax_extension(parser.get(), table);
    cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
    std::unique_ptr<cmark_node, decltype(&cmark_node_free)> document(cmark_parser_finish(parser.get()),
                                                                     cmark_node_free);
    if (edit)
        edit(document.get());
    char* html = cmark_render_html(document.get(), options, cmark_parser_get_syntax_extensions(parser.get()));
    std::string out(html);
    cmark_get_default_mem_allocator()->free(html);
    return out;
}

/// `html` with each table in a box of its own, which the page's stylesheet lets scroll sideways when the table is
/// wider than the screen: a table cannot scroll itself, and cmark-gfm writes bare <table> elements (the Markdown's
/// text is escaped and figures are SVG, so every "<table>" is one).
std::string boxed_tables(std::string html) {
    replace_all(html, "<table>", "<div class=\"table-box\"><table>");
    replace_all(html, "</table>", "</table></div>");
    return html;
}

} // namespace

std::string commonmark_html(std::string_view markdown, const std::function<void(cmark_node*)>& edit,
                            const std::function<std::string(const MathSpan&)>& math) {
    const std::vector<MathSpan> spans = find_math(markdown);
    const std::string marker = fresh_marker(markdown);
    std::size_t index = 0;
    std::string html =
        cmark_html(replace_math(markdown, spans, [&](const MathSpan&) { return placeholder(marker, index++); }), edit);
    // A placeholder ends in 'x', so "…x1x" is no part of "…x12x".
    for (std::size_t i = 0; i < spans.size(); ++i)
        replace_all(html, placeholder(marker, i), math(spans[i]));
    return html;
}

std::string markdown_to_html(std::string_view markdown, const std::vector<HtmlBlock>& blocks) {
    std::string html = commonmark_html(markdown, {}, [](const MathSpan& span) {
        return fmt::format("<span class=\"math{}\">{}</span>", span.display ? " display" : "", escape_xml(span.tex));
    });
    for (const HtmlBlock& block : blocks)
        replace_all(html, "<p>" + escape_xml(block.token) + "</p>\n", block.html);
    return html;
}

Result<std::string> html_page(const std::string& title, const std::vector<std::string>& documents,
                              const KatexLink& katex, const TemplateSet& templates,
                              const std::vector<HtmlBlock>& blocks) {
    std::string body;
    for (const std::string& document : documents)
        body += "<article>\n" + boxed_tables(markdown_to_html(document, blocks)) + "</article>\n";
    const KatexMarkup markup = katex_markup(katex);
    // The template engine does not escape (its output is usually Markdown): escape here what is text.
    const View view{
        {"title", escape_xml(title)}, {"katex_head", markup.head}, {"body", body}, {"katex_typeset", markup.typeset}};
    return templates.render("html/page", view);
}

} // namespace headcount::render

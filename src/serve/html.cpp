#include <serve/html.hpp>

#include <render/html.hpp>
#include <util/text.hpp>

#include <cmark-gfm.h>
#include <fmt/format.h>

#include <algorithm>
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

/// Replaces every occurrence of `from` in `text` with `to`.
void replace_all(std::string& text, std::string_view from, std::string_view to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

/// A paragraph holding `literal` as text, or an inline text node when `inline_text`.
cmark_node* text_node(const char* literal, bool inline_text) {
    cmark_node* text = cmark_node_new(CMARK_NODE_TEXT);
    cmark_node_set_literal(text, literal);
    if (inline_text)
        return text;
    cmark_node* paragraph = cmark_node_new(CMARK_NODE_PARAGRAPH);
    cmark_node_append_child(paragraph, text);
    return paragraph;
}

/// What serve's pages need of a document: headings two levels down (the page has its h1 and each part an h2), every
/// list tight (feedback puts a blank line between the collisions and the mistakes of one list, whose items are
/// single paragraphs), and raw HTML as the text it is (shown, never run; cmark-gfm would drop it).
void for_the_page(cmark_node* document) {
    std::vector<cmark_node*> html;
    cmark_iter* iter = cmark_iter_new(document);
    for (cmark_event_type event; (event = cmark_iter_next(iter)) != CMARK_EVENT_DONE;) {
        cmark_node* node = cmark_iter_get_node(iter);
        if (event != CMARK_EVENT_ENTER)
            continue;
        const cmark_node_type type = cmark_node_get_type(node);
        if (type == CMARK_NODE_HEADING)
            cmark_node_set_heading_level(node, std::min(6, cmark_node_get_heading_level(node) + 2));
        else if (type == CMARK_NODE_LIST)
            cmark_node_set_list_tight(node, 1);
        else if (type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_HTML_INLINE)
            html.push_back(node);
    }
    cmark_iter_free(iter);
    for (cmark_node* node : html) {
        std::string literal = cmark_node_get_literal(node);
        while (literal.ends_with('\n'))
            literal.pop_back(); // a block's line break; the paragraph ends the line
        cmark_node_insert_before(node, text_node(literal.c_str(), cmark_node_get_type(node) == CMARK_NODE_HTML_INLINE));
        cmark_node_free(node);
    }
}

} // namespace

std::string markdown_html(std::string_view markdown) {
    std::string html = render::commonmark_html(markdown, for_the_page, [&](const render::MathSpan& span) {
        // As written, delimiters and all, for the page's KaTeX auto-render (which finds the givens' $…$ too).
        return escape_xml(markdown.substr(span.begin, span.end - span.begin));
    });
    // A right-aligned column is numbers: the pages' class for them (right-aligned, figures of one width). The
    // attribute can only be cmark-gfm's own: text has its quotes escaped.
    replace_all(html, "<th align=\"right\">", "<th class=\"num\">");
    replace_all(html, "<td align=\"right\">", "<td class=\"num\">");
    // Each table in a box that scrolls sideways when it is wider than the screen (headcount.css).
    replace_all(html, "<table>", "<div class=\"table-box\"><table>");
    replace_all(html, "</table>", "</table></div>");
    return html;
}

} // namespace headcount::serve

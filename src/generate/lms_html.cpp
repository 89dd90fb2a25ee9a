#include <generate/lms_html.hpp>

#include <util/text.hpp>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <fmt/format.h>

#include <cctype>
#include <memory>
#include <mutex>
#include <vector>

namespace headcount::generate {

namespace {

struct Formula {
    std::size_t begin = 0; ///< the opening '$'
    std::size_t end = 0;   ///< just past the closing '$'
    std::string tex;
    bool display = false;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// Whether a paragraph break (a blank line) starts right after the newline at `at`.
bool paragraph_ends_at(std::string_view text, std::size_t at) {
    for (std::size_t i = at + 1; i < text.size() && text[i] != '\n'; ++i)
        if (!is_space(text[i]))
            return false;
    return true;
}

/// Where `delimiter` closes a formula opened before `from`, within the paragraph and before any code span, or npos.
std::size_t closing(std::string_view text, std::size_t from, std::string_view delimiter, bool inline_rules) {
    for (std::size_t i = from; i < text.size(); ++i) {
        if (text[i] == '\\') {
            ++i;
            continue;
        }
        // A formula does not run into a code span (CommonMark reads those first) or past its paragraph.
        if (text[i] == '`' || (text[i] == '\n' && paragraph_ends_at(text, i)))
            return std::string_view::npos;
        if (text.substr(i, delimiter.size()) != delimiter)
            continue;
        if (!inline_rules)
            return i;
        const bool digit_after = i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]));
        if (!is_space(text[i - 1]) && !digit_after)
            return i;
    }
    return std::string_view::npos;
}

/// The formulas of `text` outside code spans, in order.
std::vector<Formula> formulas(std::string_view text) {
    std::vector<Formula> out;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == '\\') {
            i += 2;
            continue;
        }
        if (c == '`') { // a code span: up to the next run of as many backticks, or the run itself is text
            std::size_t n = 0;
            while (i + n < text.size() && text[i + n] == '`')
                ++n;
            const std::size_t close = text.find(std::string(n, '`'), i + n);
            i = close == std::string_view::npos ? i + n : close + n;
            continue;
        }
        if (c != '$') {
            ++i;
            continue;
        }
        const bool display = text.substr(i, 2) == "$$";
        const std::size_t open = display ? 2 : 1;
        if (!display && (i + 1 >= text.size() || is_space(text[i + 1]))) {
            ++i;
            continue;
        }
        const std::size_t close = closing(text, i + open, display ? "$$" : "$", !display);
        if (close == std::string_view::npos) {
            i += open;
            continue;
        }
        out.push_back({i, close + open, std::string(text.substr(i + open, close - i - open)), display});
        i = close + open;
    }
    return out;
}

/// cmark-gfm's HTML: CommonMark and GFM tables; raw HTML is replaced by a comment (CMARK_OPT_UNSAFE is not set).
std::string cmark_html(const std::string& markdown) {
    static std::once_flag registered;
    std::call_once(registered, [] { cmark_gfm_core_extensions_ensure_registered(); });
    const int options = CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8;
    std::unique_ptr<cmark_parser, decltype(&cmark_parser_free)> parser(cmark_parser_new(options), cmark_parser_free);
    if (cmark_syntax_extension* table = cmark_find_syntax_extension("table"))
        cmark_parser_attach_syntax_extension(parser.get(), table);
    cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
    std::unique_ptr<cmark_node, decltype(&cmark_node_free)> document(cmark_parser_finish(parser.get()),
                                                                      cmark_node_free);
    char* html = cmark_render_html(document.get(), options, cmark_parser_get_syntax_extensions(parser.get()));
    std::string out(html);
    cmark_get_default_mem_allocator()->free(html);
    return out;
}

} // namespace

std::string lms_html(std::string_view markdown) {
    const std::vector<Formula> found = formulas(markdown);
    // Placeholders of letters and digits pass through CommonMark untouched; the marker is one the text lacks, and
    // each ends in 'x' so that "...x1x" is not part of "...x12x".
    std::string marker = "hcmath";
    for (int n = 1; markdown.find(marker) != std::string_view::npos; ++n)
        marker = fmt::format("hcmath{}z", n);
    std::string text;
    std::size_t at = 0;
    for (std::size_t i = 0; i < found.size(); ++i) {
        text.append(markdown.substr(at, found[i].begin - at));
        text += fmt::format("{}x{}x", marker, i);
        at = found[i].end;
    }
    text.append(markdown.substr(at));
    std::string html = cmark_html(text);
    // A platform frames the text with its own page and title: headings start two levels down (# -> <h3>).
    for (int level = 4; level >= 1; --level)
        for (const char* tag : {"<h", "</h"}) {
            const std::string from = fmt::format("{}{}>", tag, level), to = fmt::format("{}{}>", tag, level + 2);
            for (std::size_t pos = html.find(from); pos != std::string::npos; pos = html.find(from, pos + to.size()))
                html.replace(pos, from.size(), to);
        }
    for (std::size_t i = 0; i < found.size(); ++i) {
        const std::string token = fmt::format("{}x{}x", marker, i);
        const std::string math = found[i].display ? "\\[" + escape_xml(found[i].tex) + "\\]"
                                                  : "\\(" + escape_xml(found[i].tex) + "\\)";
        for (std::size_t pos = html.find(token); pos != std::string::npos; pos = html.find(token, pos + math.size()))
            html.replace(pos, token.size(), math);
    }
    return html;
}

} // namespace headcount::generate

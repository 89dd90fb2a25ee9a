#pragma once
// TeX math in Markdown: where the `$…$` spans are, read by Pandoc's rules, so the HTML renderer can take them out
// before CommonMark sees them (CommonMark would read `_` and `\,` inside them as emphasis and escapes).

#include <string>
#include <string_view>
#include <vector>

namespace headcount::render {

/// One formula of a Markdown text.
struct MathSpan {
    std::size_t begin = 0; ///< byte offset of the opening `$`
    std::size_t end = 0;   ///< byte offset just past the closing `$`
    std::string tex;       ///< what is between the delimiters
    bool display = false;  ///< `$$…$$`
};

/// The math spans of `markdown`, read as Pandoc's tex_math_dollars reads them: an opening `$` is not followed by
/// a space, a closing `$` is not preceded by a space nor followed by a digit; `\$` is a dollar sign; `$$…$$` is
/// display math; no span crosses a blank line; code spans and fenced code blocks hold no math. A `$` with no
/// closing partner is an ordinary character.
std::vector<MathSpan> find_math(std::string_view markdown);

/// `text` with every span's delimiters and TeX replaced by what `replace` returns for it.
template <class Replace>
std::string replace_math(std::string_view text, const std::vector<MathSpan>& spans, Replace replace) {
    std::string out;
    std::size_t at = 0;
    for (const MathSpan& span : spans) {
        out.append(text.substr(at, span.begin - at));
        out += replace(span);
        at = span.end;
    }
    out.append(text.substr(at));
    return out;
}

} // namespace headcount::render

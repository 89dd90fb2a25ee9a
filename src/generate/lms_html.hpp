#pragma once
// The HTML that learning platforms store for question texts and feedback: headcount's Markdown rendered by
// cmark-gfm (CommonMark with GitHub's tables), with TeX math in MathJax's default delimiters, which Moodle's MathJax
// filter and Canvas typeset (`$…$` is not one of them, so a default Moodle would show raw TeX).

#include <string>
#include <string_view>

namespace headcount::generate {

/// `markdown` as an HTML fragment: CommonMark and GFM tables by cmark-gfm, raw HTML in the Markdown left out (it
/// may come from a spec); `$…$` math (Pandoc's rules: no space inside the delimiters, no digit after the closing
/// one; `\$` is a dollar) becomes `\(…\)` and `$$…$$` becomes `\[…\]`, the TeX HTML-escaped and kept away from
/// CommonMark, which would read its `_` and `\,` as emphasis and escapes. Headings start at <h3> (# is <h3>):
/// the platform's page has its own title.
std::string lms_html(std::string_view markdown);

} // namespace headcount::generate

#pragma once
// The HTML that learning platforms store for question texts and feedback: headcount's Markdown rendered by
// cmark-gfm (CommonMark with GitHub's tables), with TeX math in MathJax's default delimiters, which Moodle's MathJax
// filter and Canvas typeset (`$…$` is not one of them, so a default Moodle would show raw TeX).

#include <string>
#include <string_view>

namespace headcount::generate {

/// `markdown` as an HTML fragment, as render::markdown_to_html writes it (CommonMark and GFM tables by cmark-gfm,
/// raw HTML left out, math found by Pandoc's rules and kept away from CommonMark), with `$…$` math written `\(…\)`
/// and `$$…$$` written `\[…\]`, the TeX HTML-escaped. Headings start at <h3> (# is <h3>):
/// the platform's page has its own title.
std::string lms_html(std::string_view markdown);

} // namespace headcount::generate

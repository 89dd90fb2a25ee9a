#pragma once
// A question text as Canvas's fill-in-multiple-blanks question reads it. A quiz puts each blank's box where
// the first "[name]" of the text stands (app/models/quizzes/quiz.rb, decorate_question_for_submission:
// text.sub), and its importers and editor take any "[" + letters, digits, '_', '-' or '.' + "]" for a blank
// (the qti gem's CANVAS_REGEX). The importer also parses the HTML and writes it back (qti_exporter's
// sanitize_html_string, with Nokogiri), so a character reference such as &#91; returns as '[' before the quiz
// looks: a bracket that must stay text has to be broken up by markup.

#include <string>
#include <string_view>

namespace headcount::generate {

/// `html` (lms_html's output: math in \(…\) and \[…\]) with every '[' that Canvas could read as a blank
/// broken up so that it reads as text: <span>[</span> in text and code, [{} in math (an empty TeX group,
/// which MathJax shows as nothing, where markup would stop it typesetting), and '[' then U+200B ZERO WIDTH
/// SPACE in an attribute value (an image's alt text, a link's title). Other brackets are left as they are.
std::string canvas_text(std::string_view html);

} // namespace headcount::generate

#pragma once
// A Moodle question bank (Moodle XML): a category per problem and one Cloze (multianswer) question per variant
// holding every part, so a quiz's "random question from this category" gives a student one variant's numbers in
// every part. Each part is a NUMERICAL, SHORTANSWER or MULTICHOICE subquestion whose answers are grade's: the right
// value with the part's tolerance, each catalogued mistake's value with its credit and explanation (under the part's
// reveal policy), and the right value rounded with the part's `rounded` credit. No student's name appears.

#include <generate/bank.hpp>
#include <render/templates.hpp>

#include <string>
#include <vector>

namespace headcount::generate {

/// A Moodle bank and what it had to leave out.
struct MoodleBank {
    std::string xml;
    /// "week3-mha-params v3 (b): 1,000,000,000,000,001" for each value grade tells apart that Moodle would still
    /// read as an earlier answer with other credit or feedback (moodle_numbers.hpp), and so is not in the bank.
    std::vector<std::string> left_out;
};

/// The whole bank as Moodle XML (UTF-8): per problem a category $course$/top/headcount/<problem id> followed by its
/// variants' Cloze questions, in the order given. Texts are HTML with math in \(…\) (lms_html); the general
/// feedback is the variant's worked solution. Errors come from the templates.
Result<MoodleBank> moodle_question_bank(const std::vector<ProblemBank>& banks, const render::TemplateSet& templates);

/// `text` made safe inside one Cloze answer or feedback (Moodle's qtype_multianswer parser): '&' is escaped first,
/// then '}', '~', '#', '{' and '\' become numeric character references, which the parser does not read as
/// delimiters and which it decodes (html_entity_decode) when it stores the text.
std::string cloze_escape(std::string_view text);

/// HTML outside the subquestions made inert for Moodle's Cloze parser: '{' and '}' become numeric character
/// references, so no text a spec or template supplies can open a subquestion ({1:SHORTANSWER:...}) or stand for one
/// ({#1}); a browser, and MathJax after it, still reads the braces.
std::string cloze_text(std::string_view html);

/// Cloze's grade of an answer in percent, as few digits as exact: 100, 50, 33.33333 (Moodle stores 7 decimals of
/// the fraction).
std::string cloze_percent(double credit);

} // namespace headcount::generate

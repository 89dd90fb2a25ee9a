#pragma once
// The HTML pages, rendered from templates/serve/*.mustache (an instructor restyles them with --templates).
// Every string a view holds is HTML already: text is escaped as it enters the view, and the only markup comes
// from markdown_html (questions, feedback) and from here. No view holds an expected value, a derived number
// under the reveal policy, the worked solution or anything of the spec but its title, id, stated givens and
// questions.

#include <serve/checker.hpp>
#include <serve/classroom.hpp>

#include <grade/typing_examples.hpp>

#include <render/templates.hpp>

#include <string>
#include <string_view>

namespace headcount::serve {

/// Who is looking: an authenticated student and the token of their link, or nobody ("" and "").
struct Visitor {
    std::string student;
    std::string token;
};

/// "?student=…&token=…" for a visitor's links (percent-encoded), "" for nobody.
std::string identity_query(const Visitor& visitor);

/// One part's box with an answer checked in it, on a problem page rendered after a form was sent.
struct ShownFeedback {
    std::string part;
    std::string answer;   ///< as typed, put back in the box
    std::string fragment; ///< verdict() or notice()
};

/// Renders pages. Thread-safe (read-only).
class Pages {
  public:
    /// `book` (may be null) tells a student on a problem page how many checks of each part they have left.
    Pages(const Classroom& classroom, const render::TemplateSet& templates, const AttemptBook* book = nullptr);

    /// The list of problems, each linking to the visitor's own page, and how to type an answer: one count written
    /// several ways, chosen once for the whole class so that it is near no answer any page can lead to (see
    /// grade/typing_examples.hpp); without one, the same words with no number.
    [[nodiscard]] Result<std::string> index(const Visitor& visitor) const;

    /// A problem page: title, the stated givens of the visitor's variant, and each part's question with an answer
    /// form; `shown` fills one part's feedback box.
    [[nodiscard]] Result<std::string> problem(const solve::SolvedProblem& problem, const Visitor& visitor,
                                              const ShownFeedback* shown) const;

    /// A verdict as the HTML that goes in a part's feedback box (serve/feedback.mustache).
    [[nodiscard]] Result<std::string> verdict(const CheckResult& result) const;

    /// A refusal (too many checks, answer too long) for a part's feedback box.
    [[nodiscard]] std::string notice(std::string_view message) const;

    /// A whole page with a heading and one paragraph of text (errors, the welcome without a link). Never fails:
    /// if the instructor's templates cannot render it, a plain built-in page is used.
    [[nodiscard]] std::string message(std::string_view heading, std::string_view text, const Visitor& visitor) const;

  private:
    const Classroom& m_classroom;
    const render::TemplateSet& m_templates;
    const AttemptBook* m_book;
    std::optional<grade::CountExample> m_example; ///< the home page's, for every visitor

    [[nodiscard]] Result<std::string> page(std::string_view title, const std::string& body,
                                           const Visitor& visitor) const;
};

} // namespace headcount::serve

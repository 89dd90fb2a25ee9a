#pragma once
// Words for a verdict: the verdict text (templates/verdict.mustache) with each named mistake explained in the
// problem's own numbers (templates/mistakes/<id>.mustache). Shared by `check` and the class feedback files.

#include <grade/grader.hpp>
#include <render/templates.hpp>

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace headcount::grade {

/// One named mistake with its explanation for this part.
struct MistakeNote {
    std::string id;
    std::string title;
    std::string feedback;
};

/// A verdict put into words.
struct Feedback {
    std::string text;               ///< the whole verdict as the student reads it (Markdown)
    std::vector<MistakeNote> notes; ///< every mistake named, each once, in the order they were found
};

/// Renders the feedback for `verdict` under a reveal policy (see render/hints.hpp): `hints` names the mistakes
/// and explains them in words and the problem's stated givens, `gaps` adds the difference and the mistakes' own
/// numbers, `full` adds the expected value. Errors come only from the templates (an instructor's template naming a
/// value that does not exist, or a number `hints` does not provide).
Result<Feedback> explain(const solve::SolvedProblem& solved, const solve::SolvedPart& part, const Verdict& verdict,
                         const render::TemplateSet& templates, spec::Reveal reveal);

/// The policy feedback on `part` follows: full when the instructor forces it (--reveal), else the spec's.
inline spec::Reveal effective_reveal(const spec::Problem& problem, const spec::Part& part, bool force_full) {
    return force_full ? spec::Reveal::full : problem.reveal_for(part);
}

/// "1.5", "3": points and scores as people write them.
std::string points_text(double points);

} // namespace headcount::grade

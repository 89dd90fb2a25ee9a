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
    std::string text;                ///< the whole verdict as the student reads it (Markdown)
    std::vector<MistakeNote> notes;  ///< every mistake named, each once, in the order they were found
};

/// Renders the feedback for `verdict`. With `reveal`, the expected value is stated. Errors come only from the
/// templates (an instructor's template naming a value that does not exist).
Result<Feedback> explain(const solve::SolvedProblem& solved, const solve::SolvedPart& part, const Verdict& verdict,
                         const render::TemplateSet& templates, bool reveal);

/// Feedback already rendered, by (problem variant, part, typed answer, reveal): the verdict depends on nothing
/// else, and a class repeats the same few numbers, so grading a class renders each distinct answer once.
class FeedbackCache {
  public:
    /// explain(), or the copy made the first time these inputs were seen. The pointer lives as long as the cache.
    Result<const Feedback*> explain(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                                    const Verdict& verdict, const render::TemplateSet& templates, bool reveal);

  private:
    std::map<std::tuple<const solve::SolvedProblem*, std::string, std::string, bool>, Feedback> m_rendered;
};

/// "1.5", "3": points and scores as people write them.
std::string points_text(double points);

} // namespace headcount::grade

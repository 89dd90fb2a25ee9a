#pragma once
// A Moodle XML question bank: a question per student variant and part (numerical for counts, short answer for
// shapes, multiple choice for words), whose extra answers carry the catalogued mistakes' values, credit and
// feedback, so Moodle gives the same targeted feedback as headcount.

#include <render/templates.hpp>
#include <solve/asks.hpp>

#include <string>
#include <vector>

namespace headcount::generate {

/// One student's variant of one problem.
struct StudentVariant {
    std::string student;
    const solve::SolvedProblem* solved = nullptr;
};

/// The whole bank as Moodle XML (UTF-8), one category per problem part ($course$/headcount/<problem>/<part>).
/// Texts are Markdown (Moodle's format="markdown"). Mistake credits are rounded down to the grade fractions
/// Moodle accepts.
Result<std::string> moodle_question_bank(const std::vector<StudentVariant>& variants,
                                         const render::TemplateSet& templates);

/// The largest fraction Moodle accepts for an answer (100, 90, 83.33333, ... 5, 0) not above `percent`.
double moodle_fraction(double percent);

} // namespace headcount::generate

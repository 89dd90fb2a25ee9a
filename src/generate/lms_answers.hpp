#pragma once
// What `grade` does with each answer a learning platform can tell apart, for one part of one variant: the right
// value (with the part's tolerance), each catalogued mistake's and other quantity's value, and the right value
// rounded, each with the credit grade gives it and grade's own feedback under the part's reveal policy. Moodle and
// Canvas exports are written from this list, so a platform gives what grade gives as far as it can express it.

#include <grade/grader.hpp>
#include <render/templates.hpp>
#include <solve/asks.hpp>

#include <string>
#include <vector>

namespace headcount::generate {

/// One mistake grade names for a value, under the part's reveal policy.
struct PlatformNote {
    std::string title; ///< what the student did ("The bias vectors were left out")
    std::string text;  ///< the whole note as grade writes it (Markdown): "**title.** explanation"
};

/// One value a student may type for a part, as grade judges it.
struct PlatformAnswer {
    solve::Answer value;                             ///< a count, a shape, or a choice (the word's index)
    grade::Status status = grade::Status::incorrect; ///< correct, rounded or incorrect
    double credit = 0;                               ///< the fraction of the part's points grade gives (0..1)
    std::string typed;    ///< how it was typed when grade judged it (1050000 as "1.05e6" for a rounding)
    std::string feedback; ///< grade's words for it (Markdown): the mistakes named and explained, or the rounding
    std::vector<std::string> mistakes; ///< ids of the mistakes named, in grade's order
    std::vector<PlatformNote> notes;   ///< the notes `feedback` joins (a blank line between), in its order
};

/// Every value grade tells apart for `part` of `variant`, in the order a first-match platform must test them: the
/// right value first, then each different value of a catalogued mistake (alone, or two together when no single
/// one gives it) or of another quantity of the problem, then (counts only) the right value rounded to 2, 3, ...
/// significant figures that grade calls rounded (typed in e-notation, which says how many figures were meant).
/// A value equal to an earlier one is left out: grade reads it as the earlier one. Each entry's credit and feedback
/// are what `grade_answer` and `explain` give for it typed that way. Errors come from the templates only.
Result<std::vector<PlatformAnswer>> platform_answers(const solve::SolvedProblem& variant, const solve::SolvedPart& part,
                                                     const render::TemplateSet& templates);

/// The texts a student may type for a count part's values, each as grade judges it typed that way, for platforms
/// that match text (a value past 2^53, which a double cannot hold): for the right value its digits, with commas, in
/// e-notation with its figures, and its roundings to each number of figures (grade takes those within the part's
/// interval as right and calls the others rounded); for another value its digits, with commas, in e-notation, and
/// under {sigfigs: n} rounded to n figures; for a rounding its e-notation and digits. A text grade calls wrong
/// without naming a mistake, or cannot read, is left out, and a text is listed once. `answers` is
/// platform_answers' list for `part`; the result is in its order, each entry's `typed` the text.
Result<std::vector<PlatformAnswer>> text_answers(const solve::SolvedProblem& variant, const solve::SolvedPart& part,
                                                 const std::vector<PlatformAnswer>& answers,
                                                 const render::TemplateSet& templates);

/// The ways a student may type a shape, for platforms that match text: (32, 8, 128, 128), [32,8,128,128],
/// 32x8x128x128, 32 × 8 × 128 × 128, torch.Size([32, 8, 128, 128]), ...
std::vector<std::string> shape_forms(const solve::Shape& shape);

/// A count in e-notation with `figures` significant figures: (1050000, 3) -> "1.05e6"; (1100000, 2) -> "1.1e6".
std::string e_notation(Count value, int figures);

} // namespace headcount::generate

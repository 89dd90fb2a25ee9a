#pragma once
// Judging an answer that is a formula (`answer: formula`): the student's formula is the right one when it has the
// right one's value at the problem's own givens and at random points around them (issue 41, item 6), and a mistake
// when it has that mistake's value at every one of them. The points are whole problems solved anew, so a mistake
// anywhere in the computation, however deep, is followed as it is for a number.

#include <grade/grader.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace headcount::grade {

/// Random points a formula answer is tried at, besides the problem's own givens.
inline constexpr std::size_t k_formula_points = 8;

/// What every formula answer to one part of one variant is judged by, computed once.
struct FormulaTable {
    std::vector<std::string> names;          ///< the givens a formula may name (solve::formula_answer_names)
    std::vector<std::string> listed;         ///< those a message lists (solve::stated_formula_names)
    std::vector<std::string> quantity_names; ///< the problem's quantities, which a formula must spell out
    /// The names' values at each point: the problem's own first.
    std::vector<std::map<std::string, formula::Number, std::less<>>> points;
    std::vector<formula::Number> expected; ///< the part's right value at each point
    /// Each explanation of the problem's own givens (a mistake, a pair, another quantity), with its value at every
    /// point: nullopt where it cannot be computed there.
    struct Candidate {
        Explanation explanation;
        std::vector<std::optional<formula::Number>> values;
    };
    std::vector<Candidate> candidates;
};

/// The table of a formula part (`part.part.formula_answer`) of `solved`.
std::shared_ptr<const FormulaTable> formula_table(const solve::SolvedProblem& solved, const solve::SolvedPart& part);

/// Reads `verdict.answer` as a formula (arithmetic or TeX, answer/formula_text.hpp) and judges it: status correct,
/// incorrect (with `matches` and, when it is right at the problem's givens alone, `right_here_only`) or unreadable
/// (with the reason: a formula that cannot be read, a name that is not a given, naming the ones it may use).
void judge_formula(const FormulaTable& table, Verdict& verdict);

} // namespace headcount::grade

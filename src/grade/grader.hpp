#pragma once
// Grades one typed answer to one part: right, rounded, wrong (with the mistakes that explain it) or unreadable.

#include <answer/answer.hpp>
#include <grade/mistakes.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace headcount::grade {

using answer::ParsedAnswer;

/// The outcome of one answer.
enum class Status { correct, rounded, incorrect, unreadable };

/// "correct", "rounded", "incorrect", "unreadable": the words used in JSON, CSV and reports.
std::string_view status_name(Status status);

/// Everything the grader concluded about one answer.
struct Verdict {
    Status status = Status::unreadable;
    std::string answer;                 ///< as typed
    std::optional<ParsedAnswer> parsed; ///< a count ask's answer, read; unset when unreadable or not a count
    std::optional<solve::Answer> read;  ///< what the answer denotes when it is exact: a whole count, a shape
                                        ///< or a choice; unset when unreadable or not a whole number
    std::string unreadable_reason;      ///< why the answer could not be read
    solve::Answer expected;
    double points = 0; ///< the part's points
    double score = 0;  ///< points earned: all, a mistake's credit share, or 0
    /// For incorrect: every explanation whose value the answer gives by the test a right value is judged by (issue
    /// 39, rule 1): it would be right or rounded, were that value the right one.
    std::vector<Explanation> matches;
    /// For incorrect: when more than two unrelated explanations match (a small whole number, a value shared by
    /// several slips), none is the cause: up to three of them as possibilities, and `matches` empty.
    std::vector<Explanation> possible;
    std::optional<double> near_miss; ///< for unexplained wrong answers within 5%: the relative difference
    /// The sentence of the part's other reading (`accept:`) that the answer matches, or "": then the status is
    /// correct at full credit, or incorrect with the reading's credit as its score.
    std::string accepted;
    /// For a formula answer (`answer: formula`) that is wrong: it has the right value at the problem's own givens,
    /// but not at others, so it is another formula that happens to agree here.
    bool right_here_only = false;
};

struct FormulaTable; // grade/formula_answer.hpp

/// What every verdict on one part of one problem variant depends on, computed once: the value of each catalogued
/// mistake and pair (explanations()) and the other quantities of the problem (other_quantities()). Grading a
/// class builds one per (variant, part) and then only reads answers and looks their values up.
struct MistakeTable {
    const solve::SolvedProblem* solved = nullptr;
    const solve::SolvedPart* part = nullptr;
    std::vector<Explanation> explanations;
    std::vector<Explanation> others;
    /// Each explanation's value (then each other's) exactly and as a double, made once with the table: a class
    /// whose answers all differ compares each with every one of them.
    struct Value {
        formula::Number exact;
        double approximate = 0;
    };
    std::vector<Value> explanation_values;
    std::vector<Value> other_values;
    /// For a part answered with a formula: its points and what each explanation comes to there.
    std::shared_ptr<const FormulaTable> formula;
};

/// The table of `part` (one of `solved`'s parts, which must outlive it).
MistakeTable mistake_table(const solve::SolvedProblem& solved, const solve::SolvedPart& part);

/// Grades `answer` for the table's part: as grade_answer below, without re-solving any mistake.
Verdict grade_answer(const MistakeTable& table, std::string_view answer);

/// Grades `answer` for `part` of `solved`, read as the ask's type of answer (a count, bytes with a unit, a shape
/// or a word). Never fails: an answer that cannot be read is the verdict "unreadable" with a reason. Partial
/// credit comes from the part's `credit:` or the catalogue's default. For bytes, the right value written in
/// decimal or binary units (16.8 MB, 16 MiB for 16,777,216) is right when it rounds to the exact count.
Verdict grade_answer(const solve::SolvedProblem& solved, const solve::SolvedPart& part, std::string_view answer);

/// The significant figures of an answer written as a rounded number (1.05M: 3; 1,050,000: 3), 0 when it is exact
/// (arithmetic, or a whole number without trailing zeros).
int written_figures(const ParsedAnswer& answer);

/// The mistakes a verdict names, each once: `rounded` for a rounded answer, else those of every matching
/// explanation in the order found. Feedback, results and the report all list them this way.
std::vector<const Mistake*> named_mistakes(const Verdict& verdict);

/// The fraction of the points a mistake earns in this part (the part's override, else the catalogue's).
double credit_for(const spec::Part& part, const Mistake& mistake);

} // namespace headcount::grade

#pragma once
// One graded answer as JSON: what `check --format json` prints and what `serve` answers POST /api/check with.

#include <grade/feedback.hpp>

#include <nlohmann/json.hpp>

namespace headcount::grade {

/// {problem, part, answer, value, status, correct, score, points, reason (unreadable only), mistakes [{id, title,
/// feedback}], feedback_policy, expected (under `full` only)}. The answer is untrusted: one that is not UTF-8 is
/// shown as U+FFFD. Under `hints` and `gaps` nothing here holds the expected value.
nlohmann::ordered_json verdict_json(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                                    const Verdict& verdict, const Feedback& feedback, spec::Reveal reveal);

} // namespace headcount::grade

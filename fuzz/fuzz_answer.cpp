// Fuzz target: the answer reader (counts, bytes, shapes, words, formulas) and the grader behind it, on untrusted text
// as students type it. Properties: nothing crashes or hangs, and every reason a student is shown is valid UTF-8 (it
// goes into JSON and Markdown).
#include "fuzz_support.hpp"

#include <answer/answer.hpp>
#include <answer/formula_text.hpp>
#include <grade/grader.hpp>
#include <util/text.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

using namespace headcount;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const auto unit : {answer::AnswerUnit::count, answer::AnswerUnit::bytes}) {
        const auto read = answer::parse_answer(text, unit);
        fuzz::require(read.has_value() || is_valid_utf8(read.error()), "an answer's reason is not UTF-8");
    }
    const auto shape = answer::parse_shape(text);
    fuzz::require(shape.has_value() || is_valid_utf8(shape.error()), "a shape's reason is not UTF-8");
    const auto formula = answer::formula_answer_text(text);
    fuzz::require(formula.has_value() || is_valid_utf8(formula.error()), "a formula's reason is not UTF-8");
    // A formula answer (answer: formula), judged at the points of a table made once: every input is read, parsed and
    // evaluated at nine points.
    static const grade::MistakeTable formula_part = [] {
        const solve::SolvedProblem& week = fuzz::shipped_problem("week-formulas");
        return grade::mistake_table(week, week.parts[0]);
    }();
    const grade::Verdict judged = grade::grade_answer(formula_part, text);
    fuzz::require(is_valid_utf8(judged.unreadable_reason), "a formula verdict's reason is not UTF-8");
    fuzz::require(judged.score >= 0 && judged.score <= judged.points, "a formula's score outside 0..points");

    // One part of one shipped problem per input, chosen by its size, covers every kind of answer over a corpus.
    static const std::array<const solve::SolvedProblem*, 3> problems{&fuzz::shipped_problem("week3-mha-params"),
                                                                     &fuzz::shipped_problem("mha-shapes-memory"),
                                                                     &fuzz::shipped_problem("mha-flops-long-context")};
    std::size_t pick = size;
    for (const solve::SolvedProblem* problem : problems) {
        if (pick < problem->parts.size()) {
            const grade::Verdict verdict = grade::grade_answer(*problem, problem->parts[pick], text);
            fuzz::require(is_valid_utf8(verdict.unreadable_reason), "a verdict's reason is not UTF-8");
            fuzz::require(verdict.score >= 0 && verdict.score <= verdict.points, "a score outside 0..points");
            return 0;
        }
        pick -= problem->parts.size();
    }
    const solve::SolvedProblem& first = *problems[0];
    grade::grade_answer(first, first.parts[pick % first.parts.size()], text);
    return 0;
}

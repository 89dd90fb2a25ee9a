#pragma once
// Examples of how to type an answer, shown to students: the unreadable verdict's "write it as ..." and serve's
// home page. An example must not tell anyone anything about an answer, nor be one: it is never within a factor of
// 2 of any answer the text can lead to, so that no tolerance (at most 100%) or rounding makes the example itself
// a right answer, and typing it teaches nothing about the answer's size.

#include <render/mustache.hpp>
#include <solve/asks.hpp>

#include <optional>
#include <span>
#include <string>

namespace headcount::grade {

/// Whether `example` is within a factor of 2 of `answer`, either way. An answer of 0 is near nothing.
bool near_answer(double example, Count answer);

/// The examples an unreadable answer to `part` is told to follow: number, scaled, expression, bytes,
/// binary_bytes and shape. Fixed texts, so they teach nothing about the problem; of each pair the first that is not
/// near the part's answer (the two of a pair are more than 4 times apart, so one of them never is).
render::View writing_examples(const solve::SolvedPart& part);

/// One count written the ways a student may type it: 3003000, 3,003,000, 3*1000*1001, 3 \times 1000 \times 1001.
struct CountExample {
    Count value = 0;
    std::string digits;
    std::string grouped;
    std::string product;
    std::string tex;
};

/// A count 3·n·(n + 1), n = 10, 15, 20, 30, 50 or 70 times a power of 10 up to 10^9, that is near none of
/// `answers`: of those, the closest to three million (as a ratio); nullopt when every one is near an answer.
/// The same answers give the same example.
std::optional<CountExample> count_example(std::span<const Count> answers);

/// The answers of `problem`'s count parts (parameters, FLOPs, bytes, ...; not shapes or words), appended to `out`.
void append_count_answers(const solve::SolvedProblem& problem, std::vector<Count>& out);

} // namespace headcount::grade

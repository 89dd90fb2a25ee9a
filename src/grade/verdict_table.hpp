#pragma once
// The verdicts of one part of one problem variant, each distinct answer graded once. A class repeats the same few
// answers (right ones, common mistakes) thousands of times, so a row's verdict is: look the typed text up, and
// grade it only the first time it is seen.

#include <grade/grader.hpp>

#include <cstdint>
#include <deque>
#include <string_view>
#include <unordered_map>

namespace headcount::grade {

class VerdictTable {
  public:
    /// A table for `part` of `solved` (which must outlive it), with its mistake values computed now.
    VerdictTable(const solve::SolvedProblem& solved, const solve::SolvedPart& part);

    /// The number of `answer` among the distinct answers this table has seen, grading it when it is new.
    std::uint32_t intern(std::string_view answer);

    /// The verdict of distinct answer `id` (from intern()). The reference is stable for the table's life.
    [[nodiscard]] const Verdict& verdict(std::uint32_t id) const { return m_verdicts[id]; }

    [[nodiscard]] const solve::SolvedProblem& solved() const { return *m_mistakes.solved; }
    [[nodiscard]] const solve::SolvedPart& part() const { return *m_mistakes.part; }
    /// How many distinct answers it holds.
    [[nodiscard]] std::size_t size() const { return m_verdicts.size(); }

  private:
    MistakeTable m_mistakes;
    std::deque<Verdict> m_verdicts; ///< a deque, so the answers the index views stay where they are
    std::unordered_map<std::string_view, std::uint32_t> m_index;
};

} // namespace headcount::grade

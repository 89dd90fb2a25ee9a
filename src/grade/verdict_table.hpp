#pragma once
// The verdicts of one part of one problem variant, each distinct answer graded once. A class repeats the same few
// answers (right ones, common mistakes) thousands of times, so a row's verdict is: look the typed text up, and
// grade it only the first time it is seen. Memory stays bounded when answers do not repeat: the whole verdict is
// kept for the first k_kept distinct answers only; a later answer keeps its text and what it scored, and is graded
// again when its feedback is written.

#include <grade/grader.hpp>

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace headcount::grade {

/// What an answer scored, which the gradebook and the totals need for every student.
struct VerdictSummary {
    Status status = Status::unreadable;
    double score = 0;
};

class VerdictTable {
  public:
    /// How many distinct answers keep their whole verdict (and are found again when repeated).
    static constexpr std::size_t k_kept = 4096;

    /// A table for `part` of `solved` (which must outlive it), with its mistake values computed now.
    VerdictTable(const solve::SolvedProblem& solved, const solve::SolvedPart& part);

    /// The number of `answer` in this table, grading it when it is new. An answer first seen after k_kept
    /// distinct ones gets a new number each time it is seen.
    std::uint32_t intern(std::string_view answer);

    /// What answer `id` scored.
    [[nodiscard]] VerdictSummary summary(std::uint32_t id) const { return m_summaries[id]; }

    /// The verdict of answer `id`: the kept one, the one intern() graded last, or the answer graded again into
    /// `scratch`. Once interning is over, safe to call from several threads (each with its own scratch).
    [[nodiscard]] const Verdict& verdict(std::uint32_t id, Verdict& scratch) const;

    /// Whether answer `id` keeps its whole verdict (and so is worth memoising what is derived from it).
    [[nodiscard]] bool kept(std::uint32_t id) const { return id < m_verdicts.size(); }

    [[nodiscard]] const solve::SolvedProblem& solved() const { return *m_mistakes.solved; }
    [[nodiscard]] const solve::SolvedPart& part() const { return *m_mistakes.part; }

  private:
    MistakeTable m_mistakes;
    std::deque<Verdict> m_verdicts; ///< the first k_kept distinct answers; a deque, so the index's views stay put
    std::unordered_map<std::string_view, std::uint32_t> m_index;
    std::vector<VerdictSummary> m_summaries; ///< every answer
    std::vector<std::string_view> m_later;   ///< the text of answer k_kept + i, in m_arena
    std::vector<std::unique_ptr<char[]>> m_arena;
    char* m_arena_next = nullptr;
    std::size_t m_arena_left = 0;
    std::uint32_t m_last_id = std::numeric_limits<std::uint32_t>::max();
    Verdict m_last; ///< the verdict of m_last_id, which the results log asks for right after intern()
};

} // namespace headcount::grade

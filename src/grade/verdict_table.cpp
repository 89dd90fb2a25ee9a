#include <grade/verdict_table.hpp>

#include <algorithm>
#include <cstring>

namespace headcount::grade {

VerdictTable::VerdictTable(const solve::SolvedProblem& solved, const solve::SolvedPart& part)
    : m_mistakes(mistake_table(solved, part)) {}

std::uint32_t VerdictTable::intern(std::string_view answer) {
    if (const auto it = m_index.find(answer); it != m_index.end())
        return it->second;
    const auto id = static_cast<std::uint32_t>(m_summaries.size());
    Verdict verdict = grade_answer(m_mistakes, answer);
    m_summaries.push_back({verdict.status, verdict.score});
    if (m_verdicts.size() < k_kept) {
        m_verdicts.push_back(std::move(verdict));
        m_index.emplace(m_verdicts.back().answer, id);
        return id;
    }
    constexpr std::size_t k_block = 64 * 1024;
    if (answer.size() > m_arena_left) {
        const std::size_t size = std::max(k_block, answer.size());
        m_arena.push_back(std::make_unique<char[]>(size));
        m_arena_next = m_arena.back().get();
        m_arena_left = size;
    }
    if (!answer.empty())
        std::memcpy(m_arena_next, answer.data(), answer.size());
    m_later.emplace_back(m_arena_next, answer.size());
    m_arena_next += answer.size();
    m_arena_left -= answer.size();
    m_last_id = id;
    m_last = std::move(verdict);
    return id;
}

const Verdict& VerdictTable::verdict(std::uint32_t id, Verdict& scratch) const {
    if (id < m_verdicts.size())
        return m_verdicts[id];
    if (id == m_last_id)
        return m_last;
    scratch = grade_answer(m_mistakes, m_later[id - m_verdicts.size()]);
    return scratch;
}

} // namespace headcount::grade

#include <grade/verdict_table.hpp>

namespace headcount::grade {

VerdictTable::VerdictTable(const solve::SolvedProblem& solved, const solve::SolvedPart& part)
    : m_mistakes(mistake_table(solved, part)) {}

std::uint32_t VerdictTable::intern(std::string_view answer) {
    if (const auto it = m_index.find(answer); it != m_index.end())
        return it->second;
    const auto id = static_cast<std::uint32_t>(m_verdicts.size());
    m_verdicts.push_back(grade_answer(m_mistakes, answer));
    m_index.emplace(m_verdicts.back().answer, id);
    return id;
}

} // namespace headcount::grade

#include <serve/classroom.hpp>

#include <util/token.hpp>

#include <fmt/format.h>

namespace headcount::serve {

Result<Classroom> Classroom::open(std::vector<solve::SolvedProblem> problems, std::vector<std::string> roster,
                                  std::string seed, std::optional<TokenSecret> secret) {
    if (!roster.empty() && !secret)
        return fail("students on a roster need a token secret");
    Classroom room;
    room.m_seed = std::move(seed);
    room.m_secret = std::move(secret);
    room.m_problems = std::make_unique<const std::vector<solve::SolvedProblem>>(std::move(problems));
    const std::vector<solve::SolvedProblem>& served = *room.m_problems;
    for (std::size_t i = 0; i < served.size(); ++i)
        room.m_index.emplace(served[i].problem.id, i);
    if (!roster.empty()) {
        auto variants = generate::ClassVariants::seeded(served, roster, room.m_seed);
        if (!variants)
            return std::unexpected(variants.error());
        // Solved now, so that a problem that cannot be served stops the start, not a student's request.
        for (std::size_t p = 0; p < served.size(); ++p)
            for (const std::uint32_t index : variants->handed_out(p))
                if (auto solved = variants->variant(p, index); !solved)
                    return std::unexpected(solved.error());
        room.m_variants = std::move(*variants);
    }
    return room;
}

bool Classroom::authenticate(std::string_view student, std::string_view token) const {
    if (!has_roster() || !m_secret)
        return false;
    // The token is computed and compared whether or not the id is on the roster, so that the time a refusal takes
    // does not tell who is.
    const bool matches = token_matches(*m_secret, m_seed, student, token);
    return m_variants->has_student(student) && matches;
}

const solve::SolvedProblem* Classroom::problem(std::string_view id, std::string_view student) const {
    const auto it = m_index.find(id);
    if (it == m_index.end())
        return nullptr;
    if (!has_roster())
        return &(*m_problems)[it->second];
    const auto variant = m_variants->find(it->second, student);
    return variant ? *variant : nullptr;
}

} // namespace headcount::serve

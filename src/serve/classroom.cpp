#include <serve/classroom.hpp>

#include <generate/variants.hpp>
#include <spec/givens.hpp>
#include <util/token.hpp>

#include <fmt/format.h>

namespace headcount::serve {

namespace {

/// What tells one variant from another: the values of the keys the spec varies.
std::vector<std::int64_t> variant_key(const solve::SolvedProblem& variant) {
    const spec::Givens givens = spec::givens_of(variant.problem);
    std::vector<std::int64_t> key;
    for (const spec::Variation& v : variant.problem.vary)
        key.push_back(spec::given_value(givens, v.key).value_or(-1));
    return key;
}

} // namespace

Result<Classroom> Classroom::open(std::vector<solve::SolvedProblem> problems, std::vector<std::string> roster,
                                  std::string seed, std::optional<TokenSecret> secret) {
    if (!roster.empty() && !secret)
        return fail("students on a roster need a token secret");
    Classroom room;
    room.m_seed = std::move(seed);
    room.m_secret = std::move(secret);
    for (std::size_t i = 0; i < problems.size(); ++i)
        room.m_index.emplace(problems[i].problem.id, i);
    if (!roster.empty()) {
        for (const std::string& student : roster)
            room.m_roster.emplace(student, true);
        for (const solve::SolvedProblem& problem : problems) {
            auto assigned = generate::assign_variants(problem.problem, roster, room.m_seed);
            if (!assigned)
                return std::unexpected(assigned.error());
            Variants variants;
            std::map<std::vector<std::int64_t>, std::uint32_t> seen;
            for (auto& [student, variant] : *assigned) {
                const auto [it, fresh] =
                    seen.emplace(variant_key(variant), static_cast<std::uint32_t>(variants.distinct.size()));
                if (fresh)
                    variants.distinct.push_back(std::move(variant));
                variants.of_student.emplace(student, it->second);
            }
            room.m_variants.emplace(problem.problem.id, std::move(variants));
        }
    }
    room.m_problems = std::move(problems);
    return room;
}

bool Classroom::authenticate(std::string_view student, std::string_view token) const {
    if (!has_roster() || !m_secret)
        return false;
    // The token is computed and compared whether or not the id is on the roster, so that the time a refusal takes
    // does not tell who is.
    const bool matches = token_matches(*m_secret, m_seed, student, token);
    return m_roster.contains(std::string(student)) && matches;
}

const solve::SolvedProblem* Classroom::problem(std::string_view id, std::string_view student) const {
    if (has_roster()) {
        const auto variants = m_variants.find(id);
        if (variants == m_variants.end())
            return nullptr;
        const auto it = variants->second.of_student.find(std::string(student));
        return it == variants->second.of_student.end() ? nullptr : &variants->second.distinct[it->second];
    }
    const auto it = m_index.find(id);
    return it == m_index.end() ? nullptr : &m_problems[it->second];
}

std::size_t Classroom::variant_count() const {
    if (!has_roster())
        return m_problems.size();
    std::size_t n = 0;
    for (const auto& [id, variants] : m_variants)
        n += variants.distinct.size();
    return n;
}

} // namespace headcount::serve

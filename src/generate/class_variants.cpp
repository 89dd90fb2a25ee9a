#include <generate/class_variants.hpp>

#include <generate/variants.hpp>
#include <render/answers.hpp>
#include <spec/givens.hpp>
#include <util/csv.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

namespace headcount::generate {

namespace {

/// The valid variants of a problem: its vary's, or the spec's own numbers.
Result<std::vector<spec::Givens>> variants_of(const spec::Problem& problem) {
    if (problem.vary.empty())
        return std::vector<spec::Givens>{spec::givens_of(problem)};
    return valid_variants(problem);
}

std::string not_on_roster(std::string_view student) {
    return fmt::format("student '{}' is not on the roster, so their numbers are unknown", student);
}

} // namespace

Result<const solve::SolvedProblem*> ClassVariants::variant(OfProblem& of, std::size_t number) {
    if (of.solved.size() < of.givens.size())
        of.solved.resize(of.givens.size());
    if (!of.solved[number]) {
        auto solved = solve::solve_problem(spec::with_givens(of.spec->problem, of.givens[number]));
        if (!solved)
            return std::unexpected(solved.error());
        of.solved[number] = std::make_unique<solve::SolvedProblem>(std::move(*solved));
    }
    return of.solved[number].get();
}

Result<ClassVariants> ClassVariants::seeded(const std::vector<solve::SolvedProblem>& problems,
                                            const std::vector<std::string>& roster, std::string seed) {
    ClassVariants out;
    out.m_seed = std::move(seed);
    out.m_roster.insert(roster.begin(), roster.end());
    std::vector<std::string> order = roster;
    std::sort(order.begin(), order.end());
    for (const solve::SolvedProblem& problem : problems) {
        OfProblem of;
        of.spec = &problem;
        auto givens = variants_of(problem.problem);
        if (!givens)
            return std::unexpected(givens.error());
        of.givens = std::move(*givens);
        if (problem.problem.distinct) { // depends on the whole class: assigned now, once
            auto solved = solve_variants(problem.problem, of.givens);
            if (!solved)
                return std::unexpected(solved.error());
            auto numbers = distinct_variant_numbers(problem.problem, *solved, order, out.m_seed);
            if (!numbers)
                return std::unexpected(numbers.error());
            for (auto& s : *solved)
                of.solved.push_back(std::make_unique<solve::SolvedProblem>(std::move(s)));
            for (std::size_t i = 0; i < order.size(); ++i)
                of.assigned.emplace(order[i], static_cast<std::uint32_t>((*numbers)[i]));
        } else {
            of.drawn = true;
        }
        out.m_problems.push_back(std::move(of));
    }
    return out;
}

std::expected<const solve::SolvedProblem*, std::string> ClassVariants::find(std::size_t problem,
                                                                           std::string_view student) {
    OfProblem& of = m_problems[problem];
    std::size_t number = 0;
    if (of.drawn) {
        if (!m_roster.contains(student))
            return std::unexpected(not_on_roster(student));
        number = variant_stream(m_seed, of.spec->problem.id, student).below(of.givens.size());
    } else {
        const auto it = of.assigned.find(student);
        if (it == of.assigned.end())
            return std::unexpected(not_on_roster(student));
        number = it->second;
    }
    auto solved = variant(of, number);
    if (!solved) // a valid variant solves (valid_variants checked it); this guards a changed solver
        return std::unexpected(solved.error().message);
    return *solved;
}

Result<ClassVariants> ClassVariants::from_key(const std::vector<solve::SolvedProblem>& problems, std::istream& key,
                                              const std::string& file) {
    CsvStream stream(key, file, std::uint64_t{4} << 30);
    auto header = stream.header();
    if (!header)
        return std::unexpected(header.error());
    constexpr std::array<std::string_view, 4> k_columns{"student", "problem", "part", "answer"};
    std::array<std::size_t, 4> column{};
    for (std::size_t i = 0; i < k_columns.size(); ++i) {
        const auto found = std::find(header->begin(), header->end(), k_columns[i]);
        if (found == header->end())
            return std::unexpected(Error{file, 1, 0, fmt::format("the key's header has no '{}' column", k_columns[i])});
        column[i] = static_cast<std::size_t>(found - header->begin());
    }
    const std::size_t needed = *std::max_element(column.begin(), column.end()) + 1;

    // Per problem: each part's answers, numbered as they come, and each student's answer number per part (0: none
    // given), so the key is held as small numbers however large the class.
    struct Answers {
        std::vector<std::map<std::string, std::uint32_t, std::less<>>> numbers; ///< per part
        std::unordered_map<std::string, std::vector<std::uint32_t>, StringHash, std::equal_to<>> students;
    };
    std::vector<Answers> by_problem(problems.size());
    for (std::size_t p = 0; p < problems.size(); ++p)
        by_problem[p].numbers.resize(problems[p].parts.size());
    for (;;) {
        auto record = stream.next();
        if (!record)
            return std::unexpected(record.error());
        if (!*record)
            break;
        const CsvRecord& row = **record;
        if (!row.error.empty())
            return std::unexpected(Error{file, row.line, 0, row.error});
        if (row.fields.size() < needed)
            return std::unexpected(Error{file, row.line, 0, "this row has fewer columns than the header"});
        const std::string& problem_id = row.fields[column[1]];
        const auto problem = std::find_if(problems.begin(), problems.end(),
                                          [&](const auto& s) { return s.problem.id == problem_id; });
        if (problem == problems.end())
            return std::unexpected(Error{file, row.line, 0,
                                         fmt::format("the key names problem '{}', which no spec given has", problem_id)});
        const auto p = static_cast<std::size_t>(problem - problems.begin());
        const auto part = std::find_if(problem->parts.begin(), problem->parts.end(),
                                       [&](const auto& s) { return s.part.id == row.fields[column[2]]; });
        if (part == problem->parts.end())
            return std::unexpected(Error{file, row.line, 0,
                                         fmt::format("the key names part '{}' of '{}', which its spec does not have",
                                                     row.fields[column[2]], problem_id)});
        const auto k = static_cast<std::size_t>(part - problem->parts.begin());
        Answers& answers = by_problem[p];
        // Compared as text with what generate writes (plain_answer), so counts, shapes and words all match.
        auto [it, added] = answers.numbers[k].emplace(row.fields[column[3]],
                                                      static_cast<std::uint32_t>(answers.numbers[k].size() + 1));
        auto& given = answers.students[row.fields[column[0]]];
        given.resize(problem->parts.size(), 0);
        given[k] = it->second;
    }

    ClassVariants out;
    for (std::size_t p = 0; p < problems.size(); ++p) {
        OfProblem of;
        of.spec = &problems[p];
        auto givens = variants_of(problems[p].problem);
        if (!givens)
            return std::unexpected(givens.error());
        of.givens = std::move(*givens);
        Answers& answers = by_problem[p];
        // Each variant's answers as the key's numbers (0 where the key never wrote that answer).
        std::vector<std::vector<std::uint32_t>> variant_answers;
        for (std::size_t v = 0; v < of.givens.size(); ++v) {
            auto solved = out.variant(of, v);
            std::vector<std::uint32_t> numbers;
            if (solved)
                for (std::size_t k = 0; k < (*solved)->parts.size(); ++k) {
                    const auto& part = (*solved)->parts[k];
                    const auto it = answers.numbers[k].find(render::plain_answer(*part.ask, part.answer));
                    numbers.push_back(it == answers.numbers[k].end() ? 0 : it->second);
                }
            variant_answers.push_back(std::move(numbers));
        }
        const std::string* unmatched = nullptr; // the first by id, so the message does not depend on hashing
        for (const auto& [student, given] : answers.students) {
            const auto produces = [&](const std::vector<std::uint32_t>& variant) {
                for (std::size_t k = 0; k < given.size(); ++k)
                    if (given[k] != 0 && (variant.empty() || variant[k] != given[k]))
                        return false;
                return true;
            };
            const auto match = std::find_if(variant_answers.begin(), variant_answers.end(), produces);
            if (match == variant_answers.end()) {
                if (!unmatched || student < *unmatched)
                    unmatched = &student;
                continue;
            }
            of.assigned.emplace(student, static_cast<std::uint32_t>(match - variant_answers.begin()));
        }
        if (unmatched)
            return std::unexpected(Error{file, 0, 0,
                                         fmt::format("no variant of '{}' gives {}'s key answers; was the spec "
                                                     "changed after the key was made?",
                                                     problems[p].problem.id, *unmatched)});
        out.m_problems.push_back(std::move(of));
    }
    return out;
}

} // namespace headcount::generate

#include <generate/key.hpp>

#include <generate/variants.hpp>
#include <render/answers.hpp>
#include <spec/givens.hpp>
#include <util/csv.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace headcount::generate {

namespace {

/// student -> part -> answer as the key writes it, for one problem.
using KeyAnswers = std::map<std::string, std::map<std::string, std::string>>;

bool produces(const solve::SolvedProblem& variant, const std::map<std::string, std::string>& answers) {
    return std::all_of(answers.begin(), answers.end(), [&](const auto& entry) {
        return std::any_of(variant.parts.begin(), variant.parts.end(), [&](const solve::SolvedPart& p) {
            return p.part.id == entry.first && render::plain_answer(*p.ask, p.answer) == entry.second;
        });
    });
}

} // namespace

Result<std::map<std::string, std::map<std::string, solve::SolvedProblem>>>
variants_from_key(const std::vector<solve::SolvedProblem>& problems, std::string_view key_csv, const std::string& file) {
    auto table = parse_csv(key_csv, file);
    if (!table)
        return std::unexpected(table.error());
    std::array<std::size_t, 4> column{};
    constexpr std::array<std::string_view, 4> k_columns{"student", "problem", "part", "answer"};
    for (std::size_t i = 0; i < k_columns.size(); ++i) {
        const auto found = table->column(k_columns[i]);
        if (!found)
            return std::unexpected(Error{file, 1, 0, fmt::format("the key's header has no '{}' column", k_columns[i])});
        column[i] = *found;
    }
    std::map<std::string, KeyAnswers> by_problem;
    for (const CsvRecord& record : table->records) {
        if (!record.error.empty())
            return std::unexpected(Error{file, record.line, 0, record.error});
        if (*std::max_element(column.begin(), column.end()) >= record.fields.size())
            return std::unexpected(Error{file, record.line, 0, "this row has fewer columns than the header"});
        // Compared as text with what generate writes (plain_answer), so counts, shapes and words all match.
        by_problem[record.fields[column[1]]][record.fields[column[0]]][record.fields[column[2]]] =
            record.fields[column[3]];
    }

    std::map<std::string, std::map<std::string, solve::SolvedProblem>> out;
    for (const auto& [problem_id, students] : by_problem) {
        const auto problem = std::find_if(problems.begin(), problems.end(),
                                          [&](const auto& p) { return p.problem.id == problem_id; });
        if (problem == problems.end())
            return std::unexpected(Error{file, 0, 0, fmt::format("the key names problem '{}', which no spec given has",
                                                                 problem_id)});
        std::vector<spec::Givens> candidates{spec::givens_of(problem->problem)};
        if (!problem->problem.vary.empty()) {
            auto valid = valid_variants(problem->problem);
            if (!valid)
                return std::unexpected(valid.error());
            candidates = std::move(*valid);
        }
        std::vector<solve::SolvedProblem> solved;
        for (const spec::Givens& givens : candidates) {
            if (auto s = solve::solve_problem(spec::with_givens(problem->problem, givens)))
                solved.push_back(std::move(*s));
        }
        for (const auto& [student, answers] : students) {
            const auto match = std::find_if(solved.begin(), solved.end(),
                                            [&](const solve::SolvedProblem& v) { return produces(v, answers); });
            if (match == solved.end())
                return std::unexpected(Error{file, 0, 0,
                                             fmt::format("no variant of '{}' gives {}'s key answers; was the spec "
                                                         "changed after the key was made?",
                                                         problem_id, student)});
            out[problem_id].emplace(student, *match);
        }
    }
    for (const auto& p : problems)
        out.try_emplace(p.problem.id); // a problem nobody has a key row for: everyone is "not on the roster"
    return out;
}

} // namespace headcount::generate

#include <generate/key.hpp>

#include <generate/bank.hpp>
#include <generate/variants.hpp>
#include <render/answers.hpp>
#include <spec/givens.hpp>
#include <util/csv.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace headcount::generate {

namespace {

/// One student's rows of one problem in a key: part -> answer as written, and given -> value as written.
struct KeyRows {
    std::map<std::string, std::string> answers;
    std::map<std::string, std::string> givens;
};

bool produces(const solve::SolvedProblem& variant, const std::map<std::string, std::string>& answers) {
    return std::all_of(answers.begin(), answers.end(), [&](const auto& entry) {
        return std::any_of(variant.parts.begin(), variant.parts.end(), [&](const solve::SolvedPart& p) {
            return p.part.id == entry.first && render::plain_answer(*p.ask, p.answer) == entry.second;
        });
    });
}

/// Whether the variant's varying givens are those the key gives (all of them, as written by answer_key_csv).
bool has_givens(const solve::SolvedProblem& variant, const std::map<std::string, std::string>& givens) {
    const auto mine = varying_givens(variant);
    return mine.size() == givens.size() && std::all_of(mine.begin(), mine.end(), [&](const auto& given) {
               const auto it = givens.find(given.first);
               return it != givens.end() && it->second == given.second;
           });
}

/// The varying keys of all problems, each once, in spec order: the key's given columns.
std::vector<std::string> given_columns(const std::vector<solve::SolvedProblem>& problems) {
    std::vector<std::string> columns;
    for (const solve::SolvedProblem& p : problems)
        for (const spec::Variation& v : p.problem.vary)
            if (std::find(columns.begin(), columns.end(), v.key) == columns.end())
                columns.push_back(v.key);
    return columns;
}

} // namespace

std::string answer_key_csv(const std::vector<solve::SolvedProblem>& problems,
                           const std::map<std::string, std::map<std::string, solve::SolvedProblem>>& variants,
                           const std::vector<std::string>& roster) {
    const std::vector<std::string> columns = given_columns(problems);
    std::vector<std::string> header{"student", "problem", "part", "answer", "unit"};
    header.insert(header.end(), columns.begin(), columns.end());
    std::string key = csv_row(header);
    for (const std::string& student : roster) {
        for (const solve::SolvedProblem& problem : problems) {
            const solve::SolvedProblem& mine = variants.at(problem.problem.id).at(student);
            std::vector<std::string> givens(columns.size());
            for (const auto& [name, value] : varying_givens(mine))
                givens[static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin())] =
                    value;
            for (const solve::SolvedPart& part : mine.parts) {
                std::vector<std::string> row{student, mine.problem.id, part.part.id,
                                             render::plain_answer(*part.ask, part.answer), std::string(part.ask->unit)};
                row.insert(row.end(), givens.begin(), givens.end());
                key += csv_row(row);
            }
        }
    }
    return key;
}

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
    std::vector<std::pair<std::string, std::size_t>> given_column;
    for (const std::string& name : given_columns(problems))
        if (const auto found = table->column(name))
            given_column.emplace_back(name, *found);

    std::map<std::string, std::map<std::string, KeyRows>> by_problem;
    for (const CsvRecord& record : table->records) {
        if (!record.error.empty())
            return std::unexpected(Error{file, record.line, 0, record.error});
        if (*std::max_element(column.begin(), column.end()) >= record.fields.size())
            return std::unexpected(Error{file, record.line, 0, "this row has fewer columns than the header"});
        // Compared as text with what generate writes (plain_answer), so counts, shapes and words all match.
        KeyRows& rows = by_problem[record.fields[column[1]]][record.fields[column[0]]];
        rows.answers[record.fields[column[2]]] = record.fields[column[3]];
        for (const auto& [name, index] : given_column)
            if (index < record.fields.size() && !record.fields[index].empty())
                rows.givens[name] = record.fields[index];
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
        for (const auto& [student, rows] : students) {
            const auto match = std::find_if(solved.begin(), solved.end(), [&](const solve::SolvedProblem& v) {
                return (rows.givens.empty() || has_givens(v, rows.givens)) && produces(v, rows.answers);
            });
            if (match == solved.end())
                return std::unexpected(Error{file, 0, 0,
                                             fmt::format("no variant of '{}' gives {}'s key {}; was the spec "
                                                         "changed after the key was made?",
                                                         problem_id, student,
                                                         rows.givens.empty() ? "answers" : "givens and answers")});
            out[problem_id].emplace(student, *match);
        }
    }
    for (const auto& p : problems)
        out.try_emplace(p.problem.id); // a problem nobody has a key row for: everyone is "not on the roster"
    return out;
}

} // namespace headcount::generate

#include <generate/key.hpp>

#include <generate/bank.hpp>
#include <render/answers.hpp>
#include <util/csv.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace headcount::generate {

namespace {

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

Result<std::string> answer_key_csv(const std::vector<solve::SolvedProblem>& problems, const ClassVariants& variants,
                                   const std::vector<std::string>& roster) {
    const std::vector<std::string> columns = given_columns(problems);
    std::vector<std::string> header{"student", "problem", "part", "answer", "unit"};
    header.insert(header.end(), columns.begin(), columns.end());
    std::string key = csv_row(header);
    for (const std::string& student : roster) {
        for (std::size_t p = 0; p < problems.size(); ++p) {
            const auto found = variants.find(p, student);
            if (!found)
                return fail(found.error());
            const solve::SolvedProblem& mine = **found;
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

} // namespace headcount::generate

#include <grade/class_grading.hpp>

#include <util/ids.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

namespace headcount::grade {

namespace {

constexpr std::array<std::string_view, 4> k_columns{"student", "problem", "part", "answer"};

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

} // namespace

std::string_view outcome_name(RowOutcome outcome) {
    switch (outcome) {
    case RowOutcome::graded:
        return "graded";
    case RowOutcome::rejected:
        return "rejected";
    case RowOutcome::superseded:
        return "superseded";
    }
    return "rejected";
}

const GradedRow* ClassResults::find(const std::string& student, const std::string& problem,
                                    const std::string& part) const {
    const auto it = graded_index.find({student, problem, part});
    return it == graded_index.end() ? nullptr : &rows[it->second];
}

std::size_t ClassResults::count(RowOutcome outcome) const {
    return static_cast<std::size_t>(
        std::count_if(rows.begin(), rows.end(), [&](const GradedRow& r) { return r.outcome == outcome; }));
}

Result<ClassResults> grade_class(const std::vector<solve::SolvedProblem>& problems, const CsvTable& submissions,
                                 const std::string& file, const StudentVariants* variants) {
    std::array<std::size_t, 4> column{};
    for (std::size_t i = 0; i < k_columns.size(); ++i) {
        const auto found = submissions.column(k_columns[i]);
        if (!found)
            return std::unexpected(Error{file, 1, 0,
                                         fmt::format("the header has no '{}' column; it needs student, problem, part "
                                                     "and answer",
                                                     k_columns[i])});
        column[i] = *found;
    }
    std::vector<std::string_view> problem_ids;
    for (const auto& p : problems)
        problem_ids.push_back(p.problem.id);

    ClassResults results;
    results.rows.reserve(submissions.records.size());
    std::set<std::string> students;
    // id_key -> the id as first written, and its line
    std::map<std::string, std::pair<std::string, int>> spellings;
    for (const CsvRecord& record : submissions.records) {
        GradedRow row;
        row.line = record.line;
        auto field = [&](std::size_t i) {
            return column[i] < record.fields.size() ? record.fields[column[i]] : std::string();
        };
        // Spaces after commas ("alice, week3, a") are common in hand-made CSVs and never part of an id.
        row.student = trim_id(field(0)), row.problem = trimmed(field(1)), row.part = trimmed(field(2));
        row.answer = field(3);
        const std::size_t needed = *std::max_element(column.begin(), column.end()) + 1;

        const solve::SolvedProblem* problem = nullptr;
        if (!record.error.empty()) {
            row.reason = "malformed row: " + record.error;
        } else if (record.fields.size() < needed) {
            row.reason = fmt::format("malformed row: {} field{}, the header has {}", record.fields.size(),
                                     record.fields.size() == 1 ? "" : "s", submissions.header.size());
        } else if (const auto problem_with_id = student_id_problem(row.student)) {
            row.reason = fmt::format("student id '{}' {}", printable(row.student), *problem_with_id);
        } else if (const auto [first, added] =
                       spellings.try_emplace(id_key(row.student), row.student, row.line);
                   !added && first->second.first != row.student) {
            row.reason = collision_reason(row.student, first->second.first, first->second.second);
        } else {
            // A usable id is a student of the class even if this row is rejected: they get a gradebook row.
            students.insert(row.student);
            const auto it = std::find_if(problems.begin(), problems.end(),
                                         [&](const auto& p) { return p.problem.id == row.problem; });
            if (it == problems.end()) {
                row.reason = fmt::format("unknown problem '{}'{}", printable(row.problem), did_you_mean(row.problem, problem_ids));
            } else if (!variants) {
                problem = &*it;
            } else {
                static const std::map<std::string, solve::SolvedProblem> k_none;
                const auto found = variants->find(row.problem);
                const auto& of_problem = found == variants->end() ? k_none : found->second;
                const auto mine = of_problem.find(row.student);
                if (mine == of_problem.end())
                    row.reason = fmt::format("student '{}' is not on the roster, so their numbers are unknown",
                                             row.student);
                else
                    problem = &mine->second;
            }
        }
        if (problem) {
            const auto part = std::find_if(problem->parts.begin(), problem->parts.end(),
                                           [&](const auto& p) { return p.part.id == row.part; });
            if (part == problem->parts.end()) {
                std::vector<std::string_view> part_ids;
                for (const auto& p : problem->parts)
                    part_ids.push_back(p.part.id);
                row.reason = fmt::format("problem '{}' has no part '{}'{}", row.problem, printable(row.part),
                                         did_you_mean(row.part, part_ids));
            } else {
                row.outcome = RowOutcome::graded;
                row.solved = problem;
                row.solved_part = &*part;
            }
        }
        if (row.outcome == RowOutcome::graded) {
            // A later row for the same question replaces this one: students resubmit.
            const auto key = std::make_tuple(row.student, row.problem, row.part);
            if (const auto earlier = results.graded_index.find(key); earlier != results.graded_index.end()) {
                GradedRow& old = results.rows[earlier->second];
                old.outcome = RowOutcome::superseded;
                old.reason = fmt::format("superseded by the answer on line {}", row.line);
            }
            results.graded_index[key] = results.rows.size();
            students.insert(row.student);
        }
        results.rows.push_back(std::move(row));
    }
    for (GradedRow& row : results.rows)
        if (row.outcome == RowOutcome::graded)
            row.verdict = grade_answer(*row.solved, *row.solved_part, row.answer);
    results.students.assign(students.begin(), students.end());
    results.per_student_variants = variants != nullptr;
    return results;
}

} // namespace headcount::grade

#pragma once
// Grades a class's submissions: every input row is accounted for, graded or rejected with a reason, and a
// repeated (student, problem, part) counts only on its last row.

#include <grade/grader.hpp>
#include <util/csv.hpp>

#include <map>
#include <string>
#include <vector>

namespace headcount::grade {

/// What became of one input row.
enum class RowOutcome { graded, rejected, superseded };

/// "graded", "rejected", "superseded".
std::string_view outcome_name(RowOutcome outcome);

/// One row of the submissions file and what the grader made of it.
struct GradedRow {
    int line = 0;                 ///< where the row starts in the CSV
    RowOutcome outcome = RowOutcome::rejected;
    std::string reason;           ///< why it was rejected or superseded
    std::string student, problem, part, answer; ///< as read (may be partial for malformed rows)
    const solve::SolvedProblem* solved = nullptr; ///< set when graded
    const solve::SolvedPart* solved_part = nullptr;
    Verdict verdict;              ///< meaningful when graded
};

/// All rows, in input order, and the students who have at least one graded row, sorted by id.
struct ClassResults {
    std::vector<GradedRow> rows;
    std::vector<std::string> students;
    bool per_student_variants = false; ///< graded against seeded variants: right answers differ by student
    /// The graded row of (student, problem, part), or nullptr when the student did not answer it.
    [[nodiscard]] const GradedRow* find(const std::string& student, const std::string& problem,
                                        const std::string& part) const;

    /// How many rows had this outcome.
    [[nodiscard]] std::size_t count(RowOutcome outcome) const;
    /// (student, problem, part) -> index in rows of the row that counts.
    std::map<std::tuple<std::string, std::string, std::string>, std::size_t> graded_index;
};

/// Each student's own variant of each problem: problem id -> student id -> solved variant.
using StudentVariants = std::map<std::string, std::map<std::string, solve::SolvedProblem>>;

/// Grades `submissions` (columns student, problem, part, answer; others ignored) against `problems`, or, when
/// `variants` is given, against each student's own variant (a student without one is rejected: their numbers
/// are unknown). Fails only when a required column is missing from the header.
Result<ClassResults> grade_class(const std::vector<solve::SolvedProblem>& problems, const CsvTable& submissions,
                                 const std::string& file, const StudentVariants* variants = nullptr);

} // namespace headcount::grade

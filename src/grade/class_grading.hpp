#pragma once
// Grades a class's submissions as a stream: each row is graded as it is read and handed back at once (the results
// log is written as rows arrive), and only what the outputs need is kept: each student's latest answer to each
// part, the rejected rows with their reasons, which rows were superseded, and each part's distinct answers. A class
// that repeats answers costs memory for its students, not its rows. Every input row is accounted for, and a
// repeated (student, problem, part) counts only on its last row.

#include <grade/verdict_table.hpp>
#include <util/csv.hpp>

#include <array>
#include <cstdint>
#include <deque>
#include <expected>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace headcount::grade {

/// What became of one input row.
enum class RowOutcome { graded, rejected, superseded };

/// "graded", "rejected", "superseded".
std::string_view outcome_name(RowOutcome outcome);

/// One input row and what became of it when it was read: graded or rejected (whether a later row supersedes it is
/// known only later). The views live until the next ClassGrader::add.
struct RowResult {
    int line = 0;
    RowOutcome outcome = RowOutcome::rejected;
    std::string reason;                              ///< why it was rejected
    std::string_view student, problem, part, answer; ///< as read, trimmed (may be partial for malformed rows)
    const VerdictTable* table = nullptr;             ///< set when graded
    std::uint32_t answer_id = 0;                     ///< the answer in `table`
    /// The verdict (see VerdictTable::verdict for `scratch`).
    [[nodiscard]] const Verdict& verdict(Verdict& scratch) const { return table->verdict(answer_id, scratch); }
};

/// A graded row replaced by the same student's later answer to the same part.
struct Superseded {
    std::uint64_t row = 0; ///< 0-based among the data rows
    int by_line = 0;       ///< the line of the answer that counts instead
};

/// A student's own variant of problem number `problem` (seeded, or recovered from a key), or the reason it is
/// unknown ("student 'x' is not on the roster, ...").
using VariantLookup = std::function<std::expected<const solve::SolvedProblem*, std::string>(std::size_t problem,
                                                                                            std::string_view student)>;

/// Why a student is not in the class (not on the roster, not in the key), or nullopt when they are. Someone who is
/// not gets no gradebook row, feedback file or place in the report's figures: their rows are rejected with this
/// reason and listed with the rows not graded.
using RosterCheck = std::function<std::optional<std::string>(std::string_view student)>;

/// One student's answer to one part: the table and the answer in it.
struct Answered {
    const VerdictTable* table = nullptr;
    std::uint32_t answer_id = 0;
    /// The verdict (see VerdictTable::verdict for `scratch`).
    [[nodiscard]] const Verdict& verdict(Verdict& scratch) const { return table->verdict(answer_id, scratch); }
    [[nodiscard]] VerdictSummary summary() const { return table->summary(answer_id); }
};

/// A rejected row, as students and the report see it.
struct RejectedRow {
    int line = 0;
    std::string reason;
};

/// The class once every row is in: the problems graded, the students in id order, and each one's answers.
class ClassResults {
  public:
    /// The problems graded (their indices into the problem list), in spec order.
    [[nodiscard]] std::span<const std::size_t> scope() const { return m_scope; }
    [[nodiscard]] const std::vector<solve::SolvedProblem>& problems() const { return *m_problems; }
    /// Students with at least one row with a usable id (and, with a roster, on it), sorted by id.
    [[nodiscard]] std::size_t students() const { return m_order.size(); }
    [[nodiscard]] std::string_view student(std::size_t i) const { return m_ids[m_order[i]]; }
    /// The answer that counts for part `part` of scope problem `scoped`, or nullptr when there is none.
    [[nodiscard]] const Answered* answered(std::size_t i, std::size_t scoped, std::size_t part) const;
    /// The student's rejected rows, in input order.
    [[nodiscard]] std::vector<RejectedRow> rejected_of(std::size_t i) const;
    /// Every rejected row, in input order.
    [[nodiscard]] const std::vector<RejectedRow>& rejected() const { return m_rejected; }
    /// The student's total score over the scope.
    [[nodiscard]] double total(std::size_t i) const;
    /// The points of every part in scope.
    [[nodiscard]] double max_points() const;
    /// Whether right answers differ by student (seeded variants or a key).
    [[nodiscard]] bool per_student_variants() const { return m_per_student; }
    std::uint64_t rows = 0, graded = 0, superseded = 0; ///< rejected = rejected().size()

  private:
    friend class ClassGrader;
    const std::vector<solve::SolvedProblem>* m_problems = nullptr;
    std::vector<std::size_t> m_scope;
    std::vector<std::size_t> m_part_offset; ///< per scope problem: its first column in a student's row of m_grid
    std::size_t m_columns = 0;
    std::vector<std::string_view> m_ids; ///< by student number (first seen first)
    std::vector<std::uint32_t> m_order;  ///< student numbers sorted by id
    std::vector<Answered> m_grid;        ///< students (in m_order) x columns
    std::vector<RejectedRow> m_rejected;
    std::vector<std::uint32_t> m_rejected_next;  ///< per rejected row: the same student's next one, or none
    std::vector<std::uint32_t> m_first_rejected; ///< per student number
    std::deque<std::unique_ptr<char[]>> m_arena; ///< the students' ids
    std::vector<std::unique_ptr<VerdictTable>> m_tables_keepalive; ///< what m_grid points into
    bool m_per_student = false;
};

/// Reads rows one at a time; finish() hands over the class.
class ClassGrader {
  public:
    /// Grades against `problems` (which must outlive it), or with `variants`, against each student's own; over
    /// `scope` (problem indices; a row for another problem is rejected) or, when it is empty, over every problem
    /// some row names. With `roster`, only those it knows are students; without it, every usable id is one.
    explicit ClassGrader(const std::vector<solve::SolvedProblem>& problems, VariantLookup variants = {},
                         std::vector<std::size_t> scope = {}, RosterCheck roster = {});

    /// Finds the student, problem, part and answer columns. Error: one is missing (file:1).
    Result<void> set_header(std::span<const std::string> header, const std::string& file);

    /// Grades one data row. The result's views are valid until the next call.
    const RowResult& add(CsvRecord record);

    /// The rows that a later row superseded so far, in the order it happened.
    [[nodiscard]] const std::vector<Superseded>& superseded() const { return m_superseded; }

    /// The class, once every row is in. The grader is not used afterwards.
    ClassResults finish();

  private:
    struct Slot {               ///< a student's latest answer to one part; slots of a student are linked
        std::uint32_t part = 0; ///< global part number (m_part_base[problem] + part index)
        std::uint32_t table = 0;
        std::uint32_t answer = 0;
        std::uint32_t row = 0;
        int line = 0;
        std::uint32_t next = k_none;
    };
    static constexpr std::uint32_t k_none = std::numeric_limits<std::uint32_t>::max();

    std::string_view keep(std::string_view text);                         ///< a copy in the ids' arena
    std::uint32_t new_student(std::string_view id, std::string_view key); ///< numbered, first seen on this row
    std::uint32_t table_for(const solve::SolvedProblem& variant, std::size_t part);
    void reject(std::uint32_t student, std::string reason);

    const std::vector<solve::SolvedProblem>& m_problems;
    VariantLookup m_variants;
    RosterCheck m_roster;
    std::array<std::size_t, 4> m_column{};
    std::size_t m_needed = 0, m_header_size = 0;
    std::unordered_map<std::string_view, std::size_t> m_problem_index; ///< by id, and by id in lower case
    std::deque<std::string> m_folded_ids;                              ///< what the lower-case keys view
    std::vector<std::uint32_t> m_part_base;
    std::vector<bool> m_named; ///< per problem: some row named it
    std::vector<std::size_t> m_scope;
    std::vector<std::unique_ptr<VerdictTable>> m_tables;
    std::unordered_map<const solve::SolvedPart*, std::uint32_t> m_table_of;
    std::unordered_map<std::string_view, std::uint32_t> m_student_of_key; ///< id_key -> student number (one per key)
    std::vector<int> m_first_line;              ///< per student number: the line their id first appeared on
    std::vector<std::uint32_t> m_first_slot;    ///< per student number
    std::vector<std::uint32_t> m_last_rejected; ///< per student number: the tail of their rejected rows
    std::vector<Slot> m_slots;
    std::vector<Superseded> m_superseded;
    ClassResults m_results;
    char* m_arena_next = nullptr;
    std::size_t m_arena_left = 0;
    std::uint64_t m_row = 0;
    CsvRecord m_record;
    RowResult m_current;
};

} // namespace headcount::grade

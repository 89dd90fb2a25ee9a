#pragma once
// Which variant each student of a class has, for each problem: the one table that grade, generate, the exports and
// serve all read. A student maps to a variant's index among the problem's valid variants (generate/variants.hpp),
// never to a copy of a solved problem; each index is solved once, the first time anyone needs it, and shared by
// every student who has it. Seeded variants without distinct: true are drawn from the seed and the id when asked
// for, so a class of 500,000 costs its ids and nothing per problem; with distinct: true they are assigned once for
// the whole roster; a key's are recovered from its answers.

#include <solve/asks.hpp>
#include <util/error.hpp>

#include <atomic>
#include <cstdint>
#include <deque>
#include <expected>
#include <istream>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace headcount::generate {

/// Hashes std::string and std::string_view alike, so maps keyed by ids are searched without building a string.
struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

class ClassVariants {
  public:
    /// The roster's variants of `problems` (which must outlive the table) under `seed`. Errors: a vary with no
    /// valid variant, distinct: true that cannot hold.
    static Result<ClassVariants> seeded(const std::vector<solve::SolvedProblem>& problems,
                                        std::span<const std::string> roster, std::string seed);

    /// The variants a key.csv (from `generate`) gives its students: for each student and problem, the first valid
    /// variant whose answers equal the key's for all of its parts. Errors: a malformed key, a problem the specs do
    /// not have, key answers no variant gives (the spec changed since).
    static Result<ClassVariants> from_key(const std::vector<solve::SolvedProblem>& problems, std::istream& key,
                                          const std::string& file);

    /// `seeded` for the roster in the CSV file `roster_file` (load_roster's errors first).
    static Result<ClassVariants> seeded_for_roster_file(const std::vector<solve::SolvedProblem>& problems,
                                                        const std::string& roster_file, std::string seed);

    /// The table one student checks against (`headcount check --seed`): `student`'s variants under `seed`, for the
    /// class in the roster file `roster_file` or, when it is empty, for a class of that student alone, which draws
    /// the same numbers unless a problem has distinct: true (its variants depend on the whole class). Errors: an id
    /// no roster could hold, a distinct: true problem without a roster, a student not on the roster.
    static Result<ClassVariants> for_student(const std::vector<solve::SolvedProblem>& problems,
                                             const std::string& student, const std::string& roster_file,
                                             std::string seed);

    /// `from_key` of the key.csv file `key_file`.
    static Result<ClassVariants> from_key_file(const std::vector<solve::SolvedProblem>& problems,
                                               const std::string& key_file);

    /// `student`'s variant of problems[problem] as its index among the problem's valid variants (0 for a problem
    /// without vary:), or why it is unknown ("student 'x' is not on the roster, ..."). Where a vary: list repeats a
    /// value (to weight it), equal variants are one: the index is the first of them.
    [[nodiscard]] std::expected<std::uint32_t, std::string> index(std::size_t problem, std::string_view student) const;

    /// Variant `index` of problems[problem], solved the first time it is asked for and shared after; thread-safe.
    /// Errors: a count overflows (valid variants solve; this guards a changed solver).
    [[nodiscard]] Result<const solve::SolvedProblem*> variant(std::size_t problem, std::uint32_t index) const;

    /// `student`'s variant of problems[problem], solved (index, then variant). Valid as long as the table is.
    [[nodiscard]] std::expected<const solve::SolvedProblem*, std::string> find(std::size_t problem,
                                                                               std::string_view student) const;

    /// The indices of problems[problem]'s variants that at least one student has, ascending, each once.
    [[nodiscard]] std::vector<std::uint32_t> handed_out(std::size_t problem) const;

    /// Whether the table knows `student` (on the roster, or in the key).
    [[nodiscard]] bool has_student(std::string_view student) const { return m_students.contains(student); }

    /// Why `student` has no numbers at all ("student 'x' is not on the roster, ..."; the words `index` gives), or
    /// nullopt when the table knows them.
    [[nodiscard]] std::optional<std::string> unknown_student(std::string_view student) const;

    /// How many students the table knows.
    [[nodiscard]] std::size_t students() const { return m_students.size(); }

  private:
    static constexpr std::uint32_t k_unassigned = UINT32_MAX;
    struct Solved { ///< a problem's variants solved so far, by index; written under `lock`, read without it
        std::mutex lock;
        std::unique_ptr<std::atomic<const solve::SolvedProblem*>[]> ready;
        std::deque<solve::SolvedProblem> held; ///< stable addresses for `ready`
    };
    struct OfProblem {
        const solve::SolvedProblem* spec = nullptr;
        std::vector<spec::Givens> givens;    ///< its valid variants, in order
        std::vector<std::uint32_t> same_as;  ///< per index, the first equal one; empty when no vary: list repeats
        bool drawn = false;                  ///< seeded without distinct: true: drawn from the seed and the id
        std::vector<std::uint32_t> assigned; ///< otherwise, per student row (k_unassigned: not in the key)
        std::unique_ptr<Solved> solved;
    };
    static Result<OfProblem> of_problem(const solve::SolvedProblem& problem);
    [[nodiscard]] std::uint32_t draw(const OfProblem& of, std::string_view student) const; ///< seeded, not distinct

    std::vector<OfProblem> m_problems;
    std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> m_students; ///< id -> row
    std::string m_seed;
};

} // namespace headcount::generate

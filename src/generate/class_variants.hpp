#pragma once
// Each student's variant of each problem, for grading a class of any size: the variants are solved once each, and a
// student is mapped to a number, never to a copy of a solved problem. Seeded variants are drawn from the seed and
// the id as rows arrive (with distinct: true they are assigned once for the whole roster); a key's are recovered
// from its rows.

#include <solve/asks.hpp>
#include <util/error.hpp>

#include <cstdint>
#include <expected>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace headcount::generate {

/// Hashes std::string and std::string_view alike, so maps keyed by ids are searched without building a string.
struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

class ClassVariants {
  public:
    /// The roster's variants under `seed`. Errors: a vary with no valid variant, distinct: true that cannot hold.
    static Result<ClassVariants> seeded(const std::vector<solve::SolvedProblem>& problems,
                                        const std::vector<std::string>& roster, std::string seed);

    /// The variants a key.csv (from `generate`) gives its students: for each student and problem, the first valid
    /// variant whose answers equal the key's for all of its parts. Errors: a malformed key, a problem the specs do
    /// not have, key answers no variant gives (the spec changed since).
    static Result<ClassVariants> from_key(const std::vector<solve::SolvedProblem>& problems, std::istream& key,
                                          const std::string& file);

    /// `student`'s variant of problems[problem], or why it is unknown. Valid as long as this object is.
    std::expected<const solve::SolvedProblem*, std::string> find(std::size_t problem, std::string_view student);

  private:
    struct OfProblem {
        const solve::SolvedProblem* spec = nullptr;
        std::vector<spec::Givens> givens;                           ///< its valid variants, in order
        std::vector<std::unique_ptr<solve::SolvedProblem>> solved; ///< solved the first time a student has it
        std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> assigned; ///< distinct, key
        bool drawn = false; ///< seeded without distinct: drawn from the seed and the id
    };
    Result<const solve::SolvedProblem*> variant(OfProblem& of, std::size_t number);

    std::vector<OfProblem> m_problems;
    std::unordered_set<std::string, StringHash, std::equal_to<>> m_roster;
    std::string m_seed;
};

} // namespace headcount::generate

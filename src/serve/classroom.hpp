#pragma once
// What the server serves: the problems, and with a seed and roster, each student's own variant of each and the
// token (keyed by the instructor's secret) that proves a link is theirs. Built once at startup; read-only afterwards,
// so threads share it freely.

#include <generate/class_variants.hpp>
#include <solve/asks.hpp>
#include <util/token.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::serve {

/// The problems and who may open which variant.
class Classroom {
  public:
    /// Without a roster (and seed) everyone sees the problems as written and nobody is identified. With both,
    /// each student gets their variant (generate's table, as generate hands out and grade grades), every variant
    /// handed out solved now, once: memory grows with the variants, not the class. Errors: those of generate (e.g.
    /// distinct: true with too few variants).
    /// `secret` keys the students' tokens; it is required with a roster.
    static Result<Classroom> open(std::vector<solve::SolvedProblem> problems, std::vector<std::string> roster,
                                  std::string seed, std::optional<TokenSecret> secret);

    /// Whether students are identified (a roster was given).
    [[nodiscard]] bool has_roster() const { return m_variants.has_value(); }

    /// Whether `token` proves that a link is `student`'s: they are on the roster and the token is theirs under
    /// the secret and seed (compared in constant time). Always false without a roster.
    [[nodiscard]] bool authenticate(std::string_view student, std::string_view token) const;

    /// The problems as written, in the order given (for the list; no variant's numbers).
    [[nodiscard]] const std::vector<solve::SolvedProblem>& problems() const { return *m_problems; }

    /// `student`'s variant of problem `id` ("" without a roster: the problem as written), or nullptr when no
    /// such problem is served. `student` must be authenticated first.
    [[nodiscard]] const solve::SolvedProblem* problem(std::string_view id, std::string_view student) const;

    /// How many students are on the roster.
    [[nodiscard]] std::size_t students() const { return m_variants ? m_variants->students() : 0; }

  private:
    /// Where m_variants points: the table holds pointers into it, so it stays put when the classroom moves.
    std::unique_ptr<const std::vector<solve::SolvedProblem>> m_problems;
    std::optional<generate::ClassVariants> m_variants;       ///< unset without a roster
    std::map<std::string, std::size_t, std::less<>> m_index; ///< problem id -> position in m_problems
    std::string m_seed;
    std::optional<TokenSecret> m_secret;
};

} // namespace headcount::serve

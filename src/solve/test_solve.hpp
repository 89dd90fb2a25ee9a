#pragma once
// For tests: a problem built from givens (spec/test_givens.hpp) and solved as `headcount solve` would, and the change
// a catalogue mistake makes, to read what a student who made it would count (solve/solutions.hpp).

#include <solve/asks.hpp>
#include <solve/solutions.hpp>

#include <util/test_catch.hpp>

#include <optional>
#include <string_view>

namespace headcount::testing {

/// The problem of these givens (a transformer when `model` is set), with no parts.
inline spec::Problem problem_of(const spec::MhaGivens& given, const std::optional<spec::ModelGivens>& model = {},
                                const std::optional<spec::Workload>& workload = {},
                                const std::optional<spec::Precision>& precision = {}) {
    spec::Problem p;
    p.file = "p.yaml";
    p.id = "p";
    p.title = "t";
    p.kind = model ? "transformer" : "mha";
    p.given = given;
    p.model = model;
    p.workload = workload;
    p.precision = precision;
    return p;
}

/// That problem solved; the test fails when it cannot be.
inline solve::SolvedProblem solved_of(const spec::MhaGivens& given, const std::optional<spec::ModelGivens>& model = {},
                                      const std::optional<spec::Workload>& workload = {},
                                      const std::optional<spec::Precision>& precision = {}) {
    auto solved = solve::solve_problem(problem_of(given, model, workload, precision));
    INFO((solved ? std::string("solved") : solved.error().to_string()));
    REQUIRE(solved.has_value());
    return std::move(*solved);
}

/// The change the catalogue's mistake `id` makes in `c` (its second way with `alternative`).
inline solve::Computation::Change mistake_change(const solve::Computation& c, std::string_view id,
                                                 bool alternative = false) {
    solve::Computation::Change change;
    for (const solve::CatalogueMistake& m : solve::catalogue_mistakes())
        if (m.id == id)
            for (const solve::Replacement& r : alternative ? m.alternative : m.change)
                if (const int slot = c.find(r.name); slot >= 0)
                    change.formulas.emplace_back(slot, solve::catalogue_formula(r.formula));
    INFO("mistake " << std::string(id));
    REQUIRE_FALSE(change.empty());
    return change;
}

} // namespace headcount::testing

// The catalogue as a whole (catalogue/*.yaml): every shipped problem's computation is built, every ask it may ask
// has a value, and every mistake of the catalogue changes some ask of some shipped problem (none is dead). The
// counts themselves are checked against hand derivations and published figures by the tests of each area
// (mha_test, model_test, flops_test, model_flops_test, shapes_test, memory_test) and the golden solutions; this
// commit's predecessor checked every value and every mistake's value against the C++ solvers the catalogue
// replaced, for every shipped problem (88,000 assertions).

#include <solve/asks.hpp>

#include <command/problems.hpp>
#include <grade/mistakes.hpp>
#include <spec/reader.hpp>

#include <util/test_catch.hpp>

#include <map>
#include <set>

using namespace headcount;

namespace {

std::vector<solve::SolvedProblem> shipped() {
    std::vector<std::string> specs{std::string(HEADCOUNT_SOURCE_DIR) + "/problems"};
    auto solved = command::load_and_solve(specs);
    REQUIRE(solved.has_value());
    return std::move(*solved);
}

/// The shipped problems and a mixture of experts over a workload (no shipped problem asks its compute).
std::vector<solve::SolvedProblem> shipped_and_moe() {
    std::vector<solve::SolvedProblem> out = shipped();
    const std::vector<std::string_view> asks = solve::ask_ids();
    const std::vector<std::string_view> mistakes = grade::mistake_ids();
    auto problem = spec::parse_problem("id: moe\ntitle: moe\nkind: transformer\ngiven: {d_model: 64, h: 4, d_ff: 128, "
                                       "layers: 2, vocab: 100, experts: 4, top_k: 2, seq_len: 8}\nparts:\n"
                                       "  - {id: a, ask: flops.model_forward}\n",
                                       "moe.yaml", spec::Vocabulary{asks, mistakes});
    REQUIRE(problem.has_value());
    auto solved = solve::solve_problem(*problem);
    REQUIRE(solved.has_value());
    out.push_back(std::move(*solved));
    return out;
}

} // namespace

TEST_CASE("every ask a shipped problem may ask has a value", "[catalogue]") {
    for (const solve::SolvedProblem& solved : shipped()) {
        if (solved.problem.kind == "quantities")
            continue;
        INFO("problem " << solved.problem.id);
        const solve::Computation& c = *solved.computation;
        for (const solve::Ask& ask : solve::asks()) {
            if (solve::cannot_ask(ask, solved.problem))
                continue;
            INFO("ask " << ask.id << ": " << (c.find(ask.name) >= 0 ? c.slot(c.find(ask.name)).unavailable : ""));
            CHECK(c.available(c.find(ask.name)));
        }
    }
}

TEST_CASE("every mistake of the catalogue changes some ask of some shipped problem", "[catalogue]") {
    std::set<std::string_view> changing;
    for (const solve::SolvedProblem& solved : shipped_and_moe()) {
        if (solved.problem.kind == "quantities")
            continue;
        const solve::Computation& c = *solved.computation;
        for (const solve::CatalogueMistake& m : solve::catalogue_mistakes()) {
            solve::Computation::Change change;
            for (const solve::Replacement& r : m.change)
                if (const int slot = c.find(r.name); slot >= 0)
                    change.formulas.emplace_back(slot, solve::catalogue_formula(r.formula));
            for (const solve::Ask& ask : solve::asks()) {
                const int slot = c.find(ask.name);
                if (solve::cannot_ask(ask, solved.problem) || !c.available(slot) || change.empty())
                    continue;
                const auto value = c.value_under(slot, change);
                if (value && *value != c.value(slot))
                    changing.insert(m.id);
                if (ask.type() == solve::Ask::Type::shape)
                    if (const auto shape = c.shape_under(slot, change); shape && *shape != c.shape(slot))
                        changing.insert(m.id);
            }
        }
    }
    for (const solve::CatalogueMistake& m : solve::catalogue_mistakes()) {
        INFO("mistake " << m.id);
        CHECK((m.change.empty() || changing.contains(m.id)));
    }
}

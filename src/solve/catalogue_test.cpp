// The catalogue as a whole (catalogue/*.yaml): every shipped problem's computation is built, every ask it may ask
// has a value, and every mistake of the catalogue changes some ask of some shipped problem (none is dead). The
// counts themselves are checked against hand derivations and published figures by the tests of each area
// (mha_test, model_test, flops_test, model_flops_test, shapes_test, memory_test) and the golden solutions; this
// commit's predecessor checked every value and every mistake's value against the C++ solvers the catalogue
// replaced, for every shipped problem (88,000 assertions).

#include <solve/asks.hpp>

#include <command/problems.hpp>
#include <grade/mistakes.hpp>
#include <spec/givens.hpp>
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

/// Calls `each(variant, combination)` for every combination of `problem`'s vary that check_givens accepts: the
/// variant without its vary, and the combination in words for messages.
template <class Each> void for_each_combination(const spec::Problem& problem, Each each) {
    std::vector<std::size_t> index(problem.vary.size(), 0);
    for (bool more = true; more;) {
        spec::Givens givens = spec::givens_of(problem);
        std::string combination;
        for (std::size_t k = 0; k < problem.vary.size(); ++k) {
            spec::set_given(givens, problem.vary[k].key, problem.vary[k].values[index[k]]);
            combination += problem.vary[k].key + "=" + std::to_string(problem.vary[k].values[index[k]]) + " ";
        }
        if (!spec::check_givens(givens.given)) {
            spec::Problem variant = spec::with_givens(problem, givens);
            variant.vary.clear();
            each(variant, combination);
        }
        more = false;
        for (std::size_t k = problem.vary.size(); k-- > 0;) {
            if (++index[k] < problem.vary[k].values.size()) {
                more = true;
                break;
            }
            index[k] = 0;
        }
    }
}

// generate::valid_variants asks solve::check_solvable of every combination of `vary:`, which builds only what the
// parts ask (issue 38): it must accept exactly the combinations solve_problem solves, and refuse the others with the
// same message. Every combination of every shipped problem's vary, and GPT-2 small's batch.max under fp32 Adam,
// whose model states (16 bytes × 124,439,808 parameters = 1,991,036,928 bytes, the ZeRO paper) fit in 80 GB but not
// in 1 GB: solve_problem refuses that variant ("no batch fits").
TEST_CASE("check_solvable accepts exactly the variants that solve_problem solves", "[catalogue]") {
    std::vector<spec::Problem> problems;
    for (const solve::SolvedProblem& solved : shipped())
        if (!solved.problem.vary.empty())
            problems.push_back(solved.problem);
    const std::vector<std::string_view> asks = solve::ask_ids();
    const std::vector<std::string_view> mistakes = grade::mistake_ids();
    auto budget = spec::parse_problem(
        "id: budget\ntitle: budget\nkind: transformer\ngiven:\n  d_model: 768\n  h: 12\n  d_ff: 3072\n  layers: 12\n"
        "  vocab: 50257\n  max_positions: 1024\n  final_norm: true\n  lm_head: linear\n  batch: 8\n  seq_len: 1024\n"
        "  precision: fp32\n  optimizer: adam\n  memory_budget: 80 GB\nvary: {memory_budget: [1, 80]}\nparts:\n"
        "  - {id: a, ask: batch.max}\n",
        "budget.yaml", spec::Vocabulary{asks, mistakes});
    REQUIRE(budget.has_value());
    problems.push_back(*budget);
    std::size_t solved = 0, refused = 0;
    for (const spec::Problem& problem : problems) {
        std::shared_ptr<const solve::Computation> like;
        for_each_combination(problem, [&](const spec::Problem& variant, const std::string& combination) {
            INFO(problem.id << ": " << combination);
            const auto full = solve::solve_problem(variant);
            const auto cone = solve::check_solvable(variant);
            CHECK(full.has_value() == cone.has_value());
            if (!full && !cone)
                CHECK(full.error().message == cone.error().message);
            // As valid_variants asks: the last combination's computation revalued where it can be.
            const auto revalued = solve::check_solvable(variant, &like);
            CHECK(revalued.has_value() == cone.has_value());
            if (!revalued && !cone)
                CHECK(revalued.error().message == cone.error().message);
            ++(full ? solved : refused);
        });
    }
    CHECK(solved >= 30); // week 3's 5 × 3 × 2 combinations of d_model, h and bias, at least
    CHECK(refused == 1); // the 1 GB budget
}

// Computation::revalued (issue 38: check --seed solves every combination of vary:) shares one combination's structure
// with the next and computes only the values: every slot it gives must have the value, shape and availability that
// building the combination anew gives, over every combination of every shipped problem's vary.
TEST_CASE("A revalued computation equals the one built anew", "[catalogue]") {
    std::size_t revalued = 0, built = 0;
    for (const solve::SolvedProblem& shipped_problem : shipped()) {
        const spec::Problem& problem = shipped_problem.problem;
        if (problem.vary.empty())
            continue;
        std::shared_ptr<const solve::Computation> last;
        for_each_combination(problem, [&](const spec::Problem& variant, const std::string& combination) {
            const auto fresh = solve::Computation::build(variant);
            if (!fresh)
                return;
            const auto again = last ? last->revalued(variant, solve::given_values(variant)) : nullptr;
            last = *fresh;
            if (!again) {
                ++built;
                return;
            }
            ++revalued;
            REQUIRE(again->size() == (*fresh)->size());
            for (int i = 0; i < static_cast<int>(again->size()); ++i) {
                INFO(problem.id << ": " << combination << "slot " << again->slot(i).name);
                CHECK(again->available(i) == (*fresh)->available(i));
                if (again->available(i) && (*fresh)->available(i)) {
                    CHECK(again->value(i) == (*fresh)->value(i));
                    if (again->slot(i).shaped())
                        CHECK(again->shape(i) == (*fresh)->shape(i));
                }
            }
        });
    }
    CHECK(revalued >= 20); // most of week 3's 30 combinations settle their conditions alike
    CHECK(built >= 1);     // and a flag varied (bias: true, false) settles them otherwise
}

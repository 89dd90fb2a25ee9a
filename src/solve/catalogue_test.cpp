// The catalogue's formulas against the C++ counts they replace: for every shipped problem, every quantity the
// solvers compute comes out the same from catalogue/*.yaml, and so does every ask under every mistake of the
// catalogue and every pair of them. Two independent writings of the same counts (the C++ solvers were tested
// against PyTorch, Hugging Face and the published figures; the YAML was written from the papers' formulas).

#include <solve/computation.hpp>

#include <command/problems.hpp>
#include <grade/mistakes.hpp>
#include <spec/reader.hpp>

#include <util/test_catch.hpp>

#include <filesystem>

using namespace headcount;

namespace {

std::vector<solve::SolvedProblem> shipped() {
    std::vector<std::string> specs{std::string(HEADCOUNT_SOURCE_DIR) + "/problems"};
    auto solved = command::load_and_solve(specs);
    REQUIRE(solved.has_value());
    return std::move(*solved);
}

formula::Number n(Count value) { return formula::to_number(value); }

/// The right value of the entry `name`, which must be available.
formula::Number value(const solve::Computation& c, std::string_view name) {
    const int index = c.find(name);
    INFO("entry " << std::string(name));
    REQUIRE(c.available(index));
    return c.value(index);
}

/// The change a mistake's recipe makes, as the catalogue writes it.
solve::Computation::Change change_of(const solve::Computation& c, std::span<const solve::Replacement> set) {
    solve::Computation::Change change;
    for (const solve::Replacement& r : set)
        change.formulas.emplace_back(c.find(r.name), solve::catalogue_formula(r.formula));
    return change;
}

} // namespace

TEST_CASE("the catalogue's formulas give every shipped problem's counts", "[catalogue]") {
    for (const solve::SolvedProblem& solved : shipped()) {
        if (solved.problem.kind == "quantities")
            continue;
        INFO("problem " << solved.problem.id);
        auto built = solve::Computation::build(solved.problem);
        INFO((built ? std::string("built") : built.error().message));
        REQUIRE(built.has_value());
        const solve::Computation& c = **built;
        const solve::MhaSolution& s = solved.mha;
        const char names[] = {'q', 'k', 'v', 'o'};
        for (int p = 0; p < 4; ++p) {
            const solve::Projection& proj = s.projections[static_cast<std::size_t>(p)];
            const std::string at(1, names[p]);
            CHECK(value(c, at + "_in") == n(proj.in));
            CHECK(value(c, at + "_out") == n(proj.out));
            CHECK(value(c, at + "_weights") == n(proj.weights));
            CHECK(value(c, at + "_bias") == n(proj.bias));
            CHECK(value(c, at + "_params") == n(proj.total));
            CHECK(value(c, at + "_per_unit") == n(proj.per_unit));
            CHECK(value(c, at + "_by_unit") == n(proj.by_unit));
        }
        CHECK(value(c, "qkv_params") == n(s.qkv));
        CHECK(value(c, "weight_params") == n(s.weights));
        CHECK(value(c, "bias_params") == n(s.biases));
        CHECK(value(c, "total_params") == n(s.total));
        CHECK(value(c, "total_by_unit") == n(s.total_by_unit));
        CHECK(value(c, "bias_vectors") == s.bias_vectors);
        CHECK(value(c, "square") == (s.square ? 1 : 0));
        if (s.square)
            CHECK(value(c, "closed_form") == n(s.closed_form));
        CHECK(value(c, "d_k") == n(s.d_k));
        CHECK(value(c, "d_v") == n(s.d_v));
        CHECK(value(c, "n_kv") == n(s.n_kv));
        if (const auto& m = solved.model) {
            CHECK(value(c, "embedding_params") == n(m->embedding));
            CHECK(value(c, "norm") == n(m->norm));
            CHECK(value(c, "ffn_params") == n(m->ffn));
            CHECK(value(c, "expert") == n(m->expert));
            CHECK(value(c, "router") == n(m->router));
            CHECK(value(c, "layer_params") == n(m->layer));
            CHECK(value(c, "decoder_layer_params") == n(m->decoder_layer));
            CHECK(value(c, "norm_params") == n(m->norms));
            CHECK(value(c, "head") == n(m->head));
            CHECK(value(c, "layers_total") == n(m->layers_total));
            CHECK(value(c, "final_norms") == n(m->final_norms));
            CHECK(value(c, "model_params") == n(m->total));
        }
        if (const auto& f = solved.flops) {
            CHECK(value(c, "flops_projections") == n(f->projections));
            CHECK(value(c, "flops_scores") == n(f->scores));
            CHECK(value(c, "flops_softmax") == n(f->softmax));
            CHECK(value(c, "flops_weighted_sum") == n(f->weighted_sum));
            CHECK(value(c, "flops_output") == n(f->output));
            CHECK(value(c, "flops_total") == n(f->total));
            CHECK(value(c, "flops_dominant") == n(f->dominant));
            CHECK(value(c, "scores_full") == n(f->scores_full));
        }
        if (const auto& f = solved.model_flops) {
            CHECK(value(c, "flops_model_forward") == n(f->forward));
            CHECK(value(c, "flops_training") == n(f->training));
            CHECK(value(c, "rule_forward") == n(f->rule_forward));
            CHECK(value(c, "rule_gap") == n(f->rule_gap));
            CHECK(value(c, "per_token_flops") == n(f->per_token));
        }
        if (const auto& m = solved.memory) {
            CHECK(value(c, "memory_parameters") == n(m->parameters));
            if (solved.problem.workload) {
                CHECK(value(c, "memory_attention_weights") == n(m->attention_weights));
                CHECK(value(c, "memory_qkv_activations") == n(m->qkv_activations));
                CHECK(value(c, "memory_kv_cache") == n(m->kv_cache));
            }
        }
        if (const auto& shapes = solved.shapes) {
            const std::pair<const char*, const solve::Tensor*> tensors[] = {{"shape_input", &shapes->input},
                                                                            {"shape_q", &shapes->q},
                                                                            {"shape_k", &shapes->k},
                                                                            {"shape_v", &shapes->v},
                                                                            {"shape_q_heads", &shapes->q_heads},
                                                                            {"shape_k_heads", &shapes->k_heads},
                                                                            {"shape_v_heads", &shapes->v_heads},
                                                                            {"shape_scores", &shapes->scores},
                                                                            {"shape_head_output", &shapes->head_output},
                                                                            {"shape_concat", &shapes->concat},
                                                                            {"shape_output", &shapes->output}};
            for (const auto& [name, tensor] : tensors) {
                INFO(name);
                const int index = c.find(name);
                REQUIRE(c.available(index));
                CHECK(c.shape(index) == tensor->shape);
                CHECK(c.axis_symbols(index) == tensor->axes);
            }
        }
    }
}

TEST_CASE("every mistake of the catalogue gives every ask the value its recipe gave", "[catalogue]") {
    for (const solve::SolvedProblem& solved : shipped()) {
        if (solved.problem.kind == "quantities")
            continue;
        INFO("problem " << solved.problem.id);
        auto built = solve::Computation::build(solved.problem);
        REQUIRE(built.has_value());
        const solve::Computation& c = **built;
        const auto catalogue = solve::catalogue_mistakes();
        for (const grade::Mistake& mistake : grade::mistake_catalogue()) {
            if (mistake.recipe == solve::Recipe{})
                continue;
            const auto row = std::find_if(catalogue.begin(), catalogue.end(),
                                          [&](const solve::CatalogueMistake& m) { return m.id == mistake.id; });
            REQUIRE(row != catalogue.end());
            const std::pair<std::optional<solve::Recipe>, std::span<const solve::Replacement>> ways[] = {
                {mistake.recipe, row->change}, {mistake.alternative, row->alternative}};
            for (const auto& [recipe, set] : ways) {
                if (!recipe)
                    continue;
                const solve::Computation::Change change = change_of(c, set);
                for (const solve::Ask& ask : solve::asks()) {
                    if (solve::cannot_answer(ask, solved))
                        continue;
                    INFO("mistake " << mistake.id << ", ask " << ask.id);
                    const auto old_value = grade::value_under(solved.problem, ask, *recipe);
                    std::string name(ask.id);
                    std::replace(name.begin(), name.end(), '.', '_');
                    const int index = c.find(name);
                    REQUIRE(c.available(index));
                    if (ask.type() == solve::Ask::Type::shape) {
                        const auto shape = c.shape_under(index, change);
                        REQUIRE(old_value.has_value());
                        REQUIRE(shape.has_value());
                        CHECK(*shape == old_value->shape);
                        continue;
                    }
                    const auto new_value = c.value_under(index, change);
                    if (!old_value) { // the old count overflowed or split an odd number: no student typed it
                        CHECK((!new_value || new_value->get_den() != 1 || abs(*new_value) > n(k_count_limit)));
                        continue;
                    }
                    REQUIRE(new_value.has_value());
                    CHECK(*new_value == n(old_value->count));
                }
            }
        }
    }
}

#include <grade/grader.hpp>

#include <render/templates.hpp>

#include <spec/test_givens.hpp>

#include <util/test_catch.hpp>

#include <algorithm>
#include <set>

using namespace headcount;
using namespace headcount::grade;

namespace {

spec::Problem problem(spec::MhaGivens given, std::string ask) {
    spec::Problem p;
    p.file = "p.yaml";
    p.id = "p";
    p.title = "t";
    p.given = given;
    spec::Part part;
    part.id = "a";
    part.ask = std::move(ask);
    part.points = 3;
    p.parts.push_back(part);
    return p;
}

using testing::mha;

/// The mistake-id sets that explain `value` for this problem's one part ({"a"} or {"a", "b"} per explanation).
std::set<std::set<std::string>> explained_by(const spec::Problem& p, Count value) {
    auto solved = solve::solve_problem(p);
    REQUIRE(solved.has_value());
    std::set<std::set<std::string>> out;
    for (const Explanation& e : explanations(*solved, solved->parts[0]))
        if (e.value.count == value) {
            std::set<std::string> ids;
            for (const Mistake* m : e.mistakes)
                ids.insert(std::string(m->id));
            out.insert(ids);
        }
    return out;
}

using Ids = std::set<std::set<std::string>>;

// Config A: d_model 512, h 8, all biases. Right total 4 x 512 x 513 = 1,050,624; each projection 262,656.
const spec::Problem k_a = problem(mha(512, 8), "total_params");

// Config B: d_model 512, h 8, d_k 64, d_v 32, all biases. By hand: Q = K = 262,656; V = 512 x 256 + 256 =
// 131,328; O = 256 x 512 + 512 = 131,584; total 788,224.
spec::MhaGivens dk_dv() {
    auto g = mha(512, 8);
    g.d_k = 64;
    g.d_v = 32;
    return g;
}
const spec::Problem k_b = problem(dk_dv(), "total_params");

} // namespace

TEST_CASE("each mistake is recognised on two configurations", "[mistakes]") {
    // missing_output_projection: A 3 x 262,656 = 787,968 (collides with missing_value_projection, below);
    // B 788,224 - 131,584 = 656,640.
    CHECK(explained_by(k_b, 656'640) == Ids{{"missing_output_projection"}});
    // missing_biases: A 4 x 512^2 = 1,048,576; B 786,432 (weights 2 x 262,144 + 2 x 131,072).
    CHECK(explained_by(k_a, 1'048'576) == Ids{{"missing_biases"}});
    CHECK(explained_by(k_b, 786'432) == Ids{{"missing_biases"}});
    // missing_output_bias: A 1,050,624 - 512 = 1,050,112; B 788,224 - 512 = 787,712.
    CHECK(explained_by(k_a, 1'050'112) == Ids{{"missing_output_bias"}});
    CHECK(explained_by(k_b, 787'712) == Ids{{"missing_output_bias"}});
    // bias_counted_once: A 1,048,576 + 512 = 1,049,088; B 786,432 + 512 = 786,944.
    CHECK(explained_by(k_a, 1'049'088) == Ids{{"bias_counted_once"}});
    CHECK(explained_by(k_b, 786'944) == Ids{{"bias_counted_once"}});
    // heads_times_full_matrices: A 8 x 1,050,624 = 8,404,992; B 8 x 788,224 = 6,305,792.
    CHECK(explained_by(k_a, 8'404'992) == Ids{{"heads_times_full_matrices"}});
    CHECK(explained_by(k_b, 6'305'792) == Ids{{"heads_times_full_matrices"}});
    // single_head_only: A 3 x (512 x 64 + 64) + (64 x 512 + 512) = 98,496 + 33,280 = 131,776;
    // B 2 x 32,832 + (512 x 32 + 32) + (32 x 512 + 512) = 65,664 + 16,416 + 16,896 = 98,976.
    CHECK(explained_by(k_a, 131'776) == Ids{{"single_head_only"}});
    CHECK(explained_by(k_b, 98'976) == Ids{{"single_head_only"}});
    // output_projection_per_head: A 3 x 262,656 + 8 x 262,656 = 2,889,216; B 656,640 + 8 x 131,584 = 1,709,312.
    CHECK(explained_by(k_a, 2'889'216) == Ids{{"output_projection_per_head"}});
    CHECK(explained_by(k_b, 1'709'312) == Ids{{"output_projection_per_head"}});
    // bias_formula_per_head: A 1,048,576 + 8 x (3 x 64 + 64) + 512 = 1,051,136; B 786,432 + 8 x 224 + 512 = 788,736.
    CHECK(explained_by(k_a, 1'051'136) == Ids{{"bias_formula_per_head"}});
    CHECK(explained_by(k_b, 788'736) == Ids{{"bias_formula_per_head"}});
    // missing_value_projection: B 788,224 - 131,328 = 656,896; C (GQA below) 41,943,040 - 4,194,304 = 37,748,736.
    CHECK(explained_by(k_b, 656'896) == Ids{{"missing_value_projection"}});
}

TEST_CASE("W_O sizing and grouped-query mistakes show only where they change the count", "[mistakes]") {
    // output_projection_square: B's W_O as 512 x 512 + 512 = 262,656 instead of 131,584: 788,224 + 131,072 = 919,296.
    CHECK(explained_by(k_b, 919'296) == Ids{{"output_projection_square"}});
    // ... and on B's o_params part: 262,656.
    CHECK(explained_by(problem(dk_dv(), "o_params"), 262'656) == Ids{{"output_projection_square"}});
    // In config A, h d_v = d_model: the mistake gives the right number, so it is never offered.
    auto solved = solve::solve_problem(k_a);
    for (const Explanation& e : explanations(*solved, solved->parts[0]))
        for (const Mistake* m : e.mistakes)
            CHECK(m->id != "output_projection_square");

    // kv_heads_ignored, config C: d 4096, h 32, 8 kv heads, no bias; right 41,943,040; with h heads 4 x 4096^2 =
    // 67,108,864.
    auto gqa = mha(4096, 32);
    gqa.n_kv_heads = 8;
    gqa.bias = {false, false, false, false};
    CHECK(explained_by(problem(gqa, "total_params"), 67'108'864) == Ids{{"kv_heads_ignored"}});
    CHECK(explained_by(problem(gqa, "total_params"), 37'748'736) == Ids{{"missing_value_projection"}});
    // Config D: multi-query, d 1024, h 16, one kv head, biases. k_params right: 1024 x 64 + 64 = 65,600;
    // with 16 heads: 1024 x 1024 + 1024 = 1,049,600.
    auto mqa = mha(1024, 16);
    mqa.n_kv_heads = 1;
    // A true collision: giving each of the 16 heads its own K (16 x 65,600) is the same number.
    CHECK(explained_by(problem(mqa, "k_params"), 1'049'600) ==
          Ids{{"kv_heads_ignored"}, {"heads_times_full_matrices"}});
}

TEST_CASE("collisions report every candidate, composites report both ids", "[mistakes]") {
    // A: leaving out W_O or leaving out W_V both give 3 x 262,656 = 787,968.
    CHECK(explained_by(k_a, 787'968) == Ids{{"missing_output_projection"}, {"missing_value_projection"}});
    // A: no W_O and no biases: 3 x 512^2 = 786,432 (and, the same number, no W_V and no biases).
    CHECK(explained_by(k_a, 786'432) ==
          Ids{{"missing_output_projection", "missing_biases"}, {"missing_value_projection", "missing_biases"}});
}

TEST_CASE("the article's two wrong formulas are named", "[mistakes]") {
    // ../shared/seeds/001: weights = h(2 d d_k + d d_v) + d^2 and biases = h(3 d_k + d_v) + d.
    // With B's d 512, h 8, d_k 64, d_v 32: weights 8 x (65,536 + 16,384) + 262,144 = 917,504 (right: 786,432);
    // biases 8 x (192 + 32) + 512 = 2,304 (right: 1,792); together 919,808.
    CHECK(explained_by(problem(dk_dv(), "weight_params"), 917'504) == Ids{{"output_projection_square"}});
    CHECK(explained_by(problem(dk_dv(), "bias_params"), 2'304) == Ids{{"bias_formula_per_head"}});
    CHECK(explained_by(k_b, 919'808) == Ids{{"output_projection_square", "bias_formula_per_head"}});
}

TEST_CASE("the variants' characteristic mistakes have names", "[mistakes]") {
    // add_bias_kv, d 512, h 8: right 1,050,624 + 2 x 512 = 1,051,648; forgetting bias_k and bias_v gives 1,050,624.
    auto with_kv = mha(512, 8);
    with_kv.add_bias_kv = true;
    CHECK(explained_by(problem(with_kv, "total_params"), 1'050'624) == Ids{{"missing_bias_kv"}});
    // ... and on its bias_params part: 4 x 512 + 2 x 512 = 3,072 right, 2,048 without them. That number collides:
    // leaving out V drops b_V and bias_v (3,072 - 1,024), and the article's 8 x 256 + 512 = 2,560 without b_O.
    CHECK(
        explained_by(problem(with_kv, "bias_params"), 2'048) ==
        Ids{{"missing_bias_kv"}, {"missing_value_projection"}, {"bias_formula_per_head", "missing_output_projection"}});
    // bias: false, d 512, h 8: right 4 x 512^2 = 1,048,576; with biases anyway 1,050,624.
    auto no_bias = mha(512, 8);
    no_bias.bias = {false, false, false, false};
    CHECK(explained_by(problem(no_bias, "total_params"), 1'050'624) == Ids{{"biases_added"}});
    // Only b_O turned off: right 1,050,624 - 512 = 1,050,112; all four biases counted gives 1,050,624.
    auto no_o_bias = mha(512, 8);
    no_o_bias.bias.o = false;
    CHECK(explained_by(problem(no_o_bias, "total_params"), 1'050'624) == Ids{{"biases_added"}});
}

TEST_CASE("whole-block bias mistakes are not offered on one projection's part", "[mistakes]") {
    // B's V part: 512 x 256 = 131,072 without its bias is missing_biases, not "one vector for the block".
    CHECK(explained_by(problem(dk_dv(), "v_params"), 131'072) == Ids{{"missing_biases"}});
}

TEST_CASE("an exact mistake value is a mistake, not a rounding", "[mistakes]") {
    // d_model 1000, h 10, biases: right 4 x 1000 x 1001 = 4,004,000; without biases 4,000,000, which also
    // looks like 4,004,000 rounded to 4.00M. The mistake explains it exactly, so it wins.
    spec::Problem p = problem(mha(1000, 10), "total_params");
    auto solved = solve::solve_problem(p);
    REQUIRE(solved.has_value());
    const auto v = grade_answer(*solved, solved->parts[0], "4,000,000");
    CHECK(v.status == Status::incorrect);
    REQUIRE(v.matches.size() == 1);
    CHECK(v.matches[0].mistakes[0]->id == "missing_biases");
}

// Mistake ids are a contract (specs name them in credit:, JSON and reports carry them): none of those shipped may
// disappear or change its spelling. A new mistake adds an id without touching this list; mistakes.def's static
// checks keep ids unique.
TEST_CASE("every shipped mistake id is still in the catalogue", "[mistakes]") {
    const std::set<std::string> shipped{"missing_output_projection",
                                        "missing_biases",
                                        "missing_output_bias",
                                        "bias_counted_once",
                                        "heads_times_full_matrices",
                                        "single_head_only",
                                        "output_projection_per_head",
                                        "output_projection_square",
                                        "bias_formula_per_head",
                                        "missing_value_projection",
                                        "kv_heads_ignored",
                                        "missing_bias_kv",
                                        "biases_added",
                                        "tied_embeddings_counted_twice",
                                        "missing_layernorm",
                                        "missing_position_embeddings",
                                        "gated_ffn_two_matrices",
                                        "macs_not_flops",
                                        "one_projection_only",
                                        "missing_attention_matmuls",
                                        "n_squared_d_missed_heads_factor",
                                        "n_versus_d_rule_of_thumb",
                                        "heads_seq_axes_swapped",
                                        "d_model_for_d_k",
                                        "batch_axis_dropped",
                                        "bits_for_bytes",
                                        "bytes_per_value_missing",
                                        "kv_cache_missing_factor_2",
                                        "attention_n_squared_forgotten",
                                        "backward_pass_forgotten",
                                        "training_for_forward",
                                        "parameter_rule_not_exact",
                                        "rounded",
                                        "decimal_vs_binary_units",
                                        "other_quantity"};
    std::set<std::string> ids;
    for (auto id : mistake_ids())
        ids.insert(std::string(id));
    for (const std::string& id : shipped) {
        INFO(id);
        CHECK(ids.contains(id));
    }
    CHECK(ids.size() == mistake_ids().size()); // each once
}

TEST_CASE("every mistake has its feedback template", "[mistakes][catalogue]") {
    const render::TemplateSet set = render::TemplateSet::builtin();
    for (const Mistake& mistake : mistake_catalogue()) {
        INFO(mistake.id);
        CHECK(set.has(mistake_template(mistake)));
    }
    CHECK(mistake_template(*find_mistake("missing_biases")) == "mistakes/missing_biases");
}

namespace {

spec::Problem model_problem(spec::MhaGivens attention, spec::ModelGivens model, std::string ask) {
    spec::Problem p = problem(attention, std::move(ask));
    p.kind = "transformer";
    p.model = model;
    return p;
}

spec::ModelGivens bert() { return testing::bert_base(); }

spec::ModelGivens llama(Count d_ff) {
    spec::ModelGivens m;
    m.d_ff = d_ff;
    m.layers = 32;
    m.vocab = 32000;
    m.norm = spec::ModelGivens::Norm::rmsnorm;
    m.ffn = spec::ModelGivens::Ffn::gated;
    m.ffn_bias = false;
    m.final_norm = true;
    m.lm_head = spec::ModelGivens::Head::linear;
    m.tied_embeddings = false;
    return m;
}

spec::MhaGivens no_bias(Count d, Count h) {
    auto g = mha(d, h);
    g.bias = {false, false, false, false};
    return g;
}

} // namespace

TEST_CASE("whole-model mistakes are recognised on two models each", "[mistakes]") {
    const auto gpt = model_problem(mha(768, 12), testing::gpt2_small(), "model_params"); // right: 124,439,808
    const auto bert_base = model_problem(mha(768, 12), bert(), "model_params");          // right: 109,482,240
    // tied_embeddings_counted_twice: GPT-2 + 50,257 x 768 = 163,037,184; with an MLM head (RoBERTa default config,
    // 109,514,298) + 30,522 x 768 = 132,955,194.
    CHECK(explained_by(gpt, 163'037'184) == Ids{{"tied_embeddings_counted_twice"}});
    auto roberta = bert();
    roberta.pooler = false;
    roberta.lm_head = spec::ModelGivens::Head::mlm;
    CHECK(explained_by(model_problem(mha(768, 12), roberta, "model_params"), 132'955'194) ==
          Ids{{"tied_embeddings_counted_twice"}});
    // missing_layernorm: GPT-2's norms 12 x 2 x 1,536 + 1,536 = 38,400 -> 124,401,408; BERT's 1,536 + 12 x 3,072 =
    // 38,400 -> 109,443,840.
    CHECK(explained_by(gpt, 124'401'408) == Ids{{"missing_layernorm"}});
    CHECK(explained_by(bert_base, 109'443'840) == Ids{{"missing_layernorm"}});
    // missing_position_embeddings: GPT-2 - 1,024 x 768 = 123,653,376; BERT - 512 x 768 = 109,089,024.
    CHECK(explained_by(gpt, 123'653'376) == Ids{{"missing_position_embeddings"}});
    CHECK(explained_by(bert_base, 109'089'024) == Ids{{"missing_position_embeddings"}});
    // gated_ffn_two_matrices: LLaMA-2-7B 6,738,415,616 - 32 x 4,096 x 11,008 = 5,295,575,040; Mistral-7B
    // 7,241,732,096 - 32 x 4,096 x 14,336 = 5,362,683,904.
    CHECK(explained_by(model_problem(no_bias(4096, 32), llama(11008), "model_params"), 5'295'575'040) ==
          Ids{{"gated_ffn_two_matrices"}});
    auto gqa = no_bias(4096, 32);
    gqa.n_kv_heads = 8;
    CHECK(explained_by(model_problem(gqa, llama(14336), "model_params"), 5'362'683'904) ==
          Ids{{"gated_ffn_two_matrices"}});
}

TEST_CASE("compute mistakes are recognised on two workloads", "[mistakes]") {
    auto flops_problem = [](Count d, Count h, Count n) {
        spec::Problem p = problem(mha(d, h), "flops.total");
        p.workload = spec::Workload{};
        p.workload->seq_len = n;
        return p;
    };
    // A: n 2048, d 4096, h 32; right 343,597,383,680 (linear 274,877,906,944, attention 68,719,476,736).
    // B: n 8192, d 1024, h 16; right 343,597,383,680 too (linear 68,719,476,736, attention 274,877,906,944).
    const auto a = flops_problem(4096, 32, 2048);
    const auto b = flops_problem(1024, 16, 8192);
    // Half. On both workloads one projection of three together with AV dropped takes away half as well: A loses
    // 137,438,953,472 + 34,359,738,368, B 34,359,738,368 + 137,438,953,472. The grader names the single mistake,
    // keeping pairs only where none matches (grade/grader.cpp).
    const Ids half{{"macs_not_flops"}, {"one_projection_only", "weighted_sum_forgotten"}};
    CHECK(explained_by(a, 171'798'691'840) == half);
    CHECK(explained_by(b, 171'798'691'840) == half);
    // one projection instead of three: minus 2 x 2 n d^2. A: 343,597,383,680 - 137,438,953,472; B: - 34,359,738,368.
    CHECK(explained_by(a, 206'158'430'208) == Ids{{"one_projection_only"}});
    CHECK(explained_by(b, 309'237'645'312) == Ids{{"one_projection_only"}});
    // only the linear layers
    CHECK(explained_by(a, 274'877'906'944) == Ids{{"missing_attention_matmuls"}});
    CHECK(explained_by(b, 68'719'476'736) == Ids{{"missing_attention_matmuls"}});
    // attention for one head: A 274,877,906,944 + 68,719,476,736 / 32; B 68,719,476,736 + 274,877,906,944 / 16.
    CHECK(explained_by(a, 277'025'390'592) == Ids{{"n_squared_d_missed_heads_factor"}});
    CHECK(explained_by(b, 85'899'345'920) == Ids{{"n_squared_d_missed_heads_factor"}});
}

TEST_CASE("the article's bias count is named on a part about Q, K and V too", "[mistakes]") {
    // ../shared/seeds/001's biases h(3 d_k + d_v) + d at d 512, h 8 (d_k = d_v = 64): 8 x 256 + 512 = 2,560. On
    // week 3's part (a) the weights are 3 x 512^2 = 786,432: with the whole formula 788,992 (issue 9), with its
    // h(3 d_k + d_v) alone (b_O's d left to W_O) 788,480. The right count is 3 x 262,656 = 787,968.
    const spec::Problem qkv = problem(mha(512, 8), "qkv_params");
    CHECK(explained_by(qkv, 788'992) == Ids{{"bias_formula_per_head"}});
    CHECK(explained_by(qkv, 788'480) == Ids{{"bias_formula_per_head"}});
    // On the whole block both readings give 1,048,576 + 2,560 = 1,051,136, which is named once.
    auto solved = solve::solve_problem(k_a);
    REQUIRE(solved.has_value());
    std::size_t named = 0;
    for (const Explanation& e : explanations(*solved, solved->parts[0]))
        named += e.mistakes.size() == 1 && e.mistakes[0]->id == "bias_formula_per_head" ? 1 : 0;
    CHECK(named == 1);
    CHECK(explained_by(k_a, 1'051'136) == Ids{{"bias_formula_per_head"}});
}

TEST_CASE("an answer that is another quantity of the problem says which", "[mistakes]") {
    // Week 3 (d 512, h 8, biases): Q+K+V = 787,968 is part (a); the whole block 1,050,624 and one projection
    // 262,656 (Q, K, V and O are all 512 x 512 + 512) are other asks' right answers.
    spec::Problem p = problem(mha(512, 8), "qkv_params");
    auto solved = solve::solve_problem(p);
    REQUIRE(solved.has_value());
    const auto asks_of = [](const Verdict& v) {
        std::set<std::string> ids;
        for (const Explanation& e : v.matches)
            for (const solve::Ask* a : e.others)
                ids.insert(std::string(a->id));
        return ids;
    };
    const auto block = grade_answer(*solved, solved->parts[0], "1,050,624");
    CHECK(block.status == Status::incorrect);
    REQUIRE(block.matches.size() == 1);
    CHECK(block.matches[0].mistakes[0]->id == "other_quantity");
    CHECK(asks_of(block) == std::set<std::string>{"total_params"});
    const auto one = grade_answer(*solved, solved->parts[0], "262656");
    CHECK(asks_of(one) == std::set<std::string>{"q_params", "k_params", "v_params", "o_params"});
    // d_k = 64 is a width, not a count of parameters: never offered for a parameters part.
    CHECK(grade_answer(*solved, solved->parts[0], "64").matches.empty());
    // On the whole block, 4 x 512^2 = 1,048,576 is both "biases left out" and weight_params' answer: the catalogue
    // names the idea, so other_quantity stays out.
    auto total = solve::solve_problem(k_a);
    REQUIRE(total.has_value());
    const auto weights = grade_answer(*total, total->parts[0], "1048576");
    REQUIRE(weights.matches.size() == 1);
    CHECK(weights.matches[0].mistakes[0]->id == "missing_biases");
}

#include <solve/model_flops.hpp>

#include <solve/test_solve.hpp>
#include <spec/test_givens.hpp>

#include <util/test_catch.hpp>

using namespace headcount;
using solve::ModelFlopsSolution;

namespace {

spec::Workload sequence(Count seq_len, Count batch = 1) {
    spec::Workload w;
    w.batch = batch;
    w.seq_len = seq_len;
    return w;
}

/// The model's compute as `headcount solve` counts it (catalogue/model_flops.yaml), or as a student who made the
/// catalogue's mistake `id` would.
ModelFlopsSolution model_flops(const spec::MhaGivens& g, const spec::ModelGivens& m, const spec::Workload& w,
                               std::string_view id = {}) {
    const solve::SolvedProblem solved = testing::solved_of(g, m, w);
    if (id.empty())
        return *solved.model_flops;
    const auto change = testing::mistake_change(*solved.computation, id);
    return solve::read_model_flops(*solved.computation, &change);
}

/// A model small enough to count by hand: d_model 4, 2 heads (d_k = 2), no biases, d_ff 8, one layer, a vocabulary
/// of 10, RMSNorm, an untied LM head, no learned positions.
std::pair<spec::MhaGivens, spec::ModelGivens> tiny() {
    spec::MhaGivens g = testing::mha(4, 2);
    g.bias = {false, false, false, false};
    spec::ModelGivens m;
    m.d_ff = 8;
    m.layers = 1;
    m.vocab = 10;
    m.norm = spec::ModelGivens::Norm::rmsnorm;
    m.ffn_bias = false;
    m.lm_head = spec::ModelGivens::Head::linear;
    m.tied_embeddings = false;
    return {g, m};
}

/// GPT-2 small as Hugging Face builds it (124,439,808 parameters).
std::pair<spec::MhaGivens, spec::ModelGivens> gpt2_small() { return {testing::mha(768, 12), testing::gpt2_small()}; }

} // namespace

TEST_CASE("a small model's forward pass, counted by hand", "[model_flops]") {
    const auto [g, m] = tiny();
    const ModelFlopsSolution f = model_flops(g, m, sequence(3));
    // Per token, by hand: Q, K, V, O are four 4 x 4 matrices, 2 x 64 = 128 FLOPs; the FFN's 4 x 8 and 8 x 4, 2 x 64
    // = 128; attention: Q K^T 2 x (2 heads x 3 keys x d_k 2) = 24 and A V as much, 48; the head 2 x 4 x 10 = 80.
    CHECK(f.layer_linear == 3 * 256);
    CHECK(f.layer_attention == 3 * 48);
    CHECK(f.head == 3 * 80);
    CHECK(f.per_token == 128 + 128 + 48 + 80); // 384
    CHECK(f.forward == 3 * 384);               // 1,152 for 3 tokens
    CHECK(f.per_sequence == 1152);
    CHECK(f.training == 3 * 1152); // forward + backward (2 x forward)
    // N by hand: attention 64 + FFN 64 + two RMSNorms of 4 + embedding 40 + untied head 40 = 216.
    CHECK(f.parameters == 216);
    CHECK(f.rule_forward == 2 * 216 * 3);  // 1,296: more than the exact count (the embedding is not multiplied)
    CHECK(f.rule_training == 6 * 216 * 3); // 3,888
    CHECK(f.rule_gap == 1152 - 1296);
}

TEST_CASE("GPT-2 small over 1,024 tokens: exact count and Kaplan's rule", "[model_flops]") {
    const auto [g, m] = gpt2_small();
    const ModelFlopsSolution f = model_flops(g, m, sequence(1024));
    // By hand, per layer: weights 2 x 1,024 x (4 x 768^2 + 2 x 768 x 3,072) = 14,495,514,624; attention
    // 2 x 2 x 12 heads x 1,024^2 x 64 = 3,221,225,472. The tied head still multiplies: 2 x 1,024 x 768 x 50,257 =
    // 79,047,426,048. Forward: 12 x (14,495,514,624 + 3,221,225,472) + 79,047,426,048 = 291,648,307,200.
    CHECK(f.layer_linear == 14'495'514'624);
    CHECK(f.layer_attention == 3'221'225'472);
    CHECK(f.head == 79'047'426'048);
    CHECK(f.forward == 291'648'307'200);
    CHECK(f.per_token == 284'812'800);
    // Kaplan et al. (2020): C_forward = 2N per token, C_train = 6N, with GPT-2 small's published N = 124,439,808
    // (Hugging Face's count): 2N x 1,024 = 254,852,726,784 and 6N x 1,024 = 764,558,180,352.
    CHECK(f.parameters == 124'439'808);
    CHECK(f.rule_forward == 254'852'726'784);
    CHECK(f.rule_training == 764'558'180'352);
    CHECK(f.training == 3 * 291'648'307'200);
}

TEST_CASE("MACs count each multiply-add once, and a batch multiplies the tokens", "[model_flops]") {
    const auto [g, m] = tiny();
    spec::Workload w = sequence(3, 2);
    w.macs = true;
    const ModelFlopsSolution f = model_flops(g, m, w);
    CHECK(f.per_token == 384 / 2);
    CHECK(f.forward == 6 * 192);
    CHECK(f.per_sequence == 3 * 192);
    CHECK(f.rule_forward == 216 * 6); // N per token in MACs
}

TEST_CASE("whole-model compute mistakes give the numbers a student would", "[model_flops]") {
    const auto [g, m] = tiny();
    const spec::Workload w = sequence(3);
    // Attention's n^2 term left out: 1,152 - 3 x 48 = 1,008.
    CHECK(model_flops(g, m, w, "attention_n_squared_forgotten").forward == 1008);
    // The block-level mistake of the same kind is not a whole-model one: it leaves the model's count alone.
    CHECK(model_flops(g, m, w, "missing_attention_matmuls").forward == 1152);
    CHECK(model_flops(g, m, w, "backward_pass_forgotten").training == 1152);
    CHECK(model_flops(g, m, w, "training_for_forward").forward == 3456);
    const auto rule = model_flops(g, m, w, "parameter_rule_not_exact");
    CHECK(rule.forward == 1296);
    CHECK(rule.training == 3888);
}

#include <solve/model_flops.hpp>

#include <fmt/format.h>

namespace headcount::solve {

Result<ModelFlopsSolution> solve_model_flops(const MhaSolution& block, const ModelSolution& model,
                                             const spec::ModelGivens& m, const spec::Workload& w,
                                             const Recipe& recipe) {
    // The block-level mistake "only the linear layers" has a whole-model counterpart of its own (the n^2 term
    // forgotten), named for this question; the block's compute is counted with that one only.
    Recipe block_recipe = recipe;
    block_recipe.no_attention_matmuls = recipe.model_attention_forgotten;
    auto flops = solve_flops(block, w, block_recipe);
    if (!flops)
        return std::unexpected(flops.error());
    CheckedArithmetic math;
    auto add = [&](Count a, Count b) { return math.add(a, b, "the model's FLOP count"); };
    auto mul = [&](Count a, Count b) { return math.mul(a, b, "the model's FLOP count"); };

    ModelFlopsSolution s;
    s.tokens = flops->tokens;
    s.per_product = flops->per_product;
    s.layers = m.layers;
    const bool macs = s.per_product == 1;
    // The FFN: one product per matrix (two, or three when gated) for every token; under a mixture of experts, the
    // router's and those of the top_k experts the token goes to.
    const Count routed = m.experts > 0 ? (recipe.moe_all_experts_computed ? m.experts : m.top_k) : 1;
    s.layer_ffn = mul(s.per_product, mul(s.tokens, add(mul(routed, add(model.ffn_up, model.ffn_down)), model.router)));
    if (w.biases && !macs)
        s.layer_ffn = add(s.layer_ffn, mul(s.tokens, mul(routed, model.ffn_biases)));
    s.layer_linear = add(flops->linear, s.layer_ffn);
    s.layer_attention = flops->attention;

    // The LM head multiplies every token by a d_model x vocab matrix, tied or not; an MLM head first by d x d.
    const Count d = block.d_model;
    Count head_weights = 0;
    if (m.lm_head == spec::ModelGivens::Head::linear)
        head_weights = mul(d, m.vocab);
    else if (m.lm_head == spec::ModelGivens::Head::mlm)
        head_weights = add(mul(d, d), mul(d, m.vocab));
    s.head = recipe.head_flops_forgotten ? 0 : mul(s.per_product, mul(s.tokens, head_weights));

    s.linear = mul(s.layers, s.layer_linear);
    s.attention = mul(s.layers, s.layer_attention);
    s.forward = add(add(s.linear, s.attention), s.head);
    s.per_token = s.tokens > 0 ? s.forward / s.tokens : 0;
    s.per_sequence = mul(s.per_token, w.seq_len);
    s.backward = mul(2, s.forward);
    s.training = add(s.forward, s.backward);
    s.training_per_token = mul(3, s.per_token);

    // Under a mixture of experts the rule counts the parameters a token uses (Megatron-LM's active parameters).
    // Experts a token does not use; under moe_active_only the model's count already holds only the routed ones.
    const Count idle = m.experts > 0 && !recipe.moe_active_only ? m.experts - routed : 0;
    s.parameters = model.total - mul(mul(s.layers, idle), model.expert);
    s.rule_per_token = mul(s.per_product, s.parameters);
    s.rule_forward = mul(s.rule_per_token, s.tokens);
    s.rule_training = mul(3, s.rule_forward);
    s.rule_gap = s.forward - s.rule_forward; // both within 10^36 and non-negative: no overflow

    // Mistakes about the pass: the answers they give, in place of the right ones.
    if (recipe.parameter_rule)
        s.forward = s.rule_forward, s.training = s.rule_training;
    if (recipe.backward_forgotten)
        s.training = s.forward;
    if (recipe.training_for_forward)
        s.forward = s.training;
    if (!math.ok())
        return std::unexpected(math.error());
    if (recipe == Recipe{} && mul(s.per_token, s.tokens) != s.forward)
        return fail(
            fmt::format("internal check failed: {} FLOPs do not split evenly over {} tokens", s.forward, s.tokens));
    return s;
}

} // namespace headcount::solve

#include <solve/flops.hpp>

#include <fmt/format.h>

namespace headcount::solve {

Result<FlopsSolution> solve_flops(const MhaSolution& block, const spec::Workload& w, const Recipe& recipe) {
    CheckedArithmetic math;
    FlopsSolution f;
    auto mul = [&](Count a, Count b) { return math.mul(a, b, "the FLOP count"); };
    auto add = [&](Count a, Count b) { return math.add(a, b, "the FLOP count"); };
    const bool macs = w.macs || recipe.macs_for_flops;
    f.per_product = macs ? 1 : 2;
    f.tokens = mul(w.batch, w.seq_len);
    f.kv_tokens = mul(w.batch, w.seq_len_kv.value_or(w.seq_len));

    // A projection of t tokens is a (t x in) by (in x out) product; a counted bias adds one per output element.
    auto projection = [&](const Projection& p, Count tokens) {
        Count products = mul(f.per_product, mul(tokens, mul(p.in, p.out)));
        if (w.biases && p.has_bias && !macs)
            products = add(products, mul(tokens, p.out));
        return products;
    };
    f.q = projection(block.q(), f.tokens);
    f.k = projection(block.k(), f.kv_tokens);
    f.v = projection(block.v(), f.kv_tokens);
    f.projections = recipe.one_projection ? f.q : add(add(f.q, f.k), f.v);
    f.output = projection(block.o(), f.tokens);

    // Per head and batch element: (n x d_k)(d_k x m) for the scores, (n x m)(m x d_v) for the weighted sum.
    const Count heads = recipe.scores_without_heads ? 1 : block.h;
    const Count score_entries = mul(mul(heads, f.tokens), w.seq_len_kv.value_or(w.seq_len));
    f.scores = mul(f.per_product, mul(score_entries, block.d_k));
    f.weighted_sum = mul(f.per_product, mul(score_entries, block.d_v));
    f.softmax = w.softmax && !macs ? mul(3, score_entries) : 0;
    if (recipe.scores_only)
        f.weighted_sum = 0;
    if (recipe.no_attention_matmuls)
        f.scores = f.weighted_sum = f.softmax = 0;
    f.scores_full = f.scores, f.weighted_sum_full = f.weighted_sum, f.softmax_full = f.softmax;
    // A causal mask leaves each query the keys at or before it: half the n^2 scores, as Megatron-LM and Kaplan et
    // al. count them. Half of an odd count (MACs, or the softmax's 3 per score, over odd sizes) is not a count.
    if (w.causal ? !recipe.causal_mask_ignored : recipe.causal_mask_assumed) {
        for (Count* term : {&f.scores, &f.weighted_sum, &f.softmax}) {
            if (*term % 2 != 0)
                return fail(fmt::format("causal: true halves the attention's {} {}, an odd number: make seq_len "
                                        "even, or count FLOPs rather than MACs",
                                        *term, macs ? "MACs" : "FLOPs"));
            *term /= 2;
        }
    }

    f.linear = add(f.projections, f.output);
    f.attention = add(add(f.scores, f.softmax), f.weighted_sum);
    f.total = add(f.linear, f.attention);
    f.projections_dominate = f.linear > f.attention;
    if (recipe.dominance_by_n_vs_d) // the rule of thumb: projections grow as n d^2, attention as n^2 d
        f.dominant = w.seq_len < block.d_model ? 0 : (w.seq_len > block.d_model ? 1 : 2);
    else
        f.dominant = f.linear > f.attention ? 0 : (f.attention > f.linear ? 1 : 2);
    if (!math.ok())
        return std::unexpected(math.error());
    return f;
}

} // namespace headcount::solve

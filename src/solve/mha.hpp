#pragma once
// Parameter counts of a multi-head attention block, as PyTorch's nn.MultiheadAttention builds it and generalised
// to d_k != d_v, kdim/vdim and grouped-query attention. Pure arithmetic: no I/O, no formatting.

#include <spec/problem.hpp>
#include <util/error.hpp>

#include <array>

namespace headcount::solve {

/// One linear projection x -> xW + b, with W of shape (in x out).
struct Projection {
    char name = 'Q';     ///< Q, K, V or O
    Count in = 0;        ///< rows of W: the width of what is projected
    Count out = 0;       ///< columns of W: the width of the result
    Count weights = 0;   ///< in * out
    bool has_bias = false;
    Count bias = 0;      ///< out when has_bias, else 0
    Count total = 0;     ///< weights + bias
    Count per_unit = 0;  ///< in + (has_bias ? 1 : 0): what each output unit holds (second method)
    Count by_unit = 0;   ///< out * per_unit, computed independently of total and equal to it
};

/// How the biases are counted. Only per_projection is right; the others are ways students get it wrong.
enum class BiasRule {
    per_projection,   ///< each projection with a bias has one vector as wide as its output (correct)
    none,             ///< every bias left out, add_bias_kv's too
    single_vector,    ///< one d_model vector for the whole block
    every_projection, ///< a bias on every projection, whatever the spec says
    article_per_head, ///< h(3 d_k + d_v) for Q, K, V together plus d_model for O, as a well-read article has it
    article_whole,    ///< the article's whole h(3 d_k + d_v) + d_model added to any part with Q (its part (a) slip)
};

/// How a count is carried out. The default is the correct count; the grader's mistakes are recipes that differ
/// in one or two fields (see grade/mistakes.hpp), so a mistake is data, not code.
struct Recipe {
    bool omit_v = false;              ///< the value projection left out
    bool omit_o = false;              ///< the output projection (W_O and b_O) left out
    bool omit_o_bias = false;         ///< only b_O left out
    BiasRule bias_rule = BiasRule::per_projection;
    bool every_head_full = false;     ///< each head given the whole projection: everything times h
    bool single_head = false;         ///< one head's slices only: widths d_k / d_v instead of h d_k / h d_v
    bool o_per_head = false;          ///< a separate W_O (and b_O) for every head
    bool o_square = false;            ///< W_O taken as d_model x d_model whatever h d_v is
    bool kv_heads_as_h = false;       ///< grouped-query attention ignored: K and V with h heads
    bool omit_bias_kv = false;        ///< PyTorch's add_bias_kv vectors left out
    // Whole-model mistakes (kind: transformer); the fields above apply to every layer's attention.
    bool untie_head = false;          ///< a tied LM head's vocab x d_model weight counted again
    bool omit_norms = false;          ///< every normalisation layer left out
    bool omit_positions = false;      ///< learned position embeddings left out
    bool ffn_two_matrices = false;    ///< a gated FFN counted with two matrices, as a plain MLP
    // Compute mistakes (FLOP asks).
    bool macs_for_flops = false;      ///< multiply-adds counted once where FLOPs count them twice
    bool one_projection = false;      ///< only one of the Q, K, V projections counted
    bool no_attention_matmuls = false; ///< only the linear layers counted, as module-hook counters do
    bool scores_without_heads = false; ///< QK^T and AV counted as n^2 d_k, the x h forgotten
    bool dominance_by_n_vs_d = false;  ///< which compute term dominates judged by n against d_model alone
    // Shape mistakes.
    bool seq_before_heads = false;     ///< per-head tensors laid out (batch, query, heads, ...): no transpose
    bool head_width_d_model = false;   ///< per-head widths taken as d_model instead of d_k and d_v
    bool drop_batch = false;           ///< the batch axis left off every tensor
    // Memory mistakes.
    bool bits_for_bytes = false;       ///< a value's size taken in bits (32 for fp32) where bytes are asked
    bool values_for_bytes = false;     ///< the number of values given as the bytes (x bytes per value missing)
    bool kv_cache_keys_only = false;   ///< the KV cache counted with keys only (the factor 2 missing)
    // Whole-model compute mistakes (flops.model_forward, flops.training).
    bool model_attention_forgotten = false; ///< the layers' Q K^T and A V left out: only the weights counted
    bool backward_forgotten = false;   ///< a training step counted as one forward pass (2N where 6N)
    bool training_for_forward = false; ///< a forward pass counted as a whole training step (6N where 2N)
    bool parameter_rule = false;       ///< 2N (6N) per token with N all parameters, instead of the exact count

    bool operator==(const Recipe&) const = default;
};

/// Every quantity headcount can ask about one MHA block, with the resolved givens that produced them.
struct MhaSolution {
    spec::MhaGivens given; ///< as written in the spec
    Count d_model = 0, h = 0, d_k = 0, d_v = 0, kdim = 0, vdim = 0, n_kv = 0; ///< defaults resolved
    std::array<Projection, 4> projections; ///< Q, K, V, O in that order
    Count bias_k = 0, bias_v = 0;          ///< PyTorch's add_bias_kv vectors, 0 when absent
    Count qkv = 0, weights = 0, biases = 0, total = 0;
    Count total_by_unit = 0;               ///< the second method's total: sum of by_unit plus bias_k and bias_v
    bool square = false; ///< every projection is d_model x d_model (d_k = d_v = d_model/h, no kdim/vdim/GQA)
    int bias_vectors = 0; ///< how many of the four projections carry a bias
    Count closed_form = 0; ///< 4*d^2 + bias_vectors*d (+ 2d with add_bias_kv); meaningful only when square

    [[nodiscard]] const Projection& q() const { return projections[0]; }
    [[nodiscard]] const Projection& k() const { return projections[1]; }
    [[nodiscard]] const Projection& v() const { return projections[2]; }
    [[nodiscard]] const Projection& o() const { return projections[3]; }
};

/// Solves a validated spec's givens. Fails only when a count overflows 64 bits, or when the two methods
/// disagree (a bug, reported rather than hidden). A non-default recipe counts the way a mistaken student would;
/// the second-method check is then skipped, as the mistake breaks it on purpose.
Result<MhaSolution> solve_mha(const spec::MhaGivens& given, const Recipe& recipe = {});

} // namespace headcount::solve

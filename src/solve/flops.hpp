#pragma once
// The numbers of the compute of one attention block over a workload (batch x sequence), by matrix product: a
// product of (m x k) by (k x n) is m k n multiply-adds, counted as 2 m k n FLOPs (or m k n MACs). Read from the
// problem's computation (solve/solutions.hpp); the formulas are catalogue/flops.yaml's.

#include <solve/mha.hpp>

namespace headcount::solve {

/// The compute of one forward pass of the block.
struct FlopsSolution {
    Count tokens = 0;          ///< batch x seq_len (query positions)
    Count kv_tokens = 0;       ///< batch x seq_len_kv
    Count per_product = 2;     ///< 2 for FLOPs, 1 for MACs
    Count q = 0, k = 0, v = 0; ///< each projection's products
    Count projections = 0;     ///< Q + K + V (+ their bias additions when counted)
    Count scores = 0;          ///< QK^T over all heads
    Count softmax = 0;         ///< 3 per score when counted, else 0
    Count weighted_sum = 0;    ///< A V over all heads
    /// The three attention terms before a causal mask halves them (equal to them without one).
    Count scores_full = 0, softmax_full = 0, weighted_sum_full = 0;
    Count output = 0; ///< the output projection (+ its bias additions when counted)
    Count total = 0;
    Count linear = 0;                  ///< projections + output: what a module-hook counter sees
    Count attention = 0;               ///< scores + softmax + weighted_sum
    bool projections_dominate = false; ///< linear > attention (short sequences); else attention dominates
    /// Which term dominates: 0 the linear layers, 1 attention, 2 neither (equal). Without softmax or biases
    /// attention / linear = n / 2d for self-attention, so attention dominates from n > 2 d_model on.
    Count dominant = 0;
};

} // namespace headcount::solve

#pragma once
// The shapes of the tensors one multi-head attention block computes on a workload, in PyTorch's layout:
// (batch, seq, width) between the projections and (batch, heads, query, key or width) per head. Read from the
// problem's computation (solve/solutions.hpp); the tuples of formulas are catalogue/shapes.yaml's.

#include <solve/mha.hpp>

#include <array>
#include <string_view>
#include <vector>

namespace headcount::solve {

/// One tensor: its size along each axis, outermost first, and each axis's symbol ("b", "h", "n", "d_k", ...).
struct Tensor {
    std::vector<Count> shape;
    std::vector<std::string_view> axes;
    Count elements = 0; ///< the product of the axes
};

/// Every tensor of the block's forward pass.
struct ShapeSolution {
    Tensor input;                     ///< the query input x: (b, n, d_model)
    Tensor q, k, v;                   ///< after projection: (b, n, h d_k), (b, m, n_kv d_k), (b, m, n_kv d_v)
    Tensor q_heads, k_heads, v_heads; ///< after reshape and transpose: (b, h, n, d_k), (b, n_kv, m, d_k), ...
    Tensor scores;                    ///< Q K^T / sqrt(d_k): (b, h, n, m)
    Tensor weights;                   ///< softmax of the scores: (b, h, n, m)
    Tensor head_output;               ///< A V: (b, h, n, d_v)
    Tensor concat;                    ///< the heads side by side again: (b, n, h d_v)
    Tensor output;                    ///< after W_O: (b, n, d_model)
};

} // namespace headcount::solve

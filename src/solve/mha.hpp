#pragma once
// The numbers of a multi-head attention block's worked solution, as PyTorch's nn.MultiheadAttention builds it and
// generalised to d_k != d_v, kdim/vdim and grouped-query attention: read from the problem's computation
// (solve/solutions.hpp), whose formulas are catalogue/attention.yaml's.

#include <spec/problem.hpp>
#include <util/error.hpp>

#include <array>

namespace headcount::solve {

/// One linear projection x -> xW + b, with W of shape (in x out).
struct Projection {
    char name = 'Q';   ///< Q, K, V or O
    Count in = 0;      ///< rows of W: the width of what is projected
    Count out = 0;     ///< columns of W: the width of the result
    Count weights = 0; ///< in * out
    bool has_bias = false;
    Count bias = 0;     ///< out when has_bias, else 0
    Count total = 0;    ///< weights + bias
    Count per_unit = 0; ///< in + (has_bias ? 1 : 0): what each output unit holds (second method)
    Count by_unit = 0;  ///< out * per_unit, computed independently of total and equal to it
};

/// Every quantity headcount can ask about one MHA block, with the givens that produced them.
struct MhaSolution {
    spec::MhaGivens given;                                                    ///< as written in the spec
    Count d_model = 0, h = 0, d_k = 0, d_v = 0, kdim = 0, vdim = 0, n_kv = 0; ///< defaults resolved
    std::array<Projection, 4> projections;                                    ///< Q, K, V, O in that order
    Count bias_k = 0, bias_v = 0; ///< PyTorch's add_bias_kv vectors, 0 when absent
    Count qkv = 0, weights = 0, biases = 0, total = 0;
    Count total_by_unit = 0; ///< the second method's total: sum of by_unit plus bias_k and bias_v
    bool square = false;     ///< every projection is d_model x d_model (d_k = d_v = d_model/h, no kdim/vdim/GQA)
    int bias_vectors = 0;    ///< how many of the four projections carry a bias
    Count closed_form = 0;   ///< 4*d^2 + bias_vectors*d (+ 2d with add_bias_kv); meaningful only when square

    [[nodiscard]] const Projection& q() const { return projections[0]; }
    [[nodiscard]] const Projection& k() const { return projections[1]; }
    [[nodiscard]] const Projection& v() const { return projections[2]; }
    [[nodiscard]] const Projection& o() const { return projections[3]; }
};

} // namespace headcount::solve

#include <solve/shapes.hpp>

namespace headcount::solve {

namespace {

struct Axis {
    Count size;
    std::string_view symbol;
};

Tensor tensor(std::initializer_list<Axis> axes, const Recipe& recipe) {
    Tensor t;
    bool first = true;
    for (const Axis& a : axes) {
        if (!(first && recipe.drop_batch)) {
            t.shape.push_back(a.size);
            t.axes.push_back(a.symbol);
        }
        first = false;
    }
    return t;
}

/// A per-head tensor (b, heads, seq, last), or (b, seq, heads, last) when the transpose is forgotten.
Tensor per_head(Axis batch, Axis heads, Axis seq, Axis last, const Recipe& recipe) {
    return recipe.seq_before_heads ? tensor({batch, seq, heads, last}, recipe)
                                   : tensor({batch, heads, seq, last}, recipe);
}

} // namespace

Result<ShapeSolution> solve_shapes(const MhaSolution& s, const spec::Workload& w, const Recipe& recipe) {
    CheckedArithmetic math;
    auto width = [&](Count heads, const Axis& per_head) {
        return math.mul(heads, per_head.size, "an axis of a shape");
    };
    const Axis b{w.batch, "b"}, n{w.seq_len, "n"}, m{w.seq_len_kv.value_or(w.seq_len), w.seq_len_kv ? "m" : "n"};
    const Axis h{s.h, "h"}, kv{s.n_kv, s.n_kv == s.h ? "h" : "n_kv"};
    const Axis d{s.d_model, "d_model"};
    const Axis d_k{s.d_k, "d_k"}, d_v{s.d_v, "d_v"};
    // The mistake of taking d_model for a head's width shows in the per-head tensors.
    const Axis head_k = recipe.head_width_d_model ? d : d_k;
    const Axis head_v = recipe.head_width_d_model ? d : d_v;
    ShapeSolution out;
    out.input = tensor({b, n, d}, recipe);
    // Widths come from the givens, not the projections' counts, so a mistake about parameters leaves them be.
    const bool grouped = kv.symbol != "h";
    out.q = tensor({b, n, {width(s.h, d_k), "h·d_k"}}, recipe);
    out.k = tensor({b, m, {width(s.n_kv, d_k), grouped ? "n_kv·d_k" : "h·d_k"}}, recipe);
    out.v = tensor({b, m, {width(s.n_kv, d_v), grouped ? "n_kv·d_v" : "h·d_v"}}, recipe);
    out.q_heads = per_head(b, h, n, head_k, recipe);
    out.k_heads = per_head(b, kv, m, head_k, recipe);
    out.v_heads = per_head(b, kv, m, head_v, recipe);
    out.scores = per_head(b, h, n, m, recipe);
    out.weights = out.scores;
    out.head_output = per_head(b, h, n, head_v, recipe);
    out.concat = tensor({b, n, {width(s.h, d_v), "h·d_v"}}, recipe);
    out.output = tensor({b, n, d}, recipe);
    for (Tensor* t : {&out.input, &out.q, &out.k, &out.v, &out.q_heads, &out.k_heads, &out.v_heads, &out.scores,
                      &out.weights, &out.head_output, &out.concat, &out.output}) {
        t->elements = 1;
        for (Count axis : t->shape)
            t->elements = math.mul(t->elements, axis, "a tensor's elements");
    }
    if (!math.ok())
        return std::unexpected(math.error());
    return out;
}

} // namespace headcount::solve

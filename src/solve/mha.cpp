#include <solve/mha.hpp>

#include <fmt/format.h>

namespace headcount::solve {

namespace {

Projection project(CheckedArithmetic& math, char name, Count in, Count out, bool has_bias) {
    Projection p;
    p.name = name;
    p.in = in;
    p.out = out;
    p.weights = math.mul(in, out, fmt::format("the weight count of W_{}", name));
    p.has_bias = has_bias;
    p.bias = has_bias ? out : 0;
    p.total = math.add(p.weights, p.bias, fmt::format("the parameter count of the {} projection", name));
    p.per_unit = math.add(in, has_bias ? 1 : 0, "a projection's input width");
    p.by_unit = math.mul(out, p.per_unit, fmt::format("the parameter count of the {} projection", name));
    return p;
}

} // namespace

Result<MhaSolution> solve_mha(const spec::MhaGivens& given) {
    CheckedArithmetic math;
    MhaSolution s;
    s.given = given;
    s.d_model = given.d_model;
    s.h = given.h;
    // The reader guarantees h divides d_model whenever d_k or d_v is left to default.
    s.d_k = given.d_k.value_or(given.d_model / given.h);
    s.d_v = given.d_v.value_or(given.d_model / given.h);
    s.kdim = given.kdim.value_or(given.d_model);
    s.vdim = given.vdim.value_or(given.d_model);
    s.n_kv = given.n_kv_heads.value_or(given.h);

    const Count q_width = math.mul(s.h, s.d_k, "h * d_k");
    const Count k_width = math.mul(s.n_kv, s.d_k, "n_kv_heads * d_k");
    const Count v_width = math.mul(s.n_kv, s.d_v, "n_kv_heads * d_v");
    const Count concat_width = math.mul(s.h, s.d_v, "h * d_v");
    s.projections = {project(math, 'Q', s.d_model, q_width, given.bias.q),
                     project(math, 'K', s.kdim, k_width, given.bias.k),
                     project(math, 'V', s.vdim, v_width, given.bias.v),
                     project(math, 'O', concat_width, s.d_model, given.bias.o)};
    if (given.add_bias_kv) {
        // bias_k and bias_v are appended to the projected keys and values, so they have their widths.
        s.bias_k = k_width;
        s.bias_v = v_width;
    }

    for (const Projection& p : s.projections) {
        s.weights = math.add(s.weights, p.weights, "the total weight count");
        s.biases = math.add(s.biases, p.bias, "the total bias count");
        s.total_by_unit = math.add(s.total_by_unit, p.by_unit, "the total parameter count");
        s.bias_vectors += p.has_bias ? 1 : 0;
    }
    const Count extra = math.add(s.bias_k, s.bias_v, "bias_k + bias_v");
    s.biases = math.add(s.biases, extra, "the total bias count");
    s.total_by_unit = math.add(s.total_by_unit, extra, "the total parameter count");
    s.qkv = math.add(math.add(s.q().total, s.k().total, "the Q, K and V parameter count"), s.v().total,
                     "the Q, K and V parameter count");
    s.total = math.add(s.weights, s.biases, "the total parameter count");

    s.square = q_width == s.d_model && k_width == s.d_model && v_width == s.d_model && concat_width == s.d_model &&
               s.kdim == s.d_model && s.vdim == s.d_model;
    if (s.square) {
        const Count d_squared = math.mul(s.d_model, s.d_model, "d_model^2");
        s.closed_form = math.add(math.mul(4, d_squared, "4 d_model^2"),
                                 math.mul(s.bias_vectors + (given.add_bias_kv ? 2 : 0), s.d_model, "the bias count"),
                                 "the closed form");
    }
    if (!math.ok())
        return std::unexpected(math.error());
    if (s.total_by_unit != s.total || (s.square && s.closed_form != s.total))
        return fail(fmt::format("internal check failed: the component sum {} disagrees with the second method {}",
                                s.total, s.square ? s.closed_form : s.total_by_unit));
    return s;
}

} // namespace headcount::solve

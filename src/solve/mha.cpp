#include <solve/mha.hpp>

#include <fmt/format.h>

namespace headcount::solve {

namespace {

/// What an overflow in a projection names. Fixed strings, not formatted ones: a class's grading solves thousands of
/// mistaken counts, and a label is needed only when a count overflows.
struct Labels {
    std::string_view weights, bias, total;
};

constexpr Labels labels_of(char name) {
    switch (name) {
    case 'Q':
        return {"the weight count of W_Q", "the bias of the Q projection", "the parameter count of the Q projection"};
    case 'K':
        return {"the weight count of W_K", "the bias of the K projection", "the parameter count of the K projection"};
    case 'V':
        return {"the weight count of W_V", "the bias of the V projection", "the parameter count of the V projection"};
    default:
        return {"the weight count of W_O", "the bias of the O projection", "the parameter count of the O projection"};
    }
}

/// A projection of `in` x `out` weights, a bias of `bias_width` (0: none), all counted `copies` times.
Projection project(CheckedArithmetic& math, char name, Count in, Count out, Count bias_width, Count copies) {
    const Labels label = labels_of(name);
    Projection p;
    p.name = name;
    p.in = in;
    p.out = out;
    p.weights = math.mul(math.mul(in, out, label.weights), copies, label.weights);
    p.has_bias = bias_width > 0;
    p.bias = math.mul(bias_width, copies, label.bias);
    p.total = math.add(p.weights, p.bias, label.total);
    p.per_unit = math.add(in, p.has_bias ? 1 : 0, "a projection's input width");
    p.by_unit = math.mul(out, p.per_unit, label.total);
    return p;
}

/// The bias widths of Q, K, V, O under a recipe's bias rule, given the projections' output widths.
std::array<Count, 4> bias_widths(CheckedArithmetic& math, const MhaSolution& s, const Recipe& recipe,
                                 const std::array<Count, 4>& out) {
    const auto& flags = s.given.bias;
    std::array<Count, 4> width{flags.q ? out[0] : 0, flags.k ? out[1] : 0, flags.v ? out[2] : 0,
                               flags.o && !recipe.omit_o_bias ? out[3] : 0};
    switch (recipe.bias_rule) {
    case BiasRule::per_projection:
        break;
    case BiasRule::none:
        width = {0, 0, 0, 0};
        break;
    case BiasRule::every_projection:
        width = out;
        break;
    case BiasRule::single_vector:
        // Kept on Q, which no mistake leaves out, so "one vector" survives pairing with a missing W_O or W_V.
        width = {s.d_model, 0, 0, 0};
        break;
    case BiasRule::article_per_head:
        // h(3 d_k + d_v) for Q, K and V together, split as h d_k + h d_k + h (d_k + d_v); d_model for O.
        width = {math.mul(s.h, s.d_k, "h d_k"), math.mul(s.h, s.d_k, "h d_k"),
                 math.mul(s.h, math.add(s.d_k, s.d_v, "d_k + d_v"), "h (d_k + d_v)"), s.d_model};
        break;
    case BiasRule::article_whole: {
        // The same formula taken as one lump, on Q: a part about Q, K and V then gets all of it, b_O's d_model too.
        const Count per_head = math.add(math.mul(3, s.d_k, "3 d_k"), s.d_v, "3 d_k + d_v");
        width = {math.add(math.mul(s.h, per_head, "h (3 d_k + d_v)"), s.d_model, "h (3 d_k + d_v) + d_model"), 0, 0, 0};
        break;
    }
    }
    return width;
}

} // namespace

Result<MhaSolution> solve_mha(const spec::MhaGivens& given, const Recipe& recipe) {
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

    if (recipe.kv_heads_as_h)
        s.n_kv = s.h;

    const Count heads = recipe.single_head ? 1 : s.h;
    const Count kv_heads = recipe.single_head ? 1 : s.n_kv;
    const Count q_width = math.mul(heads, s.d_k, "h * d_k");
    const Count k_width = math.mul(kv_heads, s.d_k, "n_kv_heads * d_k");
    const Count v_width = math.mul(kv_heads, s.d_v, "n_kv_heads * d_v");
    const Count concat_width = recipe.o_square ? s.d_model : math.mul(heads, s.d_v, "h * d_v");
    const auto bias = bias_widths(math, s, recipe, {q_width, k_width, v_width, s.d_model});
    const Count copies = recipe.every_head_full ? s.h : 1;
    const Count o_copies = recipe.omit_o ? 0 : (recipe.o_per_head ? s.h : copies);
    s.projections = {project(math, 'Q', s.d_model, q_width, bias[0], copies),
                     project(math, 'K', s.kdim, k_width, bias[1], copies),
                     project(math, 'V', s.vdim, v_width, bias[2], recipe.omit_v ? 0 : copies),
                     project(math, 'O', concat_width, s.d_model, bias[3], o_copies)};
    if (given.add_bias_kv && !recipe.omit_bias_kv &&
        (recipe.bias_rule == BiasRule::per_projection || recipe.bias_rule == BiasRule::every_projection)) {
        // bias_k and bias_v are appended to the projected keys and values, so they have their widths.
        s.bias_k = k_width;
        s.bias_v = recipe.omit_v ? 0 : v_width;
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
    const bool checkable = recipe == Recipe{};
    if (checkable && (s.total_by_unit != s.total || (s.square && s.closed_form != s.total)))
        return fail(fmt::format("internal check failed: the component sum {} disagrees with the second method {}",
                                s.total, s.square ? s.closed_form : s.total_by_unit));
    return s;
}

} // namespace headcount::solve

#include <grade/mistakes.hpp>

#include <algorithm>
#include <array>
#include <optional>

namespace headcount::grade {

namespace {

using solve::BiasRule;
using solve::Recipe;

constexpr Recipe with(bool Recipe::*field) {
    Recipe r;
    r.*field = true;
    return r;
}

constexpr Recipe with_bias_rule(BiasRule rule) {
    Recipe r;
    r.bias_rule = rule;
    return r;
}

const std::array<Mistake, 35> k_catalogue{{
    {"missing_output_projection", "The output projection W_O (and its bias) was left out", with(&Recipe::omit_o)},
    {"missing_biases", "The bias vectors were left out", with_bias_rule(BiasRule::none)},
    {"missing_output_bias", "The output projection's bias b_O was left out", with(&Recipe::omit_o_bias)},
    {"bias_counted_once", "One bias vector was counted for the whole block", with_bias_rule(BiasRule::single_vector),
     0, true},
    {"heads_times_full_matrices", "Every head was given its own full-size projections (count × h)",
     with(&Recipe::every_head_full)},
    {"single_head_only", "Only one head's slices were counted (the × h is missing)", with(&Recipe::single_head)},
    {"output_projection_per_head", "A separate W_O was counted for every head", with(&Recipe::o_per_head)},
    {"output_projection_square", "W_O was taken as d_model × d_model instead of h·d_v × d_model",
     with(&Recipe::o_square)},
    {"bias_formula_per_head", "The biases were counted as h(3·d_k + d_v) + d_model",
     with_bias_rule(BiasRule::article_per_head), 0, true, "counts", with_bias_rule(BiasRule::article_whole)},
    {"missing_value_projection", "Only the query and key projections were counted (V is missing)",
     with(&Recipe::omit_v)},
    {"kv_heads_ignored", "K and V were counted with h heads instead of n_kv_heads", with(&Recipe::kv_heads_as_h), 0,
     false, "counts shapes bytes"},
    {"missing_bias_kv", "PyTorch's bias_k and bias_v (add_bias_kv) were left out", with(&Recipe::omit_bias_kv)},
    {"biases_added", "Biases were counted on projections that have none",
     with_bias_rule(BiasRule::every_projection)},
    {"tied_embeddings_counted_twice", "The tied LM head's weight was counted again", with(&Recipe::untie_head)},
    {"missing_layernorm", "The normalisation layers were left out", with(&Recipe::omit_norms)},
    {"missing_position_embeddings", "The learned position embeddings were left out", with(&Recipe::omit_positions)},
    {"gated_ffn_two_matrices", "The gated FFN was counted with two matrices instead of three",
     with(&Recipe::ffn_two_matrices)},
    {"macs_not_flops", "Multiply-adds were counted once (MACs) where FLOPs count them twice",
     with(&Recipe::macs_for_flops)},
    {"one_projection_only", "Only one of the Q, K, V projections was counted", with(&Recipe::one_projection)},
    {"missing_attention_matmuls", "Only the linear layers were counted, not QKᵀ and AV",
     with(&Recipe::no_attention_matmuls)},
    {"n_squared_d_missed_heads_factor", "QKᵀ and AV were counted for one head (the × h is missing)",
     with(&Recipe::scores_without_heads)},
    {"n_versus_d_rule_of_thumb", "The rule of thumb n > d was used instead of comparing the two counts",
     with(&Recipe::dominance_by_n_vs_d), 0, false, "choices"},
    {"heads_seq_axes_swapped", "The heads and sequence axes are swapped (the transpose after the reshape is missing)",
     with(&Recipe::seq_before_heads), 0, false, "shapes"},
    {"d_model_for_d_k", "d_model was used where a head's width d_k (or d_v) belongs", with(&Recipe::head_width_d_model),
     0, false, "shapes"},
    {"batch_axis_dropped", "The batch axis was left out", with(&Recipe::drop_batch), 0, false, "shapes"},
    {"bits_for_bytes", "A value's size was taken in bits where bytes are asked (8 times too many)",
     with(&Recipe::bits_for_bytes), 0, false, "bytes"},
    {"bytes_per_value_missing", "The number of values was given, not bytes (× bytes per value is missing)",
     with(&Recipe::values_for_bytes), 0, false, "bytes"},
    {"kv_cache_missing_factor_2", "Only the keys were cached: the values' half of the KV cache (the factor 2) is missing",
     with(&Recipe::kv_cache_keys_only), 0, false, "bytes"},
    {"attention_n_squared_forgotten", "Attention's n² term was left out: only the products with weight matrices "
     "were counted", with(&Recipe::model_attention_forgotten)},
    {"backward_pass_forgotten", "A training step was counted as one forward pass (2N where 6N): the backward pass "
     "is missing", with(&Recipe::backward_forgotten)},
    {"training_for_forward", "A whole training step (6N) was counted where one forward pass (2N) was asked",
     with(&Recipe::training_for_forward)},
    {"parameter_rule_not_exact", "The 2N (or 6N) rule of thumb was given where the exact count was asked",
     with(&Recipe::parameter_rule)},
    {k_rounded, "The right value, rounded", Recipe{}, 0.5},
    {k_unit_base, "Decimal and binary units were mixed up (MB is 10^6 bytes, MiB is 2^20)", Recipe{}, 0.5},
    {k_other_quantity, "This is the answer to another question about the same problem", Recipe{}, 0, false,
     "counts shapes bytes"},
}};

/// The part of the count a recipe field changes. Two mistakes about the same part cannot both be made (a
/// count cannot be both per head and single-head), so only mistakes about different parts pair up.
enum class Aspect {
    heads, value, output, output_shape, output_bias, kv_heads, bias_kv, head, norms, positions, ffn,
    count_unit, flop_projections, flop_attention, dominance, axes_order, head_width, batch, value_size, kv_cache,
    model_attention, pass, rule
};

struct Field {
    bool Recipe::*flag;
    Aspect aspect;
};

constexpr std::array<Field, 28> k_fields{{
    {&Recipe::every_head_full, Aspect::heads},
    {&Recipe::single_head, Aspect::heads},
    {&Recipe::o_per_head, Aspect::heads},
    {&Recipe::omit_v, Aspect::value},
    {&Recipe::omit_o, Aspect::output},
    {&Recipe::o_square, Aspect::output_shape},
    {&Recipe::omit_o_bias, Aspect::output_bias},
    {&Recipe::kv_heads_as_h, Aspect::kv_heads},
    {&Recipe::omit_bias_kv, Aspect::bias_kv},
    {&Recipe::untie_head, Aspect::head},
    {&Recipe::omit_norms, Aspect::norms},
    {&Recipe::omit_positions, Aspect::positions},
    {&Recipe::ffn_two_matrices, Aspect::ffn},
    {&Recipe::macs_for_flops, Aspect::count_unit},
    {&Recipe::one_projection, Aspect::flop_projections},
    {&Recipe::no_attention_matmuls, Aspect::flop_attention},
    {&Recipe::scores_without_heads, Aspect::flop_attention},
    {&Recipe::dominance_by_n_vs_d, Aspect::dominance},
    {&Recipe::seq_before_heads, Aspect::axes_order},
    {&Recipe::head_width_d_model, Aspect::head_width},
    {&Recipe::drop_batch, Aspect::batch},
    {&Recipe::bits_for_bytes, Aspect::value_size},
    {&Recipe::values_for_bytes, Aspect::value_size},
    {&Recipe::kv_cache_keys_only, Aspect::kv_cache},
    {&Recipe::model_attention_forgotten, Aspect::model_attention},
    {&Recipe::backward_forgotten, Aspect::pass},
    {&Recipe::training_for_forward, Aspect::pass},
    {&Recipe::parameter_rule, Aspect::rule},
}};

/// The parts of the count a recipe changes. The bias rule and a missing b_O are both about biases.
std::vector<Aspect> aspects_of(const Recipe& r) {
    const Recipe none;
    std::vector<Aspect> out;
    for (const Field& f : k_fields)
        if (r.*(f.flag) != none.*(f.flag))
            out.push_back(f.aspect);
    if (r.bias_rule != none.bias_rule)
        out.push_back(Aspect::output_bias);
    return out;
}

/// The two recipes made together, or nullopt when they change a common part of the count.
std::optional<Recipe> combine(const Recipe& a, const Recipe& b) {
    const std::vector<Aspect> of_a = aspects_of(a);
    for (Aspect aspect : aspects_of(b))
        if (std::find(of_a.begin(), of_a.end(), aspect) != of_a.end())
            return std::nullopt;
    const Recipe none;
    Recipe out = a;
    for (const Field& f : k_fields)
        if (b.*(f.flag) != none.*(f.flag))
            out.*(f.flag) = b.*(f.flag);
    if (b.bias_rule != none.bias_rule)
        out.bias_rule = b.bias_rule;
    return out;
}

/// Whether the mistake's feedback speaks to this ask's type of answer.
bool explains(const Mistake& mistake, const solve::Ask& ask) {
    std::string_view type = ask.in_bytes() ? "bytes" : "counts";
    if (ask.type() == solve::Ask::Type::shape)
        type = "shapes";
    else if (ask.type() == solve::Ask::Type::choice)
        type = "choices";
    return mistake.answers.find(type) != std::string_view::npos;
}

} // namespace

std::span<const Mistake> mistake_catalogue() { return k_catalogue; }

std::optional<solve::Answer> value_under(const spec::Problem& problem, const solve::Ask& ask, const Recipe& recipe) {
    auto solved = solve::solve_problem(problem, recipe);
    if (!solved)
        return std::nullopt;
    return ask.evaluate(*solved);
}

const Mistake* find_mistake(std::string_view id) {
    const auto it = std::find_if(k_catalogue.begin(), k_catalogue.end(), [&](const Mistake& m) { return m.id == id; });
    return it == k_catalogue.end() ? nullptr : &*it;
}

std::vector<std::string_view> mistake_ids() {
    std::vector<std::string_view> ids;
    for (const Mistake& m : k_catalogue)
        ids.push_back(m.id);
    return ids;
}

std::vector<Explanation> other_quantities(const solve::SolvedProblem& solved, const solve::Ask& ask) {
    std::vector<Explanation> out;
    const Mistake* other = find_mistake(k_other_quantity);
    const solve::Answer right = ask.evaluate(solved);
    for (const solve::Ask& candidate : solve::asks()) {
        if (&candidate == &ask || candidate.unit != ask.unit || candidate.type() != ask.type() ||
            solve::cannot_ask(candidate, solved.problem))
            continue;
        const solve::Answer value = candidate.evaluate(solved);
        if (value == right)
            continue;
        const auto same = std::find_if(out.begin(), out.end(), [&](const Explanation& e) { return e.value == value; });
        if (same != out.end())
            same->others.push_back(&candidate);
        else
            out.push_back({{other}, value, {&candidate}});
    }
    return out;
}

std::vector<Explanation> explanations(const spec::Problem& problem, const solve::Ask& ask,
                                      const solve::Answer& right_answer) {
    std::vector<Explanation> singles;
    std::vector<Recipe> recipes; // singles[i] counted this way
    for (const Mistake& mistake : k_catalogue) {
        if (mistake.recipe == Recipe{} || !explains(mistake, ask) || (mistake.whole_block && ask.projections.size() < 2))
            continue;
        const std::size_t first = singles.size();
        for (const auto& recipe : {std::optional<Recipe>(mistake.recipe), mistake.alternative}) {
            if (!recipe)
                continue;
            const auto value = value_under(problem, ask, *recipe);
            const bool seen = std::any_of(singles.begin() + static_cast<std::ptrdiff_t>(first), singles.end(),
                                          [&](const Explanation& e) { return value && e.value == *value; });
            if (value && *value != right_answer && !seen) {
                singles.push_back({{&mistake}, *value, {}});
                recipes.push_back(*recipe);
            }
        }
    }
    std::vector<Explanation> out = singles;
    for (std::size_t i = 0; i < singles.size(); ++i) {
        for (std::size_t j = i + 1; j < singles.size(); ++j) {
            const Mistake& a = *singles[i].mistakes[0];
            const Mistake& b = *singles[j].mistakes[0];
            if (&a == &b)
                continue;
            const auto recipe = combine(recipes[i], recipes[j]);
            if (!recipe)
                continue;
            const auto value = value_under(problem, ask, *recipe);
            if (value && *value != right_answer && *value != singles[i].value && *value != singles[j].value &&
                std::none_of(out.begin() + static_cast<std::ptrdiff_t>(singles.size()), out.end(),
                             [&](const Explanation& e) {
                                 return e.value == *value && e.mistakes[0] == &a && e.mistakes[1] == &b;
                             }))
                out.push_back({{&a, &b}, *value, {}});
        }
    }
    return out;
}

} // namespace headcount::grade

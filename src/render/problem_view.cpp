// The data a worked solution's templates see for one solved problem: every number the solver derived, formatted
// (thousands separators, units, words), next to the facts it shares with the hint view (render/facts.hpp). Just
// over 400 lines: one view function per solution family (block, shapes, FLOPs, memory, model), each short.

#include <render/problem_view.hpp>

#include <formula/units.hpp>

#include <render/answers.hpp>
#include <render/facts.hpp>
#include <render/hints.hpp>
#include <render/quantity_view.hpp>

#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace headcount::render {

namespace {

/// A spec's own given as a sheet states it: as written, and in its unit's base beside it when it has a unit, which
/// is the number the worked solution puts in its formulas (3.35 TB/s = 3,350,000,000,000 B/s).
std::string given_value_text(const spec::Value& value) {
    if (value.unit.empty())
        return value.value.get_den() == 1 ? exact_text(value.value) : value.text;
    const std::optional<formula::UnitInfo> unit = formula::known_unit(value.unit);
    if (!unit || value.scale == 1)
        return value.text;
    using D = formula::UnitInfo::Dimension;
    const std::string_view base = unit->dimension == D::bytes   ? (value.unit.ends_with("/s") ? "B/s" : "bytes")
                                  : unit->dimension == D::time  ? "s"
                                  : unit->dimension == D::count ? "FLOP/s"
                                                                : "";
    return fmt::format("{} = {}{}{}", value.text, exact_text(value.value), base.empty() ? "" : " ", base);
}

std::string n(Count value) { return with_thousands(value); }

View projection_view(const solve::Projection& p, const solve::MhaSolution& s) {
    const bool grouped = s.n_kv != s.h;
    std::string in_symbol, out_symbol, role;
    switch (p.name) {
    case 'Q':
        role = "query", in_symbol = "d_{model}", out_symbol = "h \\cdot d_k";
        break;
    case 'K':
        role = "key", in_symbol = s.given.kdim ? "\\text{kdim}" : "d_{model}";
        out_symbol = grouped ? "n_{kv} \\cdot d_k" : "h \\cdot d_k";
        break;
    case 'V':
        role = "value", in_symbol = s.given.vdim ? "\\text{vdim}" : "d_{model}";
        out_symbol = grouped ? "n_{kv} \\cdot d_v" : "h \\cdot d_v";
        break;
    default:
        role = "output", in_symbol = "h \\cdot d_v", out_symbol = "d_{model}";
    }
    return View{{"name", std::string(1, p.name)},
                {"role", role},
                {"in", n(p.in)},
                {"out", n(p.out)},
                {"in_tex", plain_number(p.in)}, // TeX would space out a thousands comma
                {"out_tex", plain_number(p.out)},
                {"in_symbol", in_symbol},
                {"out_symbol", out_symbol},
                {"weights", n(p.weights)},
                {"has_bias", p.has_bias},
                {"bias", n(p.bias)},
                {"total", n(p.total)},
                {"per_unit", n(p.per_unit)},
                {"by_unit", n(p.by_unit)}};
}

View given_rows(const solve::MhaSolution& s) {
    View rows = View::array();
    // `stated`: the spec gives this value, so a problem sheet may show it (a default would give d_k away).
    auto row = [&](std::string symbol, std::string meaning, std::string value, std::string note, bool stated = true) {
        rows.push_back(
            View{{"symbol", symbol}, {"meaning", meaning}, {"value", value}, {"note", note}, {"stated", stated}});
    };
    const auto& g = s.given;
    row("$d_{model}$", "model width (input and output of the block)", n(s.d_model), "given");
    row("$h$", "number of attention (query) heads", n(s.h), "given");
    row("$d_k$", "query/key width per head", n(s.d_k),
        g.d_k ? "given" : fmt::format("default $d_{{model}} / h = {} / {}$", s.d_model, s.h), g.d_k.has_value());
    row("$d_v$", "value width per head", n(s.d_v),
        g.d_v ? "given" : fmt::format("default $d_{{model}} / h = {} / {}$", s.d_model, s.h), g.d_v.has_value());
    if (g.kdim)
        row("kdim", "width of the key input", n(s.kdim), "given (cross-attention)");
    if (g.vdim)
        row("vdim", "width of the value input", n(s.vdim), "given (cross-attention)");
    if (g.n_kv_heads)
        row("$n_{kv}$", "key/value heads", n(s.n_kv),
            s.n_kv == 1 ? "given: multi-query attention" : "given: grouped-query attention");
    std::string with_bias;
    for (const solve::Projection& p : s.projections)
        if (p.has_bias)
            with_bias += (with_bias.empty() ? "" : ", ") + std::string(1, p.name);
    row("biases", "projections with a bias vector", with_bias.empty() ? "none" : with_bias,
        g.bias_given_per_projection ? "given per projection" : "given");
    if (g.add_bias_kv)
        row("add_bias_kv", "extra learned key and value vectors", "yes", "given (PyTorch)");
    return rows;
}

View model_view(const solve::ModelSolution& s, const spec::ModelGivens& m) {
    View breakdown = View::array();
    for (const solve::Component& c : s.breakdown)
        breakdown.push_back(View{
            {"name", c.name}, {"shape", c.shape}, {"copies", n(c.copies)}, {"each", n(c.each)}, {"total", n(c.total)}});
    View view{{"encoder_decoder", m.encoder_layers > 0},
              {"decoder_layers", n(m.decoder_layers)},
              {"ffn_bias", m.ffn_bias},
              {"has_types", m.type_vocab > 0},
              {"embedding", n(s.embedding)},
              {"token_embedding", n(s.token_embedding)},
              {"position_embedding", n(s.position_embedding)},
              {"type_embedding", n(s.type_embedding)},
              {"norm", n(s.norm)},
              {"ffn", n(s.ffn)},
              {"ffn_up", n(s.ffn_up)},
              {"ffn_down", n(s.ffn_down)},
              {"ffn_biases", n(s.ffn_biases)},
              {"expert", n(s.expert)},
              {"router", n(s.router)},
              {"attention", n(s.attention.total)},
              {"layer", n(s.layer)},
              {"decoder_layer", n(s.decoder_layer)},
              {"norms", n(s.norms)},
              {"head", n(s.head)},
              {"layers_total", n(s.layers_total)},
              {"final_norms", n(s.final_norms)},
              {"total", n(s.total)},
              {"total_in_words", in_words(s.total)},
              {"has_pooler", m.pooler},
              {"has_final_norm", s.final_norms > 0},
              {"breakdown", breakdown}};
    // The facts go in last: update() copies them, and they are the small object.
    view.update(model_facts(m));
    return view;
}

void add_model_rows(View& rows, const spec::ModelGivens& m) {
    using M = spec::ModelGivens;
    auto row = [&](std::string symbol, std::string meaning, std::string value) {
        rows.push_back(
            View{{"symbol", symbol}, {"meaning", meaning}, {"value", value}, {"note", "given"}, {"stated", true}});
    };
    row("$d_{ff}$", "feed-forward width", n(m.d_ff));
    if (m.layers > 0)
        row("layers", "layers in the stack", n(m.layers));
    else {
        row("encoder layers", "layers in the encoder", n(m.encoder_layers));
        row("decoder layers", "layers in the decoder (with cross-attention)", n(m.decoder_layers));
    }
    if (m.vocab > 0)
        row("vocab", "token embedding rows", n(m.vocab));
    if (m.max_positions > 0)
        row("max positions", "learned position embedding rows", n(m.max_positions));
    if (m.type_vocab > 0)
        row("type vocab", "token type embedding rows", n(m.type_vocab));
    row("norm", "normalisation",
        m.norm == M::Norm::layernorm ? (m.norm_bias ? "LayerNorm" : "LayerNorm, no bias")
        : m.norm == M::Norm::none    ? "none"
                                     : "RMSNorm");
    if (m.experts > 0)
        row("experts", "mixture of experts: FFNs per layer, and how many each token is routed to",
            fmt::format("{} experts, top {}", n(m.experts), n(m.top_k)));
    row("FFN", "feed-forward network",
        std::string(m.ffn == M::Ffn::gated ? "gated (3 matrices)" : "MLP (2 matrices)") +
            (m.ffn_bias ? ", biases" : ", no biases"));
    std::string extras;
    for (auto [on, name] :
         {std::pair{m.embedding_norm, "embedding norm"}, {m.final_norm, "final norm"}, {m.pooler, "pooler"}})
        if (on)
            extras += (extras.empty() ? "" : ", ") + std::string(name);
    if (m.lm_head != M::Head::none)
        extras += (extras.empty() ? "" : ", ") + std::string(m.lm_head == M::Head::mlm ? "MLM head" : "LM head") +
                  (m.tied_embeddings ? " (tied to the token embedding)" : " (untied)");
    if (!extras.empty())
        row("also", "other parts", extras);
}

View flops_view(const solve::FlopsSolution& f, const spec::Workload& w, const solve::MhaSolution& s) {
    View view{{"per_product", n(f.per_product)},
              {"softmax_counted", w.softmax},
              {"biases_counted", w.biases},
              {"tokens", n(f.tokens)},
              {"kv_tokens", n(f.kv_tokens)},
              {"q", n(f.q)},
              {"k", n(f.k)},
              {"v", n(f.v)},
              {"projections", n(f.projections)},
              {"scores", n(f.scores)},
              {"softmax", n(f.softmax)},
              {"weighted_sum", n(f.weighted_sum)},
              {"causal", w.causal},
              {"scores_full", n(f.scores_full)},
              {"softmax_full", n(f.softmax_full)},
              {"weighted_sum_full", n(f.weighted_sum_full)},
              {"output", n(f.output)},
              {"linear", n(f.linear)},
              {"attention", n(f.attention)},
              {"total", n(f.total)},
              {"total_in_words", in_words(f.total)},
              {"projections_dominate", f.projections_dominate},
              {"attention_dominates", f.attention > f.linear},
              {"terms_equal", f.attention == f.linear},
              {"heads", n(s.h)}};
    view.update(workload_facts(w, s));
    return view;
}

View model_flops_view(const solve::ModelFlopsSolution& f, const spec::ModelGivens& m) {
    const bool head = m.lm_head != spec::ModelGivens::Head::none;
    return View{{"tokens", n(f.tokens)},
                {"layers", n(f.layers)},
                {"layer_linear", n(f.layer_linear)},
                {"layer_ffn", n(f.layer_ffn)},
                {"layer_attention", n(f.layer_attention)},
                {"linear", n(f.linear)},
                {"has_head", head},
                {"tied_head", head && m.tied_embeddings},
                {"head", n(f.head)},
                {"forward", n(f.forward)},
                {"forward_in_words", in_words(f.forward)},
                {"attention", n(f.attention)},
                {"attention_share", percent_text(f.attention, f.forward)},
                {"per_token", n(f.per_token)},
                {"per_sequence", n(f.per_sequence)},
                {"backward", n(f.backward)},
                {"training", n(f.training)},
                {"training_in_words", in_words(f.training)},
                {"training_per_token", n(f.training_per_token)},
                {"parameters", n(f.parameters)},
                {"rule_per_token", n(f.rule_per_token)},
                {"rule_forward", n(f.rule_forward)},
                {"rule_training", n(f.rule_training)},
                {"rule_share", percent_text(f.rule_forward, f.forward)},
                {"rule_short", f.rule_gap > 0},
                {"rule_gap", n(f.rule_gap > 0 ? f.rule_gap : -f.rule_gap)}};
}

View tensor_view(const solve::Tensor& t) {
    std::string axes;
    for (std::string_view a : t.axes)
        axes += (axes.empty() ? "" : ", ") + std::string(a);
    std::string shape;
    for (Count size : t.shape)
        shape += (shape.empty() ? "" : ", ") + plain_number(size);
    return View{{"shape", "(" + shape + ")"},
                {"axes", "(" + axes + ")"},
                {"rank", t.shape.size()},
                {"elements", n(t.elements)}};
}

View shapes_view(const solve::ShapeSolution& s) {
    return View{{"input", tensor_view(s.input)},
                {"q", tensor_view(s.q)},
                {"k", tensor_view(s.k)},
                {"v", tensor_view(s.v)},
                {"q_heads", tensor_view(s.q_heads)},
                {"k_heads", tensor_view(s.k_heads)},
                {"v_heads", tensor_view(s.v_heads)},
                {"scores", tensor_view(s.scores)},
                {"weights", tensor_view(s.weights)},
                {"head_output", tensor_view(s.head_output)},
                {"concat", tensor_view(s.concat)},
                {"output", tensor_view(s.output)}};
}

View memory_view(const solve::MemorySolution& m, const spec::Precision& p, const solve::MhaSolution& s) {
    View view{{"weights_values", n(m.weights_values)},
              {"attention_weights", n(m.attention_weights)},
              {"attention_weights_units", byte_units(m.attention_weights)},
              {"q_values", n(m.q_values)},
              {"k_values", n(m.k_values)},
              {"v_values", n(m.v_values)},
              {"qkv_values", n(m.qkv_values)},
              {"qkv_activations", n(m.qkv_activations)},
              {"qkv_activations_units", byte_units(m.qkv_activations)},
              {"kv_layers", n(m.kv_layers)},
              {"kv_tokens", n(m.kv_tokens)},
              {"kv_per_token", n(m.kv_per_token)},
              {"kv_same_width", s.d_k == s.d_v},
              {"kv_values", n(m.kv_values)},
              {"kv_cache", n(m.kv_cache)},
              {"kv_cache_units", byte_units(m.kv_cache)},
              {"parameter_values", n(m.parameter_values)},
              {"parameters", n(m.parameters)},
              {"parameters_units", byte_units(m.parameters)}};
    view.update(precision_facts(p));
    return view;
}

/// How the block's count scales: {"known", "d_model", "total", "ratio"} for twice the width.
View scaling_view(const solve::SolvedProblem& solved) {
    if (!solved.doubled_width)
        return View{{"known", false}, {"d_model", ""}, {"total", ""}, {"ratio", ""}};
    const solve::MhaSolution& twice = *solved.doubled_width;
    return View{{"known", true},
                {"d_model", n(twice.d_model)},
                {"total", n(twice.total)},
                {"ratio", ratio_text(twice.total, solved.mha.total, 3)}};
}

} // namespace

View problem_view(const solve::SolvedProblem& solved) {
    const solve::MhaSolution& s = solved.mha;
    View projections = View::array();
    for (const solve::Projection& p : s.projections)
        projections.push_back(projection_view(p, s));
    View qkv_projections = View::array();
    for (int i = 0; i < 3; ++i)
        qkv_projections.push_back(projections[i]);

    const bool architecture = solved.problem.kind != "quantities";
    View given = architecture ? given_rows(s) : View::array();
    if (solved.problem.model)
        add_model_rows(given, *solved.problem.model);
    if (const auto& w = solved.problem.workload) {
        given.push_back(View{
            {"symbol", "$b$"}, {"meaning", "batch size"}, {"value", n(w->batch)}, {"note", "given"}, {"stated", true}});
        given.push_back(View{{"symbol", "$n$"},
                             {"meaning", "sequence length (query positions)"},
                             {"value", n(w->seq_len)},
                             {"note", "given"},
                             {"stated", true}});
        if (w->causal)
            given.push_back(View{{"symbol", "`causal`"},
                                 {"meaning", "attention mask"},
                                 {"value", "causal: each position attends to itself and the positions before it"},
                                 {"note", "given"},
                                 {"stated", true}});
        if (w->seq_len_kv)
            given.push_back(View{{"symbol", "$m$"},
                                 {"meaning", "key/value sequence length"},
                                 {"value", n(*w->seq_len_kv)},
                                 {"note", "given"},
                                 {"stated", true}});
    }
    if (const auto& p = solved.problem.precision)
        given.push_back(View{
            {"symbol", "dtype"},
            {"meaning", "number format of every value"},
            {"value", p->bits < 8
                          ? fmt::format("{} ({} bits per value, two to a byte)", p->dtype, p->bits)
                          : fmt::format("{} ({} byte{} per value)", p->dtype, p->bits / 8, p->bits == 8 ? "" : "s")},
            {"note", "given"},
            {"stated", true}});
    for (const auto& [key, words] : solved.problem.setup)
        given.push_back(View{{"symbol", fmt::format("`{}`", key)},
                             {"meaning", "training setup"},
                             {"value", words},
                             {"note", "given"},
                             {"stated", true}});
    // The spec's own values, for its formulas, exactly as written.
    // A long name (interconnect_bandwidth) as a formula is one unbreakable box wider than a phone's first column
    // leaves: in code, which breaks where it must, it lets the Value column stay on the screen.
    constexpr std::size_t k_longest_typeset_name = 19;
    for (const auto& [name, value] : solved.problem.values)
        given.push_back(View{
            {"symbol",
             name.size() > k_longest_typeset_name ? fmt::format("`{}`", name) : fmt::format("${}$", name_tex(name))},
            {"meaning", solved.problem.meanings.contains(name) ? solved.problem.meanings.find(name)->second : name},
            {"value", given_value_text(value)},
            {"note", "given"},
            {"stated", true}});
    View view{
        {"id", solved.problem.id},
        {"title", solved.problem.title},
        // The paragraph on projections serves the built-in asks; a problem of formulas alone has no use for it.
        {"has_architecture",
         architecture && std::any_of(solved.parts.begin(), solved.parts.end(),
                                     [](const solve::SolvedPart& p) { return p.ask->kind != "defined"; })},
        {"given", given},
        {"has_model_preset", !solved.problem.model_preset.empty()},
        {"model_preset", solved.problem.model_preset},
        {"model_title", solved.problem.model_title},
        {"is_model", solved.model.has_value()},
        // Without the block's FLOPs (they passed 10^36, and no part asks for them) the workload's facts remain,
        // which the shape and memory templates read.
        {"flops", solved.flops              ? flops_view(*solved.flops, *solved.problem.workload, s)
                  : solved.problem.workload ? workload_facts(*solved.problem.workload, s)
                                            : View::object()},
        // A block has no model; the empty breakdown lets a template name it in a section that never renders.
        {"model", solved.model ? model_view(*solved.model, *solved.problem.model)
                               : View{{"breakdown", View::array()}, {"total", ""}}},
        {"shapes", solved.shapes ? shapes_view(*solved.shapes) : View::object()},
        {"memory", solved.memory ? memory_view(*solved.memory, *solved.problem.precision, s) : View::object()},
        {"model_flops",
         solved.model_flops ? model_flops_view(*solved.model_flops, *solved.problem.model) : View::object()},
        {"d_k", n(s.d_k)},
        {"d_v", n(s.d_v)},
        {"d_k_default", !s.given.d_k},
        {"d_v_default", !s.given.d_v},
        {"some_bias", s.bias_vectors > 0 && s.bias_vectors < 4},
        {"qkv_biases", bias_names(s, "QKV")},
        {"qkv_all_bias", s.q().has_bias && s.k().has_bias && s.v().has_bias},
        // A section over a string renders even when it is empty (Mustache as kainjow renders it): a flag says.
        {"qkv_any_bias", s.q().has_bias || s.k().has_bias || s.v().has_bias},
        // Keys and values come from a second input S under cross-attention (kdim/vdim, or another length).
        {"cross_attention",
         s.given.kdim || s.given.vdim || (solved.problem.workload && solved.problem.workload->seq_len_kv)},
        {"bias_vectors", n(s.bias_vectors)},
        {"bias_k", n(s.bias_k)},
        {"bias_v", n(s.bias_v)},
        {"projections", projections},
        {"qkv_projections", qkv_projections},
        {"q", projections[0]},
        {"k", projections[1]},
        {"v", projections[2]},
        {"o", projections[3]},
        {"qkv", n(s.qkv)},
        {"weights", n(s.weights)},
        {"biases", n(s.biases)},
        {"total", n(s.total)},
        {"total_by_unit", n(s.total_by_unit)},
        {"weights_share", percent_text(s.weights, s.total)},
        {"biases_share", percent_text(s.biases, s.total)},
        {"scaling", scaling_view(solved)},
        // Numbers inside TeX, where a thousands comma would be typeset as a list separator.
        {"tex", View{{"d_model", plain_number(s.d_model)},
                     {"h", plain_number(s.h)},
                     {"d_k", plain_number(s.d_k)},
                     {"d_v", plain_number(s.d_v)},
                     {"hd_v", plain_number(s.o().in)}}},
        {"closed_form", n(s.closed_form)},
    };
    view.update(block_facts(s));
    return view;
}

} // namespace headcount::render

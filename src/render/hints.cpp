#include <render/hints.hpp>

#include <util/text.hpp>

#include <fmt/format.h>

namespace headcount::render {

namespace {

std::string n(Count value) { return with_thousands(value); }

View projection_names(const solve::MhaSolution& s) {
    View out = View::array();
    for (const solve::Projection& p : s.projections)
        out.push_back(View{{"name", std::string(1, p.name)}, {"has_bias", p.has_bias}});
    return out;
}

View model_hints(const solve::SolvedProblem& solved) {
    if (!solved.problem.model)
        return View::object();
    using M = spec::ModelGivens;
    const M& m = *solved.problem.model;
    const bool layernorm = m.norm == M::Norm::layernorm;
    return View{{"d_ff", n(m.d_ff)},
                {"layers", n(m.encoder_layers > 0 ? m.encoder_layers : m.layers)},
                {"vocab", n(m.vocab)},
                {"max_positions", n(m.max_positions)},
                {"layernorm", layernorm},
                {"norm_name", layernorm ? "LayerNorm" : "RMSNorm"},
                {"norm_has_bias", layernorm && m.norm_bias},
                {"gated", m.ffn == M::Ffn::gated},
                {"tied", m.tied_embeddings},
                {"has_head", m.lm_head != M::Head::none},
                {"has_positions", m.max_positions > 0},
                {"embedding_norm", m.embedding_norm},
                {"final_norm", m.final_norm}};
}

View workload_hints(const solve::SolvedProblem& solved) {
    const auto& w = solved.problem.workload;
    if (!w)
        return View::object();
    const solve::MhaSolution& s = solved.mha;
    return View{{"batch", n(w->batch)},
                {"one_sequence", w->batch == 1},
                {"seq_len", n(w->seq_len)},
                {"seq_len_kv", n(w->seq_len_kv.value_or(w->seq_len))},
                {"cross", w->seq_len_kv.has_value()},
                {"macs", w->macs},
                {"unit", w->macs ? "MACs" : "FLOPs"},
                {"plain_self_attention", !w->seq_len_kv && s.square && !w->softmax && !w->biases}};
}

View memory_hints(const solve::SolvedProblem& solved) {
    const auto& p = solved.problem.precision;
    if (!p)
        return View::object();
    return View{{"dtype", p->dtype},
                {"bits", n(p->bytes * 8)},
                {"bytes_per_value", n(p->bytes)},
                {"one_byte", p->bytes == 1}};
}

} // namespace

std::string join_words(std::span<const std::string> items, std::string_view last_separator) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0)
            out += i + 1 == items.size() ? std::string(last_separator) : std::string(", ");
        out += items[i];
    }
    return out;
}

std::string bias_names(const solve::MhaSolution& mha, std::string_view projections) {
    std::vector<std::string> names;
    for (const solve::Projection& p : mha.projections)
        if (p.has_bias && projections.find(p.name) != std::string_view::npos)
            names.push_back(fmt::format("$b_{}$", p.name));
    return join_words(names);
}

View hint_view(const solve::SolvedProblem& solved) {
    const solve::MhaSolution& s = solved.mha;
    const spec::MhaGivens& g = s.given;
    const View projections = projection_names(s);
    // kdim, vdim and n_kv are either stated or equal to a stated given (d_model, h), so they are safe to show;
    // d_k and d_v are not (their default d_model / h is an answer of its own).
    return View{{"id", solved.problem.id},
                {"title", solved.problem.title},
                {"d_model", n(s.d_model)},
                {"h", n(s.h)},
                {"n_kv", n(s.n_kv)},
                {"kv_group", n(s.h / s.n_kv)},
                {"kdim", n(s.kdim)},
                {"vdim", n(s.vdim)},
                {"d_k_given", g.d_k.has_value()},
                {"d_v_given", g.d_v.has_value()},
                {"cross_attention", g.kdim.has_value() || g.vdim.has_value()},
                {"grouped", s.n_kv != s.h},
                {"multi_query", s.n_kv == 1 && s.h > 1},
                {"square", s.square},
                {"heads_cancel", s.h * s.d_k == s.d_model && s.h * s.d_v == s.d_model},
                {"all_bias", s.bias_vectors == 4},
                {"no_bias", s.bias_vectors == 0},
                {"add_bias_kv", g.add_bias_kv},
                {"is_model", solved.model.has_value()},
                {"projections", projections},
                {"q", projections[0]},
                {"k", projections[1]},
                {"v", projections[2]},
                {"o", projections[3]},
                {"biases_present", bias_names(s, "QKVO")},
                {"model", model_hints(solved)},
                {"flops", workload_hints(solved)},
                {"memory", memory_hints(solved)}};
}

} // namespace headcount::render

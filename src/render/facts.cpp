#include <render/facts.hpp>

#include <render/hints.hpp>

#include <util/text.hpp>

namespace headcount::render {

namespace {

std::string n(Count value) { return with_thousands(value); }

} // namespace

View block_facts(const solve::MhaSolution& s) {
    return View{{"d_model", n(s.d_model)},
                {"h", n(s.h)},
                {"n_kv", n(s.n_kv)},
                {"kv_group", n(s.n_kv > 0 ? s.h / s.n_kv : 0)}, // 0 heads: a spec of formulas alone
                {"kdim", n(s.kdim)},
                {"vdim", n(s.vdim)},
                {"grouped", s.n_kv != s.h},
                {"multi_query", s.n_kv == 1 && s.h > 1},
                {"square", s.square},
                {"heads_cancel", s.h * s.d_k == s.d_model && s.h * s.d_v == s.d_model},
                {"all_bias", s.bias_vectors == 4},
                {"no_bias", s.bias_vectors == 0},
                {"add_bias_kv", s.given.add_bias_kv},
                {"biases_present", bias_names(s, "QKVO")}};
}

View model_facts(const spec::ModelGivens& m) {
    using M = spec::ModelGivens;
    const bool layernorm = m.norm == M::Norm::layernorm;
    return View{{"d_ff", n(m.d_ff)},
                {"layers", n(m.encoder_layers > 0 ? m.encoder_layers : m.layers)},
                {"vocab", n(m.vocab)},
                {"layernorm", layernorm},
                {"norm_name", layernorm ? "LayerNorm" : (m.norm == M::Norm::none ? "norm (none here)" : "RMSNorm")},
                {"norm_has_bias", layernorm && m.norm_bias},
                {"no_norm", m.norm == M::Norm::none},
                {"gated", m.ffn == M::Ffn::gated},
                {"tied", m.tied_embeddings},
                {"has_head", m.lm_head != M::Head::none},
                {"has_positions", m.max_positions > 0},
                {"embedding_norm", m.embedding_norm},
                {"moe", m.experts > 0},
                {"experts", n(m.experts)},
                {"top_k", n(m.top_k)}};
}

View workload_facts(const spec::Workload& w, const solve::MhaSolution& s) {
    return View{{"batch", n(w.batch)},
                {"one_sequence", w.batch == 1},
                {"seq_len", n(w.seq_len)},
                {"seq_len_kv", n(w.seq_len_kv.value_or(w.seq_len))},
                {"cross", w.seq_len_kv.has_value()},
                {"macs", w.macs},
                {"unit", w.macs ? "MACs" : "FLOPs"},
                {"plain_self_attention", !w.seq_len_kv && s.square && !w.softmax && !w.biases && !w.causal}};
}

View precision_facts(const spec::Precision& p) {
    return View{{"dtype", p.dtype},
                {"bits", n(p.bits)},
                {"bytes_per_value", p.bits % 8 == 0 ? n(p.bits / 8) : "0.5"},
                {"one_byte", p.bits == 8},
                {"packed", p.bits < 8}};
}

} // namespace headcount::render

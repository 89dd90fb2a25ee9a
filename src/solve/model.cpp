#include <solve/model.hpp>

#include <util/text.hpp>

#include <fmt/format.h>

namespace headcount::solve {

namespace {

std::string shape(Count rows, Count columns) {
    return fmt::format("{} × {}", with_thousands(rows), with_thousands(columns));
}

} // namespace

Result<ModelSolution> solve_model(const spec::MhaGivens& attention, const spec::ModelGivens& m, const Recipe& recipe) {
    using M = spec::ModelGivens;
    auto block = solve_mha(attention, recipe);
    if (!block)
        return std::unexpected(block.error());
    CheckedArithmetic math;
    ModelSolution s;
    s.attention = *block;
    if (m.experts > 0 && (m.top_k == 0 || m.top_k > m.experts)) // the reader says so; a variant may not
        return fail(fmt::format("top_k = {} must be between 1 and experts = {}", m.top_k, m.experts));
    const Count d = attention.d_model;
    auto add = [&](Count a, Count b) { return math.add(a, b, "the model's parameter count"); };
    auto mul = [&](Count a, Count b) { return math.mul(a, b, "the model's parameter count"); };
    auto component = [&](std::string name, std::string shape_text, Count copies, Count each) {
        if (copies == 0 || each == 0)
            return;
        const Count total = mul(copies, each);
        s.breakdown.push_back({std::move(name), std::move(shape_text), copies, each, total});
        s.total = add(s.total, total);
    };

    s.norm = recipe.omit_norms ? 0 : (m.norm == M::Norm::layernorm && m.norm_bias ? mul(2, d) : d);
    const bool gated = m.ffn == M::Ffn::gated && !recipe.ffn_two_matrices;
    const Count up = mul(gated ? 2 : 1, mul(d, m.d_ff));
    const Count down = mul(m.d_ff, d);
    const Count ffn_bias = m.ffn_bias ? add(mul(gated ? 2 : 1, m.d_ff), d) : 0;
    s.expert = add(add(up, down), ffn_bias);
    s.ffn_up = up, s.ffn_down = down, s.ffn_biases = ffn_bias;
    // A mixture of experts: `experts` such FFNs and the router that picks top_k of them for each token.
    s.router = m.experts > 0 && !recipe.router_omitted ? mul(d, m.experts) : 0;
    const Count experts = recipe.moe_active_only ? m.top_k : m.experts;
    s.ffn = m.experts > 0 ? add(mul(experts, s.expert), s.router) : s.expert;

    s.token_embedding = mul(m.vocab, d);
    s.position_embedding = recipe.omit_positions ? 0 : mul(m.max_positions, d);
    s.type_embedding = mul(m.type_vocab, d);
    component("token embedding", shape(m.vocab, d), 1, s.token_embedding);
    component("position embedding", shape(m.max_positions, d), 1, s.position_embedding);
    component("token type embedding", shape(m.type_vocab, d), 1, s.type_embedding);
    component("embedding norm", "", 1, m.embedding_norm ? s.norm : 0);
    s.embedding =
        add(add(add(s.token_embedding, s.position_embedding), s.type_embedding), m.embedding_norm ? s.norm : 0);

    const bool enc_dec = m.encoder_layers > 0;
    const Count first_stack = enc_dec ? m.encoder_layers : m.layers;
    s.layer = add(add(s.attention.total, s.ffn), mul(2, s.norm));
    const std::string layer_name = enc_dec ? "encoder layer" : "layer";
    component(layer_name + ": self-attention", "", first_stack, s.attention.total);
    // Under a mixture of experts the FFN row names its experts and router, in either stack.
    const std::string ffn_name = m.experts > 0
                                     ? fmt::format("feed-forward, {} experts of {} and a router of {}", experts,
                                                   with_thousands(s.expert), with_thousands(s.router))
                                     : "feed-forward";
    component(layer_name + ": " + ffn_name, "", first_stack, s.ffn);
    component(layer_name + ": norms (2)", "", first_stack, mul(2, s.norm));
    Count layer_norms = mul(first_stack, mul(2, s.norm));
    if (enc_dec) {
        s.decoder_layer = add(add(mul(2, s.attention.total), s.ffn), mul(3, s.norm));
        component("decoder layer: self-attention", "", m.decoder_layers, s.attention.total);
        component("decoder layer: cross-attention", "", m.decoder_layers, s.attention.total);
        component("decoder layer: " + ffn_name, "", m.decoder_layers, s.ffn);
        component("decoder layer: norms (3)", "", m.decoder_layers, mul(3, s.norm));
        layer_norms = add(layer_norms, mul(m.decoder_layers, mul(3, s.norm)));
    }
    const Count stacks = enc_dec ? 2 : 1;
    component(enc_dec ? "final norms (one per stack)" : "final norm", "", m.final_norm ? stacks : 0, s.norm);

    const Count pooler = m.pooler ? add(mul(d, d), d) : 0;
    component("pooler", shape(d, d), 1, pooler);
    // A tied head reuses the token embedding; counting it again is the classic mistake.
    const Count head_weight = !m.tied_embeddings || recipe.untie_head ? mul(m.vocab, d) : 0;
    Count head = 0;
    if (m.lm_head == M::Head::linear) {
        head = add(head_weight, m.lm_head_bias ? m.vocab : 0);
        component("LM head", shape(d, m.vocab), 1, head);
    } else if (m.lm_head == M::Head::mlm) {
        head = add(add(add(mul(d, d), d), s.norm), add(head_weight, m.vocab));
        component("LM head (dense, norm, decoder bias)", "", 1, head);
    }
    s.head = add(pooler, head);
    s.norms = add(add(m.embedding_norm ? s.norm : 0, layer_norms),
                  add(m.final_norm ? mul(stacks, s.norm) : 0, m.lm_head == M::Head::mlm ? s.norm : 0));
    // Second method: whole layers rather than their parts.
    s.layers_total = add(mul(first_stack, s.layer), mul(m.decoder_layers, s.decoder_layer));
    s.final_norms = m.final_norm ? mul(stacks, s.norm) : 0;
    const Count by_layers = add(add(s.embedding, s.layers_total), add(s.final_norms, s.head));
    if (!math.ok())
        return std::unexpected(math.error());
    if (by_layers != s.total)
        return fail(fmt::format("internal check failed: the breakdown sums to {} but whole layers give {}", s.total,
                                by_layers));
    return s;
}

} // namespace headcount::solve

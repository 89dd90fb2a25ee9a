// The solutions' numbers, read from a problem's computation: the attention block, the model and its breakdown,
// the compute, the tensors' shapes and their memory, named as the templates that show them read them. Nothing here
// counts: every number is a catalogue entry's value (catalogue/*.yaml).

#include <solve/solutions.hpp>

#include <util/text.hpp>

#include <fmt/format.h>

namespace headcount::solve {

namespace {

/// The values of a computation, right or under a change (a mistake), as counts.
struct Values {
    const Computation& c;
    const Computation::Change* change = nullptr;

    /// The value of the entry `name`, nullopt when the problem has none.
    [[nodiscard]] std::optional<Number> exact(std::string_view name) const {
        const int index = c.find(name);
        if (!c.available(index))
            return std::nullopt;
        return change ? c.value_under(index, *change) : c.value(index);
    }
    /// The whole value of the entry `name` as a count, 0 when the problem has none or it is not whole within 10^36.
    Count operator()(std::string_view name) const {
        const auto value = exact(name);
        return value ? formula::to_count(*value).value_or(0) : 0;
    }
};

Projection projection(const Values& read, char name) {
    const std::string at(1, static_cast<char>(name - 'A' + 'a'));
    Projection p;
    p.name = name;
    p.in = read(at + "_in");
    p.out = read(at + "_out");
    p.weights = read(at + "_weights");
    p.has_bias = read(at + "_bias_width") > 0;
    p.bias = read(at + "_bias");
    p.total = read(at + "_params");
    p.per_unit = read(at + "_per_unit");
    p.by_unit = read(at + "_by_unit");
    return p;
}

std::string shape_text(Count rows, Count columns) {
    return fmt::format("{} × {}", with_thousands(rows), with_thousands(columns));
}

} // namespace

MhaSolution read_mha(const Computation& c, const spec::MhaGivens& given, const Computation::Change* change) {
    const Values read{c, change};
    MhaSolution s;
    s.given = given;
    s.d_model = read("d_model");
    s.h = read("h");
    s.d_k = read("d_k");
    s.d_v = read("d_v");
    s.kdim = read("kdim");
    s.vdim = read("vdim");
    s.n_kv = read("n_kv");
    s.projections = {projection(read, 'Q'), projection(read, 'K'), projection(read, 'V'), projection(read, 'O')};
    s.bias_k = read("bias_k_extra");
    s.bias_v = read("bias_v_extra");
    s.qkv = read("qkv_params");
    s.weights = read("weight_params");
    s.biases = read("bias_params");
    s.total = read("total_params");
    s.total_by_unit = read("total_by_unit");
    s.square = read("square") != 0;
    s.bias_vectors = static_cast<int>(read("bias_vectors"));
    s.closed_form = s.square ? read("closed_form") : 0;
    return s;
}

ModelSolution read_model(const Computation& c, const spec::ModelGivens& m, const MhaSolution& attention,
                         const Computation::Change* change) {
    using M = spec::ModelGivens;
    const Values read{c, change};
    ModelSolution s;
    s.attention = attention;
    s.embedding = read("embedding_params");
    s.token_embedding = read("token_embedding");
    s.position_embedding = read("position_embedding");
    s.type_embedding = read("type_embedding");
    s.norm = read("norm");
    s.ffn = read("ffn_params");
    s.expert = read("expert");
    s.router = read("router");
    s.ffn_up = read("ffn_up");
    s.ffn_down = read("ffn_down");
    s.ffn_biases = read("ffn_biases");
    s.layer = read("layer_params");
    s.decoder_layer = read("decoder_layer_params");
    s.norms = read("norm_params");
    s.head = read("head");
    s.layers_total = read("layers_total");
    s.final_norms = read("final_norms");
    s.total = read("model_params");

    // The breakdown: each component once, with how many times the model has it (its rows add up to the total,
    // which the catalogue checks as breakdown_total).
    const Count d = attention.d_model;
    auto component = [&](std::string name, std::string shape, Count copies, Count each) {
        if (copies == 0 || each == 0)
            return;
        s.breakdown.push_back({std::move(name), std::move(shape), copies, each, copies * each});
    };
    component("token embedding", shape_text(m.vocab, d), 1, s.token_embedding);
    component("position embedding", shape_text(m.max_positions, d), 1, s.position_embedding);
    component("token type embedding", shape_text(m.type_vocab, d), 1, s.type_embedding);
    component("embedding norm", "", 1, m.embedding_norm ? s.norm : 0);
    const bool enc_dec = m.encoder_layers > 0;
    const Count first_stack = enc_dec ? m.encoder_layers : m.layers;
    const std::string layer_name = enc_dec ? "encoder layer" : "layer";
    component(layer_name + ": self-attention", "", first_stack, attention.total);
    const std::string ffn_name = m.experts > 0
                                     ? fmt::format("feed-forward, {} experts of {} and a router of {}", m.experts,
                                                   with_thousands(s.expert), with_thousands(s.router))
                                     : "feed-forward";
    component(layer_name + ": " + ffn_name, "", first_stack, s.ffn);
    component(layer_name + ": norms (2)", "", first_stack, 2 * s.norm);
    if (enc_dec) {
        component("decoder layer: self-attention", "", m.decoder_layers, attention.total);
        component("decoder layer: cross-attention", "", m.decoder_layers, attention.total);
        component("decoder layer: " + ffn_name, "", m.decoder_layers, s.ffn);
        component("decoder layer: norms (3)", "", m.decoder_layers, 3 * s.norm);
    }
    component(enc_dec ? "final norms (one per stack)" : "final norm", "", m.final_norm ? (enc_dec ? 2 : 1) : 0, s.norm);
    component("pooler", shape_text(d, d), 1, read("pooler_params"));
    const Count lm_head = read("lm_head");
    if (m.lm_head == M::Head::linear)
        component("LM head", shape_text(d, m.vocab), 1, lm_head);
    else if (m.lm_head == M::Head::mlm)
        component("LM head (dense, norm, decoder bias)", "", 1, lm_head);
    return s;
}

FlopsSolution read_flops(const Computation& c, const Computation::Change* change) {
    const Values read{c, change};
    FlopsSolution f;
    f.tokens = read("batch_tokens");
    f.kv_tokens = read("kv_tokens");
    f.per_product = read("per_product");
    f.q = read("q_flops");
    f.k = read("k_flops");
    f.v = read("v_flops");
    f.projections = read("flops_projections");
    f.scores = read("flops_scores");
    f.softmax = read("flops_softmax");
    f.weighted_sum = read("flops_weighted_sum");
    f.scores_full = read("scores_full");
    f.softmax_full = read("softmax_full");
    f.weighted_sum_full = read("weighted_sum_full");
    f.output = read("flops_output");
    f.total = read("flops_total");
    f.linear = read("flops_linear");
    f.attention = read("flops_attention");
    f.projections_dominate = f.linear > f.attention;
    f.dominant = read("flops_dominant");
    return f;
}

ShapeSolution read_shapes(const Computation& c, const Computation::Change* change) {
    const Values read{c, change};
    const auto tensor = [&](std::string_view name) {
        Tensor t;
        const int index = c.find(name);
        if (!c.available(index))
            return t;
        t.shape = change ? c.shape_under(index, *change).value_or(Shape{}) : c.shape(index);
        t.axes = c.axis_symbols(index, change);
        t.elements = read(name);
        return t;
    };
    ShapeSolution s;
    s.input = tensor("shape_input");
    s.q = tensor("shape_q");
    s.k = tensor("shape_k");
    s.v = tensor("shape_v");
    s.q_heads = tensor("shape_q_heads");
    s.k_heads = tensor("shape_k_heads");
    s.v_heads = tensor("shape_v_heads");
    s.scores = tensor("shape_scores");
    s.weights = tensor("shape_attention_weights");
    s.head_output = tensor("shape_head_output");
    s.concat = tensor("shape_concat");
    s.output = tensor("shape_output");
    return s;
}

MemorySolution read_memory(const Computation& c, const Computation::Change* change) {
    const Values read{c, change};
    MemorySolution m;
    m.bits_per_value = read("bits");
    m.counted_bits = read("counted_bits");
    m.weights_values = read("weights_values");
    m.attention_weights = read("memory_attention_weights");
    m.q_values = read("q_values");
    m.k_values = read("k_values");
    m.v_values = read("v_values");
    m.qkv_values = read("qkv_values");
    m.qkv_activations = read("memory_qkv_activations");
    m.kv_layers = read("kv_layers");
    m.kv_tokens = read("seq_len_kv");
    m.kv_per_token = read("kv_per_token");
    m.kv_values = read("kv_values");
    m.kv_cache = read("memory_kv_cache");
    m.parameter_values = read("parameter_values");
    m.parameters = read("memory_parameters");
    return m;
}

ModelFlopsSolution read_model_flops(const Computation& c, const Computation::Change* change) {
    const Values read{c, change};
    ModelFlopsSolution s;
    s.tokens = read("batch_tokens");
    s.per_product = read("per_product");
    s.layers = read("layers");
    s.layer_linear = read("layer_linear");
    s.layer_ffn = read("layer_ffn_flops");
    s.layer_attention = read("layer_attention");
    s.head = read("head_flops");
    s.forward = read("flops_model_forward");
    s.linear = read("model_linear_flops");
    s.attention = read("model_attention_flops");
    s.per_token = read("per_token_flops");
    s.per_sequence = read("per_sequence_flops");
    s.backward = read("backward_flops");
    s.training = read("flops_training");
    s.training_per_token = read("training_per_token_flops");
    s.parameters = read("rule_parameters");
    s.rule_per_token = read("rule_per_token");
    s.rule_forward = read("rule_forward");
    s.rule_training = read("rule_training");
    s.rule_gap = read("rule_gap");
    return s;
}

} // namespace headcount::solve

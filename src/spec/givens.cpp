#include <spec/givens.hpp>

#include <spec/training.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace headcount::spec {

namespace {
// The attention block's keys (those of an MHA spec's given), a transformer's sizes, then the workload's.
constexpr auto k_varying = std::to_array<std::string_view>(
    {"d_model",       "h",           "d_k",     "d_v",    "kdim",           "vdim",           "bias",
     "n_kv_heads",    "add_bias_kv", "d_ff",    "layers", "encoder_layers", "decoder_layers", "vocab",
     "max_positions", "type_vocab",  "experts", "top_k",  "batch",          "seq_len",        "seq_len_kv"});
// The attention keys a transformer's given has (its other attention widths are d_model's).
constexpr auto k_transformer_attention = std::to_array<std::string_view>({"d_model", "h", "n_kv_heads", "bias"});

/// The field of `table` named `key`, or nullptr.
template <class Field, std::size_t N>
Field MhaGivens::*field_named(const std::array<std::pair<std::string_view, Field MhaGivens::*>, N>& table,
                              std::string_view key) {
    for (const auto& [name, field] : table)
        if (name == key)
            return field;
    return nullptr;
}

/// The transformer size named `key` (d_ff, layers, ..., type_vocab), or nullptr when `key` is not one.
Count* model_size(ModelGivens& m, std::string_view key) {
    for (const ModelSizeKey& size : k_model_sizes)
        if (key == size.key)
            return &(m.*size.field);
    return nullptr;
}

bool is_workload_key(std::string_view key) { return key == "batch" || key == "seq_len" || key == "seq_len_kv"; }
} // namespace

std::optional<GivensProblem> check_givens(const MhaGivens& g) {
    if (g.h == 0) // no attention block: a spec of formulas alone (kind: quantities)
        return std::nullopt;
    if ((!g.d_k || !g.d_v) && g.d_model % g.h != 0) {
        const bool both = !g.d_k && !g.d_v;
        const char* defaulted = both ? "d_k = d_v" : (!g.d_k ? "d_k" : "d_v");
        const char* to_give = both ? "d_k and d_v" : defaulted;
        return GivensProblem{"h", fmt::format("h = {} does not divide d_model = {}, so the default {} = d_model / h is "
                                              "not a whole number; give {} explicitly or choose an h that divides "
                                              "d_model",
                                              g.h, g.d_model, defaulted, to_give)};
    }
    if (g.n_kv_heads && (*g.n_kv_heads > g.h || g.h % *g.n_kv_heads != 0))
        return GivensProblem{"n_kv_heads", fmt::format("n_kv_heads = {} does not divide h = {}: in grouped-query "
                                                       "attention each key/value head serves the same number of "
                                                       "query heads",
                                                       *g.n_kv_heads, g.h)};
    return std::nullopt;
}

std::span<const std::string_view> varying_keys() { return k_varying; }

std::string vary_markdown() {
    std::string out = "| given | of | values |\n|---|---|---|\n";
    for (const std::string_view key : k_varying) {
        const bool transformer = std::find(k_transformer_attention.begin(), k_transformer_attention.end(), key) !=
                                 k_transformer_attention.end();
        const std::size_t at =
            static_cast<std::size_t>(std::find(k_varying.begin(), k_varying.end(), key) - k_varying.begin());
        const char* of = at < 9
                             ? (transformer ? "the attention block (any problem)" : "the attention block (kind: mha)")
                         : is_workload_key(key) ? "the workload"
                                                : "a whole transformer (kind: transformer)";
        out += fmt::format("| `{}` | {} | {} |\n", key, of, is_flag_key(key) ? "true, false" : "whole numbers");
    }
    for (const std::string_view key : detail::k_training_values)
        if (key != "mfu") // a fraction
            out += fmt::format("| `{}` | {} (kind: transformer) | whole numbers |\n", key,
                               key == "hbm_bandwidth"            ? "an accelerator's memory"
                               : key == "interconnect_bandwidth" ? "an accelerator's interconnect"
                               : key == "compute_budget"         ? "a compute budget"
                                                                 : "a training run");
    out += "| any other given | the spec's own formulas (`quantities:`) | whole numbers |\n";
    return out;
}

std::optional<std::string> cannot_vary(const Problem& problem, std::string_view key) {
    if (problem.values.contains(key))
        return std::nullopt; // a given of the spec's own formulas
    const auto not_given = [&] {
        return fmt::format("cannot vary {0}: given has no {0} to change (vary changes the sizes a spec gives; it does "
                           "not add them)",
                           key);
    };
    if (is_workload_key(key)) {
        if (!problem.workload && key == "batch")
            return fmt::format("{} describes a workload; give seq_len too", key); // the reader's words for given
        if (!problem.workload || (key == "seq_len_kv" && !problem.workload->seq_len_kv))
            return not_given();
        return std::nullopt;
    }
    ModelGivens model = problem.model.value_or(ModelGivens{});
    if (const Count* size = model_size(model, key)) {
        if (!problem.model) // the reader's words for a model key in an MHA spec's given
            return fmt::format("'{}' describes a whole transformer; add 'kind: transformer' to the spec", key);
        // 0 is how a spec says "none" (no token embedding, no learned positions): nothing to change. A positive
        // size stays positive, so a variant keeps the spec's stack(s) and embeddings, and the reader's checks on
        // them (layers or encoder_layers + decoder_layers, an lm_head's vocab) hold for every variant.
        return *size == 0 ? std::optional(not_given()) : std::nullopt;
    }
    if (problem.model &&
        std::find(k_transformer_attention.begin(), k_transformer_attention.end(), key) == k_transformer_attention.end())
        return fmt::format("cannot vary {0}: a transformer's given has no {0} (its attention block takes d_model, "
                           "h, n_kv_heads and bias)",
                           key);
    return std::nullopt;
}

bool is_flag_key(std::string_view key) { return key == "bias" || key == "add_bias_kv"; }

void set_given(Givens& givens, std::string_view key, std::int64_t value) {
    MhaGivens& g = givens.given;
    if (const auto it = givens.values.find(key); it != givens.values.end()) {
        // A given with a unit varies in that unit: vary: {hbm_bandwidth: [2, 3]} is 2 and 3 TB/s.
        it->second.value = formula::Number(static_cast<long>(value)) * it->second.scale;
        it->second.text = it->second.unit.empty()  ? std::to_string(value)
                          : it->second.unit == "%" ? fmt::format("{}%", value)
                                                   : fmt::format("{} {}", value, it->second.unit);
    } else if (const auto size = field_named(k_block_sizes, key))
        g.*size = value;
    else if (const auto width = field_named(k_block_defaults, key))
        g.*width = value;
    else if (key == "bias") {
        g.bias = {value != 0, value != 0, value != 0, value != 0};
        g.bias_given_per_projection = false;
    } else if (key == "add_bias_kv")
        g.add_bias_kv = value != 0;
    else if (key == "batch" && givens.workload)
        givens.workload->batch = value;
    else if (key == "seq_len" && givens.workload)
        givens.workload->seq_len = value;
    else if (key == "seq_len_kv" && givens.workload)
        givens.workload->seq_len_kv = value;
    else if (Count* size = givens.model ? model_size(*givens.model, key) : nullptr)
        *size = value;
}

std::optional<std::int64_t> given_value(const Givens& givens, std::string_view key) {
    const MhaGivens& g = givens.given;
    if (const auto it = givens.values.find(key); it != givens.values.end()) {
        const formula::Number v = it->second.value / it->second.scale; // in the unit it was written in
        if (v.get_den() == 1 && v.get_num().fits_slong_p())
            return v.get_num().get_si();
        return std::nullopt;
    }
    if (const auto size = field_named(k_block_sizes, key))
        return g.*size;
    if (const auto width = field_named(k_block_defaults, key))
        return g.*width;
    if (key == "bias") // vary sets all four together
        return g.bias.q ? 1 : 0;
    if (key == "add_bias_kv")
        return g.add_bias_kv ? 1 : 0;
    if (givens.workload && key == "batch")
        return givens.workload->batch;
    if (givens.workload && key == "seq_len")
        return givens.workload->seq_len;
    if (givens.workload && key == "seq_len_kv")
        return givens.workload->seq_len_kv;
    if (givens.model) {
        ModelGivens model = *givens.model;
        if (const Count* size = model_size(model, key))
            return *size;
    }
    return std::nullopt;
}

std::optional<std::string> given_text(const Givens& givens, std::string_view key) {
    if (const auto it = givens.values.find(key); it != givens.values.end() && !it->second.unit.empty())
        return it->second.text;
    const auto value = given_value(givens, key);
    if (!value)
        return std::nullopt;
    if (is_flag_key(key))
        return std::string(*value != 0 ? "true" : "false");
    return with_thousands(*value);
}

Givens givens_of(const Problem& problem) { return {problem.given, problem.model, problem.workload, problem.values}; }

Problem with_givens(Problem problem, const Givens& givens) {
    problem.given = givens.given;
    problem.model = givens.model;
    problem.workload = givens.workload;
    problem.values = givens.values;
    return problem;
}

namespace {

formula::Number flag(bool on) { return formula::Number(on ? 1 : 0); }
formula::Number count(Count value) { return formula::to_number(value); }

} // namespace

FormulaGivens formula_givens(const Problem& problem) {
    FormulaGivens out;
    if (problem.kind != "quantities") {
        const MhaGivens& g = problem.given;
        out["d_model"] = count(g.d_model);
        out["h"] = count(g.h);
        for (const auto& [name, value] : {std::pair{"d_k", g.d_k},
                                          {"d_v", g.d_v},
                                          {"kdim", g.kdim},
                                          {"vdim", g.vdim},
                                          {"n_kv_heads", g.n_kv_heads}})
            if (value)
                out[name] = count(*value);
        out["bias_q"] = flag(g.bias.q);
        out["bias_k"] = flag(g.bias.k);
        out["bias_v"] = flag(g.bias.v);
        out["bias_o"] = flag(g.bias.o);
        out["add_bias_kv"] = flag(g.add_bias_kv);
        out["bias"] = flag(g.bias.q); // the one flag vary sets for all four
        out["is_model"] = flag(problem.model.has_value());
    }
    if (const auto& m = problem.model) {
        using M = ModelGivens;
        for (const auto& [name, value] : {std::pair{"d_ff", m->d_ff},
                                          {"layers", m->layers},
                                          {"encoder_layers", m->encoder_layers},
                                          {"decoder_layers", m->decoder_layers},
                                          {"vocab", m->vocab},
                                          {"max_positions", m->max_positions},
                                          {"type_vocab", m->type_vocab},
                                          {"experts", m->experts},
                                          {"top_k", m->top_k}})
            out[name] = count(value);
        out["layernorm"] = flag(m->norm == M::Norm::layernorm);
        out["has_norm"] = flag(m->norm != M::Norm::none);
        out["norm_bias"] = flag(m->norm == M::Norm::layernorm && m->norm_bias);
        out["gated"] = flag(m->ffn == M::Ffn::gated);
        out["ffn_bias"] = flag(m->ffn_bias);
        out["embedding_norm"] = flag(m->embedding_norm);
        out["final_norm"] = flag(m->final_norm);
        out["pooler"] = flag(m->pooler);
        out["lm_head_linear"] = flag(m->lm_head == M::Head::linear);
        out["lm_head_mlm"] = flag(m->lm_head == M::Head::mlm);
        out["lm_head_bias"] = flag(m->lm_head_bias);
        out["tied_embeddings"] = flag(m->tied_embeddings);
    }
    if (const auto& w = problem.workload) {
        out["batch"] = count(w->batch);
        out["seq_len"] = count(w->seq_len);
        if (w->seq_len_kv)
            out["seq_len_kv"] = count(*w->seq_len_kv);
        out["seq_len_kv_given"] = flag(w->seq_len_kv.has_value());
        out["macs"] = flag(w->macs);
        out["count_softmax"] = flag(w->softmax);
        out["count_biases"] = flag(w->biases);
        out["causal"] = flag(w->causal);
    }
    if (const auto& p = problem.precision)
        out["bits"] = count(p->bits);
    out["n_kv_heads_given"] = flag(problem.kind != "quantities" && problem.given.n_kv_heads.has_value());
    // Whether the heads are narrower or wider than d_model / h (head_dim, d_k or d_v given apart from it).
    out["head_width_own"] =
        flag(problem.kind != "quantities" &&
             ((problem.given.d_k && *problem.given.d_k * problem.given.h != problem.given.d_model) ||
              (problem.given.d_v && *problem.given.d_v * problem.given.h != problem.given.d_model)));
    out["data_parallel_given"] = flag(problem.values.contains("data_parallel"));
    out["steps_given"] = flag(problem.values.contains("steps"));
    out["tokens_given"] = flag(problem.values.contains("tokens"));
    out["tensor_parallel_given"] = flag(problem.values.contains("tensor_parallel"));
    out["pipeline_parallel_given"] = flag(problem.values.contains("pipeline_parallel"));
    for (const auto& [name, value] : problem.settings)
        out.insert_or_assign(name, value);
    for (const auto& [name, value] : problem.values)
        out.insert_or_assign(name, value.value);
    return out;
}

} // namespace headcount::spec

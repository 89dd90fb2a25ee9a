#include <spec/givens_reader.hpp>

#include <spec/givens.hpp>

#include <fmt/format.h>

namespace headcount::spec::detail {

namespace {

constexpr auto k_norms =
    std::to_array<std::pair<std::string_view, ModelGivens::Norm>>({{"layernorm", ModelGivens::Norm::layernorm},
                                                                   {"rmsnorm", ModelGivens::Norm::rmsnorm},
                                                                   {"none", ModelGivens::Norm::none}});
constexpr auto k_ffns = std::to_array<std::pair<std::string_view, ModelGivens::Ffn>>(
    {{"mlp", ModelGivens::Ffn::mlp}, {"gated", ModelGivens::Ffn::gated}});
constexpr auto k_heads = std::to_array<std::pair<std::string_view, ModelGivens::Head>>(
    {{"none", ModelGivens::Head::none}, {"linear", ModelGivens::Head::linear}, {"mlm", ModelGivens::Head::mlm}});

/// `bias:` as one flag for every projection or a map of them, each left out keeping its bias.
Result<BiasFlags> read_bias(const Reader& r, const YAML::Node& node, bool& per_projection) {
    BiasFlags flags;
    if (!node.IsMap()) {
        auto all = r.boolean(node, "bias");
        if (!all)
            return std::unexpected(all.error());
        flags.q = flags.k = flags.v = flags.o = *all;
        per_projection = false;
        return flags;
    }
    per_projection = true;
    if (auto ok = r.check_keys(node, k_bias_keys, "bias"); !ok)
        return std::unexpected(ok.error());
    // A projection left out of the map keeps PyTorch's default: it has a bias.
    for (auto [key, slot] : {std::pair{"q", &flags.q}, {"k", &flags.k}, {"v", &flags.v}, {"o", &flags.o}}) {
        if (const YAML::Node value = node[key]) {
            auto flag = r.boolean(value, fmt::format("bias.{}", key));
            if (!flag)
                return std::unexpected(flag.error());
            *slot = *flag;
        }
    }
    return flags;
}

} // namespace

Result<MhaGivens> read_mha_givens(const Reader& r, const YAML::Node& given, std::span<const std::string_view> keys) {
    if (!given.IsMap())
        return r.not_a_mapping(given, "given must be a mapping of sizes, e.g. {d_model: 512, h: 8}");
    if (keys.data() == k_given_keys.data()) {
        // A whole model's key in an attention block's spec: the kind is missing, not the key misspelt.
        for (const auto& entry : given) {
            const std::string key = entry.first.Scalar();
            if (std::find(k_given_keys.begin(), k_given_keys.end(), key) == k_given_keys.end() &&
                std::find(k_model_keys.begin(), k_model_keys.end(), key) != k_model_keys.end())
                return r.error_at(entry.first, fmt::format("'{}' describes a whole transformer; add 'kind: "
                                                           "transformer' to the spec",
                                                           key));
        }
    }
    if (auto ok = r.check_keys(given, keys, "given"); !ok)
        return std::unexpected(ok.error());

    MhaGivens g;
    // Both keys are looked for before either value is read, so a spec missing h says so before a bad d_model.
    if (auto h = r.required(given, "h", "given"); !h && given["d_model"])
        return std::unexpected(h.error());
    auto d_model_value = r.required_positive_integer(given, "d_model", "given");
    if (!d_model_value)
        return std::unexpected(d_model_value.error());
    auto h_value = r.required_positive_integer(given, "h", "given");
    if (!h_value)
        return std::unexpected(h_value.error());
    g.d_model = *d_model_value;
    g.h = *h_value;

    for (const auto& [key, field] : k_block_defaults)
        if (auto ok = r.optional(given, key, &Reader::positive_integer, g.*field); !ok)
            return std::unexpected(ok.error());
    // A transformer's head width apart from d_model / h (Gemma's 256 with d_model 3072 and 16 heads; PaLM):
    // head_dim, Hugging Face's name, is d_k and d_v at once.
    if (const YAML::Node head_dim = given["head_dim"]) {
        if (given["d_k"] || given["d_v"])
            return r.error_at(head_dim, "give head_dim (the width of every head's query, key and value) or d_k and "
                                        "d_v, not both");
        std::optional<Count> width;
        if (auto ok = r.optional(given, "head_dim", &Reader::positive_integer, width); !ok)
            return std::unexpected(ok.error());
        g.d_k = width;
        g.d_v = width;
    }
    if (const YAML::Node bias = given["bias"]) {
        auto flags = read_bias(r, bias, g.bias_given_per_projection);
        if (!flags)
            return std::unexpected(flags.error());
        g.bias = *flags;
    }
    if (auto ok = r.optional(given, "add_bias_kv", &Reader::boolean, g.add_bias_kv); !ok)
        return std::unexpected(ok.error());

    if (const auto problem = check_givens(g))
        return r.error_at(given[problem->key], problem->message);
    return g;
}

/// `dtype:` in a `given`, or nullopt when it has none.
Result<std::optional<Precision>> read_precision(const Reader& r, const YAML::Node& given) {
    const YAML::Node dtype = given["dtype"];
    if (!dtype)
        return std::optional<Precision>{};
    static constexpr auto k_bits = std::to_array<std::pair<std::string_view, Count>>(
        {{"fp64", 64}, {"fp32", 32}, {"fp16", 16}, {"bf16", 16}, {"fp8", 8}, {"int8", 8}, {"int4", 4}});
    auto bits = choice(r, dtype, "dtype", k_bits);
    if (!bits)
        return std::unexpected(bits.error());
    return std::optional<Precision>{Precision{dtype.Scalar(), *bits}};
}

/// The model part of a transformer's `given` (its attention keys are read by read_mha_givens).
Result<ModelGivens> read_model_givens(const Reader& r, const YAML::Node& given) {
    using M = ModelGivens;
    M m;
    auto d_ff_value = r.required_positive_integer(given, "d_ff", "given");
    if (!d_ff_value)
        return std::unexpected(d_ff_value.error());
    m.d_ff = *d_ff_value;
    for (const ModelSizeKey& size : k_model_sizes) {
        if (size.field == &M::d_ff) // required, read above
            continue;
        if (const YAML::Node value = given[std::string(size.key)]) {
            // 0 is allowed: "no token embedding", "no learned positions".
            auto number =
                value.IsScalar() && value.Scalar() == "0" ? Result<Count>(0) : r.positive_integer(value, size.key);
            if (!number)
                return std::unexpected(number.error());
            m.*size.field = *number;
        }
    }
    for (auto [key, slot] : {std::pair{"norm_bias", &m.norm_bias},
                             {"ffn_bias", &m.ffn_bias},
                             {"embedding_norm", &m.embedding_norm},
                             {"final_norm", &m.final_norm},
                             {"pooler", &m.pooler},
                             {"lm_head_bias", &m.lm_head_bias},
                             {"tied_embeddings", &m.tied_embeddings}})
        if (auto ok = r.optional(given, key, &Reader::boolean, *slot); !ok)
            return std::unexpected(ok.error());
    for (const Result<void>& ok :
         {choice_into(r, given, "norm", k_norms, m.norm), choice_into(r, given, "ffn", k_ffns, m.ffn),
          choice_into(r, given, "lm_head", k_heads, m.lm_head)})
        if (!ok) // the first in this order
            return std::unexpected(ok.error());
    const bool stack = m.layers > 0, enc_dec = m.encoder_layers > 0 || m.decoder_layers > 0;
    if (stack == enc_dec)
        return r.error_at(given, "give either layers (one stack) or encoder_layers and decoder_layers, not both");
    if (enc_dec && (m.encoder_layers == 0 || m.decoder_layers == 0))
        return r.error_at(given, "an encoder-decoder needs both encoder_layers and decoder_layers");
    if (m.experts > 0 && given["top_k"] && m.top_k == 0)
        return r.error_at(given["top_k"], "top_k must be at least 1: each token goes to top_k of the experts");
    if ((m.experts > 0) != (m.top_k > 0))
        return r.error_at(given[m.experts > 0 ? "experts" : "top_k"],
                          "a mixture of experts needs both experts (routed FFNs per layer) and top_k (how many of "
                          "them each token goes to)");
    if (m.experts == 1)
        return r.error_at(given["experts"], "experts must be at least 2: one expert is a dense FFN (leave out "
                                            "experts and top_k)");
    if (m.top_k > m.experts)
        return r.error_at(given["top_k"], fmt::format("top_k = {} routes each token to more experts than the {} a "
                                                      "layer has",
                                                      m.top_k, m.experts));
    if (m.lm_head != M::Head::none && m.vocab == 0)
        return r.error_at(given["lm_head"], "an lm_head needs a vocab to predict");
    return m;
}

/// The workload keys of a `given` (batch, seq_len, ...), or nullopt when it has no seq_len.
Result<std::optional<Workload>> read_workload(const Reader& r, const YAML::Node& given) {
    const YAML::Node seq_len = given["seq_len"];
    if (!seq_len) {
        for (const char* key : {"batch", "seq_len_kv", "count", "softmax", "flop_biases", "causal"})
            if (given[key])
                return r.error_at(given[key], fmt::format("{} describes a workload; give seq_len too", key));
        return std::optional<Workload>{};
    }
    Workload w;
    auto n = r.positive_integer(seq_len, "seq_len");
    if (!n)
        return std::unexpected(n.error());
    w.seq_len = *n;
    for (const Result<void>& ok : {r.optional(given, "batch", &Reader::positive_integer, w.batch),
                                   r.optional(given, "seq_len_kv", &Reader::positive_integer, w.seq_len_kv)})
        if (!ok) // the first in this order
            return std::unexpected(ok.error());
    for (auto [key, slot] : {std::pair{"softmax", &w.softmax}, {"flop_biases", &w.biases}, {"causal", &w.causal}})
        if (auto ok = r.optional(given, key, &Reader::boolean, *slot); !ok)
            return std::unexpected(ok.error());
    if (w.causal && w.seq_len_kv)
        return r.error_at(given["causal"], "causal: true masks a sequence's later positions from its earlier ones; "
                                           "cross-attention (seq_len_kv) attends to another sequence, which has no "
                                           "such mask");
    if (const YAML::Node count = given["count"]) {
        auto macs =
            choice(r, count, "count",
                   std::array{std::pair{std::string_view("flops"), false}, std::pair{std::string_view("macs"), true}});
        if (!macs)
            return std::unexpected(macs.error());
        w.macs = *macs;
        if (w.macs && (w.softmax || w.biases))
            return r.error_at(count, "count: macs counts multiply-adds only; softmax and flop_biases count other "
                                     "operations, so use count: flops with them");
    }
    return std::optional<Workload>{w};
}

Result<void> check_causal_halves(const Reader& r, const YAML::Node& given, const Workload& w, const MhaGivens& g) {
    // Half of b·h·n² scores is whole unless b, h and n are all odd; then MACs (one per product, times an odd d_k or
    // d_v) or the softmax (3 per score) come to an odd count, which has no half. The solver checks each term the
    // same way (solve/flops.cpp), so a vary: variant it refuses is one the reader would refuse.
    if (!w.causal || !(w.macs || w.softmax) || w.seq_len % 2 == 0 || w.batch % 2 == 0 || g.h % 2 == 0)
        return {};
    const Count d_k = g.d_k.value_or(g.d_model / g.h), d_v = g.d_v.value_or(g.d_model / g.h);
    if (w.macs && d_k % 2 == 0 && d_v % 2 == 0)
        return {};
    return r.error_at(given["causal"], fmt::format("causal: true counts half of the {0} × {0} scores; with {1} "
                                                   "counted, this odd seq_len (with an odd batch and h) leaves half "
                                                   "an operation: make seq_len even",
                                                   w.seq_len, w.macs ? "MACs" : "the softmax"));
}

} // namespace headcount::spec::detail

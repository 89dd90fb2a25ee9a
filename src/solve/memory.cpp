#include <solve/memory.hpp>

namespace headcount::solve {

Result<MemorySolution> solve_memory(const MhaSolution& s, const ModelSolution* model,
                                    const spec::ModelGivens* model_givens, const spec::Workload* w,
                                    const spec::Precision& precision, const Recipe& recipe) {
    CheckedArithmetic math;
    auto mul = [&](Count a, Count b) { return math.mul(a, b, "the memory in bytes"); };
    auto add = [&](Count a, Count b) { return math.add(a, b, "the memory in bytes"); };
    MemorySolution out;
    out.bytes_per_value = recipe.bits_for_bytes ? precision.bytes * 8 : precision.bytes;
    if (recipe.values_for_bytes)
        out.bytes_per_value = 1;

    if (w) {
        const Count n = w->seq_len, m = w->seq_len_kv.value_or(w->seq_len);
        out.weights_values = mul(mul(w->batch, s.h), mul(n, m));
        out.attention_weights = mul(out.weights_values, out.bytes_per_value);
        out.q_values = mul(mul(w->batch, n), mul(s.h, s.d_k));
        out.k_values = mul(mul(w->batch, m), mul(s.n_kv, s.d_k));
        out.v_values = mul(mul(w->batch, m), mul(s.n_kv, s.d_v));
        out.qkv_values = add(add(out.q_values, out.k_values), out.v_values);
        out.qkv_activations = mul(out.qkv_values, out.bytes_per_value);

        // Generation caches every layer's keys and values for every position so far.
        out.kv_layers = 1;
        if (model_givens) // one stack (memory.kv_cache refuses encoder-decoders)
            out.kv_layers = model_givens->layers;
        out.kv_tokens = m;
        out.kv_per_token = recipe.kv_cache_keys_only ? mul(s.n_kv, s.d_k) : mul(s.n_kv, add(s.d_k, s.d_v));
        out.kv_values = mul(mul(out.kv_layers, w->batch), mul(out.kv_tokens, out.kv_per_token));
        out.kv_cache = mul(out.kv_values, out.bytes_per_value);
    }
    out.parameter_values = model ? model->total : s.total;
    out.parameters = mul(out.parameter_values, out.bytes_per_value);
    if (!math.ok())
        return std::unexpected(math.error());
    return out;
}

} // namespace headcount::solve

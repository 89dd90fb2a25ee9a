#include <solve/memory.hpp>

namespace headcount::solve {

Result<MemorySolution> solve_memory(const MhaSolution& s, const ModelSolution* model,
                                    const spec::ModelGivens* model_givens, const spec::Workload* w,
                                    const spec::Precision& precision, const Recipe& recipe) {
    CheckedArithmetic math;
    auto mul = [&](Count a, Count b) { return math.mul(a, b, "the memory in bytes"); };
    auto add = [&](Count a, Count b) { return math.add(a, b, "the memory in bytes"); };
    MemorySolution out;
    out.bits_per_value = precision.bits;
    out.counted_bits = recipe.bits_for_bytes ? mul(precision.bits, 8) : precision.bits;
    if (recipe.values_for_bytes)
        out.counted_bits = 8;
    // Packed values: a byte holds 8 / bits of them, and a last, part-filled byte still takes a whole one.
    // Whole bytes per value (every dtype but int4) multiply the bytes directly, so no bit count 8 times the answer
    // has to fit (it would pass 10^36 first).
    auto bytes = [&](Count values) {
        if (out.counted_bits % 8 == 0)
            return mul(values, out.counted_bits / 8);
        const Count bits = mul(values, out.counted_bits);
        return bits / 8 + (bits % 8 != 0 ? 1 : 0);
    };

    if (w) {
        const Count n = w->seq_len, m = w->seq_len_kv.value_or(w->seq_len);
        out.weights_values = mul(mul(w->batch, s.h), mul(n, m));
        out.attention_weights = bytes(out.weights_values);
        out.q_values = mul(mul(w->batch, n), mul(s.h, s.d_k));
        out.k_values = mul(mul(w->batch, m), mul(s.n_kv, s.d_k));
        out.v_values = mul(mul(w->batch, m), mul(s.n_kv, s.d_v));
        out.qkv_values = add(add(out.q_values, out.k_values), out.v_values);
        out.qkv_activations = bytes(out.qkv_values);

        // Generation caches every layer's keys and values for every position so far.
        out.kv_layers = 1;
        if (model_givens) // one stack (memory.kv_cache refuses encoder-decoders)
            out.kv_layers = model_givens->layers;
        out.kv_tokens = m;
        out.kv_per_token = recipe.kv_cache_keys_only ? mul(s.n_kv, s.d_k) : mul(s.n_kv, add(s.d_k, s.d_v));
        out.kv_values = mul(mul(out.kv_layers, w->batch), mul(out.kv_tokens, out.kv_per_token));
        out.kv_cache = bytes(out.kv_values);
    }
    out.parameter_values = model ? model->total : s.total;
    out.parameters = bytes(out.parameter_values);
    if (!math.ok())
        return std::unexpected(math.error());
    return out;
}

} // namespace headcount::solve

#pragma once
// Memory of one attention block's tensors, of a generation's KV cache and of a model's parameters, in bytes for
// a stated dtype. Read from the problem's computation (solve/solutions.hpp); the formulas are catalogue/memory.yaml's.

#include <solve/mha.hpp>
#include <solve/model.hpp>

#include <optional>

namespace headcount::solve {

/// The bytes each memory ask comes to, with the counts of values they multiply.
struct MemorySolution {
    Count bits_per_value = 0; ///< from the dtype (8 to the byte; int4's 4 pack two values to a byte)
    /// Bits per value as the count takes them: the dtype's, or as a mistake does (bits as bytes: 8 x bits; the
    /// values alone: 8). Bytes are values x this / 8, rounded up to a whole byte.
    Count counted_bits = 0;
    // Over a workload (zero without one).
    Count weights_values = 0;                       ///< attention weights: b h n m
    Count attention_weights = 0;                    ///< weights_values x bytes
    Count q_values = 0, k_values = 0, v_values = 0; ///< b n h d_k, b m n_kv d_k, b m n_kv d_v
    Count qkv_values = 0;
    Count qkv_activations = 0; ///< qkv_values x bytes
    Count kv_layers = 0;       ///< layers with a KV cache: 1 for one block, the (decoder) layers of a model
    Count kv_tokens = 0;       ///< cached positions per sequence: the key/value length
    Count kv_per_token = 0;    ///< one layer, one position: n_kv (d_k + d_v) values (n_kv d_k keys only)
    Count kv_values = 0;       ///< kv_layers x b x kv_tokens x kv_per_token
    Count kv_cache = 0;        ///< kv_values x bytes
    // Always.
    Count parameter_values = 0; ///< the block's, or the whole model's, parameters
    Count parameters = 0;       ///< parameter_values x bytes
};

} // namespace headcount::solve

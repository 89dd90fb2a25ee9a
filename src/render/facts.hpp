#pragma once
// What a worked solution and a hint both say about a problem: the givens the spec states and yes/no facts about
// them, never a number the solver derives. problem_view (the solution's templates) and hint_view (feedback under
// every reveal policy) both start from these, so the two cannot disagree about, say, whether the block is grouped.

#include <render/mustache.hpp>
#include <solve/mha.hpp>
#include <spec/problem.hpp>

namespace headcount::render {

/// The block: d_model, h, n_kv, kv_group (h / n_kv), kdim, vdim (each a given or equal to one); grouped,
/// multi_query (one key/value head for several query heads), square, heads_cancel (h·d_k = h·d_v = d_model),
/// all_bias, no_bias, add_bias_kv; biases_present ("$b_Q$, $b_K$ and $b_V$", "" for none). Numbers carry
/// thousands separators.
View block_facts(const solve::MhaSolution& block);

/// A whole model's givens: d_ff, layers (the encoder's for an encoder-decoder), vocab; layernorm, norm_name
/// ("LayerNorm", "RMSNorm"), norm_has_bias, gated, tied, has_head, has_positions, embedding_norm.
View model_facts(const spec::ModelGivens& model);

/// The workload: batch, one_sequence, seq_len, seq_len_kv (seq_len when not given), cross (seq_len_kv given),
/// macs, unit ("MACs" or "FLOPs"), plain_self_attention (square self-attention without softmax or bias FLOPs, the
/// only case where attention / projections = n / 2d).
View workload_facts(const spec::Workload& workload, const solve::MhaSolution& block);

/// The number format: dtype and bits per value.
View precision_facts(const spec::Precision& precision);

} // namespace headcount::render

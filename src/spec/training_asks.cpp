// The rows of the training asks. The conventions are Markdown with TeX, as docs/spec.md shows them.

#include <spec/training_asks.hpp>

#include <util/rows.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace headcount::spec {

namespace {

using enum TrainingWorkload;

constexpr auto k_rows = std::to_array<TrainingAsk>({
    {"memory.weights", "the weights' bytes, per GPU under ZeRO stage 3", "bytes", none,
     "the ZeRO paper (Rajbhandari et al. 2020, section 3.1): 2 bytes per parameter under mixed precision, 4 in fp32; "
     "under LoRA the model's and the adapters'"},
    {"memory.gradients", "the gradients' bytes, per GPU from ZeRO stage 2; under LoRA the adapters' alone", "bytes",
     none, "one gradient per trained parameter in the weights' format (the ZeRO paper, section 3.1)"},
    {"memory.optimizer_states",
     "the optimizer's bytes (its moments, and the fp32 master weights under mixed precision), per GPU from ZeRO "
     "stage 1; under LoRA the adapters' alone",
     "bytes", none,
     "the ZeRO paper, section 3.1: 12 bytes per parameter for mixed-precision Adam (4 master, 4 + 4 moments), 8 in "
     "fp32"},
    {"memory.model_states", "weights + gradients + optimizer states", "bytes", none,
     "the ZeRO paper: 2 + 2 + 12 = 16 bytes per parameter for mixed-precision Adam; 4 + 4 + 8 in fp32; "
     "$2\\Psi + 14\\Psi/N_d$ under stage 2. DeepSpeed's `estimate_zero2_model_states_mem_needs` allows "
     "$4\\Psi + 16\\Psi/N_d$ for its buffers."},
    {"memory.activations", "bytes kept for the backward pass, all layers, 16-bit", "bytes", tokens,
     "Korthikanti et al. 2022, Table 2, with the FFN's width: $s b (18 d_{model} + 4 d_{ff}) + 5 a s^2 b$ per layer "
     "without recomputation (their $s b h (34 + 5 a s / h)$ when $d_{ff} = 4 d_{model}$; $14 d_{model} + 4 d_{kv}$ "
     "in place of $18 d_{model}$ under grouped-query attention), $s b (18 d_{model} + 4 d_{ff})$ selective (as "
     "Megatron-LM's `theoretical_memory_usage.py`), $2 s b d_{model}$ full"},
    {"memory.training", "model states + activations", "bytes", none, "the peak at the end of the forward pass"},
    {"batch.max",
     "the largest batch whose `memory.training` fits `memory_budget`: "
     "$\\lfloor (\\text{budget} - \\text{model states}) / \\text{activations of one sequence} \\rfloor$",
     "sequences", none, "by definition"},
    {"flops.training_run", "`steps` × the step's FLOPs, or `tokens` / (`batch` × `seq_len`) × `flops.training`",
     "FLOPs", flops,
     "Korthikanti et al.'s model FLOPs: $72 B s l h^2 (1 + s/6h + V/12hl)$ per step for a GPT (the Megatron paper's "
     "$96 \\ldots$ counts a recomputed forward pass too)"},
    {"time.training", "`flops.training_run` / (`gpus` × `peak_flops` × `mfu`)", "days", none,
     "nanoGPT's sizing notebook"},
    {"mfu", "the step's FLOPs / (`step_time` × `gpus` × `peak_flops`)", "percent", flops,
     "PaLM Appendix B, nanoGPT's `estimate_mfu`; recomputed passes are not counted (that is HFU)"},
    {"flops.decode_step",
     "one new token for each of `batch` sequences with `seq_len` positions in the KV cache: every weight matrix once "
     "(2 FLOPs per weight) plus $Q K^\\top$ and $A V$ over the cache",
     "FLOPs", flops,
     "kipply's Transformer Inference Arithmetic; calflops in generate mode; over a cache of one it is "
     "`flops.model_forward` of one token (without `causal: true`, whose convention halves even a single score)"},
    {"params.lora", "$r (d_{in} + d_{out})$ per adapted matrix in every layer", "parameters", none,
     "the LoRA paper, section 4; PEFT's `print_trainable_parameters` (LLaMA-7B, r = 8 on q, v: 4,194,304)"},
    {"params.trainable", "what trains: the adapters under LoRA, else the model", "parameters", none,
     "the LoRA paper, section 4; PEFT's `print_trainable_parameters`"},
    {"params.active",
     "with `experts` and `top_k`: `model_params` less the experts a token does not use, layers × (experts − top_k) "
     "× one expert",
     "parameters", none,
     "Megatron-LM's `num_active_parameters` (router and embeddings active); Mixtral-8x7B 12,879,925,248 of "
     "46,702,792,704"},
});
static_assert(ids_unique(k_rows), "two training asks have the same id");
static_assert(std::all_of(k_rows.begin(), k_rows.end(),
                          [](const TrainingAsk& row) {
                              return !row.id.empty() && !row.what.empty() && !row.unit.empty() &&
                                     !row.convention.empty();
                          }),
              "every training ask says what it asks for, its unit and the convention its solution states");

} // namespace

std::span<const TrainingAsk> training_asks() { return k_rows; }

const TrainingAsk* find_training_ask(std::string_view id) {
    const auto* found = std::find_if(k_rows.begin(), k_rows.end(), [&](const TrainingAsk& a) { return a.id == id; });
    return found == k_rows.end() ? nullptr : found;
}

std::string training_asks_markdown() {
    std::string out = "| ask | what | unit | convention |\n|---|---|---|---|\n";
    for (const TrainingAsk& a : k_rows)
        out += fmt::format("| `{}` | {} | {} | {} |\n", a.id, a.what, a.unit, a.convention);
    return out;
}

} // namespace headcount::spec

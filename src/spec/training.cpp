// The training asks as formulas (memory, compute, time, MFU, LoRA, MoE): one entry per ask, each with its worked
// explanation and listed mistakes in the words of the spec's setup (training_setup.hpp). Over 400 lines because it
// is one table of fourteen entries whose prose is the solutions' text; the entries share the setup's words
// (precision, ZeRO, LoRA), which a split by family would have to pass around or repeat.

#include <spec/training.hpp>

#include <spec/quantities_reader.hpp>
#include <spec/training_setup.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace headcount::spec::detail {

namespace {

/// One quantity as a spec's `quantities:` would define it.
struct Entry {
    std::string ask, title, formula, explanation;     ///< the unit is the ask's row (training_asks.cpp)
    std::vector<std::array<std::string, 3>> mistakes; ///< id, formula, feedback
    std::vector<std::string_view> needs;              ///< the givens (values) its formula uses
    std::vector<std::string_view> uses;               ///< the other entries (asks) its formula uses
};

std::string bytes_word(int bytes) { return bytes == 2 ? "2 bytes (16-bit)" : "4 bytes (fp32)"; }

/// The ZeRO sentence of a model-state quantity sharded from `stage` on.
std::string zero_note(const Setup& s, int stage, std::string_view what) {
    if (s.zero_stage == 0)
        return fmt::format(" Without ZeRO (`zero_stage: 0`) every data-parallel GPU holds all the {}.", what);
    if (s.zero_stage < stage)
        return fmt::format(" ZeRO stage {} does not split the {} (stage {} does): every data-parallel GPU holds "
                           "them all.",
                           s.zero_stage, what, stage);
    return fmt::format(" ZeRO stage {} splits the {} over the $N_d$ = `data_parallel` GPUs, so each holds "
                       "$1/N_d$ of them (Rajbhandari et al. 2020, section 5).",
                       s.zero_stage, what);
}

std::map<std::string, Entry, std::less<>> entries(const Setup& s, const Problem& problem) {
    std::map<std::string, Entry, std::less<>> out;
    const int weight_bytes = s.precision == Precision::mixed ? 2 : 4;
    const std::string precision_words =
        s.precision == Precision::mixed ? "Under mixed precision the weights and gradients are 16-bit (2 bytes each)"
                                        : "In fp32 the weights and gradients take 4 bytes each";
    const bool dp = problem.values.contains("data_parallel");
    const std::string batch_words = dp ? "`batch` is what one data-parallel replica processes in a step: the "
                                         "`data_parallel` replicas process `data_parallel` × `batch` sequences."
                                       : "`batch` is the sequences of one step.";
    const auto shard = [&](int stage) { return s.zero_stage >= stage ? std::string(" / data_parallel") : ""; };
    const auto needs_dp = [&](int stage) {
        return s.zero_stage >= stage ? std::vector<std::string_view>{"data_parallel"} : std::vector<std::string_view>{};
    };

    // Under LoRA the base model is frozen: gradients and optimizer states are the adapters' alone, and the weights
    // are the model's and the adapters'.
    const bool lora = !s.lora_targets.empty();
    const std::string trained = lora ? "params_lora" : "model_params";
    const std::string stored = lora ? "(model_params + params_lora)" : "model_params";
    const std::vector<std::string_view> lora_uses =
        lora ? std::vector<std::string_view>{"params.lora"} : std::vector<std::string_view>{};
    const std::string lora_words = lora ? " Under LoRA the base model is frozen: only the adapters (`params.lora`) "
                                          "have gradients and optimizer states, while the weights are the model's "
                                          "and the adapters'."
                                        : "";
    const std::string weights_formula = fmt::format("{} * {}", weight_bytes, stored);
    const std::string gradients_formula = fmt::format("{} * {}", weight_bytes, trained);

    {
        Entry e{"memory.weights",
                s.zero_stage >= 3 ? "memory for the weights per GPU" : "memory for the weights",
                weights_formula + shard(3),
                fmt::format("{}: {} per parameter.{}{}", precision_words, bytes_word(weight_bytes), lora_words,
                            zero_note(s, 3, "weights")),
                {},
                needs_dp(3),
                lora_uses};
        if (s.zero_stage >= 3)
            e.mistakes.push_back({"zero_not_applied", weights_formula,
                                  "The weights were counted whole; ZeRO stage 3 splits them over the data-parallel "
                                  "GPUs, each keeping only its share."});
        out["memory_weights"] = std::move(e);
    }

    {
        Entry e{"memory.gradients",
                s.zero_stage >= 2 ? "gradient memory per GPU" : "gradient memory",
                gradients_formula + shard(2),
                fmt::format("One gradient per trained parameter, in the weights' format: {} each. {}.{}{}",
                            bytes_word(weight_bytes), precision_words, lora_words, zero_note(s, 2, "gradients")),
                {},
                needs_dp(2),
                lora_uses};
        if (s.zero_stage >= 2)
            e.mistakes.push_back({"zero_not_applied", gradients_formula,
                                  "The gradients were counted whole; ZeRO stage 2 and above split them over the "
                                  "data-parallel GPUs, each keeping only its share."});
        out["memory_gradients"] = std::move(e);
    }

    const int moments = s.optimizer == Optimizer::sgd ? 0 : (s.optimizer == Optimizer::sgd_momentum ? 1 : 2);
    const bool master = s.precision == Precision::mixed;
    const auto core = [&](int m, bool with_master) -> std::string {
        const std::string moment_bytes = m == 0 ? "" : (m == 1 ? "4" : fmt::format("{} * 4", m));
        if (with_master && !moment_bytes.empty())
            return fmt::format("(4 + {})", moment_bytes);
        if (with_master)
            return "4";
        return moment_bytes.empty() ? "0" : moment_bytes;
    };
    const auto optimizer_formula = [&](int m, bool with_master, bool sharded) {
        return fmt::format("{} * {}{}", core(m, with_master), trained, sharded ? shard(1) : "");
    };
    {
        const std::string_view optimizer_words =
            moments == 2   ? "Adam keeps two fp32 moments per parameter, the momentum and the variance (4 bytes each)"
            : moments == 1 ? "SGD with momentum keeps one fp32 momentum per parameter (4 bytes)"
                           : "Plain SGD keeps no state of its own";
        const std::string master_words =
            master ? " Under mixed precision the optimizer also keeps an fp32 master copy of the weights (4 bytes per "
                     "parameter), which it updates and rounds to 16 bits: Adam in mixed precision keeps 12 bytes per "
                     "parameter, 16 with the 16-bit weights and gradients (Rajbhandari et al. 2020, ZeRO, section "
                     "3.1)."
                   : " In fp32 the weights are the master copy; there is no second one.";
        Entry e{
            "memory.optimizer_states",
            s.zero_stage >= 1 ? "optimizer-state memory per GPU" : "optimizer-state memory",
            optimizer_formula(moments, master, true),
            fmt::format("{}.{}{}{}", optimizer_words, master_words, lora_words, zero_note(s, 1, "optimizer states")),
            {},
            needs_dp(1),
            lora_uses};
        if (moments == 2)
            e.mistakes.push_back({"adam_one_moment", optimizer_formula(1, master, true),
                                  "Adam keeps two moments per parameter, the momentum and the variance; one of them "
                                  "was counted."});
        if (master && moments > 0)
            e.mistakes.push_back({"no_master_copy", optimizer_formula(moments, false, true),
                                  "Under mixed precision the optimizer also keeps an fp32 master copy of the weights, "
                                  "4 bytes per parameter; it was left out."});
        if (s.zero_stage >= 1)
            e.mistakes.push_back({"zero_not_applied", optimizer_formula(moments, master, false),
                                  "The optimizer states were counted whole; every ZeRO stage splits them over the "
                                  "data-parallel GPUs."});
        out["memory_optimizer_states"] = std::move(e);
    }

    out["memory_model_states"] =
        Entry{"memory.model_states",
              s.zero_stage >= 1 ? "model-state memory (weights, gradients and optimizer states) per GPU"
                                : "model-state memory (weights, gradients and optimizer states)",
              "memory_weights + memory_gradients + memory_optimizer_states",
              std::string("The model states are what training keeps for every parameter throughout: its weight, its "
                          "gradient and the optimizer's states. Activations come and go with each step and are counted "
                          "apart.") +
                  (s.zero_stage == 2 && master && moments == 2
                       ? " DeepSpeed's `estimate_zero2_model_states_mem_needs` allows more for this setup, 4 bytes per "
                         "parameter on every GPU and 16 split over them, for its buffers; this counts the states alone."
                       : ""),
              {{"no_gradients", "memory_weights + memory_optimizer_states",
                "The gradients were left out: the backward pass writes one per parameter, and they are held until the "
                "optimizer step."}},
              {},
              {"memory.weights", "memory.gradients", "memory.optimizer_states"}};
    if (s.zero_stage >= 1)
        out["memory_model_states"].mistakes.push_back(
            {"zero_not_applied",
             fmt::format("{} + {} + {}", weights_formula, gradients_formula, optimizer_formula(moments, master, false)),
             "The model states were counted whole, as on one GPU; ZeRO splits them over the data-parallel GPUs, each "
             "keeping only its share."});

    {
        // Grouped-query attention keeps narrower K and V: 4 d_model of Korthikanti's 18 are K's and V's 2 bytes.
        const bool gqa = problem.given.n_kv_heads.has_value();
        const bool moe = problem.model && problem.model->experts > 0;
        const std::string linear =
            fmt::format("{} + 4 * {}d_ff", gqa ? "14 * d_model + 4 * n_kv_heads * d_model / h" : "18 * d_model",
                        moe ? "top_k * " : "");
        const std::string none = fmt::format("layers * seq_len * batch * ({} + 5 * h * seq_len)", linear);
        const std::string selective = fmt::format("layers * seq_len * batch * ({})", linear);
        const std::string full = "2 * layers * seq_len * batch * d_model";
        const std::string convention = fmt::format(
            "Activations are counted as Korthikanti et al. 2022 (Reducing Activation Recomputation in Large "
            "Transformer Models, section 4, Table 2) count them for a GPT layer: 16-bit values (as in mixed-precision "
            "training, whatever the weights' precision) and 1-byte dropout masks, for each layer "
            "$s b (18 d_{{model}} + 4 d_{{ff}})$ bytes for the inputs the linear layers, norms, GELU and dropouts "
            "keep{}, and $5 a s^2 b$ for what attention keeps per head: the softmax's output and the dropout's output "
            "(2 bytes each) and the dropout mask (1 byte), where $s$ is `seq_len`, $b$ the batch and $a$ the heads "
            "$h$. With $d_{{ff}} = 4 d_{{model}}$ this is their $s b h (34 + 5 a s / h)$ per layer; Megatron-LM's "
            "`theoretical_memory_usage.py` uses the same $18 + 4 d_{{ff}} / d_{{model}}$, also for a gated FFN. The "
            "embeddings, the output layer and the loss are left out here; Megatron-LM adds them for the first and "
            "last pipeline stages.{}",
            gqa ? " (with grouped-query attention, $14 d_{model} + 4 d_{kv}$ for the attention's part, $d_{kv}$ = "
                  "`n_kv_heads` × $d_{model} / h$ the width of K and V)"
                : "",
            moe ? " Under a mixture of experts the FFN's hidden activations (the $4 d_{ff}$ term) are kept once for "
                  "each of the `top_k` experts a token is routed to, $4 k d_{ff}$ here; the experts' inputs, the "
                  "router's scores and the tokens' copies sent to the experts are left out, and Megatron-LM's "
                  "estimate counts one FFN per token."
                : "");
        Entry e{"memory.activations", "activation memory", "", "", {}, {}, {}};
        switch (s.recompute) {
        case Recompute::none:
            e.formula = none;
            e.explanation = convention + " Nothing is recomputed (`recompute: none`), so every layer keeps all of it.";
            e.mistakes.push_back({"one_score_tensor",
                                  fmt::format("layers * seq_len * batch * ({} + 3 * h * seq_len)", linear),
                                  "Attention keeps two score-sized tensors per head of 2 bytes each, the softmax's "
                                  "output and the dropout's output, besides the 1-byte dropout mask; one of them was "
                                  "counted."});
            e.mistakes.push_back({"heads_dropped_from_scores",
                                  fmt::format("layers * seq_len * batch * ({} + 5 * seq_len)", linear),
                                  "Every head has its own $s \\times s$ matrix of scores: the score tensors grow "
                                  "with the number of heads, which was left out."});
            break;
        case Recompute::selective:
            e.formula = selective;
            e.explanation = convention + " Selective recomputation (`recompute: selective`) drops what attention keeps "
                                         "per head and recomputes it in the backward pass, keeping "
                                         "$s b (18 d_{model} + 4 d_{ff})$ per layer.";
            e.mistakes.push_back({"recompute_ignored", none,
                                  "Selective recomputation was ignored: the attention's softmax and dropout are "
                                  "recomputed in the backward pass, not kept."});
            break;
        case Recompute::full:
            e.formula = full;
            e.explanation = convention + " Full recomputation (`recompute: full`) keeps only each layer's input, "
                                         "$2 s b d_{model}$ bytes, and recomputes the layer's forward pass in the "
                                         "backward pass.";
            e.mistakes.push_back({"recompute_ignored", none,
                                  "Full recomputation was ignored: only each layer's input is kept, and the rest is "
                                  "recomputed in the backward pass."});
            break;
        }
        std::string one_layer = e.formula;
        one_layer.replace(one_layer.find("layers * "), 9, "");
        e.mistakes.insert(e.mistakes.begin(),
                          {"one_layer_activations", one_layer,
                           "The activations of one layer were counted; every layer keeps its own for the backward "
                           "pass."});
        out["memory_activations"] = std::move(e);
    }

    out["batch_max"] = Entry{
        "batch.max",
        s.zero_stage >= 1 ? "largest batch per GPU that fits in memory" : "largest batch that fits in memory",
        "floor((memory_budget - memory_model_states) / (memory_activations / batch))",
        "The largest batch $b$ whose peak training memory fits the budget: the model states do not grow with the "
        "batch and the activations grow in proportion to it, so $b$ must satisfy model states + $b$ × (activations "
        "of one sequence) ≤ `memory_budget`, and the largest whole $b$ that does is the floor of (budget − model "
        "states) / (activations of one sequence). The activations of one sequence are those of the batch given, "
        "divided by it.",
        {{"model_states_forgotten", "floor(memory_budget / (memory_activations / batch))",
          "The whole budget was given to the activations; the model states take their share of it first."},
         {"activations_of_whole_batch", "floor((memory_budget - memory_model_states) / memory_activations)",
          "The activations of the whole batch given were taken for those of one sequence: divide them by the batch "
          "first."},
         {"rounded_up", "floor((memory_budget - memory_model_states) / (memory_activations / batch)) + 1",
          "A batch one larger does not fit: the largest batch that fits is rounded down."}},
        {"memory_budget"},
        {"memory.model_states", "memory.activations"}};

    out["memory_training"] = Entry{
        "memory.training",
        s.zero_stage >= 1 ? "peak training memory per GPU" : "peak training memory",
        "memory_model_states + memory_activations",
        "The peak of a training step comes at the end of the forward pass, when every layer's activations are still "
        "held for the backward pass and the model states are held throughout. Temporary buffers and fragmentation "
        "come on top in practice.",
        {},
        {},
        {"memory.model_states", "memory.activations"}};

    {
        const bool steps = problem.values.contains("steps");
        const std::string per_step = dp ? "data_parallel * flops_training" : "flops_training";
        Entry e{"flops.training_run",
                "compute of the whole training run",
                steps ? "steps * " + per_step : "tokens / (batch * seq_len) * flops_training",
                fmt::format("{} `flops.training` counts the FLOPs of `batch` sequences of `seq_len` tokens, "
                            "forward and backward (three forward passes); the run is {}. Kaplan "
                            "et al.'s $C \\approx 6 N D$ counts the same way but leaves out the attention scores and, "
                            "with $N$ the parameters outside the embeddings, the output layer.",
                            batch_words,
                            steps ? (dp ? "`steps` steps of `data_parallel` replicas each" : "`steps` such steps")
                                  : "`tokens` / (`batch` × `seq_len`) times that"),
                {{"training_tripled_twice",
                  steps ? "3 * steps * " + per_step : "3 * tokens / (batch * seq_len) * flops_training",
                  "The FLOPs of a training step already count the backward pass (three forward passes in all); "
                  "they were tripled again."}},
                {},
                {}};
        e.needs.push_back(steps ? "steps" : "tokens");
        out["flops_training_run"] = std::move(e);
    }

    out["time_training"] = Entry{
        "time.training",
        "training time",
        "flops_training_run / (gpus * peak_flops * mfu) / 86400",
        "The run's FLOPs divided by what the GPUs achieve: their number times each one's peak FLOP/s times the model "
        "FLOPs utilisation (MFU), the fraction of the peak spent on the model's FLOPs; 86,400 seconds make a day. As "
        "in nanoGPT's sizing notebook and PaLM (Chowdhery et al. 2022, Appendix B).",
        {{"forgot_mfu", "flops_training_run / (gpus * peak_flops) / 86400",
          "The GPUs were taken to run at their peak: the model FLOPs utilisation (MFU) says what fraction of it "
          "training achieves, and was left out."}},
        {"gpus", "peak_flops", "mfu"},
        {"flops.training_run"}};

    // Not named mfu in formulas: a spec that asks it may give mfu, the utilisation its time.training assumes.
    out["achieved_mfu"] = Entry{
        "mfu",
        "model FLOPs utilisation",
        dp ? "100 * data_parallel * flops_training / (step_time * gpus * peak_flops)"
           : "100 * flops_training / (step_time * gpus * peak_flops)",
        fmt::format("{} Model FLOPs utilisation (PaLM, Chowdhery et al. 2022, Appendix B; nanoGPT's `estimate_mfu`): "
                    "the model's FLOPs per step (`flops.training`, three forward passes{}) over what the GPUs could do "
                    "in the step's time at their peak. Recomputed forward passes are not the model's FLOPs: "
                    "counting them gives the hardware FLOPs utilisation (HFU), higher under `recompute: full`.{}",
                    batch_words, dp ? ", times the `data_parallel` replicas" : "",
                    s.recompute == Recompute::full ? " Here recompute is full, so HFU is 4/3 of MFU." : ""),
        {},
        {"step_time", "gpus", "peak_flops"},
        {}};

    if (!s.lora_targets.empty()) {
        const bool gqa = problem.given.n_kv_heads.has_value();
        const std::string kv_out = gqa ? "n_kv_heads * d_model / h" : "d_model";
        std::string sum, outs, labels;
        for (std::size_t index : s.lora_targets) {
            const Target& t = k_targets[index];
            const std::string_view name = t.names.substr(0, t.names.find(' '));
            std::string in = "d_model", out_width = "d_model";
            if (name == "k" || name == "v")
                out_width = kv_out;
            if (name == "gate" || name == "up")
                out_width = "d_ff";
            if (name == "down")
                in = "d_ff";
            sum += fmt::format("{}({} + {})", sum.empty() ? "" : " + ", in, out_width);
            outs += fmt::format("{}{}", outs.empty() ? "" : " + ", out_width);
            labels += fmt::format("{}{}", labels.empty() ? "" : ", ", t.label);
        }
        out["params_lora"] = Entry{
            "params.lora",
            "LoRA adapter parameters",
            fmt::format("layers * lora_rank * ({})", sum),
            fmt::format("LoRA (Hu et al. 2021, section 4) freezes a weight matrix $W$ of $d_{{in}}$ inputs and "
                        "$d_{{out}}$ outputs and trains $B A$ beside it, with $A$ of $r \\times d_{{in}}$ and $B$ of "
                        "$d_{{out}} \\times r$: $r (d_{{in}} + d_{{out}})$ parameters per adapted matrix, without "
                        "biases, in every layer. Here it adapts {}, with rank $r$ = `lora_rank`. Hugging Face PEFT's "
                        "`print_trainable_parameters` counts the same.",
                        labels),
            {{"lora_r_times_d", fmt::format("layers * lora_rank * ({})", outs),
              "An adapter is two matrices, $A$ ($r \\times d_{in}$) and $B$ ($d_{out} \\times r$): $r (d_{in} + "
              "d_{out})$ parameters per adapted matrix, and one of the two was counted."}},
            {"lora_rank"},
            {}};
    }

    if (problem.model && problem.model->lm_head != ModelGivens::Head::mlm) {
        const bool gqa = problem.given.n_kv_heads.has_value();
        const bool head = problem.model->lm_head == ModelGivens::Head::linear;
        const int ffn_flops = problem.model->ffn == ModelGivens::Ffn::gated ? 6 : 4;
        const bool moe = problem.model->experts > 0;
        const std::string kv = gqa ? "n_kv_heads * d_model / h" : "d_model";
        const std::string layer = fmt::format("2 * d_model * (2 * d_model + 2 * {}) + {} * {}d_model * d_ff{}", kv,
                                              ffn_flops, moe ? "top_k * " : "", moe ? " + 2 * d_model * experts" : "");
        const std::string attention = "4 * seq_len * d_model";
        const auto formula = [&](bool with_attention, bool with_head) {
            return fmt::format("batch * (layers * ({}{}){})", layer, with_attention ? " + " + attention : "",
                               with_head ? " + 2 * d_model * vocab" : "");
        };
        Entry e{"flops.decode_step",
                "compute of one decoding step",
                formula(true, head),
                fmt::format(
                    "One step of generation with a KV cache (kipply's Transformer Inference Arithmetic; calflops in "
                    "generate mode), for each of the `batch` sequences: the new token goes through every weight "
                    "matrix once, 2 FLOPs (a multiply and an add) per weight: $W_Q$ and $W_O$ of $d_{{model}} "
                    "\\times d_{{model}}$, $W_K$ and $W_V$ of $d_{{model}} \\times d_{{kv}}${}, the FFN's {} "
                    "matrices of $d_{{model}} \\times d_{{ff}}${}. Then its query meets the `seq_len` cached keys "
                    "($Q K^\\top$, $2 d_{{model}} s$ FLOPs per layer) and its attention weights the "
                    "cached values ($A V$, as many). Biases, norms, the softmax and the embedding lookup are left out, "
                    "as in `flops.model_forward`. Per token this is about $2N$, $N$ the weights multiplied, plus "
                    "$4 L s d_{{model}}$ for attention, which dominates at long contexts.{}{}",
                    gqa ? " ($d_{kv}$ = `n_kv_heads` × $d_{model} / h$)" : " ($d_{kv} = d_{model}$)",
                    ffn_flops == 6 ? "three" : "two", head ? ", and the output layer's $V \\times d_{model}$" : "",
                    moe ? " Under a mixture of experts the token goes through the router ($d_{model} \\times E$) "
                          "and the FFNs of the `top_k` experts it is routed to, not the others."
                        : "",
                    problem.workload && problem.workload->causal
                        ? " The causal mask changes nothing here: the new token is the last position, which may "
                          "attend to every cached one."
                        : ""),
                {{"attention_over_cache_forgotten", formula(false, head),
                  "The attention over the cache was left out: the new token's query meets every cached key, and its "
                  "attention weights every cached value."},
                 {"no_kv_cache", "flops_model_forward",
                  "The whole sequence was run again, as without a KV cache; with one, only the new token goes "
                  "through the model, and attends over the keys and values kept for the others."}},
                {},
                {}};
        if (head)
            e.mistakes.push_back({"output_layer_forgotten", formula(true, false),
                                  "The output layer was left out: the new token's logits multiply it by the "
                                  "vocabulary's matrix, often the largest single product of the step."});
        out["flops_decode_step"] = std::move(e);
    }

    if (problem.model && problem.model->experts > 0) {
        const ModelGivens& m = *problem.model;
        const bool gated = m.ffn == ModelGivens::Ffn::gated;
        const std::string expert =
            fmt::format("{} * d_model * d_ff{}", gated ? 3 : 2,
                        m.ffn_bias ? fmt::format(" + {}d_ff + d_model", gated ? "2 * " : "") : "");
        const std::string active = fmt::format("model_params - layers * (experts - top_k) * ({})", expert);
        const std::string expert_tex =
            fmt::format("${} d_{{model}} d_{{ff}}{}$", gated ? 3 : 2,
                        m.ffn_bias ? fmt::format(" + {}d_{{ff}} + d_{{model}}", gated ? "2 " : "") : "");
        out["params_active"] = Entry{
            "params.active",
            "parameters active per token",
            active,
            fmt::format("Under top-k routing each token goes through the router and `top_k` of the `experts` FFNs "
                        "of every layer; the other experts' parameters do nothing for it. The active parameters are "
                        "the model's (`model_params`, which counts every expert) less the experts a token does not "
                        "use, {} parameters each ({} matrices of $d_{{model}} \\times d_{{ff}}${}). The router and "
                        "the embeddings count as active, as in Megatron-LM's `num_active_parameters`; Mixtral-8x7B's "
                        "46.7B parameters give 12.9B active this way.",
                        expert_tex, gated ? "three" : "two", m.ffn_bias ? " and their biases" : ""),
            {{"all_experts_active", "model_params",
              "Every expert was counted: `model_params` holds all of them, but a token goes through only `top_k` of "
              "each layer's experts, and the active parameters are the ones it uses."}},
            // The router left out is the catalogue's router_left_out, through model_params.
            {},
            {}};
    }

    out["params_trainable"] = Entry{
        "params.trainable",
        "number of trainable parameters",
        s.lora_targets.empty() ? "model_params" : "params_lora",
        s.lora_targets.empty() ? "Without LoRA every parameter trains: the trainable count is the model's."
                               : "With LoRA the base model is frozen: only the adapters train, which is what PEFT's "
                                 "`print_trainable_parameters` reports as trainable.",
        {},
        {},
        {}};
    if (!s.lora_targets.empty()) {
        out["params_trainable"].uses.push_back("params.lora");
        out["params_trainable"].mistakes.push_back(
            {"frozen_base_counted", "model_params + params_lora",
             "The base model's parameters were counted as trainable; under LoRA they are frozen and only the "
             "adapters train."});
    }
    return out;
}

} // namespace

std::string training_name(std::string_view ask) { return ask == "mfu" ? "achieved_mfu" : builtin_name(ask); }

bool has_training_keys(const YAML::Node& given) {
    if (!given.IsMap())
        return false;
    return std::any_of(k_training_keys.begin(), k_training_keys.end(),
                       [&](std::string_view key) { return static_cast<bool>(given[std::string(key)]); });
}

Result<YAML::Node> training_quantities(const Reader& r, const YAML::Node& given, Problem& problem,
                                       std::span<const std::pair<std::string, YAML::Node>> asked) {
    auto setup = read_setup(r, given);
    if (!setup)
        return std::unexpected(setup.error());
    if (const YAML::Node node = given["memory_budget"]) {
        auto budget = read_budget(r, node);
        if (!budget)
            return std::unexpected(budget.error());
        problem.values.insert_or_assign("memory_budget", std::move(*budget));
    }
    // The numbers a run gives, each checked where it stands.
    struct Bound {
        std::string_view key, rule;
        bool whole, at_most_one;
    };
    for (const Bound& b : {Bound{"gpus", "a whole number of GPUs, at least 1", true, false},
                           Bound{"data_parallel", "a whole number of data-parallel GPUs, at least 1", true, false},
                           Bound{"steps", "a whole number of steps, at least 1", true, false},
                           Bound{"lora_rank", "a whole rank, at least 1", true, false},
                           Bound{"tokens", "a positive number of tokens", false, false},
                           Bound{"peak_flops", "a positive peak FLOP/s per GPU", false, false},
                           Bound{"step_time", "a positive number of seconds", false, false},
                           Bound{"mfu", "a fraction above 0 and at most 1 (0.45 for 45%)", false, true}}) {
        const auto it = problem.values.find(b.key);
        if (it == problem.values.end())
            continue;
        const formula::Number& v = it->second.value;
        if (v <= 0 || (b.whole && v.get_den() != 1) || (b.at_most_one && v > 1))
            return r.error_at(it->second.mark, fmt::format("{} must be {}, got {}", b.key, b.rule, it->second.text));
    }

    if (problem.values.contains("steps") && problem.values.contains("tokens"))
        return r.error_at(problem.values.find("steps")->second.mark,
                          "give steps or tokens, not both: a run's length is one of them");
    if (const YAML::Node node = given["lora_targets"])
        for (std::size_t index : setup->lora_targets)
            if (k_targets[index].names.starts_with("gate") && problem.model &&
                problem.model->ffn != ModelGivens::Ffn::gated)
                return r.error_at(node, "lora_targets: gate is the gated FFN's third matrix, and this model's FFN "
                                        "has two (ffn: mlp): adapt up and down");
    describe_setup(*setup, problem,
                   has_training_keys(given) || std::any_of(asked.begin(), asked.end(), [](const auto& part) {
                       return part.first.starts_with("memory.") || part.first.starts_with("batch.");
                   }));
    const auto all = entries(*setup, problem);
    std::set<std::string> wanted;
    std::vector<std::pair<std::string, const YAML::Node*>> pending;
    for (const auto& [ask, node] : asked)
        pending.emplace_back(ask, &node);
    while (!pending.empty()) {
        auto [ask, node] = pending.back();
        pending.pop_back();
        const std::string name = training_name(ask);
        if (!wanted.insert(name).second)
            continue;
        const auto found = all.find(name);
        if (found == all.end() && name == "flops_decode_step")
            return r.error_at(*node, "flops.decode_step generates with a causal LM: a BERT-style masked-LM head "
                                     "(lm_head: mlm) does not decode");
        if (found == all.end() && name == "params_active")
            return r.error_at(*node, "params.active counts the parameters a token uses under a mixture of experts: "
                                     "give experts and top_k in given");
        if (found == all.end()) // params.lora without lora_targets
            return r.error_at(*node, fmt::format("{} needs lora_targets in given: the matrices LoRA adapts, e.g. "
                                                 "[q, v]",
                                                 ask));
        const Entry& e = found->second;
        if (problem.model && problem.model->layers == 0)
            return r.error_at(*node, fmt::format("{} counts one stack of layers (an encoder or a decoder), and this "
                                                 "model has both",
                                                 ask));
        const TrainingAsk* row = find_training_ask(e.ask);
        if (!row) // every entry is a row's (tests/training_cli_test.cpp solves each row)
            return r.error_at(*node, fmt::format("{} has no row in spec/training_asks.cpp: a bug in headcount", e.ask));
        const TrainingWorkload workload = row->workload;
        if (workload != TrainingWorkload::none && !problem.workload)
            return r.error_at(*node, fmt::format("{} ({}) needs the step's sequences: give seq_len (and batch, 1 if "
                                                 "left out)",
                                                 ask, e.title));
        if (workload == TrainingWorkload::flops && problem.workload->macs)
            return r.error_at(*node, fmt::format("{} counts FLOPs, as a GPU's peak_flops does: drop count: macs", ask));
        std::vector<std::string_view> missing;
        for (std::string_view key : e.needs)
            if (!problem.values.contains(key))
                missing.push_back(key);
        if (!missing.empty()) {
            std::string list;
            for (std::size_t i = 0; i < missing.size(); ++i)
                list += (i == 0 ? "" : (i + 1 == missing.size() ? " and " : ", ")) + std::string(missing[i]) +
                        (missing[i] == "tokens" ? " (or steps)" : "");
            return r.error_at(*node, fmt::format("{} ({}) needs {} in given", ask, e.title, list));
        }
        if (const auto clash = problem.values.find(name); clash != problem.values.end())
            return r.error_at(clash->second.mark, fmt::format("given '{}' has the name of the ask {} a part asks "
                                                              "for; give it or ask it, not both",
                                                              name, ask));
        for (std::string_view used : e.uses)
            pending.emplace_back(std::string(used), node);
    }

    YAML::Node out(YAML::NodeType::Map);
    for (const std::string& name : wanted) {
        const Entry& e = all.find(name)->second;
        YAML::Node q(YAML::NodeType::Map);
        q["title"] = e.title;
        q["unit"] = std::string(find_training_ask(e.ask)->unit); // found for every wanted entry above
        q["formula"] = e.formula;
        q["explanation"] = e.explanation;
        if (!e.mistakes.empty()) {
            YAML::Node list(YAML::NodeType::Sequence);
            for (const auto& [id, formula, feedback] : e.mistakes) {
                YAML::Node m(YAML::NodeType::Map);
                m["id"] = id;
                m["formula"] = formula;
                m["feedback"] = feedback;
                list.push_back(m);
            }
            q["mistakes"] = list;
        }
        out[name] = q;
    }
    return out;
}

} // namespace headcount::spec::detail

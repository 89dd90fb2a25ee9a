// End-to-end tests of the training asks (spec/training.hpp): memory under ZeRO and recomputation, a run's compute and
// time, MFU and LoRA. Every expected value is derived by hand in its comment from the cited formula and a parameter
// count published elsewhere (Hugging Face's model cards); none is read from headcount's output.
#include "run_binary.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using headcount::testing::run_headcount;

namespace {
const std::string k_week = "problems/training-gpt2-xl.yaml";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// GPT-2 small as Hugging Face's GPT2LMHeadModel builds it: 124,439,808 parameters (its model card's "124M"; the
/// count model_params gives for these givens, tested in src/solve/model_test.cpp), with the given `extra` lines.
std::string gpt2_small(const std::string& name, const std::string& extra, const std::string& parts) {
    const std::string path = headcount::testing::fresh_temp_dir("training-" + name) + "/spec.yaml";
    std::ofstream(path) << "id: " << name
                        << "\ntitle: GPT-2 small\nkind: transformer\ngiven:\n  d_model: 768\n  h: 12\n"
                        << "  d_ff: 3072\n  layers: 12\n  vocab: 50257\n  max_positions: 1024\n  final_norm: true\n"
                        << "  lm_head: linear\n  batch: 8\n  seq_len: 1024\n"
                        << extra << "parts:\n"
                        << parts;
    return path;
}

std::string answer_of(const std::string& spec, int part) {
    const auto r = run_headcount({"solve", spec, "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto parsed = nlohmann::json::parse(r.out);
    const auto& answer = parsed["parts"][part]["answer"];
    return answer.is_string() ? answer.get<std::string>() : answer.dump();
}
} // namespace

// P = 124,439,808. ZeRO paper §3.1: mixed-precision Adam keeps 2 + 2 + 12 = 16 bytes per parameter, so the model
// states are 16 P = 1,991,036,928 bytes, of which the optimizer's K = 12: 12 P = 1,493,277,696. In fp32, Adam keeps
// 4 (weights) + 4 (gradients) + 8 (two moments) = 16 P as well, of which 8 P = 995,518,464 are the optimizer's;
// SGD with momentum 4 P = 497,759,232; plain SGD none beyond the weights and gradients: 8 P = 995,518,464.
TEST_CASE("model states follow the precision and the optimizer, as the ZeRO paper counts them", "[e2e][training]") {
    const std::string parts = "  - {id: a, ask: memory.optimizer_states}\n  - {id: b, ask: memory.model_states}\n";
    struct Case {
        const char* setup;
        const char* optimizer_states;
        const char* model_states;
    };
    for (const Case& c : {Case{"  precision: mixed\n  optimizer: adamw\n", "1493277696", "1991036928"},
                          Case{"  precision: fp32\n  optimizer: adam\n", "995518464", "1991036928"},
                          Case{"  optimizer: sgd_momentum\n", "497759232", "1493277696"},
                          Case{"  precision: fp32\n  optimizer: sgd\n", "0", "995518464"}}) {
        INFO(c.setup);
        const std::string spec = gpt2_small("states", c.setup, parts);
        CHECK(answer_of(spec, 0) == c.optimizer_states);
        CHECK(answer_of(spec, 1) == c.model_states);
    }
}

// GPT-2 small is advertised as 124M: 16 x 124,000,000 = 1,984,000,000 bytes of model states for mixed Adam, where the
// configuration's count gives 16 x 124,439,808 = 1,991,036,928. LLaMA-2-7B (6,738,415,616 parameters) as 7B: its
// 16-bit weights 2 x 7,000,000,000 = 14,000,000,000 bytes against 13,476,831,232.
TEST_CASE("a model's advertised size used for its parameter count is named", "[e2e][training]") {
    const std::string spec =
        gpt2_small("advertised", "  precision: mixed\n", "  - {id: a, ask: memory.model_states}\n");
    const auto gpt2 = run_headcount({"check", spec, "--part", "a", "--answer", "1984000000"});
    CHECK(gpt2.exit_code == 1);
    CHECK(has(gpt2.out, "`advertised_size`"));
    const std::string llama = headcount::testing::fresh_temp_dir("training-advertised-llama") + "/spec.yaml";
    std::ofstream(llama) << "id: l\ntitle: L\nkind: transformer\ngiven:\n  d_model: 4096\n  h: 32\n  bias: false\n"
                         << "  d_ff: 11008\n  layers: 32\n  vocab: 32000\n  norm: rmsnorm\n  ffn: gated\n"
                         << "  ffn_bias: false\n  final_norm: true\n  lm_head: linear\n  tied_embeddings: false\n"
                         << "  precision: mixed\nparts:\n  - {id: a, ask: memory.weights}\n";
    // 13,476,831,232 bytes is 13 GB to two figures, so 14 GB is no rounding of it: 2 x 7B, named.
    CHECK(has(run_headcount({"check", llama, "--part", "a", "--answer", "14 GB"}).out, "`advertised_size`"));
    // 2 x 6.7B (the count cut to two figures) = 13.4 GB, not 13.48 GB rounded (13 or 13.5): named.
    CHECK(has(run_headcount({"check", llama, "--part", "a", "--answer", "13.4 GB"}).out, "`advertised_size`"));
    // 2 x 6.74B = 13.48 GB is also the right value to four figures, and bytes written with a unit are right to the
    // figures they give, as on every byte ask: right, with no mistake named.
    const auto rounded_right = run_headcount({"check", llama, "--part", "a", "--answer", "13.48 GB"});
    CHECK(rounded_right.exit_code == 0);
    CHECK(!has(rounded_right.out, "advertised_size"));
    // A toy model has no advertised size. d_model 64, 4 heads, d_ff 256, 2 layers: per layer 4 x 64 x 65 attention
    // + 2 x 64 x 256 + 256 + 64 FFN + 2 x 128 norms = 49,984; 99,968 in all, 16 x 99,968 = 1,599,488 bytes. Its
    // count rounded, 16 x 100,000 = 1,600,000, is not named as an advertised size.
    const std::string toy = headcount::testing::fresh_temp_dir("training-advertised-toy") + "/spec.yaml";
    std::ofstream(toy) << "id: t\ntitle: T\nkind: transformer\ngiven:\n  d_model: 64\n  h: 4\n  d_ff: 256\n"
                       << "  layers: 2\nparts:\n  - {id: a, ask: memory.model_states}\n";
    CHECK(run_headcount({"check", toy, "--part", "a", "--answer", "1599488"}).exit_code == 0);
    const auto rounded = run_headcount({"check", toy, "--part", "a", "--answer", "1600000"});
    CHECK(rounded.exit_code == 1);
    CHECK(!has(rounded.out, "advertised_size"));
}

// ZeRO paper §5 and Figure 1, with Psi = P and N_d = 8: stage 1 keeps 2P + 2P + 12P/8 = 5.5P = 684,418,944;
// stage 2 2P + 14P/8 = 3.75P = 466,649,280; stage 3 16P/8 = 2P = 248,879,616 bytes per GPU.
TEST_CASE("ZeRO splits the model states over the data-parallel GPUs stage by stage", "[e2e][training]") {
    const std::string parts = "  - {id: a, ask: memory.model_states}\n";
    for (const auto& [stage, bytes] : {std::pair{"1", "684418944"}, {"2", "466649280"}, {"3", "248879616"}}) {
        INFO(stage);
        const std::string spec =
            gpt2_small(std::string("zero") + stage,
                       std::string("  precision: mixed\n  zero_stage: ") + stage + "\n  data_parallel: 8\n", parts);
        CHECK(answer_of(spec, 0) == bytes);
    }
    // Counting the states whole under stage 2 is named: 16 P = 1,991,036,928 would be the whole, but the model
    // states sum three quantities, so the slip shows in the optimizer states: 12 P = 1,493,277,696.
    const std::string spec = gpt2_small("zero-slip", "  precision: mixed\n  zero_stage: 2\n  data_parallel: 8\n",
                                        "  - {id: a, ask: memory.optimizer_states}\n");
    const auto r = run_headcount({"check", spec, "--part", "a", "--answer", "1493277696"});
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "`zero_not_applied`"));
}

// Korthikanti et al. 2022, Table 2, per layer with s = 1024, b = 8, h = 768, a = 12, L = 12 layers:
// none:      s b h (34 + 5 a s / h) = 1024 x 8 x 768 x (34 + 80) = 717,225,984; x 12 = 8,606,711,808
// selective: 34 s b h = 213,909,504; x 12 = 2,566,914,048
// full:      2 s b h = 12,582,912; x 12 = 150,994,944
TEST_CASE("activations follow Korthikanti et al.'s Table 2 for each recomputation", "[e2e][training]") {
    const std::string parts = "  - {id: a, ask: memory.activations}\n";
    for (const auto& [recompute, bytes] :
         {std::pair{"none", "8606711808"}, {"selective", "2566914048"}, {"full", "150994944"}}) {
        INFO(recompute);
        const std::string spec =
            gpt2_small(std::string("act-") + recompute, std::string("  recompute: ") + recompute + "\n", parts);
        CHECK(answer_of(spec, 0) == bytes);
    }
    const std::string none = gpt2_small("act-mistakes", "", parts);
    // One layer: 717,225,984. One score tensor instead of two (3 a s^2 b in place of 5): per layer
    // s b (18 h + 4 d_ff) + 3 a s^2 b = 8192 x 26112 + 3 x 12 x 1024^2 x 8 = 213,909,504 + 301,989,888 = 515,899,392;
    // x 12 = 6,190,792,704. Heads dropped (5 s^2 b): 213,909,504 + 41,943,040 = 255,852,544; x 12 = 3,070,230,528.
    for (const auto& [answer, mistake] : {std::pair{"717225984", "one_layer_activations"},
                                          {"6190792704", "one_score_tensor"},
                                          {"3070230528", "heads_dropped_from_scores"}}) {
        INFO(mistake);
        const auto r = run_headcount({"check", none, "--part", "a", "--answer", answer});
        CHECK(r.exit_code == 1);
        CHECK(has(r.out, std::string("`") + mistake + "`"));
    }
    // Selective recomputation ignored gives the full figure.
    const std::string selective = gpt2_small("act-selective", "  recompute: selective\n", parts);
    CHECK(has(run_headcount({"check", selective, "--part", "a", "--answer", "8606711808"}).out, "`recompute_ignored`"));
}

// The week's problem, GPT-2 XL (Hugging Face's gpt2-xl: 1,557,611,200 parameters), mixed AdamW, ZeRO-2 over 8 GPUs:
// (a) 12 P / 8 = 2,336,416,800; (b) 2P + 2P/8 + 12P/8 = 3,115,222,400 + 389,402,800 + 2,336,416,800 = 5,841,042,000;
// (c) selective, 48 x 1024 x 4 x (18 x 1600 + 4 x 6400) = 196,608 x 54,400 = 10,695,475,200; (d) their sum,
// 16,536,517,200. (e) the Megatron paper's 72 B s l h^2 (1 + s/6h + V/12hl) per step is, per token,
// 72 l h^2 + 12 s l h + 6 h V = 8,847,360,000 + 943,718,400 + 482,467,200 = 10,273,545,600 FLOPs; times 10^10 tokens,
// 102,735,456,000,000,000,000 (past 2^64 = 1.8 x 10^19). (f) that / (8 x 312e12 x 0.4) = 102,900.096 s, / 86400 =
// 1.190973... days.
TEST_CASE("the training week's answers, past 64 bits where the run is", "[e2e][training]") {
    const auto r = run_headcount({"solve", k_week, "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto parts = nlohmann::json::parse(r.out)["parts"];
    CHECK(parts[0]["answer"] == 2336416800LL);
    CHECK(parts[1]["answer"] == 5841042000LL);
    CHECK(parts[2]["answer"] == 10695475200LL);
    CHECK(parts[3]["answer"] == 16536517200LL);
    CHECK(parts[4]["answer"] == "102735456000000000000");
    const std::string days = parts[5]["answer"];
    const auto slash = days.find('/');
    REQUIRE(slash != std::string::npos);
    CHECK(std::stod(days.substr(0, slash)) / std::stod(days.substr(slash + 1)) == Approx(1.1909733).epsilon(1e-6));

    // Forgetting the MFU: 102,900.096 s at 40% is 41,160.04 s at the peak, 0.476389 days.
    const auto mfu = run_headcount({"check", k_week, "--part", "f", "--answer", "0.476 days"});
    CHECK(mfu.exit_code == 1);
    CHECK(has(mfu.out, "`forgot_mfu`"));
    // Tripling a step's FLOPs again: 3 x 102,735,456,000,000,000,000.
    const auto tripled = run_headcount({"check", k_week, "--part", "e", "--answer", "308206368000000000000"});
    CHECK(has(tripled.out, "`training_tripled_twice`"));
    // Any unit of time: 1.19 days is 28.6 hours.
    CHECK(run_headcount({"check", k_week, "--part", "f", "--answer", "28.6 hours"}).exit_code == 0);
}

// nanoGPT's estimate_mfu and PaLM Appendix B: MFU = model FLOPs per step / (step time x GPUs x peak). GPT-2 small at
// b = 512, s = 1024: per token 72 l h^2 + 12 s l h + 6 h V = 509,607,936 + 113,246,208 + 231,584,256 = 854,438,400
// FLOPs (the Megatron paper's formula), per step x 524,288 = 447,971,799,859,200; over 0.9 s x 8 x 312e12 =
// 2.2464e15 FLOPs, 0.199418..., 19.9418...%. A percentage is a fraction of one shown times 100 (issue 39, rule 2),
// the built-in mfu as a spec's own: the fraction and the percentage are both right, at three figures.
TEST_CASE("mfu is the model's FLOPs over what the GPUs could do in the step", "[e2e][training]") {
    const std::string path = headcount::testing::fresh_temp_dir("training-mfu") + "/spec.yaml";
    std::ofstream(path) << "id: mfu\ntitle: MFU\nkind: transformer\ngiven:\n  d_model: 768\n  h: 12\n  d_ff: 3072\n"
                        << "  layers: 12\n  vocab: 50257\n  max_positions: 1024\n  final_norm: true\n"
                        << "  lm_head: linear\n  batch: 512\n  seq_len: 1024\n  gpus: 8\n"
                        << "  peak_flops: 312000000000000\n  step_time: 0.9\n  mfu: 0.4\n"
                        << "parts:\n  - {id: a, ask: mfu}\n";
    for (const char* right : {"19.9%", "19.94 percent", "19.94", "0.1994", "0.199"}) {
        INFO(right);
        CHECK(run_headcount({"check", path, "--part", "a", "--answer", right}).exit_code == 0);
    }
    // 20.0 % is 0.058 points off, past half a unit in the third figure (0.05).
    CHECK(run_headcount({"check", path, "--part", "a", "--answer", "20.0%"}).exit_code == 1);
    CHECK_FALSE(has(run_headcount({"check", path, "--part", "a", "--answer", "0.1994"}).out, "fraction_for_percent"));
    // Shown as the percentage, as a spec's own; JSON's answer is the formula's value, the fraction, exactly:
    // 447,971,799,859,200 / 2,246,400,000,000,000 = 15,190,016 / 76,171,875 in lowest terms (both divided by
    // 29,491,200 = 2^17 x 3^2 x 5^2), unit percent.
    CHECK(has(run_headcount({"solve", path}).out, "**Answer: about 19.94%.**"));
    const auto json = nlohmann::json::parse(run_headcount({"solve", path, "--format", "json"}).out);
    CHECK(json["parts"][0]["unit"] == "percent");
    CHECK(json["parts"][0]["answer"] == "15190016/76171875");
}

// PEFT's print_trainable_parameters for LLaMA-7B with r = 8 on q_proj and v_proj: "trainable params: 4,194,304".
// By hand: 32 layers x 8 x ((4096 + 4096) + (4096 + 4096)) = 4,194,304. With r x d per matrix: half, 2,097,152.
// On the gate, up and down matrices too (d_ff = 11,008): 32 x 8 x (2 x 8192 + 3 x 15104) = 15,794,176.
TEST_CASE("LoRA adapters count r (d_in + d_out) per adapted matrix, as PEFT reports", "[e2e][training]") {
    const auto llama = [](const std::string& name, const std::string& targets) {
        const std::string path = headcount::testing::fresh_temp_dir("training-" + name) + "/spec.yaml";
        std::ofstream(path) << "id: " << name << "\ntitle: LLaMA-7B\nkind: transformer\ngiven:\n  d_model: 4096\n"
                            << "  h: 32\n  bias: false\n  d_ff: 11008\n  layers: 32\n  vocab: 32000\n"
                            << "  norm: rmsnorm\n  ffn: gated\n  ffn_bias: false\n  final_norm: true\n"
                            << "  lm_head: linear\n  tied_embeddings: false\n  lora_rank: 8\n  lora_targets: "
                            << targets
                            << "\nparts:\n  - {id: a, ask: params.lora}\n  - {id: b, ask: params.trainable}\n";
        return path;
    };
    const std::string qv = llama("lora-qv", "[q_proj, v_proj]");
    CHECK(answer_of(qv, 0) == "4194304");
    CHECK(answer_of(qv, 1) == "4194304");
    CHECK(has(run_headcount({"check", qv, "--part", "a", "--answer", "2097152"}).out, "`lora_r_times_d`"));
    CHECK(answer_of(llama("lora-all", "[q, v, gate, up, down]"), 0) == "15794176");
}

TEST_CASE("training asks say what they need, at the line and column", "[e2e][training]") {
    const std::string no_gpus = gpt2_small("need", "  tokens: 1000000000\n", "  - {id: a, ask: time.training}\n");
    auto r = run_headcount({"solve", no_gpus});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "spec.yaml:17:18: time.training (training time) needs gpus, peak_flops and mfu in given"));

    const std::string bad_optimizer =
        gpt2_small("optimizer", "  optimizer: adamx\n", "  - {id: a, ask: memory.model_states}\n");
    r = run_headcount({"solve", bad_optimizer});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "spec.yaml:15:14: optimizer must be one of adamw, adam, sgd_momentum, sgd"));

    const std::string zero = gpt2_small("zero-needs", "  zero_stage: 2\n", "  - {id: a, ask: memory.model_states}\n");
    CHECK(has(run_headcount({"solve", zero}).err, "give data_parallel"));

    const std::string mfu = gpt2_small("mfu-range", "  tokens: 1000000000\n  gpus: 8\n  peak_flops: 3e14\n  mfu: 45\n",
                                       "  - {id: a, ask: time.training}\n");
    CHECK(has(run_headcount({"solve", mfu}).err, "mfu must be a fraction above 0 and at most 1"));

    const std::string lora = gpt2_small("lora-needs", "  lora_rank: 8\n", "  - {id: a, ask: params.lora}\n");
    CHECK(has(run_headcount({"solve", lora}).err, "params.lora needs lora_targets"));

    const std::string both =
        gpt2_small("steps-tokens", "  steps: 10\n  tokens: 1000\n", "  - {id: a, ask: flops.training_run}\n");
    CHECK(has(run_headcount({"solve", both}).err, "give steps or tokens, not both"));

    const std::string block = headcount::testing::fresh_temp_dir("training-block") + "/spec.yaml";
    std::ofstream(block) << "id: b\ntitle: B\ngiven: {d_model: 8, h: 2}\nparts:\n  - {id: a, ask: memory.training}\n";
    CHECK(has(run_headcount({"solve", block}).err, "memory.training is asked of a whole model"));
}

// Llama-3-8B (grouped-query attention, 8 KV heads of 128: d_kv = 1024; d_ff 14,336), r = 8 on every linear: per layer
// q 4096 + 4096, k and v 4096 + 1024 each, o 4096 + 4096, gate and up 4096 + 14336 each, down 14336 + 4096: 81,920;
// x 32 layers x 8 = 20,971,520 (what PEFT reports for it). Activations at s = 4096, b = 1 without recomputation,
// Korthikanti's count with K and V of width d_kv: s b (14 h + 4 d_kv + 4 d_ff) + 5 a s^2 b = 4096 x 118,784 +
// 160 x 4096^2 = 486,539,264 + 2,684,354,560 = 3,170,893,824 per layer; x 32 = 101,468,602,368.
TEST_CASE("grouped-query attention narrows LoRA's K and V adapters and the activations kept", "[e2e][training]") {
    const std::string path = headcount::testing::fresh_temp_dir("training-gqa") + "/spec.yaml";
    std::ofstream(path) << "id: gqa\ntitle: Llama-3-8B\nkind: transformer\ngiven:\n  d_model: 4096\n  h: 32\n"
                        << "  n_kv_heads: 8\n  bias: false\n  d_ff: 14336\n  layers: 32\n  vocab: 128256\n"
                        << "  norm: rmsnorm\n  ffn: gated\n  ffn_bias: false\n  final_norm: true\n  lm_head: linear\n"
                        << "  tied_embeddings: false\n  batch: 1\n  seq_len: 4096\n  lora_rank: 8\n"
                        << "  lora_targets: [q, k, v, o, gate, up, down]\n"
                        << "parts:\n  - {id: a, ask: params.lora}\n  - {id: b, ask: memory.activations}\n";
    CHECK(answer_of(path, 0) == "20971520");
    CHECK(answer_of(path, 1) == "101468602368");
}

// Under LoRA only the adapters train. GPT-2 small, r = 8 on q and v: 12 x 8 x (1536 + 1536) = 294,912 adapter
// parameters; mixed-precision Adam keeps 12 bytes for each, 3,538,944, and 2-byte gradients, 589,824; the weights
// are the model's and the adapters', 2 x (124,439,808 + 294,912) = 249,469,440 bytes.
TEST_CASE("under LoRA the gradients and optimizer states are the adapters' alone", "[e2e][training]") {
    const std::string spec = gpt2_small("lora-memory", "  precision: mixed\n  lora_rank: 8\n  lora_targets: [q, v]\n",
                                        "  - {id: a, ask: memory.optimizer_states}\n  - {id: b, ask: "
                                        "memory.gradients}\n  - {id: c, ask: memory.weights}\n");
    CHECK(answer_of(spec, 0) == "3538944");
    CHECK(answer_of(spec, 1) == "589824");
    CHECK(answer_of(spec, 2) == "249469440");
}

// batch.max, GPT-2 small in mixed precision on a 24 GiB GPU: model states 16 P = 1,991,036,928 bytes; activations
// without recomputation 8,606,711,808 for b = 8, so 1,075,838,976 per sequence; (25,769,803,776 - 1,991,036,928) /
// 1,075,838,976 = 23,778,766,848 / 1,075,838,976 = 22.1..., so 22 sequences fit and 23 do not.
TEST_CASE("batch.max is the largest batch whose training memory fits the budget", "[e2e][training]") {
    const std::string spec =
        gpt2_small("batch-max", "  precision: mixed\n  memory_budget: 24 GiB\n", "  - {id: a, ask: batch.max}\n");
    CHECK(answer_of(spec, 0) == "22");
    CHECK(has(run_headcount({"check", spec, "--part", "a", "--answer", "23"}).out, "`rounded_up`"));
    // The whole budget for activations: 25,769,803,776 / 1,075,838,976 = 23.95..., 23 as well; the model states
    // forgotten and rounded up coincide, and both are named.
    const auto both = run_headcount({"check", spec, "--part", "a", "--answer", "23"});
    CHECK(has(both.out, "`model_states_forgotten`"));
    // The same budget in decimal gigabytes: 24 GB = 24,000,000,000; (24e9 - 1,991,036,928) / 1,075,838,976 = 20.4...
    const std::string decimal =
        gpt2_small("batch-max-gb", "  precision: mixed\n  memory_budget: 24 GB\n", "  - {id: a, ask: batch.max}\n");
    CHECK(answer_of(decimal, 0) == "20");
    // A number alone is bytes (docs/spec.md): 24 GiB = 24 x 2^30 = 25,769,803,776 bytes, 22 sequences as above.
    const std::string bytes = gpt2_small("batch-max-bytes", "  precision: mixed\n  memory_budget: 25769803776\n",
                                         "  - {id: a, ask: batch.max}\n");
    CHECK(answer_of(bytes, 0) == "22");
    const std::string bad = gpt2_small("batch-max-bad", "  memory_budget: 24 gigs\n", "  - {id: a, ask: batch.max}\n");
    CHECK(has(run_headcount({"solve", bad}).err, "memory_budget must be a size in bytes with its unit"));
}

// With data_parallel replicas, a step is data_parallel x flops.training. GPT-2 small, b = 4 per replica, 8 replicas on
// 8 GPUs: flops.training = 4 x 1024 x 854,438,400 = 3,499,779,686,400; x 8 = 27,998,237,491,200 FLOPs per step; a
// 0.03 s step on 8 x 312e12 FLOP/s = 74.88e12 FLOPs possible: 37.39...%. 1000 steps: 27,998,237,491,200,000 FLOPs.
TEST_CASE("a step of data-parallel replicas counts every replica's FLOPs", "[e2e][training]") {
    const std::string path = headcount::testing::fresh_temp_dir("training-dp") + "/spec.yaml";
    std::ofstream(path) << "id: dp\ntitle: DP\nkind: transformer\ngiven:\n  d_model: 768\n  h: 12\n  d_ff: 3072\n"
                        << "  layers: 12\n  vocab: 50257\n  max_positions: 1024\n  final_norm: true\n"
                        << "  lm_head: linear\n  batch: 4\n  seq_len: 1024\n  data_parallel: 8\n  gpus: 8\n"
                        << "  peak_flops: 312000000000000\n  step_time: 0.03\n  steps: 1000\n"
                        << "parts:\n  - {id: a, ask: mfu}\n  - {id: b, ask: flops.training_run}\n";
    CHECK(run_headcount({"check", path, "--part", "a", "--answer", "37.4%"}).exit_code == 0);
    CHECK(answer_of(path, 1) == "27998237491200000");
}

TEST_CASE("specs of formulas alone keep the names mfu and precision for themselves", "[e2e][training]") {
    // No kind and no architecture: a spec's own quantity mfu and value precision are its own, as before the
    // training asks.
    const std::string path = headcount::testing::fresh_temp_dir("training-own") + "/spec.yaml";
    std::ofstream(path)
        << "id: own\ntitle: Own\ngiven:\n  flops_step: 1000\n  step_time: 2\n  peak: 1000\n"
        << "  precision: 2\nquantities:\n  mfu:\n    unit: percent\n"
        << "    formula: 100 * flops_step / (step_time * peak)\n  mem:\n    unit: bytes\n"
        << "    formula: precision * flops_step\nparts:\n  - {id: a, ask: mfu}\n  - {id: b, ask: mem}\n";
    CHECK(answer_of(path, 0) == "50");
    CHECK(answer_of(path, 1) == "2000");
}

// One decoding step of LLaMA-2-7B (problems/serving-llama-2-7b.yaml, b = 8, 4,096 cached positions). Per token, by
// hand: 32 layers x (2 x 4096 x (4 x 4096) = 134,217,728 for Q, K, V, O; 6 x 4096 x 11,008 = 270,532,608 for the
// gated FFN; 4 x 4096 x 4096 = 67,108,864 for attention over the cache) + 2 x 4096 x 32,000 = 262,144,000 for the
// output layer: 15,361,638,400 (2 x 6,607,077,376 weights multiplied + 2,147,483,648); x 8 = 122,893,107,200.
// Run again without a cache, the forward pass over all 8 x 4,096 tokens (each attending over 4,096 positions, as
// problems/model-llama-2-7b-compute.yaml's 62,921,270,886,400 per sequence): 4,096 x the step, 503,370,167,091,200.
TEST_CASE("a decoding step multiplies the new token by every weight and attends over the cache", "[e2e][training]") {
    const std::string serving = "problems/serving-llama-2-7b.yaml";
    CHECK(answer_of(serving, 0) == "122893107200");
    CHECK(has(run_headcount({"check", serving, "--part", "a", "--answer", "503370167091200"}).out, "`no_kv_cache`"));
    // Memory-bound: (13,476,831,232 + 17,179,869,184) / 2.039e12 = 0.015035 s; reading the weights alone 0.006609 s.
    CHECK(run_headcount({"check", serving, "--part", "d", "--answer", "0.0150 s"}).exit_code == 0);
    CHECK(has(run_headcount({"check", serving, "--part", "d", "--answer", "0.00661"}).out, "`cache_not_read`"));
}

// With one position in the cache a decoding step is a forward pass over one token: the same count two ways, the
// training formula here and the built-in flops.model_forward (src/solve/model_flops.cpp) at seq_len 1.
TEST_CASE("a decoding step over a cache of one is the built-in forward pass of one token", "[e2e][training]") {
    const std::string spec = gpt2_small("decode-one", "",
                                        "  - {id: a, ask: flops.decode_step}\n  - {id: b, ask: "
                                        "flops.model_forward}\n");
    std::string text;
    {
        std::ifstream in(spec);
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    const auto at = text.find("seq_len: 1024");
    REQUIRE(at != std::string::npos);
    text.replace(at, 13, "seq_len: 1");
    std::ofstream(spec) << text;
    CHECK(answer_of(spec, 0) == answer_of(spec, 1));

    const std::string bert = headcount::testing::fresh_temp_dir("training-decode-mlm") + "/spec.yaml";
    std::ofstream(bert) << "id: b\ntitle: B\nkind: transformer\ngiven:\n  d_model: 768\n  h: 12\n  d_ff: 3072\n"
                        << "  layers: 12\n  vocab: 30522\n  lm_head: mlm\n  seq_len: 128\n"
                        << "parts:\n  - {id: a, ask: flops.decode_step}\n";
    CHECK(has(run_headcount({"solve", bert}).err, "does not decode"));
}

// The training asks as docs/spec.md listed them by hand before its table was printed from the rows, in its order,
// with the units that table and the papers give them: memory in bytes, batch.max in sequences, compute in FLOPs,
// time.training in days, mfu in percent, LoRA's and MoE's counts in parameters; and Chinchilla's tokens per
// parameter, added as a catalogue row, the inference asks (catalogue/inference.yaml, tests/inference_cli_test.cpp) and
// the scaling-law asks (catalogue/scaling.yaml, tests/scaling_cli_test.cpp). A row added to the catalogue is added here
// too.
TEST_CASE("catalogue training-asks prints every training ask, and each is solved in its unit", "[e2e][training]") {
    const auto run = run_headcount({"catalogue", "training-asks"});
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.starts_with("| ask | what | unit | convention |\n|---|---|---|---|\n"));
    std::vector<std::pair<std::string, std::string>> rows; // ask, unit
    std::istringstream lines(run.out.substr(run.out.find("|---|---|---|---|\n") + 18));
    for (std::string line; std::getline(lines, line);) {
        REQUIRE(line.starts_with("| `"));
        const std::size_t unit_end = line.rfind(" | ");
        const std::size_t unit_start = line.rfind(" | ", unit_end - 1);
        rows.emplace_back(line.substr(3, line.find('`', 3) - 3),
                          line.substr(unit_start + 3, unit_end - unit_start - 3));
    }
    const std::vector<std::pair<std::string, std::string>> listed = {{"memory.weights", "bytes"},
                                                                     {"memory.gradients", "bytes"},
                                                                     {"memory.optimizer_states", "bytes"},
                                                                     {"memory.model_states", "bytes"},
                                                                     {"memory.activations", "bytes"},
                                                                     {"memory.training", "bytes"},
                                                                     {"batch.max", "sequences"},
                                                                     {"flops.training_run", "FLOPs"},
                                                                     {"time.training", "days"},
                                                                     {"mfu", "percent"},
                                                                     {"flops.decode_step", "FLOPs"},
                                                                     {"params.lora", "parameters"},
                                                                     {"params.trainable", "parameters"},
                                                                     {"params.active", "parameters"},
                                                                     {"tokens.per_parameter", "tokens per parameter"},
                                                                     {"time.decode_step", "seconds"},
                                                                     {"intensity.decode_step", "number"},
                                                                     {"bound.decode_step", "regime"},
                                                                     {"batch.compute_bound", "sequences"},
                                                                     {"throughput.decode", "tokens/s"},
                                                                     {"time.prefill", "seconds"},
                                                                     {"batch.max_decode", "sequences"},
                                                                     {"chinchilla.params", "parameters"},
                                                                     {"chinchilla.tokens", "tokens"},
                                                                     {"loss.chinchilla", "number"},
                                                                     {"pipeline.bubble", "percent"},
                                                                     {"comm.data_parallel", "bytes"},
                                                                     {"comm.tensor_parallel", "bytes"},
                                                                     {"time.comm_data_parallel", "seconds"}};
    CHECK(rows == listed);
    // One spec asks them all: GPT-2 small with eight experts of which two are active, LoRA on q and v, ZeRO stage 1
    // over 2 replicas, and a run's numbers; each part's unit is the one its row states. The inference asks read the
    // weights at a dtype and a bandwidth, here so high (100 TB/s, a ridge of 3.12 FLOPs per byte) that some batch is
    // compute-bound at 1,024 cached positions. The scaling-law asks read a compute budget, given with its unit; the
    // run gives steps, not tokens, so the loss is that of the compute-optimal run. The parallelism asks
    // (catalogue/parallelism.yaml, tests/parallelism_cli_test.cpp) are asked of a second spec: under tensor_parallel
    // and pipeline_parallel the activations, and so memory.training and batch.max, are refused.
    std::string parts;
    std::string parallel_parts;
    for (std::size_t i = 0; i < rows.size(); ++i)
        (rows[i].first == "pipeline.bubble" || rows[i].first.starts_with("comm.") ||
                 rows[i].first == "time.comm_data_parallel"
             ? parallel_parts
             : parts) += "  - {id: p" + std::to_string(i) + ", ask: " + rows[i].first + "}\n";
    const std::string spec = gpt2_small("every-ask",
                                        "  experts: 8\n  top_k: 2\n  precision: mixed\n  zero_stage: 1\n"
                                        "  data_parallel: 2\n  lora_rank: 8\n  lora_targets: [q, v]\n"
                                        "  memory_budget: 80 GB\n  steps: 1000\n  gpus: 2\n"
                                        "  peak_flops: 312000000000000\n  step_time: 2\n  mfu: 0.4\n"
                                        "  dtype: bf16\n  hbm_bandwidth: 100 TB/s\n  compute_budget: 1e21 FLOPs\n",
                                        parts);
    const std::string parallel_spec = gpt2_small("every-parallel-ask",
                                                 "  precision: mixed\n  zero_stage: 1\n  data_parallel: 2\n"
                                                 "  tensor_parallel: 2\n  pipeline_parallel: 2\n  microbatches: 4\n"
                                                 "  interconnect_bandwidth: 600 GB/s\n",
                                                 parallel_parts);
    nlohmann::json all_parts = nlohmann::json::array();
    for (const std::string& one : {spec, parallel_spec}) {
        const auto solved = run_headcount({"solve", one, "--format", "json"});
        INFO(solved.err);
        REQUIRE(solved.exit_code == 0);
        const auto parsed = nlohmann::json::parse(solved.out);
        for (const auto& part : parsed["parts"])
            all_parts.push_back(part);
    }
    REQUIRE(all_parts.size() == listed.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        INFO(rows[i].first);
        CHECK(all_parts[i]["unit"] == listed[i].second);
        CHECK_FALSE(all_parts[i]["answer"].is_null());
    }
    // A name near one is not a training ask, and the error names the one meant, though no part asks it.
    const auto typo = run_headcount({"solve", gpt2_small("typo", "", "  - {id: a, ask: memory.weight}\n")});
    CHECK(typo.exit_code == 2);
    CHECK(has(typo.err, "unknown ask 'memory.weight' in part 'a' (did you mean 'memory.weights'?)"));
}

// A course that counts 10 bytes a parameter redefines memory_model_states, and what uses it follows. By hand, for
// GPT-2 small (P = 124,439,808) in fp32 with Adam (16 P = 1,991,036,928 bytes of model states, the ZeRO paper) and
// the batch of 8 at 1,024 tokens: headcount's memory.training is 10,597,748,736 bytes, so the activations are
// 10,597,748,736 - 1,991,036,928 = 8,606,711,808, and 1,075,838,976 a sequence. At 10 P = 1,244,398,080 the
// training memory is 1,244,398,080 + 8,606,711,808 = 9,851,109,888; the largest batch in 80 GB is
// floor((8e10 - 1,244,398,080) / 1,075,838,976) = floor(73.2) = 73, where 16 P gives floor(72.5) = 72.
TEST_CASE("a spec's quantity redefines a built-in, and every ask that uses it follows", "[e2e][training]") {
    const std::string parts = "  - {id: a, ask: memory.model_states}\n  - {id: b, ask: memory.training}\n"
                              "  - {id: c, ask: batch.max}\n";
    const std::string setup = "  precision: fp32\n  optimizer: adam\n  memory_budget: 80000000000\n";
    const std::string headcounts = gpt2_small("redefine-none", setup, parts);
    CHECK(answer_of(headcounts, 0) == "1991036928");
    CHECK(answer_of(headcounts, 1) == "10597748736");
    CHECK(answer_of(headcounts, 2) == "72");
    const std::string ten = gpt2_small("redefine-ten",
                                       setup + "quantities:\n  memory_model_states: {title: model states at 10 bytes a "
                                               "parameter, unit: bytes, formula: 10 * model_params}\n",
                                       parts);
    CHECK(answer_of(ten, 0) == "1244398080");
    CHECK(answer_of(ten, 1) == "9851109888");
    CHECK(answer_of(ten, 2) == "73");
    // Which definition was used: in solve's and check's JSON, and in the worked solution.
    const auto json = run_headcount({"solve", ten, "--format", "json"});
    REQUIRE(json.exit_code == 0);
    const auto parsed = nlohmann::json::parse(json.out);
    for (int part = 0; part < 3; ++part) {
        INFO(part);
        REQUIRE(parsed["parts"][part].contains("redefined"));
        CHECK(parsed["parts"][part]["redefined"][0]["name"] == "memory_model_states");
        CHECK(parsed["parts"][part]["redefined"][0]["formula"] == "10 * model_params");
    }
    CHECK(!nlohmann::json::parse(run_headcount({"solve", headcounts, "--format", "json"}).out)["parts"][0].contains(
        "redefined"));
    const auto check = run_headcount({"check", ten, "--part", "c", "--answer", "73", "--format", "json"});
    REQUIRE(check.exit_code == 0);
    const auto verdict = nlohmann::json::parse(check.out);
    CHECK(verdict["status"] == "correct");
    CHECK(verdict["redefined"][0]["name"] == "memory_model_states");
    const auto solution = run_headcount({"solve", ten});
    CHECK(has(solution.out, "This problem defines `memory_model_states` as `10 * model_params`"));
    const auto formulas = run_headcount({"catalogue", "formulas", "--spec", ten});
    CHECK(has(formulas.out,
              "| `memory_model_states` | `memory.model_states` | `10 * model_params` | the spec, in place of the "
              "catalogue's |"));
}

// Any built-in count may be redefined, not only a training row (issue 38, item 5): a course that counts a training
// step as 6 N per token (Kaplan et al.'s C = 6ND) redefines flops_training, and flops.training_run, which multiplies
// it by the steps, follows. GPT-2 small, N = 124,439,808 (Hugging Face), batch 8 × seq_len 1024 = 8,192 tokens a
// step: 6 × 124,439,808 × 8,192 = 6,116,465,442,816 FLOPs; 81,920,000 tokens are 10,000 steps, so the run is
// 61,164,654,428,160,000 FLOPs. Leaving the 6 out gives N × 8,192 = 1,019,410,907,136.
TEST_CASE("a spec's quantity redefines a built-in count, and the asks that use it follow", "[e2e][training]") {
    const std::string spec =
        gpt2_small("redefine-flops",
                   "  tokens: 81920000\nquantities:\n  flops_training: {title: FLOPs of a training "
                   "step at 6 N a token, unit: FLOPs, formula: 6 * model_params * batch * "
                   "seq_len}\n",
                   "  - {id: a, ask: flops.training}\n  - {id: b, ask: flops.training_run}\n");
    CHECK(answer_of(spec, 0) == "6116465442816");
    CHECK(answer_of(spec, 1) == "61164654428160000");
    const auto right = run_headcount({"check", spec, "--part", "a", "--answer", "6116465442816", "--format", "json"});
    REQUIRE(right.exit_code == 0);
    const auto verdict = nlohmann::json::parse(right.out);
    CHECK(verdict["status"] == "correct");
    CHECK(verdict["redefined"][0]["name"] == "flops_training");
    const auto slip = run_headcount({"check", spec, "--part", "a", "--answer", "1019410907136", "--format", "json"});
    CHECK(slip.exit_code == 1);
    CHECK(!nlohmann::json::parse(slip.out)["mistakes"].empty());
    const auto solution = run_headcount({"solve", spec});
    CHECK(has(solution.out, "This problem defines `flops_training` as `6 * model_params * batch * seq_len`"));
}

// GPT-2 small in fp32 with Adam keeps 16 P = 1,991,036,928 bytes of model states (the ZeRO paper; P = 124,439,808):
// in a budget of 1 GB no batch fits, and batch.max would be negative. The spec is refused at the part, with both
// sizes (issue 40, item 5).
TEST_CASE("batch.max where the model states alone exceed the budget says that nothing fits", "[e2e][training]") {
    const std::string spec =
        gpt2_small("nothing-fits", "  precision: fp32\n  optimizer: adam\n  memory_budget: 1000000000\n",
                   "  - {id: a, ask: memory.model_states}\n  - {id: c, ask: batch.max}\n");
    const auto r = run_headcount({"solve", spec});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "batch.max: no batch fits: the model states alone take 1,991,036,928 bytes, more than "
                     "memory_budget (1,000,000,000 bytes)"));
    CHECK(has(r.err, ":20:")); // part c, line 20 of the spec gpt2_small writes
    CHECK(r.out.empty());      // no answer printed
}

// Every training row is a transformer's whether a part asks it or not (issue 40, item 9): a spec's formula may use
// memory_model_states with no part asking memory.model_states. GPT-2 small, mixed-precision AdamW: 16 bytes per
// parameter (2 + 2 + 12, the ZeRO paper §3.1) × P = 124,439,808 is 1,991,036,928 bytes, and 80 GB less that is
// 80,000,000,000 − 1,991,036,928 = 78,008,963,072 bytes. Under SGD with momentum (2 + 2 + 4 + 4 = 12 bytes: fp32
// master weights and one moment), 12 P = 1,493,277,696 and 78,506,722,304 left: the setup reaches the unasked row.
TEST_CASE("a spec's formula may use a training row that no part asks", "[e2e][training]") {
    const std::string quantities = "quantities:\n  headroom: {title: memory left beside the model states, unit: bytes, "
                                   "formula: memory_budget - memory_model_states}\n";
    const std::string parts = "  - {id: a, ask: headroom}\n";
    CHECK(answer_of(gpt2_small("unasked-row", "  precision: mixed\n  memory_budget: 80 GB\n" + quantities, parts), 0) ==
          "78008963072");
    CHECK(answer_of(gpt2_small("unasked-row-sgd",
                               "  precision: mixed\n  optimizer: sgd_momentum\n  memory_budget: 80 GB\n" + quantities,
                               parts),
                    0) == "78506722304");
    // The solution says what the row is, with its value, as for any built-in a formula uses.
    const auto solution = run_headcount(
        {"solve", gpt2_small("unasked-row-words", "  precision: mixed\n  memory_budget: 80 GB\n" + quantities, parts)});
    CHECK(has(solution.out, "the model states' bytes: 1,991,036,928 bytes (the ask `memory.model_states`)"));
}

// A built-in row with the generic worked solution (catalogue/training.yaml, no template of its own). GPT-2 small,
// P = 124,439,808 = 768 × 162,031: 300e9 tokens are 300e9 / P = 390,625,000 / 162,031 ≈ 2,410.80 per parameter
// (Chinchilla's compute-optimal is about 20). With steps instead, 1,000 steps × 4 replicas × 8 × 1,024 tokens are
// 32,768,000 = 2^18 × 125, over P = 2^8 × 3 × 162,031: 128,000 / 486,093.
TEST_CASE("tokens.per_parameter is one catalogue row, solved and graded like any ask", "[e2e][training]") {
    const std::string parts = "  - {id: a, ask: tokens.per_parameter}\n";
    const std::string tokens = gpt2_small("tokens-per-parameter", "  tokens: 300e9\n", parts);
    CHECK(answer_of(tokens, 0) == "390625000/162031");
    CHECK(answer_of(gpt2_small("tokens-per-parameter-steps", "  steps: 1000\n  data_parallel: 4\n", parts), 0) ==
          "128000/486093");
    const auto solution = run_headcount({"solve", tokens});
    CHECK(has(solution.out, "**Answer: about 2,411 tokens per parameter.**"));
    CHECK(has(solution.out, "about 20 tokens per parameter"));
    const auto right = run_headcount({"check", tokens, "--part", "a", "--answer", "2410", "--format", "json"});
    CHECK(nlohmann::json::parse(right.out)["status"] == "correct");
    // Turned over: P / 300e9 = 162,031 / 390,625,000 ≈ 0.000414800.
    const auto over = run_headcount({"check", tokens, "--part", "a", "--answer", "0.0004148", "--format", "json"});
    CHECK(has(over.out, "parameters_over_tokens"));
    // Turned over where the run is given in steps: P / (1,000 × 4 × 8 × 1,024) = 486,093 / 128,000 ≈ 3.79760. The
    // mistake's formula divides by the whole product (it once read as P / steps × 4 × 8 × 1,024, about 4.08e9).
    const std::string steps =
        gpt2_small("tokens-per-parameter-steps-over", "  steps: 1000\n  data_parallel: 4\n", parts);
    const auto steps_over = run_headcount({"check", steps, "--part", "a", "--answer", "3.7976", "--format", "json"});
    CHECK(has(steps_over.out, "parameters_over_tokens"));
}

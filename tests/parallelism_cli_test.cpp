// End-to-end tests of the parallelism asks (issue 41, item 4): the pipeline bubble, the bytes each GPU sends in the
// ring all-reduce of the gradients and in tensor parallelism's all-reduces of the activations, the all-reduce's time
// over the interconnect, and the model states per GPU under tensor and pipeline parallelism. Every expected number is
// worked out by hand in the comments, from LLaMA-2-7B's published configuration and count, the A100's datasheet and
// the papers' formulas (GPipe, Huang et al. 2019; Narayanan et al. 2021; Shoeybi et al. 2019; the ZeRO paper,
// Rajbhandari et al. 2020); none is read from headcount's output.
#include "cli_json.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <cmath>
#include <fstream>
#include <string>

using headcount::testing::as_double;
using headcount::testing::check_json;
using headcount::testing::has;
using headcount::testing::run_headcount;
using headcount::testing::solved_json;

namespace {

// LLaMA-2-7B (d_model 4,096, 32 heads, 32 layers, gated FFN of 11,008, vocabulary 32,000, untied head, RMSNorm, no
// biases): Hugging Face's 6,738,415,616 parameters, so its 16-bit gradients (or weights) are 2 x 6,738,415,616 =
// 13,476,831,232 bytes. AdamW in mixed precision (16 bytes of model states a parameter, the ZeRO paper).
std::string llama_spec(std::string_view name, std::string_view extra, std::string_view parts) {
    const std::string path = headcount::testing::fresh_temp_dir(std::string("parallelism-") + std::string(name)) + "/" +
                             std::string(name) + ".yaml";
    std::ofstream(path) << "id: " << name << "\ntitle: Parallelism\nkind: transformer\ngiven:\n"
                        << "  d_model: 4096\n  h: 32\n  bias: false\n  d_ff: 11008\n  layers: 32\n  vocab: 32000\n"
                        << "  norm: rmsnorm\n  ffn: gated\n  ffn_bias: false\n  final_norm: true\n"
                        << "  lm_head: linear\n  tied_embeddings: false\n  precision: mixed\n  optimizer: adamw\n"
                        << extra << "parts:\n"
                        << parts;
    return path;
}

/// Whether `value` is `expected` within one part in 10^5 (the hand-worked figures are given to six).
bool near(double value, double expected) { return std::abs(value - expected) <= 1e-5 * std::abs(expected); }

/// The one mistake a wrong answer is named, or "" when it is named none or several.
std::string named(const nlohmann::json& verdict) {
    INFO(verdict.dump());
    CHECK(verdict["status"] == "incorrect");
    return verdict["mistakes"].size() == 1 ? verdict["mistakes"][0]["id"].get<std::string>() : std::string();
}

} // namespace

// GPipe (Huang et al. 2019, section 2.3) finds the bubble negligible once m >= 4 p; at m = 4 p = 16 with p = 4 its
// share of a step is (p - 1) / (m + p - 1) = 3 / 19 = 15.789 %. Narayanan et al. 2021 (section 2.2.1) write the
// bubble over the ideal time, (p - 1) / m = 3 / 16 = 18.75 %; the share of the step spent computing is 16 / 19 =
// 84.21 %; a batch not split, m = 1, leaves (p - 1) / p = 3 / 4 idle. At p = 8 and m = 8: 7 / 15 = 46.67 %.
TEST_CASE("the pipeline bubble is (p - 1) / (m + p - 1) of a step", "[e2e][parallelism]") {
    const std::string spec =
        llama_spec("bubble", "  pipeline_parallel: 4\n  microbatches: 16\n", "  - {id: a, ask: pipeline.bubble}\n");
    const auto json = solved_json(spec);
    CHECK(near(as_double(json["parts"][0]["answer"]), 3.0 / 19.0));
    CHECK(json["parts"][0]["unit"] == "percent");
    CHECK(check_json(spec, "a", "15.79%")["status"] == "correct");
    CHECK(check_json(spec, "a", "0.1579")["status"] == "correct");
    CHECK(check_json(spec, "a", "3/19")["status"] == "correct");
    CHECK(named(check_json(spec, "a", "18.75%")) == "bubble_over_useful_time");
    CHECK(named(check_json(spec, "a", "84.21%")) == "busy_share");
    CHECK(named(check_json(spec, "a", "75%")) == "one_microbatch");

    const std::string eight =
        llama_spec("bubble-8", "  pipeline_parallel: 8\n  microbatches: 8\n", "  - {id: a, ask: pipeline.bubble}\n");
    CHECK(near(as_double(solved_json(eight)["parts"][0]["answer"]), 7.0 / 15.0));
    CHECK(check_json(eight, "a", "46.7%")["status"] == "correct");
}

// Eight data-parallel replicas, no model parallelism: a ring all-reduce of the 13,476,831,232 bytes of gradients sends
// 2 x 7 / 8 x 13,476,831,232 = 23,584,454,656 bytes from each GPU. At the A100's NVLink figure, 600 GB/s
// (hardware: a100-80gb), that takes 23,584,454,656 / 6e11 = 0.0393074 s; at 300 GB/s, one direction's half,
// 0.0786148 s. Sent once, the gradients alone, 13,476,831,232 bytes; the reduce-scatter alone, 7 / 8 of them,
// 11,792,227,328; in bits, 8 x 0.0393074 = 0.314459 s. In fp32 the gradients take 4 bytes: 47,168,909,312.
TEST_CASE("the ring all-reduce of the gradients sends 2 (N - 1) / N of them from each GPU", "[e2e][parallelism]") {
    const std::string spec = llama_spec("data-parallel", "  data_parallel: 8\n  hardware: a100-80gb\n",
                                        "  - {id: a, ask: comm.data_parallel}\n"
                                        "  - {id: b, ask: time.comm_data_parallel}\n");
    const auto json = solved_json(spec);
    CHECK(json["parts"][0]["answer"] == 23584454656);
    CHECK(json["parts"][0]["unit"] == "bytes");
    CHECK(near(as_double(json["parts"][1]["answer"]), 0.0393074));
    CHECK(json["parts"][1]["unit"] == "seconds");
    CHECK(named(check_json(spec, "a", "13476831232")) == "ring_factor_forgotten");
    CHECK(named(check_json(spec, "a", "11792227328")) == "reduce_scatter_only");
    CHECK(check_json(spec, "b", "39.3 ms")["status"] == "correct");
    CHECK(named(check_json(spec, "b", "0.3145 s")) == "bytes_as_bits");
    // 13,476,831,232 / 6e11 = 0.0224614 s.
    CHECK(named(check_json(spec, "b", "22.46 ms")) == "ring_factor_forgotten");

    const std::string half = llama_spec("one-direction", "  data_parallel: 8\n  interconnect_bandwidth: 300 GB/s\n",
                                        "  - {id: a, ask: time.comm_data_parallel}\n");
    CHECK(near(as_double(solved_json(half)["parts"][0]["answer"]), 0.0786148));

    const std::string fp32 = llama_spec("fp32", "  data_parallel: 8\n", "  - {id: a, ask: comm.data_parallel}\n");
    std::string text = headcount::testing::read_text(fp32);
    text.replace(text.find("precision: mixed"), 16, "precision: fp32");
    std::ofstream(fp32) << text;
    CHECK(solved_json(fp32)["parts"][0]["answer"] == 47168909312);
}

// Megatron's tensor parallelism (Shoeybi et al. 2019; Korthikanti et al. 2022, section 4.2.2) all-reduces a layer's
// b s d = 1 x 4,096 x 4,096 = 16,777,216 activations (33,554,432 bytes in 16 bits) twice forward and twice
// backward. Over t = 8 GPUs each sends 2 x 7 / 8 = 1.75 of a message a time: 4 x 32 layers x 1.75 x 33,554,432 =
// 7,516,192,768 bytes a step. The forward pass alone, 3,758,096,384; without the ring's factor, 128 x 33,554,432 =
// 4,294,967,296. Over p = 4 pipeline stages a GPU runs 8 layers: 1,879,048,192 (every layer counted: 7,516,192,768).
// Under full recomputation the forward pass's 2 all-reduces run again: 6 x 32 x 1.75 x 33,554,432 = 11,274,289,152.
TEST_CASE("tensor parallelism all-reduces the activations four times a layer", "[e2e][parallelism]") {
    const std::string spec = llama_spec("tensor-parallel", "  batch: 1\n  seq_len: 4096\n  tensor_parallel: 8\n",
                                        "  - {id: a, ask: comm.tensor_parallel}\n");
    CHECK(solved_json(spec)["parts"][0]["answer"] == 7516192768);
    CHECK(named(check_json(spec, "a", "3758096384")) == "backward_forgotten");
    CHECK(named(check_json(spec, "a", "4294967296")) == "ring_factor_forgotten");

    const std::string staged = llama_spec("tensor-pipeline",
                                          "  batch: 1\n  seq_len: 4096\n  tensor_parallel: 8\n"
                                          "  pipeline_parallel: 4\n",
                                          "  - {id: a, ask: comm.tensor_parallel}\n");
    CHECK(solved_json(staged)["parts"][0]["answer"] == 1879048192);
    CHECK(named(check_json(staged, "a", "7516192768")) == "all_layers_counted");

    const std::string full = llama_spec("tensor-full",
                                        "  batch: 1\n  seq_len: 4096\n  tensor_parallel: 8\n"
                                        "  recompute: full\n",
                                        "  - {id: a, ask: comm.tensor_parallel}\n");
    CHECK(solved_json(full)["parts"][0]["answer"] == 11274289152);
    CHECK(named(check_json(full, "a", "7516192768")) == "recompute_ignored");
}

// Model states per GPU (the ZeRO paper's 16 bytes a parameter for mixed-precision AdamW, split over the N_m = t p
// model-parallel GPUs): 16 x 6,738,415,616 / (8 x 4) = 107,814,649,856 / 32 = 3,369,207,808 bytes, the weights 2 x
// 6,738,415,616 / 32 = 421,150,976. Under ZeRO stage 1 over N_d = 8 as well, with Psi / 32 = 210,575,488: 2 + 2
// bytes a parameter whole, 12 split, 4 x 210,575,488 + 12 x 210,575,488 / 8 = 842,301,952 + 315,863,232 =
// 1,158,165,184. Without tensor_parallel and pipeline_parallel the answer is one GPU's, as before: 107,814,649,856.
TEST_CASE("model states per GPU under tensor and pipeline parallelism", "[e2e][parallelism]") {
    const char* parts = "  - {id: a, ask: memory.model_states}\n  - {id: b, ask: memory.weights}\n";
    const std::string spec = llama_spec("states", "  tensor_parallel: 8\n  pipeline_parallel: 4\n", parts);
    const auto json = solved_json(spec);
    CHECK(json["parts"][0]["answer"] == 3369207808);
    CHECK(json["parts"][1]["answer"] == 421150976);
    CHECK(named(check_json(spec, "a", "107814649856")) == "model_parallel_not_applied");

    const std::string zero = llama_spec("states-zero",
                                        "  tensor_parallel: 8\n  pipeline_parallel: 4\n  zero_stage: 1\n"
                                        "  data_parallel: 8\n",
                                        parts);
    CHECK(solved_json(zero)["parts"][0]["answer"] == 1158165184);

    const std::string one = llama_spec("states-one", "", parts);
    const auto whole = solved_json(one);
    CHECK(whole["parts"][0]["answer"] == 107814649856);
    // The worked solution says per GPU only where the model is split.
    const auto markdown = run_headcount({"solve", spec});
    CHECK(has(markdown.out, "memory for the weights per GPU"));
    CHECK(has(run_headcount({"solve", one}).out, "memory for the weights is"));
}

TEST_CASE("a parallelism ask says what it needs, and degrees are whole numbers", "[e2e][parallelism]") {
    auto run = run_headcount(
        {"solve", llama_spec("no-microbatches", "  pipeline_parallel: 4\n", "  - {id: a, ask: pipeline.bubble}\n")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "pipeline.bubble (share of a step lost to the pipeline's bubble) needs microbatches in given"));
    run = run_headcount(
        {"solve", llama_spec("no-tp", "  batch: 1\n  seq_len: 4096\n", "  - {id: a, ask: comm.tensor_parallel}\n")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "needs tensor_parallel in given"));
    run = run_headcount(
        {"solve", llama_spec("no-bandwidth", "  data_parallel: 8\n", "  - {id: a, ask: time.comm_data_parallel}\n")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "needs interconnect_bandwidth in given"));
    run = run_headcount({"solve", llama_spec("zero-tp",
                                             "  tensor_parallel: 0\n  microbatches: 2\n"
                                             "  pipeline_parallel: 2\n",
                                             "  - {id: a, ask: pipeline.bubble}\n")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "tensor_parallel must be a whole number of tensor-parallel GPUs, at least 1, got 0"));
    run = run_headcount({"solve", llama_spec("half-microbatch", "  pipeline_parallel: 2\n  microbatches: 1.5\n",
                                             "  - {id: a, ask: pipeline.bubble}\n")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "microbatches must be a whole number of microbatches, at least 1, got 1.5"));
    // The activations are one GPU's holding every layer: refused under model parallelism, with memory.training.
    run = run_headcount({"solve", llama_spec("activations-tp", "  batch: 1\n  seq_len: 4096\n  tensor_parallel: 2\n",
                                             "  - {id: a, ask: memory.training}\n")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "nor under tensor_parallel or pipeline_parallel"));
    // ZeRO stage 3 gathers the weights too: not counted yet, and said so.
    run = run_headcount({"solve", llama_spec("zero3", "  zero_stage: 3\n  data_parallel: 8\n",
                                             "  - {id: a, ask: comm.data_parallel}\n")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "under ZeRO stage 3 the weights are gathered"));
}

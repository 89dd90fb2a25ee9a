// End-to-end tests of the architectures issue 27 adds to the transformer kind: causal attention, a mixture of
// experts and the presets that use them. Every expected value is derived by hand in its comment, or is a count a
// model's publisher or Hugging Face reports; none is read from headcount's output.
#include "run_binary.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

using headcount::testing::run_headcount;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<std::string> mistake_ids(const std::string& spec, const std::string& part, const std::string& answer) {
    const auto run = run_headcount({"check", spec, "--part", part, "--answer", answer, "--format", "json"});
    REQUIRE(run.exit_code == 1);
    std::vector<std::string> ids;
    const auto doc = nlohmann::json::parse(run.out); // kept: a range over a temporary's member would dangle
    for (const auto& m : doc["mistakes"])
        ids.push_back(m["id"]);
    std::sort(ids.begin(), ids.end());
    return ids;
}

bool right(const std::string& spec, const std::string& part, const std::string& answer) {
    return run_headcount({"check", spec, "--part", part, "--answer", answer}).exit_code == 0;
}

/// A spec written to a fresh folder: `given` lines (indented two spaces) and `parts` lines.
std::string spec_file(const std::string& name, const std::string& given, const std::string& parts) {
    const std::string path = headcount::testing::fresh_temp_dir("arch-" + name) + "/spec.yaml";
    std::ofstream(path) << "id: " << name << "\ntitle: " << name << "\nkind: transformer\ngiven:\n"
                        << given << "parts:\n"
                        << parts;
    return path;
}

/// A spec DIR/NAME.yaml of one part, a, asking `ask`, with `given` the inside of a flow mapping ("d_model: 3, h: 1")
/// and, when `kind` is given, a kind line. Without one, part a's ask stands at line 5, column 18.
std::string one_part_spec(const std::string& dir, const std::string& name, const std::string& given,
                          const std::string& ask, const std::string& kind = "") {
    const std::string path = dir + "/" + name + ".yaml";
    std::ofstream(path) << "id: " << name << "\ntitle: " << name << "\n"
                        << (kind.empty() ? "" : "kind: " + kind + "\n") << "given: {" << given
                        << "}\nparts:\n  - {id: a, ask: " << ask << "}\n";
    return path;
}

// Mixtral-8x7B's shape (Hugging Face's MixtralConfig), with `extra` given lines.
std::string mixtral(const std::string& name, const std::string& extra, const std::string& parts) {
    return spec_file(name,
                     "  d_model: 4096\n  h: 32\n  n_kv_heads: 8\n  bias: false\n  d_ff: 14336\n  layers: 32\n"
                     "  vocab: 32000\n  norm: rmsnorm\n  ffn: gated\n  ffn_bias: false\n  experts: 8\n  top_k: 2\n"
                     "  final_norm: true\n  lm_head: linear\n  tied_embeddings: false\n" +
                         extra,
                     parts);
}

} // namespace

// Published parameter counts, each checked against the count headcount's preset gives (--answer is the published
// figure): Hugging Face's gpt2-xl 1,557,611,200; Llama-2-70b-hf 68,976,648,192; Meta-Llama-3-8B 8,030,261,248;
// roberta-base (RobertaForMaskedLM) 124,697,433; Mixtral-8x7B 46,702,792,704 total, Mistral AI's "12.9B" active.
// GPT-3 175B by hand from Table 2.1 of Brown et al.: 50,257 x 12,288 + 2,048 x 12,288 + 96 x (4 x 12,288^2 +
// 4 x 12,288 + 2 x 12,288 x 49,152 + 49,152 + 12,288 + 4 x 12,288) + 2 x 12,288 = 174,604,259,328 (the paper's
// "175.0B").
TEST_CASE("the presets give their models' published parameter counts", "[e2e][presets]") {
    CHECK(right("problems/model-gpt2-xl.yaml", "b", "1557611200"));
    CHECK(right("problems/model-llama-2-70b.yaml", "c", "68976648192"));
    CHECK(right("problems/model-llama-3-8b.yaml", "b", "8030261248"));
    CHECK(right("problems/model-roberta-base.yaml", "b", "124697433"));
    CHECK(right("problems/model-mixtral-8x7b.yaml", "b", "46702792704"));
    CHECK(right("problems/model-gpt3-175b.yaml", "a", "174604259328"));
}

// GPT-2 XL over 1,024 tokens with a causal mask. Per token, by hand: the weights 48 x 2 x (4 x 1,600^2 + 2 x 1,600 x
// 6,400) = 2,949,120,000; attention as Kaplan et al. count it, 2 n_layer n_ctx d_attn = 2 x 48 x 1,024 x 1,600 =
// 157,286,400; the tied head 2 x 1,600 x 50,257 = 160,822,400. Together 3,267,228,800, x 1,024 tokens =
// 3,345,642,291,200. Without the mask, attention doubles: + 157,286,400 x 1,024 = 3,506,703,564,800.
TEST_CASE("a causal mask halves attention's n^2 products, as Kaplan et al. count them", "[e2e][causal]") {
    const std::string xl = "problems/model-gpt2-xl.yaml";
    CHECK(right(xl, "c", "3345642291200"));
    CHECK(mistake_ids(xl, "c", "3506703564800") == std::vector<std::string>{"causal_mask_ignored"});
    // The tied head's products left out: 160,822,400 x 1,024 = 164,682,137,600 fewer.
    CHECK(mistake_ids(xl, "c", "3180960153600") == std::vector<std::string>{"output_layer_flops_forgotten"});
    // GPT-3 175B's run of 300 billion tokens, per token: 96 x 2 x (4 x 12,288^2 + 2 x 12,288 x 49,152) =
    // 347,892,350,976, attention 2 x 96 x 2,048 x 12,288 = 4,831,838,208, head 2 x 12,288 x 50,257 = 1,235,116,032:
    // 353,959,305,216 forward, x 3 for training, x 3 x 10^11 tokens = 318,563,374,694,400,000,000,000 FLOPs,
    // past 2^64 (the paper's 6ND is 3.14 x 10^23).
    CHECK(right("problems/model-gpt3-175b.yaml", "c", "318563374694400000000000"));
    // Where no mask applies, halving attention is a mistake. LLaMA-2-7B over 4,096 tokens: 62,921,270,886,400 with
    // attention 8,796,093,022,208 (tests/model_compute_cli_test.cpp); half of it gone gives 58,523,224,375,296. As
    // d_k = d_v, dropping AV gives the same number: both are named.
    CHECK(mistake_ids("problems/model-llama-2-7b-compute.yaml", "b", "58523224375296") ==
          std::vector<std::string>{"causal_mask_assumed", "weighted_sum_forgotten"});
}

TEST_CASE("causal: true is a mask over one sequence's own positions", "[e2e][causal]") {
    const std::string cross = spec_file("cross",
                                        "  d_model: 8\n  h: 2\n  d_ff: 32\n  layers: 1\n  seq_len: 4\n  seq_len_kv: 6\n"
                                        "  causal: true\n",
                                        "  - {id: a, ask: flops.total}\n");
    const auto r = run_headcount({"solve", cross});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "spec.yaml:11:11: causal: true masks a sequence's later positions"));
    // Half of an odd number of multiply-adds is not a count (1 head x 3 x 3 scores x d_k 1): an odd seq_len is
    // refused with MACs or the softmax, at the causal key.
    const std::string odd = headcount::testing::fresh_temp_dir("arch-odd") + "/spec.yaml";
    std::ofstream(odd) << "id: odd\ntitle: odd\ngiven:\n  d_model: 1\n  h: 1\n  seq_len: 3\n  causal: true\n"
                       << "  count: macs\nparts:\n  - {id: a, ask: flops.scores}\n";
    CHECK(has(run_headcount({"solve", odd}).err, "spec.yaml:7:11: causal: true counts half of the 3 × 3 scores"));
}

// Mixtral-8x7B by hand: an expert 3 x 4,096 x 14,336 = 176,160,768; the router 4,096 x 8 = 32,768; attention
// 2 x 4,096^2 + 2 x 4,096 x 1,024 = 41,943,040; norms 2 x 4,096. A layer: 41,943,040 + 8 x 176,160,768 + 32,768 +
// 8,192 = 1,451,270,144; x 32 + 2 x 32,000 x 4,096 + 4,096 = 46,702,792,704. Active: less 32 x 6 idle experts x
// 176,160,768 = 33,822,867,456, so 12,879,925,248.
TEST_CASE("a mixture of experts counts every expert, and a token uses top_k of them", "[e2e][moe]") {
    const std::string preset = "problems/model-mixtral-8x7b.yaml";
    CHECK(right(preset, "a", "1409318912")); // 8 x 176,160,768 + 32,768
    CHECK(right(preset, "c", "12879925248"));
    // All experts for the active count is the model's count.
    CHECK(mistake_ids(preset, "c", "46702792704") == std::vector<std::string>{"all_experts_active"});
    // The router left out: 32 x 32,768 = 1,048,576 fewer, in the total and in the active count.
    CHECK(mistake_ids(preset, "b", "46701744128") == std::vector<std::string>{"router_left_out"});
    CHECK(mistake_ids(preset, "c", "12878876672") == std::vector<std::string>{"router_left_out"});
    // Only the 2 experts a token uses counted as the model's parameters: the active count, which part (c) asks.
    const auto active = mistake_ids(preset, "b", "12879925248");
    CHECK(std::find(active.begin(), active.end(), "active_experts_only") != active.end());
}

// One token through Mixtral (seq_len 1, no cache): per layer 2 x (41,943,040 attention weights + 32,768 router + 2 x
// 176,160,768 experts) = 788,594,688, plus attention's 2 x 2 x 32 heads x 128 = 16,384; x 32 layers =
// 25,235,554,304; plus the head's 2 x 4,096 x 32,000 = 262,144,000: 25,497,698,304. A decoding step over a cache of
// one position is the same count through the training formula.
TEST_CASE("a mixture of experts' compute counts the router and the top_k experts", "[e2e][moe]") {
    const std::string spec = mixtral("moe-flops", "  seq_len: 1\n",
                                     "  - {id: a, ask: flops.model_forward}\n  - {id: b, ask: flops.decode_step}\n");
    CHECK(right(spec, "a", "25497698304"));
    CHECK(right(spec, "b", "25497698304"));
    // Every expert run for the token: per layer 2 x (41,943,040 + 32,768 + 8 x 176,160,768) + 16,384 =
    // 2,902,540,288; x 32 + 262,144,000 = 93,143,433,216.
    CHECK(mistake_ids(spec, "a", "93143433216") == std::vector<std::string>{"all_experts_computed"});
}

TEST_CASE("a mixture of experts needs both its numbers, and top_k at most experts", "[e2e][moe]") {
    const std::string base = "  d_model: 8\n  h: 2\n  d_ff: 32\n  layers: 1\n";
    const auto error = [&](const std::string& name, const std::string& extra, const std::string& ask) {
        return run_headcount({"solve", spec_file(name, base + extra, "  - {id: a, ask: " + ask + "}\n")}).err;
    };
    CHECK(has(error("no-top-k", "  experts: 4\n", "model_params"), "needs both experts"));
    CHECK(has(error("top-k-big", "  experts: 4\n  top_k: 5\n", "model_params"),
              "spec.yaml:10:10: top_k = 5 routes each token to more experts than the 4 a layer has"));
    CHECK(has(error("dense-active", "", "params.active"), "params.active counts the parameters a token uses"));
    CHECK(has(error("one-expert", "  experts: 1\n  top_k: 1\n", "model_params"), "experts must be at least 2"));
    CHECK(has(error("top-k-zero", "  experts: 4\n  top_k: 0\n", "model_params"),
              "spec.yaml:10:10: top_k must be at least 1"));
}

// Built-in counts are exact past 64 bits. GPT-3 175B (Brown et al., Table 2.1) with 16,384 sequences of 2,048 tokens
// and no mask, per token by hand (as above, attention not halved): weights 347,892,350,976, attention 4 x 96 x 2,048
// x 12,288 = 9,663,676,416, head 1,235,116,032; 358,791,143,424 forward, x 3 = 1,076,373,430,272 for training, x
// 33,554,432 tokens = 36,117,099,072,668,565,504 FLOPs a step, past 2^64 = 18,446,744,073,709,551,616. Forward only
// is a third of it, 12,039,033,024,222,855,168.
TEST_CASE("a training step's FLOPs past 2^64 are exact", "[e2e][architectures]") {
    const std::string gpt3 = "  d_model: 12288\n  h: 96\n  d_ff: 49152\n  layers: 96\n  vocab: 50257\n"
                             "  max_positions: 2048\n  final_norm: true\n  lm_head: linear\n  seq_len: 2048\n"
                             "  batch: 16384\n  dtype: fp16\n";
    const std::string step =
        spec_file("huge-batch", gpt3, "  - {id: a, ask: model_params}\n  - {id: b, ask: flops.training}\n");
    CHECK(right(step, "a", "174604259328"));
    CHECK(right(step, "b", "36117099072668565504"));
    CHECK(right(step, "b", "36,117,099,072,668,565,504"));
    CHECK_FALSE(right(step, "b", "36117099072668565505"));
    CHECK_FALSE(mistake_ids(step, "b", "12039033024222855168").empty());
    const auto json = run_headcount({"solve", step, "--format", "json"});
    REQUIRE(json.exit_code == 0);
    CHECK(nlohmann::json::parse(json.out)["parts"][1]["answer"] == "36117099072668565504");
    const auto solution = run_headcount({"solve", step});
    CHECK(has(solution.out, "36,117,099,072,668,565,504"));
    // A rounding is judged on the digits, not on doubles (which cannot tell ...565,504 from ...565,000): to the
    // thousands, 565,504 rounds to 566,000, not 565,000.
    const auto rounded = [&](const std::string& answer) {
        return has(run_headcount({"check", step, "--part", "b", "--answer", answer}).out, ": rounded");
    };
    CHECK(rounded("36117099072668566000"));
    CHECK(rounded("3.6117099072668566e19"));
    CHECK_FALSE(rounded("36117099072668565000"));
    CHECK_FALSE(rounded("3.6117099072668565e19"));
}

// Counts past 2^53 in bytes. One head of width 3 (h = 1), b = 10^17 + 1, in fp16, by hand:
// - the KV cache at n = 10^6 + 1 is 2 x b x n x 3 x 2 = 12 x (10^17 + 1)(10^6 + 1) = 12 x (10^23 + 10^17 + 10^6 + 1)
//   = 1,200,001,200,000,000,012,000,012 bytes: 1,200,001,200,000.000012000012 TB, not a whole number of them;
// - the attention weights at n = 10^9 + 1 are b x n^2 x 2 = 2 x (10^17 + 1)(10^18 + 2 x 10^9 + 1) =
//   200,000,000,400,000,002,200,000,004,000,000,002 bytes (2e35), under 10^36 though its bits (x 16) are not.
TEST_CASE("bytes past 2^53: exact in the unit only when whole, and no bit count in the way", "[e2e][architectures]") {
    const std::string dir = headcount::testing::fresh_temp_dir("arch-big-bytes");
    const auto kv = run_headcount(
        {"solve", one_part_spec(dir, "kv", "d_model: 3, h: 1, seq_len: 1000001, batch: 100000000000000001, dtype: fp16",
                                "memory.kv_cache")});
    CHECK(has(kv.out, "1,200,001,200,000,000,012,000,012"));
    CHECK_FALSE(has(kv.out, "exactly 1200001200000 TB"));
    CHECK(has(kv.out, "about 1200001200000.00 TB"));
    const std::string weights =
        one_part_spec(dir, "weights", "d_model: 3, h: 1, seq_len: 1000000001, batch: 100000000000000001, dtype: fp16",
                      "memory.attention_weights");
    CHECK(right(weights, "a", "200000000400000002200000004000000002"));
}

// Counts are exact at any size; a count past 10^36, more than a student can type, stops only the parts that ask
// for it. GPT-3's layers without learned positions (174,604,259,328 - 2,048 x 12,288 = 174,579,093,504 parameters)
// over 5 x 10^12 sequences of 10^9 tokens: a training step's attention alone is 3 x 96 layers x 4 x b x n^2 x d =
// 3 x 96 x 4 x 5 x 10^30 x 12,288 = 7.1e37 FLOPs, while the KV cache, 2 x 96 layers x 5 x 10^12 x 10^9 x 12,288 x
// 2 bytes = 4,718,592 x 5 x 10^21 = 23,592,960,000,000,000,000,000,000,000 bytes (2.4e28), can be typed.
TEST_CASE("counts too large to type fail the parts that ask for them, not the whole problem", "[e2e][architectures]") {
    const std::string absurd = "  d_model: 12288\n  h: 96\n  d_ff: 49152\n  layers: 96\n  vocab: 50257\n"
                               "  final_norm: true\n  lm_head: linear\n  seq_len: 1000000000\n"
                               "  batch: 5000000000000\n  dtype: fp16\n";
    const std::string counts =
        spec_file("absurd-batch", absurd, "  - {id: a, ask: model_params}\n  - {id: b, ask: memory.kv_cache}\n");
    CHECK(right(counts, "a", "174579093504"));
    CHECK(right(counts, "b", "23592960000000000000000000000"));
    const std::string flops =
        spec_file("absurd-batch-flops", absurd, "  - {id: a, ask: model_params}\n  - {id: b, ask: flops.training}\n");
    const auto run = run_headcount({"solve", flops});
    CHECK(run.exit_code == 2);
    // id, title, kind, given: and 10 given lines, then parts: on line 15; the second part is line 17, its ask at 18.
    CHECK(run.err.starts_with(flops + ":17:18: part 'b' asks for flops.training, which comes to about 7."));
    CHECK(has(run.err, "e37 here: past 10^36, more than an answer can be typed as; give smaller sizes"));
}

// A built-in count past 2^53 is written in JSON as a string of digits, as a defined quantity's is, so that no JSON
// reader (JavaScript's doubles) rounds it. One attention block, d = 4,096, n = 65,536, b = 1,024, by hand: the four
// projections 4 x 2bnd^2 = 8 x 2^10 x 2^16 x 2^24 = 2^53, QK^T and AV 2 x 2bn^2 d = 4 x 2^10 x 2^32 x 2^12 = 2^56;
// in all 9 x 2^53 = 81,064,793,292,668,928 FLOPs.
TEST_CASE("a built-in count past 2^53 is a string in JSON", "[e2e][architectures]") {
    const std::string path = headcount::testing::fresh_temp_dir("arch-json-digits") + "/spec.yaml";
    std::ofstream(path) << "id: big\ntitle: big\ngiven: {d_model: 4096, h: 32, seq_len: 65536, batch: 1024}\n"
                           "parts:\n  - {id: a, ask: flops.total}\n  - {id: b, ask: total_params}\n";
    const auto run = run_headcount({"solve", path, "--format", "json"});
    REQUIRE(run.exit_code == 0);
    const auto doc = nlohmann::json::parse(run.out);
    CHECK(doc["parts"][0]["answer"] == "81064793292668928");
    // 4 x (4,096^2 + 4,096) = 67,125,248 parameters: a number, well within 2^53.
    CHECK(doc["parts"][1]["answer"] == 67125248);
    CHECK(right(path, "a", "81064793292668928"));
}

// The reader refuses an odd seq_len under causal only when a halved count would be odd, as the solver does: with
// h = 8 the softmax's 3 x b x h x n^2 = 3 x 1 x 8 x 1,023^2 is even, so seq_len 1,023 is fine; with h = 1 and d_model
// 1,023 (1 x 1 x 1,023^2 scores, 3 x that for the softmax) it is odd, and refused at causal.
TEST_CASE("an odd causal seq_len is refused only where half a count would be left", "[e2e][architectures]") {
    const std::string dir = headcount::testing::fresh_temp_dir("arch-odd-even");
    std::ofstream(dir + "/even.yaml") << "id: e\ntitle: e\ngiven:\n  d_model: 512\n  h: 8\n  seq_len: 1023\n"
                                         "  causal: true\n  softmax: true\nparts:\n  - {id: a, ask: flops.total}\n";
    CHECK(run_headcount({"solve", dir + "/even.yaml"}).exit_code == 0);
    std::ofstream(dir + "/odd.yaml") << "id: o\ntitle: o\ngiven:\n  d_model: 1023\n  h: 1\n  seq_len: 1023\n"
                                        "  causal: true\n  softmax: true\nparts:\n  - {id: a, ask: flops.total}\n";
    CHECK(has(run_headcount({"solve", dir + "/odd.yaml"}).err, "odd.yaml:7:11: causal: true counts half"));
}

// When even one block's FLOPs pass 10^36, too many digits to type (n = 10^15: QK^T and AV are 2 x 2 x b x h x n^2 x
// d_k = 4 x 64 x 32 x 10^30 x 128 = 1.048576e36), the worked solution of what is asked still renders: the KV cache
// of 32 layers, 64 sequences of 10^15 tokens, width 4,096 in bf16 is 2 x 32 x 64 x 10^15 x 4,096 x 2 = 33,554,432 x
// 10^15 = 33,554,432,000,000,000,000,000 bytes; Q is 64 x 10^15 x 4,096.
TEST_CASE("a solution renders when a count nobody asks for is too large to type", "[e2e][architectures]") {
    const std::string dir = headcount::testing::fresh_temp_dir("arch-long-context");
    const auto lc = run_headcount({"solve", one_part_spec(dir, "lc",
                                                          "d_model: 4096, h: 32, d_ff: 11008, layers: 32, vocab: "
                                                          "32000, seq_len: 1000000000000000, batch: 64, dtype: bf16",
                                                          "memory.kv_cache", "transformer")});
    CHECK(lc.exit_code == 0);
    CHECK(has(lc.out, "33,554,432,000,000,000,000,000"));
    const std::string block = "d_model: 4096, h: 32, seq_len: 1000000000000000, batch: 64";
    const auto q = run_headcount({"solve", one_part_spec(dir, "q", block, "shape.q")});
    CHECK(q.exit_code == 0);
    CHECK(has(q.out, "**Answer: (64, 1000000000000000, 4096).**"));
    CHECK(has(run_headcount({"solve", one_part_spec(dir, "f", block, "flops.total")}).err,
              "f.yaml:5:18: part 'a' asks for flops.total, which comes to about 1.05e36 here: past 10^36"));
}

// Mixtral's 46,702,792,704 parameters, all experts, are "46.7B" to three figures, and so are the active count's
// small slips (the idle experts' term without its d_model or d_ff: 46,702,792,704 - 32 x 6 x 3 x 14,336 or x 4,096,
// still 46.7B). The listed slip, every expert counted, is the reading given; the near ones are not listed beside it.
TEST_CASE("a listed mistake wins over derived ones that only round alike", "[e2e][architectures]") {
    CHECK(mistake_ids("problems/model-mixtral-8x7b.yaml", "c", "46.7B") ==
          std::vector<std::string>{"all_experts_active"});
}

// Heads wider than d_model / h (issue 40, item 8): Gemma-7B has d_model 3,072, 16 heads of head_dim 256 (a query
// width of 4,096), a gated FFN of 24,576, 28 layers, a 256,000-token vocabulary tied to the head and RMSNorm. By
// hand: embedding 256,000 × 3,072 = 786,432,000; a layer's attention 4 × 3,072 × 4,096 = 50,331,648, its FFN 3 ×
// 3,072 × 24,576 = 226,492,416 and its two norms 6,144, 276,830,208 in all, × 28 = 7,751,245,824; with the final
// norm's 3,072 that is 8,537,680,896, Hugging Face's count for google/gemma-7b.
TEST_CASE("head_dim apart from d_model / h is a transformer's given", "[e2e][presets]") {
    const std::string gemma = "  d_model: 3072\n  h: 16\n  head_dim: 256\n  bias: false\n  d_ff: 24576\n  ffn: gated\n"
                              "  ffn_bias: false\n  layers: 28\n  vocab: 256000\n  norm: rmsnorm\n  final_norm: true\n"
                              "  lm_head: linear\n  tied_embeddings: true\n";
    const std::string spec =
        spec_file("gemma-7b", gemma, "  - {id: a, ask: model_params}\n  - {id: b, ask: total_params}\n");
    CHECK(right(spec, "a", "8537680896"));
    CHECK(right(spec, "b", "50331648"));
    // d_k and d_v say the same, one at a time.
    std::string split = gemma;
    split.replace(split.find("  head_dim: 256\n"), 16, "  d_k: 256\n  d_v: 256\n");
    CHECK(right(spec_file("gemma-dk", split, "  - {id: a, ask: model_params}\n"), "a", "8537680896"));
    const auto both =
        run_headcount({"solve", spec_file("gemma-both", gemma + "  d_k: 256\n", "  - {id: a, ask: model_params}\n")});
    CHECK(both.exit_code == 2);
    CHECK(has(both.err, "give head_dim (the width of every head's query, key and value) or d_k and d_v, not both"));
    // The training rows that count with heads d_model / h wide say so rather than count wrong.
    const auto activations =
        run_headcount({"solve", spec_file("gemma-activations", gemma + "  batch: 1\n  seq_len: 8192\n",
                                          "  - {id: a, ask: memory.activations}\n")});
    CHECK(activations.exit_code == 2);
    CHECK(has(activations.err, "memory.activations counts Korthikanti et al.'s activations, whose widths assume "
                               "heads d_model / h wide and two norms a layer"));
}

// norm: none (issue 40, item 8): GPT-2 small without its norms. Its 124,439,808 parameters hold 12 layers × 2
// LayerNorms × 2 × 768 = 36,864 and the final norm's 1,536, 38,400 in all: 124,401,408 without them.
TEST_CASE("norm: none is a transformer without norms", "[e2e][presets]") {
    const std::string gpt2 = "  d_model: 768\n  h: 12\n  d_ff: 3072\n  layers: 12\n  vocab: 50257\n"
                             "  max_positions: 1024\n  final_norm: true\n  lm_head: linear\n";
    const std::string parts = "  - {id: a, ask: model_params}\n  - {id: b, ask: layer_params}\n";
    CHECK(right(spec_file("gpt2-norms", gpt2, parts), "a", "124439808"));
    const std::string none = spec_file("gpt2-no-norms", gpt2 + "  norm: none\n", parts);
    CHECK(right(none, "a", "124401408"));
    // A layer: 4 × 768² + 4 × 768 attention and 2 × 768 × 3072 + 3072 + 768 FFN = 7,084,800 (7,087,872 with norms).
    CHECK(right(none, "b", "7084800"));
    const auto solution = run_headcount({"solve", none});
    REQUIRE(solution.exit_code == 0);
    CHECK(has(solution.out, "This model has none (`norm: none`)"));
    CHECK(!has(solution.out, "A layer has two: one around the attention"));
}

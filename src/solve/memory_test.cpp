#include <solve/asks.hpp>
#include <solve/test_solve.hpp>
#include <spec/reader.hpp>
#include <spec/test_givens.hpp>
#include <util/text.hpp>

#include <util/test_catch.hpp>

#include <string>
#include <string_view>
#include <vector>

using namespace headcount;

namespace {

/// Reads a spec from YAML, as `headcount solve` would, and solves it.
solve::SolvedProblem solve_yaml(const std::string& yaml) {
    const std::vector<std::string_view> asks = solve::ask_ids();
    const spec::Vocabulary words{asks, {}};
    auto problem = spec::parse_problem(yaml, "memory.yaml", words);
    INFO((problem ? std::string("read") : problem.error().to_string()));
    REQUIRE(problem.has_value());
    auto solved = solve::solve_problem(*problem);
    INFO((solved ? std::string("solved") : solved.error().to_string()));
    REQUIRE(solved.has_value());
    return *solved;
}

/// The bytes an ask comes to, read the way the grader reads it.
Count bytes(const solve::SolvedProblem& solved, std::string_view ask) {
    const solve::Ask* a = solve::find_ask(ask);
    REQUIRE(a != nullptr);
    CHECK(a->unit == "bytes");
    return a->evaluate(solved).count;
}

/// The bytes an ask comes to for a student who made the catalogue's mistake `id`.
Count bytes(const std::string& yaml, std::string_view ask, std::string_view id) {
    const solve::SolvedProblem solved = solve_yaml(yaml);
    const solve::Ask* a = solve::find_ask(ask);
    REQUIRE(a != nullptr);
    const auto value = solved.computation->value_under(solved.computation->find(a->name),
                                                       testing::mistake_change(*solved.computation, id));
    REQUIRE(value.has_value());
    return *formula::to_count(*value);
}

const std::string k_parts = R"(parts:
  - {id: a, ask: memory.attention_weights}
  - {id: b, ask: memory.qkv_activations}
  - {id: c, ask: memory.kv_cache}
  - {id: d, ask: memory.parameters}
)";

/// The lesson's block: d_model 512, 8 heads, a batch of 32 sequences of 128 tokens, in `dtype`.
std::string lesson(std::string_view dtype) {
    return "id: lesson\ntitle: Memory of one block\ngiven:\n  d_model: 512\n  h: 8\n  batch: 32\n  seq_len: "
           "128\n"
           "  dtype: " +
           std::string(dtype) + "\n" + k_parts;
}

/// LLaMA-2-7B as problems/model-llama-2-7b.yaml gives it, generating `tokens` tokens for one sequence in
/// fp16; with `n_kv_heads`, Mistral-7B's grouped-query attention and FFN width instead.
std::string seven_b(Count tokens, bool mistral = false) {
    return "id: seven-b\ntitle: A 7B model\nkind: transformer\ngiven:\n  d_model: 4096\n  h: 32\n" +
           std::string(mistral ? "  n_kv_heads: 8\n  d_ff: 14336\n" : "  d_ff: 11008\n") +
           "  bias: false\n  layers: 32\n  vocab: 32000\n  norm: rmsnorm\n  ffn: gated\n  ffn_bias: false\n"
           "  final_norm: true\n  lm_head: linear\n  tied_embeddings: false\n  batch: 1\n  seq_len: " +
           plain_number(tokens) + "\n  dtype: fp16\n" + k_parts;
}

} // namespace

TEST_CASE("the lesson's worked example: attention weights of b 32, h 8, n 128 in fp32", "[memory]") {
    // b h n n = 32 x 8 x 128 x 128 = 4,194,304 weights, 4 bytes each: 16,777,216 bytes = 16 x 2^20 = 16 MiB.
    const auto solved = solve_yaml(lesson("fp32"));
    REQUIRE(solved.memory.has_value());
    CHECK(solved.memory->bits_per_value == 32);
    CHECK(solved.memory->weights_values == 4'194'304);
    CHECK(bytes(solved, "memory.attention_weights") == 16'777'216);
    CHECK(bytes(solved, "memory.attention_weights") == 16 * 1024 * 1024);
    // The parts hold the same numbers as the asks evaluated on their own.
    REQUIRE(solved.parts.size() == 4);
    CHECK(solved.parts[0].answer.count == 16'777'216);
}

TEST_CASE("Q, K and V activations, the block's KV cache and its parameters in fp32", "[memory]") {
    // Q, K, V are each (b, n, h d_k) = 32 x 128 x 512 = 2,097,152 values; 6,291,456 together, x 4 bytes =
    // 25,165,824 bytes = 24 MiB.
    const auto solved = solve_yaml(lesson("fp32"));
    CHECK(solved.memory->q_values == 2'097'152);
    CHECK(solved.memory->k_values == 2'097'152);
    CHECK(solved.memory->v_values == 2'097'152);
    CHECK(bytes(solved, "memory.qkv_activations") == 25'165'824);
    // One block caches K and V for every position: b x n x (h d_k + h d_v) = 32 x 128 x 1,024 = 4,194,304
    // values, 16,777,216 bytes (the same as the weights here only because h n = 2 d_model: 8 x 128 = 1,024).
    CHECK(solved.memory->kv_layers == 1);
    CHECK(solved.memory->kv_per_token == 1'024);
    CHECK(bytes(solved, "memory.kv_cache") == 16'777'216);
    // The block's 4 x 512 x 513 = 1,050,624 parameters, 4 bytes each: 4,202,496 bytes.
    CHECK(bytes(solved, "memory.parameters") == 4'202'496);
}

TEST_CASE("every dtype's bytes per value", "[memory]") {
    // 4,194,304 attention weights at 1, 1, 2, 2, 4 and 8 bytes (fp8, E4M3 or E5M2, is one byte like int8).
    for (const auto& [dtype, per_value] : std::vector<std::pair<std::string, Count>>{
             {"int8", 1}, {"fp8", 1}, {"fp16", 2}, {"bf16", 2}, {"fp32", 4}, {"fp64", 8}}) {
        INFO(dtype);
        const auto solved = solve_yaml(lesson(dtype));
        CHECK(solved.memory->bits_per_value == 8 * per_value);
        CHECK(bytes(solved, "memory.attention_weights") == 4'194'304 * per_value);
        CHECK(bytes(solved, "memory.parameters") == 1'050'624 * per_value);
    }
}

TEST_CASE("int4 packs two values to a byte, and an odd count rounds up", "[memory]") {
    // The lesson's 4,194,304 attention weights at half a byte: 2,097,152 bytes; its 1,050,624 parameters: 525,312.
    const auto solved = solve_yaml(lesson("int4"));
    CHECK(solved.memory->bits_per_value == 4);
    CHECK(bytes(solved, "memory.attention_weights") == 2'097'152);
    CHECK(bytes(solved, "memory.parameters") == 525'312);
    // Bits taken for bytes (a classic slip) gives 4 bytes per value: 4 x 1,050,624 = 4,202,496.
    CHECK(bytes(lesson("int4"), "memory.parameters", "bits_for_bytes") == 4'202'496);
    // An odd count: d_model 3, h 1, a bias on Q alone: 4 x 3 x 3 + 3 = 39 values, 19.5 bytes, so 20 whole bytes.
    const auto odd = solve_yaml("id: odd\ntitle: odd\ngiven:\n  d_model: 3\n  h: 1\n  bias: {q: true, k: false, "
                                "v: false, o: false}\n  dtype: int4\nparts:\n  - {id: a, ask: memory.parameters}\n");
    CHECK(odd.memory->parameter_values == 39);
    CHECK(bytes(odd, "memory.parameters") == 20);
}

TEST_CASE("LLaMA-2-7B's KV cache at 4,096 tokens in fp16 is 2 GiB, half a MiB per token", "[memory]") {
    // 32 layers x 1 sequence x 4,096 tokens x (32 heads x 128 keys + 32 x 128 values = 8,192) = 1,073,741,824
    // values; x 2 bytes = 2,147,483,648 = 2 GiB. The published rule: 2 x 32 x 4,096 x 2 bytes = 0.5 MiB per
    // token.
    const auto solved = solve_yaml(seven_b(4096));
    CHECK(solved.memory->kv_layers == 32);
    CHECK(solved.memory->kv_tokens == 4096);
    CHECK(solved.memory->kv_per_token == 8192);
    CHECK(bytes(solved, "memory.kv_cache") == 2'147'483'648);
    // Per token: the same model at one token.
    CHECK(bytes(solve_yaml(seven_b(1)), "memory.kv_cache") == 512 * 1024);
    // The weights in fp16: 2 x 6,738,415,616 (Hugging Face's parameter count) = 13,476,831,232 bytes.
    CHECK(solved.memory->parameter_values == 6'738'415'616);
    CHECK(bytes(solved, "memory.parameters") == 13'476'831'232);
}

TEST_CASE("a grouped-query model caches n_kv heads: Mistral-7B at 128 KiB per token", "[memory]") {
    // 32 layers x 8 KV heads x (128 + 128) x 2 bytes = 131,072 bytes = 128 KiB per token, a quarter of
    // LLaMA-2's (32 / 8 = 4 query heads share each KV head). At 4,096 tokens: 536,870,912 bytes = 512 MiB.
    CHECK(bytes(solve_yaml(seven_b(1, true)), "memory.kv_cache") == 128 * 1024);
    const auto solved = solve_yaml(seven_b(4096, true));
    CHECK(solved.memory->kv_per_token == 2048);
    CHECK(bytes(solved, "memory.kv_cache") == 536'870'912);
    // Hugging Face's count for Mistral-7B, 7,241,732,096, at 2 bytes.
    CHECK(bytes(solved, "memory.parameters") == 14'483'464'192);
    // The attention weights do not depend on the KV heads: 32 query heads x 4,096^2 x 2 bytes = 1 GiB per
    // layer.
    CHECK(bytes(solved, "memory.attention_weights") == 1'073'741'824);
}

TEST_CASE("cross-attention caches the m key positions", "[memory]") {
    // d_model 512, h 8, one sequence of n 10 queries over m 300 keys, fp16: the cache holds 300 x 1,024
    // values = 614,400 bytes; the weights b h n m = 8 x 10 x 300 = 24,000 values = 48,000 bytes; Q is 10 x
    // 512, K and V 300 x 512 each: 312,320 values = 624,640 bytes.
    const auto solved = solve_yaml("id: x\ntitle: x\ngiven: {d_model: 512, h: 8, seq_len: 10, seq_len_kv: 300, "
                                   "dtype: fp16}\n" +
                                   k_parts);
    CHECK(bytes(solved, "memory.kv_cache") == 614'400);
    CHECK(bytes(solved, "memory.attention_weights") == 48'000);
    CHECK(bytes(solved, "memory.qkv_activations") == 624'640);
}

TEST_CASE("memory mistakes change what their changes say", "[memory]") {
    const std::string yaml = lesson("fp32");
    SECTION("bits_for_bytes: 32 'bytes' per fp32 value, eight times too many") {
        CHECK(bytes(yaml, "memory.attention_weights", "bits_for_bytes") == 134'217'728); // 4,194,304 x 32 = 128 MiB
        CHECK(bytes(yaml, "memory.parameters", "bits_for_bytes") == 1'050'624 * 32);
        // In fp16 it is 16: LLaMA-2's cache 1,073,741,824 values x 16 = 2^34 = 17,179,869,184.
        CHECK(bytes(seven_b(4096), "memory.kv_cache", "bits_for_bytes") == 17'179'869'184);
    }
    SECTION("bytes_per_value_missing: the number of values given as the bytes") {
        CHECK(bytes(yaml, "memory.attention_weights", "bytes_per_value_missing") == 4'194'304);
        CHECK(bytes(yaml, "memory.qkv_activations", "bytes_per_value_missing") == 6'291'456);
        CHECK(bytes(seven_b(4096), "memory.kv_cache", "bytes_per_value_missing") == 1'073'741'824);
    }
    SECTION("kv_cache_missing_factor_2: keys cached, values forgotten (n_kv d_k per token, not n_kv (d_k + d_v))") {
        // d_k 64, d_v 32 so that keys only is not simply half: 8 x 64 = 512 of 8 x 96 = 768 values per token.
        // b 2, n 10, fp32: right 2 x 10 x 768 x 4 = 61,440 bytes; keys only 2 x 10 x 512 x 4 = 40,960.
        const std::string dk_dv = "id: x\ntitle: x\ngiven: {d_model: 512, h: 8, d_k: 64, d_v: 32, batch: 2, "
                                  "seq_len: 10, dtype: fp32}\n" +
                                  k_parts;
        CHECK(bytes(solve_yaml(dk_dv), "memory.kv_cache") == 61'440);
        CHECK(bytes(dk_dv, "memory.kv_cache", "kv_cache_missing_factor_2") == 40'960);
        // Nothing but the cache changes: weights 2 x 8 x 10 x 10 x 4 = 6,400 bytes either way.
        CHECK(bytes(dk_dv, "memory.attention_weights", "kv_cache_missing_factor_2") == 6'400);
        CHECK(bytes(dk_dv, "memory.qkv_activations", "kv_cache_missing_factor_2") ==
              bytes(solve_yaml(dk_dv), "memory.qkv_activations"));
        // LLaMA-2 (d_k = d_v): exactly half, 1 GiB.
        CHECK(bytes(seven_b(4096), "memory.kv_cache", "kv_cache_missing_factor_2") == 1'073'741'824);
    }
    SECTION("kv_heads_ignored: a grouped-query cache counted with h heads") {
        // Mistral-7B's cache as if it had LLaMA-2's 32 KV heads: 2 GiB instead of 512 MiB.
        CHECK(bytes(seven_b(4096, true), "memory.kv_cache", "kv_heads_ignored") == 2'147'483'648);
        CHECK(bytes(seven_b(4096, true), "memory.attention_weights", "kv_heads_ignored") == 1'073'741'824);
    }
    SECTION("gated_ffn_two_matrices: a parameter-count slip carried into the parameters' bytes") {
        // LLaMA-2-7B has 6,738,415,616 parameters (Hugging Face's count), 13,476,831,232 bytes in fp16. Its FFN
        // with two d_model x d_ff matrices instead of three: 32 x 4,096 x 11,008 = 1,442,840,576 parameters fewer,
        // x 2 bytes = 2,885,681,152 bytes fewer.
        CHECK(bytes(solve_yaml(seven_b(4096)), "memory.parameters") == 13'476'831'232);
        CHECK(bytes(seven_b(4096), "memory.parameters", "gated_ffn_two_matrices") == 13'476'831'232 - 2'885'681'152);
    }
}

TEST_CASE("memory asks need a dtype, and those over tensors a workload", "[memory]") {
    const std::vector<std::string_view> asks = solve::ask_ids();
    const spec::Vocabulary words{asks, {}};
    auto error_of = [&](const std::string& yaml) {
        auto problem = spec::parse_problem(yaml, "m.yaml", words);
        REQUIRE(problem.has_value());
        auto solved = solve::solve_problem(*problem);
        REQUIRE_FALSE(solved.has_value());
        return solved.error().to_string();
    };
    CHECK_THAT(error_of("id: x\ntitle: x\ngiven: {d_model: 512, h: 8, seq_len: 128}\nparts:\n"
                        "  - {id: a, ask: memory.attention_weights}\n"),
               Catch::Matchers::Contains("give dtype"));
    CHECK_THAT(error_of("id: x\ntitle: x\ngiven: {d_model: 512, h: 8, dtype: fp16}\nparts:\n"
                        "  - {id: a, ask: memory.kv_cache}\n"),
               Catch::Matchers::Contains("give seq_len"));
    // An encoder-decoder's cache also holds cross-attention keys; headcount refuses rather than undercount. The
    // ask stands on line 6, column 18 (after "  - {id: a, ask: ").
    CHECK(error_of("id: x\ntitle: x\nkind: transformer\ngiven: {d_model: 512, h: 8, d_ff: 2048, encoder_layers: 6, "
                   "decoder_layers: 6, seq_len: 100, dtype: fp32}\nparts:\n  - {id: a, ask: memory.kv_cache}\n") ==
          "m.yaml:6:18: ask 'memory.kv_cache' is about one stack of layers (decoder-only or one block); an "
          "encoder-decoder's cache also holds cross-attention keys, which headcount does not model");
    // The parameters need no workload: 1,050,624 x 2 bytes.
    const auto params = solve_yaml("id: x\ntitle: x\ngiven: {d_model: 512, h: 8, dtype: fp16}\nparts:\n"
                                   "  - {id: a, ask: memory.parameters}\n");
    CHECK(params.parts[0].answer.count == 2'101'248);
}

TEST_CASE("memory is exact past 10^36", "[memory]") {
    // b h n n with b = 2^100, h = 2^3, n = 2^10: 2^(100+3+20) = 2^123 values, past 10^36 (about 2^119.6); in int8,
    // as many bytes, exactly.
    spec::Workload w;
    w.batch = Count{1} << 100;
    w.seq_len = 1024;
    const auto solved = testing::solved_of(testing::mha(512, 8), {}, w, spec::Precision{"int8", 8});
    mpz_class two_to_123;
    mpz_ui_pow_ui(two_to_123.get_mpz_t(), 2, 123);
    CHECK(*solved.computation->value("memory_attention_weights") == formula::Number(two_to_123));
}

// Grading the answers that are not counts: bytes with units, tensor shapes and the dominant compute term.

#include <grade/grader.hpp>
#include <spec/reader.hpp>

#include <util/test_catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

using namespace headcount;
using namespace headcount::grade;
using Catch::Matchers::Contains;

namespace {

/// Reads and solves a spec, with the whole vocabulary of asks and mistakes, as the CLI does.
solve::SolvedProblem solve_yaml(const std::string& yaml) {
    const std::vector<std::string_view> asks = solve::ask_ids();
    const std::vector<std::string_view> mistakes = mistake_ids();
    const spec::Vocabulary words{asks, mistakes};
    auto problem = spec::parse_problem(yaml, "types.yaml", words);
    INFO((problem ? std::string("read") : problem.error().to_string()));
    REQUIRE(problem.has_value());
    auto solved = solve::solve_problem(*problem);
    INFO((solved ? std::string("solved") : solved.error().to_string()));
    REQUIRE(solved.has_value());
    return *solved;
}

/// A one-part problem asking `ask` of the given givens (a YAML flow map's contents), worth 2 points.
solve::SolvedProblem one_part(std::string_view givens, std::string_view ask) {
    return solve_yaml("id: p\ntitle: t\ngiven: {" + std::string(givens) +
                      "}\nparts:\n  - {id: a, ask: " + std::string(ask) + ", points: 2}\n");
}

Verdict verdict_of(const solve::SolvedProblem& solved, std::string_view answer) {
    REQUIRE(solved.parts.size() == 1);
    return grade_answer(solved, solved.parts[0], answer);
}

/// The ids of the mistakes a verdict names, in order.
std::vector<std::string> named(const Verdict& v) {
    std::vector<std::string> ids;
    for (const Mistake* m : named_mistakes(v))
        ids.emplace_back(m->id);
    return ids;
}

using Ids = std::vector<std::string>;

// The lesson's block: d_model 512, h 8 (d_k 64), a batch of 32 sequences of 128 tokens.
constexpr std::string_view k_lesson = "d_model: 512, h: 8, batch: 32, seq_len: 128";

} // namespace

TEST_CASE("bytes: the exact count, or the right value in binary or decimal units", "[grader][bytes]") {
    // Attention weights 32 x 8 x 128 x 128 x 4 bytes = 16,777,216 = 16 MiB = 16.777216 MB.
    const auto solved = one_part(std::string(k_lesson) + ", dtype: fp32", "memory.attention_weights");
    REQUIRE(solved.parts[0].answer.count == 16'777'216);
    // 16.8 MB is 16,777,216 to three figures (16,750,000 .. 16,850,000), 16.78 MB to four (16,775,000 ..
    // 16,785,000).
    for (const char* answer : {"16777216", "16,777,216 bytes", "2^24 B", "16 MiB", "16 mebibytes", "16384 KiB",
                               "16.8 MB", "16.78 MB", "16.777216 MB"}) {
        INFO(answer);
        const auto v = verdict_of(solved, answer);
        CHECK(v.status == Status::correct);
        CHECK(v.score == 2);
        CHECK(named(v).empty());
    }
    // 16.7 MB and 16.9 MB are not it at three figures.
    CHECK(verdict_of(solved, "16.7 MB").status == Status::incorrect);
    CHECK(verdict_of(solved, "16.9 MB").status == Status::incorrect);
}

TEST_CASE("bytes: decimal and binary units mixed up earn half credit", "[grader][bytes]") {
    const auto solved = one_part(std::string(k_lesson) + ", dtype: fp32", "memory.attention_weights");
    // "16 MB" is 16,000,000 bytes: 16 MiB written with the decimal unit. "16.8 MiB" is 17,616,076.8
    // bytes: 16.8 MB (the right value to three figures) written with the binary unit.
    for (const char* answer : {"16 MB", "16.8 MiB", "16 megabytes", "16.78 MiB"}) {
        INFO(answer);
        const auto v = verdict_of(solved, answer);
        CHECK(v.status == Status::incorrect);
        CHECK(named(v) == Ids{"decimal_vs_binary_units"});
        CHECK(v.score == Approx(1.0)); // half of 2 points, the catalogue's default
    }
    // 17 MiB is neither: 17 MiB = 17,825,792 and, read as 17 MB, 17,000,000 are both off by more than the
    // rounding of a last digit worth 1 MiB (or 1 MB) allows, which is coarser than 1% anyway.
    const auto v = verdict_of(solved, "17 MiB");
    CHECK(v.status == Status::incorrect);
    CHECK(named(v).empty());
}

TEST_CASE("bytes: bits for bytes, values for bytes, bits as a unit", "[grader][bytes]") {
    const auto solved = one_part(std::string(k_lesson) + ", dtype: fp32", "memory.attention_weights");
    // 4,194,304 weights x 32 (bits of fp32 taken as bytes) = 134,217,728 = 128 MiB.
    for (const char* answer : {"128 MiB", "134217728", "134,217,728 bytes"}) {
        INFO(answer);
        const auto v = verdict_of(solved, answer);
        CHECK(v.status == Status::incorrect);
        CHECK(named(v) == Ids{"bits_for_bytes"});
        CHECK(v.score == 0);
    }
    // The number of weights, 4,194,304 = 4 MiB of values, given as the bytes.
    for (const char* answer : {"4194304", "4 MiB"}) {
        INFO(answer);
        CHECK(named(verdict_of(solved, answer)) == Ids{"bytes_per_value_missing"});
    }
    // Mb is megabits: not read, and the reason says so.
    const auto bits = verdict_of(solved, "16 Mb");
    CHECK(bits.status == Status::unreadable);
    CHECK_THAT(bits.unreadable_reason, Contains("bits") && Contains("bytes"));
    CHECK(bits.score == 0);
}

TEST_CASE("bytes: the KV cache's own mistakes", "[grader][bytes]") {
    // d_model 512, h 8, d_k 64, d_v 32, batch 2, n 10, fp32: 2 x 10 x 8 x (64 + 32) x 4 = 61,440 bytes; keys
    // only 2 x 10 x 8 x 64 x 4 = 40,960.
    const auto block =
        one_part("d_model: 512, h: 8, d_k: 64, d_v: 32, batch: 2, seq_len: 10, dtype: fp32", "memory.kv_cache");
    CHECK(verdict_of(block, "61440").status == Status::correct);
    CHECK(named(verdict_of(block, "40960")) == Ids{"kv_cache_missing_factor_2"});
    // Grouped-query: d_model 4096, h 32, 8 KV heads (d_k 128), one sequence of 4,096 tokens in fp16: 4,096 x
    // 8 x 256 x 2 = 16,777,216 bytes for one layer. With h = 32 KV heads instead: 67,108,864 = 64 MiB.
    const auto gqa = one_part("d_model: 4096, h: 32, n_kv_heads: 8, seq_len: 4096, dtype: fp16", "memory.kv_cache");
    CHECK(verdict_of(gqa, "16 MiB").status == Status::correct);
    CHECK(named(verdict_of(gqa, "64 MiB")) == Ids{"kv_heads_ignored"});
}

TEST_CASE("shapes: the right shape in any form", "[grader][shape]") {
    // The scores of the lesson's block: (b, h, n, n) = (32, 8, 128, 128), 4,194,304 elements.
    const auto solved = one_part(k_lesson, "shape.scores");
    REQUIRE(solved.parts[0].answer.shape == solve::Shape{32, 8, 128, 128});
    for (const char* answer : {"(32, 8, 128, 128)", "[32,8,128,128]", "32x8x128x128", "32 × 8 × 128 × 128",
                               "torch.Size([32, 8, 128, 128])", "(32, 8, 2*64, 2^7)"}) {
        INFO(answer);
        const auto v = verdict_of(solved, answer);
        CHECK(v.status == Status::correct);
        CHECK(v.score == 2);
        REQUIRE(v.read.has_value());
        CHECK(v.read->count == 4'194'304);
    }
}

TEST_CASE("shapes: each mistake is named; other wrong shapes are not explained", "[grader][shape]") {
    const auto scores = one_part(k_lesson, "shape.scores");
    // Without the transpose after the reshape: (b, n, h, n).
    CHECK(named(verdict_of(scores, "(32, 128, 8, 128)")) == Ids{"heads_seq_axes_swapped"});
    // The batch left out: (h, n, n).
    CHECK(named(verdict_of(scores, "(8, 128, 128)")) == Ids{"batch_axis_dropped"});
    // Both: (n, h, n).
    const auto both = verdict_of(scores, "(128, 8, 128)");
    CHECK(both.status == Status::incorrect);
    REQUIRE(both.matches.size() == 1);
    CHECK(both.matches[0].mistakes.size() == 2);
    const Ids both_ids = named(both);
    CHECK(std::set<std::string>(both_ids.begin(), both_ids.end()) ==
          std::set<std::string>{"heads_seq_axes_swapped", "batch_axis_dropped"});
    // The right axes in an order no mistake gives, and the right element count in the wrong rank:
    // unexplained.
    for (const char* answer :
         {"(8, 32, 128, 128)", "(128, 128, 8, 32)", "(32, 8, 128, 128, 1)", "(32, 8, 16384)", "(4194304,)"}) {
        INFO(answer);
        const auto v = verdict_of(scores, answer);
        CHECK(v.status == Status::incorrect);
        CHECK(v.matches.empty());
        CHECK(v.score == 0);
    }
    // A per-head query with d_model for d_k: (32, 8, 128, 512) instead of (32, 8, 128, 64).
    const auto q_heads = one_part(k_lesson, "shape.q_heads");
    CHECK(verdict_of(q_heads, "(32, 8, 128, 64)").status == Status::correct);
    CHECK(named(verdict_of(q_heads, "(32, 8, 128, 512)")) == Ids{"d_model_for_d_k"});
    // One number is an element count, not a shape: unreadable, with the reason.
    const auto count = verdict_of(scores, "4194304");
    CHECK(count.status == Status::unreadable);
    CHECK_THAT(count.unreadable_reason, Contains("not a shape"));
    CHECK_THAT(verdict_of(scores, "(b, h, n, n)").unreadable_reason, Contains("symbol 'b'"));
}

TEST_CASE("shapes: grouped-query K heads counted with h heads", "[grader][shape]") {
    // Mistral-7B's attention: d_model 4096, 32 heads of 128, 8 KV heads; one sequence of 16 tokens. The
    // per-head keys are (b, n_kv, n, d_k) = (1, 8, 16, 128); with h heads (1, 32, 16, 128).
    const auto solved = one_part("d_model: 4096, h: 32, n_kv_heads: 8, batch: 1, seq_len: 16", "shape.k_heads");
    CHECK(verdict_of(solved, "(1, 8, 16, 128)").status == Status::correct);
    const auto v = verdict_of(solved, "(1, 32, 16, 128)");
    CHECK(v.status == Status::incorrect);
    CHECK(named(v) == Ids{"kv_heads_ignored"});
    // Every explanation offered for a shape is a mistake whose feedback is written for shapes.
    for (const Explanation& e : explanations(solved, solved.parts[0]))
        for (const Mistake* m : e.mistakes) {
            INFO(m->id);
            CHECK(m->answers.find("shapes") != std::string_view::npos);
        }
}

TEST_CASE("the dominant term: right word, wrong word, and the n-versus-d rule of thumb", "[grader][choice]") {
    // d_model 1024, n 1536 (d < n < 2d). Linear: Q, K, V and O, each 2 n d^2, so 8 n d^2 = 12,884,901,888
    // FLOPs; attention: QK^T and AV, each 2 n^2 d, so 4 n^2 d = 9,663,676,416. Attention / linear = n / 2d =
    // 0.75: the projections dominate. The rule of thumb "attention once n > d" says attention.
    const auto solved = one_part("d_model: 1024, h: 16, seq_len: 1536", "flops.dominant");
    REQUIRE(solved.flops.has_value());
    REQUIRE(solved.flops->linear == 12'884'901'888);
    REQUIRE(solved.flops->attention == 9'663'676'416);
    for (const char* answer : {"projections", "The projections dominate.", "linear layers"}) {
        INFO(answer);
        const auto v = verdict_of(solved, answer);
        CHECK(v.status == Status::correct);
        CHECK(v.score == 2);
    }
    const auto rule = verdict_of(solved, "Attention dominates.");
    CHECK(rule.status == Status::incorrect);
    CHECK(named(rule) == Ids{"n_versus_d_rule_of_thumb"});
    CHECK(rule.score == 0);
    const auto equal = verdict_of(solved, "equal");
    CHECK(equal.status == Status::incorrect);
    CHECK(equal.matches.empty());
    CHECK(verdict_of(solved, "both projections and attention").status == Status::unreadable);
    CHECK(verdict_of(solved, "banana").status == Status::unreadable);

    // n = 2d exactly (d 512, n 1024): 8 n d^2 = 4 n^2 d = 2,147,483,648 each: neither dominates.
    const auto tie = one_part("d_model: 512, h: 8, seq_len: 1024", "flops.dominant");
    CHECK(verdict_of(tie, "neither").status == Status::correct);
    CHECK(verdict_of(tie, "equal").status == Status::correct);
    CHECK(named(verdict_of(tie, "attention")) == Ids{"n_versus_d_rule_of_thumb"});

    // n < d (d 1024, n 512): the projections, and the rule of thumb agrees, so "attention" is not explained
    // by it.
    const auto short_seq = one_part("d_model: 1024, h: 16, seq_len: 512", "flops.dominant");
    CHECK(verdict_of(short_seq, "projections").status == Status::correct);
    const auto wrong = verdict_of(short_seq, "attention");
    CHECK(wrong.status == Status::incorrect);
    CHECK(wrong.matches.empty());
}

TEST_CASE("a parameter-count mistake is never offered for a choice or a shape", "[grader][choice][shape]") {
    // d_model 512, n 1024 = 2d with flop_biases: the matmuls tie (2,147,483,648 each), and the biases' 4 n d
    // = 2,097,152 additions make the linear layers dominate. Counted without biases (missing_biases) they
    // would tie: a count mistake that does change this answer, so its absence below is the type filter at
    // work.
    const auto solved = one_part("d_model: 512, h: 8, seq_len: 1024, flop_biases: true", "flops.dominant");
    const Mistake* missing_biases = find_mistake("missing_biases");
    REQUIRE(missing_biases != nullptr);
    CHECK(missing_biases->answers.find("choices") == std::string_view::npos);
    CHECK(missing_biases->answers.find("shapes") == std::string_view::npos);
    const auto under_mistake = value_under(solved, solved.parts[0], *missing_biases);
    REQUIRE(under_mistake.has_value());
    REQUIRE(solved.parts[0].answer.count == 0); // projections
    REQUIRE(under_mistake->count == 2);         // equal
    const auto v = verdict_of(solved, "equal");
    CHECK(v.status == Status::incorrect);
    CHECK(named(v).empty());
    // Likewise one_projection_only (a FLOP-count mistake) makes attention dominate here, but is not offered;
    // "attention" is the rule of thumb's answer (n > d) and only that.
    CHECK(named(verdict_of(solved, "attention")) == Ids{"n_versus_d_rule_of_thumb"});
    for (const Explanation& e : explanations(solved, solved.parts[0]))
        for (const Mistake* m : e.mistakes) {
            INFO(m->id);
            CHECK(m->answers.find("choices") != std::string_view::npos);
        }
    // Shapes: a shape ask is offered only mistakes written for shapes (kv_heads_ignored is both).
    const auto shape = one_part(k_lesson, "shape.q");
    for (const Explanation& e : explanations(shape, shape.parts[0]))
        for (const Mistake* m : e.mistakes) {
            INFO(m->id);
            CHECK(m->answers.find("shapes") != std::string_view::npos);
            CHECK(m->id != "missing_biases");
        }
}

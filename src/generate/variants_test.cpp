#include <generate/variants.hpp>

#include <spec/givens.hpp>

#include <generate/test_problems.hpp>
#include <spec/test_givens.hpp>

#include <util/test_catch.hpp>

using namespace headcount;
using namespace headcount::generate;
using testing::varied;

namespace {

/// BERT-base as problems/model-bert-base.yaml gives it, asking for the whole model's parameters.
spec::Problem bert_base(std::vector<spec::Variation> vary) {
    spec::Problem p = varied(std::move(vary));
    p.id = "bert";
    p.kind = "transformer";
    p.given.d_model = 768;
    p.given.h = 12;
    p.model = testing::bert_base();
    p.parts = {spec::Part{"c", "model_params", 3, {}, {}, {}, {}, {}, {}, {}, false, {}, false, {}}};
    return p;
}

/// Each valid variant of `problem`, solved, in valid_variants order.
std::vector<solve::SolvedProblem> solved_variants(const spec::Problem& problem) {
    auto variants = valid_variants(problem);
    REQUIRE(variants.has_value());
    std::vector<solve::SolvedProblem> out;
    for (const spec::Givens& givens : *variants) {
        auto solved = solve::solve_problem(spec::with_givens(problem, givens));
        REQUIRE(solved.has_value());
        out.push_back(std::move(*solved));
    }
    return out;
}

} // namespace

TEST_CASE("FNV-1a 64 matches the published test vectors", "[generate]") {
    // Fowler/Noll/Vo's reference test suite (isthe.com/chongo/tech/comp/fnv): offset basis, "a", "foobar".
    CHECK(fnv1a64("") == 0xcbf29ce484222325ULL);
    CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cULL);
    CHECK(fnv1a64("foobar") == 0x85944171f73967e8ULL);
}

TEST_CASE("SplitMix64 matches the reference sequence", "[generate]") {
    // Vigna's splitmix64.c seeded with 0 starts e220a8397b1dcdaf, 6e789e6aa1b965f4, 06c45d188009454f.
    SplitMix64 g(0);
    CHECK(g.next() == 0xe220a8397b1dcdafULL);
    CHECK(g.next() == 0x6e789e6aa1b965f4ULL);
    CHECK(g.next() == 0x06c45d188009454fULL);
}

TEST_CASE("below() stays in range and reaches every value", "[generate]") {
    SplitMix64 g(42);
    std::vector<int> seen(7, 0);
    for (int i = 0; i < 7000; ++i)
        ++seen[g.below(7)];
    for (int count : seen)
        CHECK(count > 800); // each of 7 values about 1000 times; far from 0 whatever the seed
}

TEST_CASE("valid variants pass the hand-written spec's checks", "[generate]") {
    // d_model in {256, 384, 512} x h in {4, 6, 8}: h must divide d_model. 256: 4, 8; 384: 4, 6, 8; 512: 4, 8.
    auto variants = valid_variants(varied({{"d_model", {256, 384, 512}, {}}, {"h", {4, 6, 8}, {}}}));
    REQUIRE(variants.has_value());
    CHECK(variants->size() == 7);
    for (const auto& g : *variants)
        CHECK_FALSE(spec::check_givens(g.given).has_value());
    CHECK(variants->front().given.d_model == 256);
    CHECK(variants->front().given.h == 4);

    auto none = valid_variants(varied({{"d_model", {250, 130}, {}}, {"h", {4, 8}, {}}}));
    REQUIRE_FALSE(none.has_value());
    // The first combination, d_model 250 with h 4, is the one named: 250 / 4 = 62.5 is no head size.
    CHECK(none.error().message ==
          "none of the 4 combinations in vary is a valid problem; the first, d_model = 250, h = 4: h = 4 does not "
          "divide d_model = 250, so the default d_k = d_v = d_model / h is not a whole number; give d_k and d_v "
          "explicitly or choose an h that divides d_model");
}

TEST_CASE("varying a transformer's layers adds or removes whole layers", "[generate]") {
    // One BERT-base layer, by hand: attention 4 (768^2 + 768) = 2,362,368; FFN 2 * 768 * 3072 + 3072 + 768 =
    // 4,722,432; two LayerNorms 2 * 2 * 768 = 3,072; in all 7,087,872. At 12 layers the model is Hugging Face's
    // published BertModel count, 109,482,240, so 6 layers are 109,482,240 - 6 * 7,087,872 = 66,955,008 and 24 are
    // 109,482,240 + 12 * 7,087,872 = 194,536,704.
    const auto solved = solved_variants(bert_base({{"layers", {6, 12, 24}, {}}}));
    REQUIRE(solved.size() == 3);
    CHECK(solved[0].problem.model->layers == 6);
    CHECK(solved[0].parts[0].answer.count == 66'955'008);
    CHECK(solved[1].parts[0].answer.count == 109'482'240);
    CHECK(solved[2].parts[0].answer.count == 194'536'704);
    CHECK(solved[1].parts[0].answer.count - solved[0].parts[0].answer.count == 6 * 7'087'872);
    CHECK(solved[2].parts[0].answer.count - solved[1].parts[0].answer.count == 12 * 7'087'872);
    for (const auto& s : solved)
        CHECK(s.model->layer == 7'087'872); // the layer itself is the same in every variant

    // d_ff and layers together, last key fastest: (6, 2048), (6, 3072), (12, 2048), (12, 3072). d_ff 2048 takes
    // 1024 * (2 * 768 + 1) = 1,573,888 from each layer's FFN.
    const auto both = solved_variants(bert_base({{"layers", {6, 12}, {}}, {"d_ff", {2048, 3072}, {}}}));
    REQUIRE(both.size() == 4);
    CHECK(both[0].parts[0].answer.count == 66'955'008 - 6 * 1'573'888);
    CHECK(both[1].parts[0].answer.count == 66'955'008);
    CHECK(both[2].parts[0].answer.count == 109'482'240 - 12 * 1'573'888);
    CHECK(both[3].parts[0].answer.count == 109'482'240);
}

TEST_CASE("varying the workload changes the FLOPs; an overflowing combination is left out", "[generate]") {
    // The lesson's block (problems/mha-flops-long-context.yaml): d = 4096, h = 32, total 8 n d^2 + 4 n^2 d FLOPs
    // for one sequence. n = 1024: 137,438,953,472 + 17,179,869,184 = 154,618,822,656; n = 2048: 274,877,906,944 +
    // 68,719,476,736 = 343,597,383,680 (the lesson's figure). n = 10^16 makes 4 n^2 d = 1.6384e36, past 10^36, the
    // largest count, so that combination is not a variant. A batch of 4 is 4 sequences: 4 times the FLOPs.
    spec::Problem p = varied({{"batch", {1, 4}, {}}, {"seq_len", {1024, 2048, 10'000'000'000'000'000}, {}}});
    p.given.d_model = 4096;
    p.given.h = 32;
    p.workload = spec::Workload{};
    p.workload->seq_len = 2048;
    p.parts = {spec::Part{"c", "flops.total", 2, {}, {}, {}, {}, {}, {}, {}, false, {}, false, {}}};
    const auto solved = solved_variants(p);
    REQUIRE(solved.size() == 4);
    CHECK(solved[0].problem.workload->batch == 1);
    CHECK(solved[0].problem.workload->seq_len == 1024);
    CHECK(solved[0].parts[0].answer.count == 154'618'822'656);
    CHECK(solved[1].parts[0].answer.count == 343'597'383'680);
    CHECK(solved[2].problem.workload->batch == 4);
    CHECK(solved[2].parts[0].answer.count == 4 * 154'618'822'656);
    CHECK(solved[3].parts[0].answer.count == 4 * 343'597'383'680);
}

TEST_CASE("valid_variants refuses a key the problem cannot vary", "[generate]") {
    // The reader rejects these first; a problem built by hand gets the same sentence, at the key.
    auto mha = valid_variants(varied({{"layers", {6, 12}, {3, 5}}}));
    REQUIRE_FALSE(mha.has_value());
    CHECK(mha.error().to_string() ==
          "p.yaml:3:5: 'layers' describes a whole transformer; add 'kind: transformer' to the spec");
    auto positions = valid_variants(bert_base({{"type_vocab", {1, 2}, {}}, {"seq_len", {128}, {4, 3}}}));
    REQUIRE_FALSE(positions.has_value());
    CHECK(positions.error().to_string() == "p.yaml:4:3: cannot vary seq_len: given has no seq_len to change (vary "
                                           "changes the sizes a spec gives; it does not add them)");
}

#include <solve/shapes.hpp>

#include <solve/test_solve.hpp>
#include <spec/test_givens.hpp>

#include <util/test_catch.hpp>

#include <algorithm>
#include <initializer_list>
#include <string_view>
#include <vector>

using namespace headcount;
using solve::ShapeSolution;
using solve::Tensor;
using Shape = std::vector<Count>;
using Axes = std::vector<std::string_view>;

namespace {

using testing::mha;

spec::Workload workload(Count batch, Count seq_len, std::optional<Count> seq_len_kv = {}) {
    spec::Workload w;
    w.batch = batch;
    w.seq_len = seq_len;
    w.seq_len_kv = seq_len_kv;
    return w;
}

/// The block's tensors as `headcount solve` shapes them (catalogue/shapes.yaml), or as a student who made the
/// catalogue's mistake `id` would.
ShapeSolution shapes(const spec::MhaGivens& g, const spec::Workload& w, std::string_view id = {}) {
    const solve::SolvedProblem solved = testing::solved_of(g, {}, w);
    if (id.empty())
        return *solved.shapes;
    const auto change = testing::mistake_change(*solved.computation, id);
    return solve::read_shapes(*solved.computation, &change);
}

/// Every tensor of a solution, named, in the order of the forward pass.
std::vector<std::pair<std::string_view, const Tensor*>> tensors(const ShapeSolution& s) {
    return {{"input", &s.input},
            {"q", &s.q},
            {"k", &s.k},
            {"v", &s.v},
            {"q_heads", &s.q_heads},
            {"k_heads", &s.k_heads},
            {"v_heads", &s.v_heads},
            {"scores", &s.scores},
            {"weights", &s.weights},
            {"head_output", &s.head_output},
            {"concat", &s.concat},
            {"output", &s.output}};
}

/// Every tensor of `s` but those `changed` names has the shape it has in `right`.
void check_others_unchanged(const ShapeSolution& s, const ShapeSolution& right,
                            std::initializer_list<std::string_view> changed) {
    const auto mistaken = tensors(s), expected = tensors(right);
    for (std::size_t i = 0; i < expected.size(); ++i)
        if (std::find(changed.begin(), changed.end(), expected[i].first) == changed.end()) {
            INFO(expected[i].first);
            CHECK(mistaken[i].second->shape == expected[i].second->shape);
        }
}

} // namespace

TEST_CASE("PyTorch's layout for d_model 512, h 8, batch 32, n 128", "[shapes]") {
    // By hand: d_k = d_v = 512 / 8 = 64. x is (b, n, d_model) = (32, 128, 512); each projection keeps it
    // (b, n, h d_k) = (32, 128, 8 x 64 = 512); view(b, n, h, d_k).transpose(1, 2) gives (32, 8, 128, 64);
    // Q K^T is (b, h, n, d_k)(b, h, d_k, n) = (32, 8, 128, 128), softmax keeps it; A V is (32, 8, 128, 64);
    // transposed back and concatenated (32, 128, 8 x 64 = 512); W_O maps it to (32, 128, 512).
    const auto s = shapes(mha(512, 8), workload(32, 128));
    CHECK(s.input.shape == Shape{32, 128, 512});
    CHECK(s.q.shape == Shape{32, 128, 512});
    CHECK(s.k.shape == Shape{32, 128, 512});
    CHECK(s.v.shape == Shape{32, 128, 512});
    CHECK(s.q_heads.shape == Shape{32, 8, 128, 64});
    CHECK(s.k_heads.shape == Shape{32, 8, 128, 64});
    CHECK(s.v_heads.shape == Shape{32, 8, 128, 64});
    CHECK(s.scores.shape == Shape{32, 8, 128, 128});
    CHECK(s.weights.shape == Shape{32, 8, 128, 128});
    CHECK(s.head_output.shape == Shape{32, 8, 128, 64});
    CHECK(s.concat.shape == Shape{32, 128, 512});
    CHECK(s.output.shape == Shape{32, 128, 512});
    // Elements: 32 x 128 x 512 = 2,097,152 (= 2^21); per head the same, 32 x 8 x 128 x 64 = 2^21; the scores
    // 32 x 8 x 128 x 128 = 2^22 = 4,194,304.
    CHECK(s.input.elements == 2'097'152);
    CHECK(s.q_heads.elements == 2'097'152);
    CHECK(s.scores.elements == 4'194'304);
    CHECK(s.weights.elements == 4'194'304);
    // The axes are named with the lesson's symbols; without seq_len_kv the key length is n.
    CHECK(s.input.axes == Axes{"b", "n", "d_model"});
    CHECK(s.q.axes == Axes{"b", "n", "h·d_k"});
    CHECK(s.k_heads.axes == Axes{"b", "h", "n", "d_k"});
    CHECK(s.scores.axes == Axes{"b", "h", "n", "n"});
    CHECK(s.head_output.axes == Axes{"b", "h", "n", "d_v"});
    CHECK(s.concat.axes == Axes{"b", "n", "h·d_v"});
    for (const auto& [name, t] : tensors(s)) {
        INFO(name);
        CHECK(t->axes.size() == t->shape.size());
    }
}

TEST_CASE("cross-attention: keys, values and scores run over the m key positions", "[shapes]") {
    // n = 128 queries attend over m = 300 keys; kdim 256 and vdim 384 are the widths of the key/value inputs,
    // which the projections map to h d_k = h d_v = 512, so they do not appear in any of these tensors.
    auto g = mha(512, 8);
    g.kdim = 256;
    g.vdim = 384;
    const auto s = shapes(g, workload(2, 128, 300));
    CHECK(s.input.shape == Shape{2, 128, 512});
    CHECK(s.q.shape == Shape{2, 128, 512});
    CHECK(s.k.shape == Shape{2, 300, 512});
    CHECK(s.v.shape == Shape{2, 300, 512});
    CHECK(s.q_heads.shape == Shape{2, 8, 128, 64});
    CHECK(s.k_heads.shape == Shape{2, 8, 300, 64});
    CHECK(s.v_heads.shape == Shape{2, 8, 300, 64});
    CHECK(s.scores.shape == Shape{2, 8, 128, 300}); // (n x d_k)(d_k x m) per head
    CHECK(s.weights.shape == Shape{2, 8, 128, 300});
    CHECK(s.head_output.shape == Shape{2, 8, 128, 64}); // (n x m)(m x d_v): back to n rows
    CHECK(s.concat.shape == Shape{2, 128, 512});
    CHECK(s.output.shape == Shape{2, 128, 512});
    CHECK(s.k.axes == Axes{"b", "m", "h·d_k"});
    CHECK(s.scores.axes == Axes{"b", "h", "n", "m"});
    CHECK(s.scores.elements == 2 * 8 * 128 * 300); // 614,400
}

TEST_CASE("grouped-query attention: K and V have n_kv heads", "[shapes]") {
    // Mistral-7B's attention: d_model 4096, 32 query heads of d_k 128, 8 key/value heads; batch 1, n 16.
    // K and V are projected to n_kv d_k = 8 x 128 = 1024 and split into 8 heads; Q into 32; the scores are
    // per query head (each K/V head is shared by 32 / 8 = 4 of them).
    auto g = mha(4096, 32);
    g.n_kv_heads = 8;
    const auto s = shapes(g, workload(1, 16));
    CHECK(s.q.shape == Shape{1, 16, 4096});
    CHECK(s.k.shape == Shape{1, 16, 1024});
    CHECK(s.v.shape == Shape{1, 16, 1024});
    CHECK(s.q_heads.shape == Shape{1, 32, 16, 128});
    CHECK(s.k_heads.shape == Shape{1, 8, 16, 128});
    CHECK(s.v_heads.shape == Shape{1, 8, 16, 128});
    CHECK(s.scores.shape == Shape{1, 32, 16, 16});
    CHECK(s.head_output.shape == Shape{1, 32, 16, 128});
    CHECK(s.concat.shape == Shape{1, 16, 4096});
    CHECK(s.k.axes == Axes{"b", "n", "n_kv·d_k"});
    CHECK(s.k_heads.axes == Axes{"b", "n_kv", "n", "d_k"});
    CHECK(s.q_heads.axes == Axes{"b", "h", "n", "d_k"});
    // Multi-query (n_kv_heads 1): one K/V head of width d_k.
    g.n_kv_heads = 1;
    const auto mq = shapes(g, workload(1, 16));
    CHECK(mq.k.shape == Shape{1, 16, 128});
    CHECK(mq.v_heads.shape == Shape{1, 1, 16, 128});
}

TEST_CASE("d_k different from d_v: values, head outputs and the concatenation take d_v", "[shapes]") {
    // d_model 512, h 8, d_k 64, d_v 32, batch 4, n 10: Q and K are 8 x 64 = 512 wide, V 8 x 32 = 256; the
    // scores do not depend on either width; A V is (b, h, n, d_v) and the concatenation h d_v = 256, which
    // W_O (256 x 512) maps back to d_model.
    auto g = mha(512, 8);
    g.d_k = 64;
    g.d_v = 32;
    const auto s = shapes(g, workload(4, 10));
    CHECK(s.q.shape == Shape{4, 10, 512});
    CHECK(s.k.shape == Shape{4, 10, 512});
    CHECK(s.v.shape == Shape{4, 10, 256});
    CHECK(s.q_heads.shape == Shape{4, 8, 10, 64});
    CHECK(s.k_heads.shape == Shape{4, 8, 10, 64});
    CHECK(s.v_heads.shape == Shape{4, 8, 10, 32});
    CHECK(s.scores.shape == Shape{4, 8, 10, 10});
    CHECK(s.head_output.shape == Shape{4, 8, 10, 32});
    CHECK(s.concat.shape == Shape{4, 10, 256});
    CHECK(s.output.shape == Shape{4, 10, 512});
    CHECK(s.v.axes == Axes{"b", "n", "h·d_v"});
    CHECK(s.v_heads.axes == Axes{"b", "h", "n", "d_v"});
}

TEST_CASE("each shape mistake changes exactly the tensors its comment names", "[shapes]") {
    // d_model 512, h 8, d_k 64, d_v 32, batch 4, n 10, m 6: every axis size distinct except where the layout
    // repeats one, so a swapped or substituted axis cannot go unnoticed.
    auto g = mha(512, 8);
    g.d_k = 64;
    g.d_v = 32;
    const auto w = workload(4, 10, 6);
    const auto right = shapes(g, w);
    const auto right_tensors = tensors(right);

    SECTION("seq_before_heads: per-head tensors are (b, seq, heads, ...), the rest unchanged") {
        const auto s = shapes(g, w, "heads_seq_axes_swapped");
        CHECK(s.q_heads.shape == Shape{4, 10, 8, 64});
        CHECK(s.k_heads.shape == Shape{4, 6, 8, 64});
        CHECK(s.v_heads.shape == Shape{4, 6, 8, 32});
        CHECK(s.scores.shape == Shape{4, 10, 8, 6});
        CHECK(s.weights.shape == Shape{4, 10, 8, 6});
        CHECK(s.head_output.shape == Shape{4, 10, 8, 32});
        CHECK(s.q_heads.axes == Axes{"b", "n", "h", "d_k"});
        check_others_unchanged(s, right, {"q_heads", "k_heads", "v_heads", "scores", "weights", "head_output"});
        // A transpose moves axes; it does not change how many elements there are.
        for (std::size_t i = 0; i < right_tensors.size(); ++i)
            CHECK(tensors(s)[i].second->elements == right_tensors[i].second->elements);
    }
    SECTION("head_width_d_model: d_model where a head's d_k or d_v belongs, only in per-head tensors") {
        const auto s = shapes(g, w, "d_model_for_d_k");
        CHECK(s.q_heads.shape == Shape{4, 8, 10, 512});
        CHECK(s.k_heads.shape == Shape{4, 8, 6, 512});
        CHECK(s.v_heads.shape == Shape{4, 8, 6, 512});
        CHECK(s.head_output.shape == Shape{4, 8, 10, 512});
        // The scores have no width axis; the projected and concatenated tensors come from the givens.
        check_others_unchanged(s, right, {"q_heads", "k_heads", "v_heads", "head_output"});
    }
    SECTION("drop_batch: the batch axis is left off every tensor, and nothing else changes") {
        const auto s = shapes(g, w, "batch_axis_dropped");
        const auto mistaken = tensors(s);
        for (std::size_t i = 0; i < right_tensors.size(); ++i) {
            const Tensor& a = *right_tensors[i].second;
            const Tensor& b = *mistaken[i].second;
            INFO(right_tensors[i].first);
            CHECK(b.shape == Shape(a.shape.begin() + 1, a.shape.end()));
            CHECK(b.axes == Axes(a.axes.begin() + 1, a.axes.end()));
            CHECK(b.elements * 4 == a.elements); // batch 4
        }
        CHECK(s.scores.shape == Shape{8, 10, 6});
    }
    SECTION("a parameter-count mistake leaves every shape alone") {
        // A count of one head's slices: the tensors are still the whole block's.
        check_others_unchanged(shapes(g, w, "single_head_only"), right, {});
    }
}

TEST_CASE("grouped-query attention ignored: K and V with h heads", "[shapes]") {
    // kv_heads_as_h: the 8 K/V heads of a 32-head block taken as 32, so K is (1, 16, 32 x 128 = 4096).
    auto g = mha(4096, 32);
    g.n_kv_heads = 8;
    const auto s = shapes(g, workload(1, 16), "kv_heads_ignored");
    CHECK(s.k.shape == Shape{1, 16, 4096});
    CHECK(s.k_heads.shape == Shape{1, 32, 16, 128});
    CHECK(s.v_heads.shape == Shape{1, 32, 16, 128});
    CHECK(s.q_heads.shape == Shape{1, 32, 16, 128});
}

TEST_CASE("a tensor's elements are exact past 10^36", "[shapes]") {
    // batch 2^60 and n 2^60: the input alone has 2^60 x 2^60 x 512 = 2^129 elements, past 10^36 (about 2^119.6)
    // and past 128 bits. Every axis fits; the product is exact.
    const Count two_to_60 = Count{1} << 60;
    const solve::SolvedProblem huge = testing::solved_of(mha(512, 8), {}, workload(two_to_60, two_to_60));
    mpz_class two_to_129;
    mpz_ui_pow_ui(two_to_129.get_mpz_t(), 2, 129);
    CHECK(*huge.computation->value("shape_input") == formula::Number(two_to_129));
    CHECK(huge.shapes->input.shape == Shape{two_to_60, two_to_60, 512});
    // batch 2^50, n 2^33, h 2^3, d_model 2^9: the scores b h n n = 2^(50+3+66) = 2^119 (6.6e35) and the input
    // b n d_model = 2^(50+33+9) = 2^92, both past 64 bits.
    const auto fits = shapes(mha(512, 8), workload(Count{1} << 50, Count{1} << 33));
    CHECK(fits.scores.elements == Count{1} << 119);
    CHECK(fits.input.elements == Count{1} << 92); // 2^50 x 2^33 x 2^9
}

#include <solve/asks.hpp>

#include <solve/test_solve.hpp>
#include <spec/test_givens.hpp>

#include <util/test_catch.hpp>

using namespace headcount;

namespace {

using testing::mha;

/// The block of these givens, as `headcount solve` counts it (catalogue/attention.yaml).
std::optional<solve::MhaSolution> solve_mha(const spec::MhaGivens& g) { return testing::solved_of(g).mha; }

Count total(const spec::MhaGivens& g) {
    auto s = solve_mha(g);
    REQUIRE(s.has_value());
    return s->total;
}

} // namespace

// Figures for nn.MultiheadAttention(embed_dim, num_heads, ...) are sum(p.numel() for p in m.parameters()):
// in_proj_weight 3E x E (or q/k/v_proj_weight E x E, E x kdim, E x vdim), in_proj_bias 3E, out_proj E x E + E,
// bias_k and bias_v 1 x 1 x E each.
TEST_CASE("MHA counts equal PyTorch's nn.MultiheadAttention", "[solve]") {
    SECTION("E=512, h=8, bias: 4*512*513 = 1,050,624") { CHECK(total(mha(512, 8)) == 1'050'624); }
    SECTION("E=512, h=8, bias=False: 4*512^2 = 1,048,576") {
        auto g = mha(512, 8);
        g.bias = {false, false, false, false};
        CHECK(total(g) == 1'048'576);
    }
    SECTION("E=512, h=8, kdim=256, vdim=128: 512*512 + 512*256 + 512*128 + 3*512 + 512*512 + 512 = 722,944") {
        auto g = mha(512, 8);
        g.kdim = 256;
        g.vdim = 128;
        CHECK(total(g) == 722'944);
    }
    SECTION("E=512, h=8, add_bias_kv=True: 1,050,624 + 2*512 = 1,051,648") {
        auto g = mha(512, 8);
        g.add_bias_kv = true;
        auto s = solve_mha(g);
        REQUIRE(s.has_value());
        CHECK(s->total == 1'051'648);
        CHECK(s->biases == 4 * 512 + 2 * 512);
        CHECK(s->qkv == 3 * 262'656); // bias_k/bias_v are parameters of their own, not of W_K/W_V
    }
    SECTION("E=768, h=12 (BERT-base self-attention): 4*768*769 = 2,362,368") {
        CHECK(total(mha(768, 12)) == 2'362'368);
    }
}

TEST_CASE("the count does not change with h when d_k = d_model / h", "[solve]") {
    for (Count h : {1, 2, 4, 8, 16, 32, 64, 128, 256, 512}) {
        INFO("h = " << static_cast<int>(h));
        CHECK(total(mha(512, h)) == 1'050'624);
    }
}

TEST_CASE("every ask reads the right quantity", "[solve]") {
    // d_model 512, h 8, d_k 64, d_v 32, all biases; by hand:
    //   W_Q 512x512 + 512 = 262,656; W_K the same; W_V 512x256 + 256 = 131,328; W_O 256x512 + 512 = 131,584.
    auto g = mha(512, 8);
    g.d_k = 64;
    g.d_v = 32;
    const solve::SolvedProblem solved = testing::solved_of(g);
    auto answer = [&](std::string_view ask) { return solve::find_ask(ask)->evaluate(solved).count; };
    CHECK(answer("q_params") == 262'656);
    CHECK(answer("k_params") == 262'656);
    CHECK(answer("v_params") == 131'328);
    CHECK(answer("o_params") == 131'584);
    CHECK(answer("qkv_params") == 656'640);
    CHECK(answer("weight_params") == 786'432); // 2*262,144 + 131,072 + 131,072
    CHECK(answer("bias_params") == 1'792);     // 512 + 512 + 256 + 512
    CHECK(answer("total_params") == 788'224);
    CHECK(answer("d_k") == 64);
    CHECK(answer("d_v") == 32);
    CHECK_FALSE(solved.mha.square);
    CHECK(solve::find_ask("nope") == nullptr);
    // 10 attention parameters, 7 whole-transformer, 6 compute, 12 shapes, 4 memory, 2 whole-model compute
    CHECK(solve::ask_ids().size() == 41);
}

TEST_CASE("grouped-query and multi-query attention shrink W_K and W_V", "[solve]") {
    SECTION("d 4096, h 32, 8 kv heads, no bias: 2*4096^2 + 2*4096*1024 = 41,943,040") {
        auto g = mha(4096, 32);
        g.n_kv_heads = 8;
        g.bias = {false, false, false, false};
        auto s = solve_mha(g);
        REQUIRE(s.has_value());
        CHECK(s->k().weights == 4'194'304); // 4096 x (8*128)
        CHECK(s->total == 41'943'040);
    }
    SECTION("d 1024, h 16, one kv head, bias: 2*(1024*1024 + 1024) + 2*(1024*64 + 64) = 2,230,400") {
        auto g = mha(1024, 16);
        g.n_kv_heads = 1;
        CHECK(total(g) == 2'230'400);
    }
}

TEST_CASE("other configurations derived by hand", "[solve]") {
    SECTION("bias on Q, K, V but not O: 1,050,624 - 512 = 1,050,112") {
        auto g = mha(512, 8);
        g.bias.o = false;
        auto s = solve_mha(g);
        REQUIRE(s.has_value());
        CHECK(s->total == 1'050'112);
        CHECK(s->closed_form == 1'050'112); // 4*512^2 + 3*512
    }
    SECTION("d_k = d_v = 128 with h = 8 (h*d_k != d_model): 3*(512*1024 + 1024) + (1024*512 + 512) = 2,100,736") {
        auto g = mha(512, 8);
        g.d_k = 128;
        g.d_v = 128;
        CHECK(total(g) == 2'100'736);
    }
    SECTION("h = 6, d_k = d_v = 64: 3*(196,608 + 384) + (196,608 + 512) = 590,976 + 197,120 = 788,096") {
        auto g = mha(512, 6);
        g.d_k = 64;
        g.d_v = 64;
        CHECK(total(g) == 788'096);
    }
    SECTION("a 1-wide model with one head: 4*(1*1 + 1) = 8") { CHECK(total(mha(1, 1)) == 8); }
}

TEST_CASE("counts are exact past 64 bits and past 10^36; an answer too large to type is refused", "[solve]") {
    // d = 4e9: 4 (d^2 + d) = 4 x (16,000,000,000,000,000,000 + 4,000,000,000) = 64,000,000,016,000,000,000, past
    // 2^64 (about 1.8e19).
    auto exact = solve_mha(mha(4'000'000'000, 1));
    REQUIRE(exact.has_value());
    CHECK(exact->total == static_cast<Count>(64'000'000'016) * 1'000'000'000);
    // 2e18: 4 (d^2 + d) = 16,000,000,000,000,000,008,000,000,000,000,000,000, exactly, past 10^36.
    auto huge = testing::problem_of(mha(2'000'000'000'000'000'000, 1));
    auto computed = solve::solve_problem(huge);
    REQUIRE(computed.has_value());
    CHECK(*computed->computation->value("total_params") ==
          formula::Number(mpz_class("16000000000000000008000000000000000000")));
    // A part asking for it: past 10^36, no student could type it.
    spec::Part part;
    part.id = "a";
    part.ask = "total_params";
    part.ask_mark = {4, 11};
    huge.parts.push_back(part);
    auto refused = solve::solve_problem(huge);
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().to_string() ==
          "p.yaml:4:11: part 'a' asks for total_params, which comes to about 1.60e37 here: past 10^36, more than an "
          "answer can be typed as; give smaller sizes");
}

#include <solve/flops.hpp>

#include <solve/test_solve.hpp>

#include <util/test_catch.hpp>

using namespace headcount;

namespace {

solve::FlopsSolution flops(Count d, Count h, Count n, spec::Workload w = {}) {
    spec::MhaGivens g;
    g.d_model = d;
    g.h = h;
    w.seq_len = n;
    return *testing::solved_of(g, {}, w).flops;
}

} // namespace

TEST_CASE("FLOPs of the lesson's worked example: n 2048, d 4096, h 32", "[flops]") {
    // Each projection 2 n d^2 = 2 x 2,048 x 4,096^2 = 68,719,476,736; QK^T and AV each 2 n^2 d = 34,359,738,368.
    // Total 8 n d^2 + 4 n^2 d = 274,877,906,944 + 68,719,476,736 = 343,597,383,680; projections dominate (n < d).
    const auto f = flops(4096, 32, 2048);
    CHECK(f.q == 68'719'476'736);
    CHECK(f.projections == 206'158'430'208);
    CHECK(f.scores == 34'359'738'368);
    CHECK(f.weighted_sum == 34'359'738'368);
    CHECK(f.output == 68'719'476'736);
    CHECK(f.total == 343'597'383'680);
    CHECK(f.projections_dominate);
}

TEST_CASE("long sequences: attention dominates; the heads do not change the count", "[flops]") {
    // n 8192, d 1024: linear 8 n d^2 = 68,719,476,736; attention 4 n^2 d = 274,877,906,944.
    for (Count h : {1, 4, 16, 64}) {
        const auto f = flops(1024, h, 8192);
        CHECK(f.linear == 68'719'476'736);
        CHECK(f.attention == 274'877'906'944);
        CHECK_FALSE(f.projections_dominate);
    }
}

TEST_CASE("conventions: MACs, batch, softmax, biases, cross-attention", "[flops]") {
    spec::Workload macs;
    macs.macs = true;
    CHECK(flops(4096, 32, 2048, macs).total == 171'798'691'840); // half of 343,597,383,680
    spec::Workload batch;
    batch.batch = 3;
    CHECK(flops(4096, 32, 2048, batch).total == 3 * 343'597'383'680LL);
    spec::Workload softmax;
    softmax.softmax = true;
    CHECK(flops(4096, 32, 2048, softmax).softmax == 402'653'184); // 3 x 32 heads x 2,048^2 scores
    spec::Workload biases;
    biases.biases = true;
    // One addition per output element of Q, K, V and O: 4 x 2,048 x 4,096 = 33,554,432 more.
    CHECK(flops(4096, 32, 2048, biases).total == 343'597'383'680 + 33'554'432);
    spec::Workload cross;
    cross.seq_len_kv = 512;
    // n 2048 queries over m 512 keys, d 4096: Q and O 2 x 2 n d^2 = 137,438,953,472; K and V 2 x 2 m d^2 =
    // 34,359,738,368; QK^T and AV 2 x 2 n m d = 17,179,869,184. Total 188,978,561,024.
    CHECK(flops(4096, 32, 2048, cross).total == 188'978'561'024);
}

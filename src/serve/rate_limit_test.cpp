// Token buckets with a clock the test moves: the counts follow from the rate and burst by hand.
#include <serve/rate_limit.hpp>

#include <util/test_catch.hpp>

using namespace headcount::serve;
using namespace std::chrono_literals;

TEST_CASE("a key gets its burst at once, then one check per 60/rate seconds", "[serve]") {
    RateLimiter limiter({30, 3}, 100); // 30 a minute: one every 2 s; 3 in a row
    const auto t0 = RateLimiter::Clock::time_point{} + 1h;
    CHECK(limiter.take("alice", t0) == 0);
    CHECK(limiter.take("alice", t0) == 0);
    CHECK(limiter.take("alice", t0) == 0);
    CHECK(limiter.take("alice", t0) == 2);       // empty: the next token is 2 s away
    CHECK(limiter.take("alice", t0 + 1s) == 1);  // half a token back after 1 s: 1 s to go
    CHECK(limiter.take("alice", t0 + 2s) == 0);  // one token after 2 s
    CHECK(limiter.take("bob", t0) == 0);         // keys are independent
    CHECK(limiter.take("alice", t0 + 60s) == 0); // refilled to the burst, not beyond it
    CHECK(limiter.take("alice", t0 + 60s) == 0);
    CHECK(limiter.take("alice", t0 + 60s) == 0);
    CHECK(limiter.take("alice", t0 + 60s) == 2);
}

TEST_CASE("a rate of 0 is no limit", "[serve]") {
    RateLimiter limiter({0, 1}, 1);
    const auto t0 = RateLimiter::Clock::time_point{};
    for (int i = 0; i < 1000; ++i)
        REQUIRE(limiter.take("x" + std::to_string(i), t0) == 0);
    CHECK(limiter.size() == 0);
}

TEST_CASE("the table never grows past its size: refilled keys are forgotten, else new keys wait", "[serve]") {
    RateLimiter limiter({60, 1}, 2); // one a second
    const auto t0 = RateLimiter::Clock::time_point{} + 1h;
    CHECK(limiter.take("a", t0) == 0);
    CHECK(limiter.take("b", t0) == 0);
    CHECK(limiter.take("c", t0) == 60); // a and b are still limited: c is turned away, the table stays at 2
    CHECK(limiter.size() == 2);
    CHECK(limiter.take("c", t0 + 2s) == 0); // a and b have refilled and are forgotten
    CHECK(limiter.size() == 1);
}

// Typing examples never land near an answer: the rule, the unreadable verdict's pairs, and the home page's count.
#include <grade/typing_examples.hpp>

#include <util/test_catch.hpp>

#include <vector>

using namespace headcount;
using namespace headcount::grade;

TEST_CASE("an example is near an answer within a factor of 2 either way, and nothing is near 0", "[examples]") {
    CHECK(near_answer(2'000, 1'000));
    CHECK(near_answer(500, 1'000));
    CHECK_FALSE(near_answer(2'001, 1'000));
    CHECK_FALSE(near_answer(499, 1'000));
    CHECK_FALSE(near_answer(0.5, 0));
}

TEST_CASE("the home page's count is the 3n(n+1) nearest three million that is near no answer", "[examples]") {
    // 3 * 1000 * 1001 = 3,003,000, with no answer at all and with answers just over 2x from it either way.
    const auto none = count_example({});
    REQUIRE(none.has_value());
    CHECK(none->value == 3'003'000);
    CHECK(none->digits == "3003000");
    CHECK(none->grouped == "3,003,000");
    CHECK(none->product == "3*1000*1001");
    CHECK(none->tex == "3 \\times 1000 \\times 1001");
    CHECK(count_example(std::vector<Count>{1'501'499, 6'006'001})->value == 3'003'000);
    // Week 3's total, 1,050,624, is not near it (twice it is 2,101,248). 2,000,000 is (twice it is 4,000,000), and
    // so is 3 * 700 * 701 = 1,472,100, the next nearest three million (2.04x below it); then 3 * 1500 * 1501 =
    // 6,754,500 (2.25x above) is far from 2,000,000. With 10,000,000 too, that one is near (half of it is
    // 5,000,000), and the next, 3 * 500 * 501 = 751,500 (3.99x below; 3 * 2000 * 2001 = 12,006,000 is 4.002x above),
    // is less than half of 2,000,000.
    CHECK(count_example(std::vector<Count>{1'050'624})->value == 3'003'000);
    CHECK(count_example(std::vector<Count>{2'000'000})->value == 6'754'500);
    CHECK(count_example(std::vector<Count>{2'000'000, 10'000'000})->value == 751'500);
    // Answers at every power of 2 from 2^7 to 2^62, each ruling out [2^(k-1), 2^(k+1)], cover 64 to 2^63: every
    // candidate, from 3 * 10 * 11 = 330 to 3 * 10^9 * (10^9 + 1) < 2^62, is near one. No example then, rather
    // than a near one.
    std::vector<Count> dense;
    for (int k = 7; k <= 62; ++k)
        dense.push_back(Count{1} << k);
    CHECK_FALSE(count_example(dense).has_value());
}

TEST_CASE("the unreadable verdict's examples take the second of a pair near the part's answer", "[examples]") {
    solve::SolvedPart part;
    part.answer.count = 1'000'000; // within 2x of 1,234,567 and 1.23M, not of 7,654,321 or 7.65M
    const render::View examples = writing_examples(part);
    CHECK(examples.at("number") == "7,654,321");
    CHECK(examples.at("scaled") == "7.65M");
    CHECK(examples.at("expression") == "12*(34^2+56)"); // 14,544 is far from 1,000,000
    part.answer.count = 14'000;
    CHECK(writing_examples(part).at("expression") == "98*(76^2+54)");
}

#include <grade/grader.hpp>

#include <util/test_catch.hpp>

using namespace headcount;
using namespace headcount::grade;

namespace {

/// The week-3 problem: d_model 512, h 8, biases; part a qkv_params (2 points), b total_params (3 points).
solve::SolvedProblem week3(std::map<std::string, double> credit = {}, std::optional<spec::Tolerance> tol = {}) {
    spec::Problem p;
    p.id = "week3";
    p.given.d_model = 512;
    p.given.h = 8;
    p.parts = {spec::Part{"a", "qkv_params", 2, {}, {}, tol, credit, {}, {}, {}, false, {}, false, {}},
               spec::Part{"b", "total_params", 3, {}, {}, tol, credit, {}, {}, {}, false, {}, false, {}}};
    auto solved = solve::solve_problem(p);
    REQUIRE(solved.has_value());
    return *solved;
}

Verdict grade_b(const std::string& answer, std::map<std::string, double> credit = {},
                std::optional<spec::Tolerance> tol = {}) {
    const auto solved = week3(credit, tol);
    return grade_answer(solved, solved.parts[1], answer);
}

} // namespace

TEST_CASE("right answers in every form students type score full points", "[grader]") {
    for (const char* answer : {"1050624", "1,050,624", "1 050 624", "4*(512^2+512)", "4·512·513", "1.050624e6",
                               "4 × 512 × 513 parameters"}) {
        INFO(answer);
        const auto v = grade_b(answer);
        CHECK(v.status == Status::correct);
        CHECK(v.score == 3);
        CHECK(v.expected.count == 1'050'624);
    }
}

TEST_CASE("a rounded right value is diagnosed, with the policy's partial credit", "[grader]") {
    for (const char* answer : {"1.05M", "1.05 million", "≈1.05×10^6", "1,050,000", "1,050,620"}) {
        INFO(answer);
        const auto v = grade_b(answer);
        CHECK(v.status == Status::rounded);
        CHECK(v.score == Approx(1.5)); // default credit 0.5 of 3 points
    }
    CHECK(grade_b("1.05M", {{"rounded", 0.0}}).score == 0);
    // 1.1M is 1,050,624 correctly rounded to two figures (it lies within 1,050,000 and 1,150,000): rounded, and a
    // mantissa with a scale says so itself. One figure (1M) is never credited as rounding, and trailing zeros
    // alone need three figures: 1,100,000 could as well be a miscount.
    CHECK(grade_b("1.1M").status == Status::rounded);
    CHECK(grade_b("1.1 million").status == Status::rounded);
    CHECK(grade_b("≈1,100,000").status == Status::rounded);
    CHECK(grade_b("1M").status == Status::incorrect);
    CHECK(grade_b("1,000,000").status == Status::incorrect);
    CHECK(grade_b("1,100,000").status == Status::incorrect);
    // 1.0M is two figures that do not round to 1,050,624 (1.1M does): not rounded.
    CHECK(grade_b("1.0M").status == Status::incorrect);
    // Arithmetic is exact whatever its trailing zeros: 4 x 1000^2 is not a rounding of anything.
    CHECK_FALSE(grade_b("4*1000^2").status == Status::rounded);
    // 1.04M is not 1,050,624 at three figures (that is 1.05M): wrong, and within 5%: a near miss of -1.01%.
    const auto off = grade_b("1.04M");
    CHECK(off.status == Status::incorrect);
    REQUIRE(off.near_miss.has_value());
    CHECK(*off.near_miss == Approx((1'040'000.0 - 1'050'624.0) / 1'050'624.0));
}

TEST_CASE("wrong answers name their mistakes and earn their credit", "[grader]") {
    const auto v = grade_b("1,048,576"); // 4 x 512^2: no biases
    CHECK(v.status == Status::incorrect);
    REQUIRE(v.matches.size() == 1);
    CHECK(v.matches[0].mistakes[0]->id == "missing_biases");
    CHECK(v.score == 0);
    CHECK(grade_b("1048576", {{"missing_biases", 0.5}}).score == Approx(1.5));
    // A composite earns the smaller of its mistakes' credits: 3 x 512^2 (no W_O, no biases).
    CHECK(grade_b("3*512^2", {{"missing_biases", 0.5}, {"missing_output_projection", 0.25}}).score == Approx(0.75));
    // A mistaken value written rounded is still recognised: 787,968 as 788K.
    const auto rounded_mistake = grade_b("788K");
    REQUIRE(rounded_mistake.matches.size() == 2);
    CHECK(rounded_mistake.matches[0].mistakes[0]->id == "missing_output_projection");
}

TEST_CASE("answers no mistake explains are said to be so", "[grader]") {
    const auto v = grade_b("12345");
    CHECK(v.status == Status::incorrect);
    CHECK(v.matches.empty());
    CHECK_FALSE(v.near_miss.has_value());
}

TEST_CASE("unreadable answers are a verdict with a reason, not an error", "[grader]") {
    const auto v = grade_b("banana");
    CHECK(v.status == Status::unreadable);
    CHECK_FALSE(v.unreadable_reason.empty());
    CHECK(v.score == 0);
    CHECK(grade_b(std::string(5000, '9')).status == Status::unreadable);
}

TEST_CASE("a part's tolerance widens what counts as right", "[grader]") {
    // 1.04M is (1,050,624 - 1,040,000) / 1,050,624 = 1.011% off.
    const spec::Tolerance one_percent{spec::Tolerance::Kind::relative, 0.01, 0};
    const spec::Tolerance two_percent{spec::Tolerance::Kind::relative, 0.02, 0};
    CHECK(grade_b("1.04M", {}, one_percent).status == Status::incorrect);
    CHECK(grade_b("1.04M", {}, two_percent).status == Status::correct);
    // Three significant figures: within half a unit in the third figure of the exact 1,050,624, i.e. 5,000 either
    // side of it, judged against the exact value and not its rounding 1.05M: 1,055,624 and 1,045,624 are right,
    // 1,055,625 and 1,045,623 are not (and 1,055,001, which rounds to 1.06M, is right).
    const spec::Tolerance three_figures{spec::Tolerance::Kind::sigfigs, 0, 3};
    CHECK(grade_b("1.05M", {}, three_figures).status == Status::correct);
    CHECK(grade_b("1054999", {}, three_figures).status == Status::correct);
    CHECK(grade_b("1055624", {}, three_figures).status == Status::correct);
    CHECK(grade_b("1045624", {}, three_figures).status == Status::correct);
    CHECK(grade_b("1055625", {}, three_figures).status == Status::incorrect);
    CHECK(grade_b("1045623", {}, three_figures).status == Status::incorrect);
}

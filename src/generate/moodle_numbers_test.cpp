// Unit tests for Moodle's NUMERICAL answers. Expected numbers are worked out by hand in the comments, from
// Moodle's formula (value ± (tolerance + 1e-14·max(tolerance, |value|)), both ends included) and rule 1 of issue 39
// (right when within half a unit of the last required figure of the exact value, both ends included).
#include <generate/moodle_numbers.hpp>

#include <solve/defined.hpp>

#include <util/test_catch.hpp>

using namespace headcount;
using namespace headcount::generate;

namespace {

const spec::Tolerance k_three_figures{spec::Tolerance::Kind::sigfigs, 0, 3};
const spec::Tolerance k_exact{};

PlatformAnswer entry(Count value, grade::Status status, double credit, std::string feedback) {
    PlatformAnswer a;
    a.value = solve::Answer{value, {}, {}};
    a.status = status;
    a.credit = credit;
    a.feedback = std::move(feedback);
    return a;
}

/// The entry Moodle gives `typed`: the first answer whose interval holds it.
std::optional<std::size_t> first_match(const ClozeNumbers& numbers, double typed) {
    for (const ClozeNumber& n : numbers.answers) {
        const auto [lo, hi] = moodle_interval(n.number);
        if (lo <= typed && typed <= hi)
            return n.entry;
    }
    return std::nullopt;
}

} // namespace

TEST_CASE("Moodle's interval is closed and a hair wider than the tolerance", "[lms]") {
    // 4999 + 1e-14 * 1,050,000 = 4999.0000000105: just past 1,045,001 and 1,054,999, well short of the next.
    const auto [lo, hi] = moodle_interval({1050000, 4999});
    CHECK(lo < 1045001);
    CHECK(lo > 1045000.99999998);
    CHECK(hi > 1054999);
    CHECK(hi < 1054999.00000002);
    // A tolerance that is not whole is kept to 14 significant figures: 0.1234567890123456 reads as
    // 0.12345678901235.
    CHECK(moodle_stored(0.1234567890123456) == 0.12345678901235);
    CHECK(moodle_stored(1050624) == 1050624);
}

TEST_CASE("rule 1's interval is half a unit in the last required figure, around the exact value", "[lms]") {
    // 1,050,624 to three figures: the third figure (1|0|5) is the ten-thousands, half a unit is 5,000, so
    // [1,045,624, 1,055,624], both ends in; not [1,045,000, 1,055,000) around the rounded 1.05e6.
    const NumberRange band = right_band(1050624, k_three_figures);
    CHECK(band.lo == 1045624);
    CHECK(band.hi == 1055624);
    CHECK_FALSE(band.lo_open);
    CHECK_FALSE(band.hi_open);
    // 787,968: the third figure is the thousands, ± 500; 999 has three figures, ± 0.5; 12 has two, its third figure
    // is the tenths, ± 0.05.
    CHECK(right_band(787968, k_three_figures).lo == 787468);
    CHECK(right_band(787968, k_three_figures).hi == 788468);
    CHECK(right_band(999, k_three_figures).lo == 998.5);
    CHECK(right_band(999, k_three_figures).hi == 999.5);
    CHECK(right_band(12, k_three_figures).hi == Approx(12.05));
    // Exact, every digit: half a unit in the last, ± 0.5.
    CHECK(right_band(1050624, k_exact).lo == 1050623.5);
    CHECK(right_band(1050624, k_exact).hi == 1050624.5);
    // {rel: 0.01}: ± 10,506.24.
    CHECK(right_band(1050624, {spec::Tolerance::Kind::relative, 0.01, 0}).hi == Approx(1061130.24));
}

TEST_CASE("rule 1's interval for a value that need not be whole", "[lms]") {
    // 7/39 = 0.179487...: its third figure is the thousandths, ± 0.0005, so 0.1795, 0.17949 and 0.179 are in and
    // 0.1785 is out (issue 39's own example).
    const NumberRange band = right_band_real(formula::Number(7, 39), k_three_figures);
    CHECK(band.lo <= 0.179);
    CHECK(band.hi >= 0.1795);
    CHECK(band.lo > 0.1785);
    CHECK(band.hi - band.lo == Approx(0.001));
    // 1000 exactly: log10 is 3, the third figure the tens, ± 5 (not ± 0.5, nor ± 50).
    CHECK(right_band_real(formula::Number(1000), k_three_figures).hi == 1005);
    // Exact: 0.45 = 9/20 ends at the hundredths, ± 0.005; 7/39's digits do not end, so nothing but itself; a whole
    // number ± 0.5.
    CHECK(right_band_real(formula::Number(9, 20), k_exact).hi == Approx(0.455));
    CHECK(right_band_real(formula::Number(7, 39), k_exact).hi == right_band_real(formula::Number(7, 39), k_exact).lo);
    CHECK(right_band_real(formula::Number(42), k_exact).hi == 42.5);
}

TEST_CASE("the right answer at three significant figures is the exact value ± half a unit, both edges in", "[lms]") {
    const ClozeNumbers numbers = cloze_numbers({entry(1050624, grade::Status::correct, 1, "")}, k_three_figures);
    REQUIRE(numbers.answers.size() == 1);
    CHECK(numbers.answers[0].number.value == 1050624);
    CHECK(numbers.answers[0].number.tolerance == 5000);
    CHECK(first_match(numbers, 1045624) == 0u);
    CHECK(first_match(numbers, 1055624) == 0u);
    CHECK(first_match(numbers, 1050000) == 0u);
    CHECK(first_match(numbers, 1055000) == 0u); // 1.055e6 is within 4,376 of the value: right by rule 1
    CHECK_FALSE(first_match(numbers, 1045623));
    CHECK_FALSE(first_match(numbers, 1055625));
    // Moodle's allowance, 1e-14 of the value (about 1.05e-8), is all it takes past the edges.
    CHECK_FALSE(first_match(numbers, 1055624.001));
    CHECK_FALSE(first_match(numbers, 1045623.999));
    CHECK(numbers.dropped.empty());
}

TEST_CASE("an exact count is right to half a unit: its digits, and nothing that is another whole number", "[lms]") {
    const ClozeNumbers numbers = cloze_numbers({entry(787968, grade::Status::correct, 1, "")}, k_exact);
    REQUIRE(numbers.answers.size() == 1);
    CHECK(numbers.answers[0].number.tolerance == 0.5);
    CHECK(first_match(numbers, 787968) == 0u);
    CHECK(first_match(numbers, 787968.5) == 0u);
    CHECK(first_match(numbers, 787967.5) == 0u);
    CHECK_FALSE(first_match(numbers, 787968.51));
    CHECK_FALSE(first_match(numbers, 787969));
    CHECK_FALSE(first_match(numbers, 787967));
}

TEST_CASE("a relative tolerance is r·value each way, not cut to whole numbers", "[lms]") {
    // 1% of 1,050,624 is 10,506.24.
    const spec::Tolerance one_percent{spec::Tolerance::Kind::relative, 0.01, 0};
    const ClozeNumbers numbers = cloze_numbers({entry(1050624, grade::Status::correct, 1, "")}, one_percent);
    REQUIRE(numbers.answers.size() == 1);
    CHECK(numbers.answers[0].number.value == 1050624);
    CHECK(numbers.answers[0].number.tolerance == Approx(10506.24));
    CHECK(first_match(numbers, 1061130.24) == 0u);
    CHECK_FALSE(first_match(numbers, 1061130.25));
}

TEST_CASE("each listed value reaches its own answer, bands stopping short of later values", "[lms]") {
    // 787,968's interval at three figures is [787,468, 788,468] and holds 788,100, of which grade says something
    // else: 787,968's answer stops before it, at its whole numbers 787,468 to 788,099 (787,783.5 ± 315.5), so
    // 788,100 reaches its own ([787,600, 788,600]); 790,000 (a rounding) is a point.
    const ClozeNumbers numbers = cloze_numbers(
        {entry(1050624, grade::Status::correct, 1, ""), entry(787968, grade::Status::incorrect, 0, "A"),
         entry(788100, grade::Status::incorrect, 0, "B"), entry(790000, grade::Status::rounded, 0.5, "C")},
        k_three_figures);
    CHECK(numbers.dropped.empty());
    for (std::size_t i = 0; i < 4; ++i)
        CHECK(first_match(numbers, std::vector<double>{1050624, 787968, 788100, 790000}[i]) == i);
    CHECK(numbers.answers[1].number.value == 787783.5);
    CHECK(numbers.answers[1].number.tolerance == 315.5);
    CHECK(first_match(numbers, 788099) == 1u);
    CHECK(first_match(numbers, 787468) == 1u);
    CHECK(first_match(numbers, 787467) == std::nullopt);
    CHECK(first_match(numbers, 788600) == 2u);
    CHECK(first_match(numbers, 788601) == std::nullopt);
}

TEST_CASE("a mistake's value that is not whole takes rule 1's interval, as check names it", "[lms]") {
    // Right 7/39; mistakes 1.234 and 1.241 at three figures: rule 1's intervals [1.229, 1.239] and [1.236, 1.246].
    // Where they overlap, [1.236, 1.239], check names what its precedence keeps of both, which no one answer says:
    // 1.234's answers take [1.229, 1.236) (1.234 ± 0.002, and the rest, 1.2305 ± 0.0015), 1.241's (1.239, 1.246],
    // and the overlap is left to the catch-all.
    const auto exact_entry = [](formula::Number value, grade::Status status, std::string feedback) {
        PlatformAnswer a;
        a.value = solve::exact_answer(std::move(value));
        a.status = status;
        a.feedback = std::move(feedback);
        return a;
    };
    const ClozeNumbers numbers =
        cloze_numbers({exact_entry(formula::Number(7, 39), grade::Status::correct, ""),
                       exact_entry(formula::Number(1234, 1000), grade::Status::incorrect, "A"),
                       exact_entry(formula::Number(1241, 1000), grade::Status::incorrect, "B")},
                      k_three_figures);
    for (const double in_a : {1.229, 1.23, 1.234, 1.2359})
        CHECK(first_match(numbers, in_a) == 1u);
    for (const double in_b : {1.2391, 1.241, 1.246})
        CHECK(first_match(numbers, in_b) == 2u);
    for (const double neither : {1.2289, 1.2365, 1.239, 1.2461})
        CHECK_FALSE(first_match(numbers, neither));
    // Each value is written as it is typed, to 14 figures at most.
    CHECK(numbers.answers[1].number.value == 1.234);
}

TEST_CASE("a value Moodle cannot tell from an earlier answer is left out and named", "[lms]") {
    // At 10^15 Moodle's allowance is 1e-14 * 10^15 = 10: the exact answer 10^15 ± 0.5 holds 10^15 + 3 too.
    const ClozeNumbers numbers = cloze_numbers({entry(1'000'000'000'000'000, grade::Status::correct, 1, ""),
                                                entry(1'000'000'000'000'003, grade::Status::incorrect, 0, "A"),
                                                entry(1'000'000'000'000'050, grade::Status::incorrect, 0, "B")},
                                               k_exact);
    CHECK(numbers.dropped == std::vector<std::size_t>{1});
    REQUIRE(numbers.answers.size() == 2);
    CHECK(numbers.answers[1].entry == 2);
}

TEST_CASE("counts Moodle's doubles cannot hold as rule 1 does are matched as text", "[lms]") {
    // 2^53 + 1 is no double; 10^15 exactly takes in 10^15 ± 10 (above); 1,050,624 exactly takes in itself alone,
    // and at three figures its edges 1,045,624 and 1,055,624, nothing past them.
    CHECK(needs_text({entry(9'007'199'254'740'993, grade::Status::correct, 1, "")}, k_three_figures));
    CHECK(needs_text({entry(1'000'000'000'000'000, grade::Status::correct, 1, "")}, k_exact));
    CHECK_FALSE(needs_text({entry(1050624, grade::Status::correct, 1, "")}, k_exact));
    CHECK_FALSE(needs_text({entry(1050624, grade::Status::correct, 1, "")}, k_three_figures));
    // A mistake past 2^53 makes the box text too: its value would be read as another.
    CHECK(needs_text({entry(1050624, grade::Status::correct, 1, ""),
                      entry(12'345'678'901'234'567, grade::Status::incorrect, 0, "A")},
                     k_exact));
    // At three figures 10^15 is ± 5·10^12: Moodle's allowance of 10 past an edge is lost in it (numbers nobody types).
    CHECK_FALSE(needs_text({entry(1'000'000'000'000'000, grade::Status::correct, 1, "")}, k_three_figures));
}

TEST_CASE("numbers are written as Moodle's NUMERICAL reads them", "[lms]") {
    CHECK(number_text(1050000) == "1050000");
    CHECK(number_text(4999.5) == "4999.5");
    CHECK(number_text(787799.5) == "787799.5");
    CHECK(number_text(0) == "0");
}

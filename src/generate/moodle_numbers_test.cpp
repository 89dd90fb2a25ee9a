// Unit tests for Moodle's NUMERICAL answers. Expected numbers are worked out by hand in the comments, from
// Moodle's formula (value ± (tolerance + 1e-14·max(tolerance, |value|)), both ends included) and grade's rule
// (the numbers that round half up to the same significant figures).
#include <generate/moodle_numbers.hpp>

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

TEST_CASE("grade's band for three significant figures is closed, around the exact value", "[lms]") {
    // Issue 39's rule 1: right is within half a unit in the third figure of the exact value, both ends included.
    // 1,050,624's third figure is worth 10,000: [1,045,624, 1,055,624].
    const NumberRange band = grade_band(1050624, k_three_figures);
    CHECK(band.lo == 1045624);
    CHECK(band.hi == 1055624);
    CHECK_FALSE(band.lo_open);
    CHECK_FALSE(band.hi_open);
    // 1,045,000 ± 5,000; 787,968 ± 500 (its third figure is worth 1,000); 999 has three figures, ± 0.5.
    CHECK(grade_band(1045000, k_three_figures).lo == 1040000);
    CHECK(grade_band(787968, k_three_figures).lo == 787468);
    CHECK(grade_band(787968, k_three_figures).hi == 788468);
    CHECK(grade_band(999, k_three_figures).lo == 998.5);
    CHECK(grade_band(999, k_three_figures).hi == 999.5);
    CHECK(grade_band(1050624, k_exact).lo == 1050624);
    CHECK(grade_band(1050624, k_exact).hi == 1050624);
}

TEST_CASE("the right answer at three significant figures: every whole number grade accepts", "[lms]") {
    const ClozeNumbers numbers = cloze_numbers({entry(1050624, grade::Status::correct, 1, "")}, k_three_figures);
    // The band is centred on the value itself, so one answer shows it and takes the band: 1,050,624 ± 5,000.
    // Moodle's allowance reaches 1e-14 of the value past each closed end (1,055,624.00000001), which nobody types.
    REQUIRE(numbers.answers.size() == 1);
    CHECK(numbers.answers[0].number.value == 1050624);
    CHECK(numbers.answers[0].number.tolerance == 5000);
    CHECK(first_match(numbers, 1045624) == 0u);
    CHECK_FALSE(first_match(numbers, 1045623));
    CHECK(first_match(numbers, 1050624) == 0u);
    CHECK(first_match(numbers, 1055624) == 0u);
    CHECK_FALSE(first_match(numbers, 1055625));
    CHECK(numbers.dropped.empty());
}

TEST_CASE("a relative tolerance keeps every whole number within r·value and nothing beyond", "[lms]") {
    // 1% of 1,050,624 is 10,506.24: the whole numbers 1,040,118 to 1,061,130, a tolerance of 10,506.
    const spec::Tolerance one_percent{spec::Tolerance::Kind::relative, 0.01, 0};
    const ClozeNumbers numbers = cloze_numbers({entry(1050624, grade::Status::correct, 1, "")}, one_percent);
    REQUIRE(numbers.answers.size() == 1);
    CHECK(numbers.answers[0].number.value == 1050624);
    CHECK(numbers.answers[0].number.tolerance == 10506);
}

TEST_CASE("each listed value reaches its own answer, bands stopping short of later values", "[lms]") {
    // 788,100 lies within 787,968's band [787,468, 788,468] but grade says something else of it: 787,968's answer
    // stops before 788,100, so 788,100 reaches its own; 790,000 (a rounding) is a point.
    const ClozeNumbers numbers = cloze_numbers(
        {entry(1050624, grade::Status::correct, 1, ""), entry(787968, grade::Status::incorrect, 0, "A"),
         entry(788100, grade::Status::incorrect, 0, "B"), entry(790000, grade::Status::rounded, 0.5, "C")},
        k_three_figures);
    CHECK(numbers.dropped.empty());
    for (std::size_t i = 0; i < 4; ++i)
        CHECK(first_match(numbers, std::vector<double>{1050624, 787968, 788100, 790000}[i]) == i);
    // 787,968's whole numbers are 787,468 to 788,099: 787,783.5 ± 315.5 (Moodle's allowance reaches 1e-14 of the
    // value below the closed end 787,468, which nobody types, and stays short of 788,100 above).
    CHECK(numbers.answers[1].number.value == 787783.5);
    CHECK(numbers.answers[1].number.tolerance == 315.5);
    CHECK(first_match(numbers, 788099) == 1u);
    CHECK(first_match(numbers, 787468) == 1u);
    CHECK(first_match(numbers, 787467) == std::nullopt);
    CHECK(first_match(numbers, 788400) == 2u);
}

TEST_CASE("a value Moodle cannot tell from an earlier answer is left out and named", "[lms]") {
    // At 10^15 Moodle's allowance is 1e-14 * 10^15 = 10: the exact answer 10^15 holds 10^15 + 3 too.
    const ClozeNumbers numbers = cloze_numbers({entry(1'000'000'000'000'000, grade::Status::correct, 1, ""),
                                                entry(1'000'000'000'000'003, grade::Status::incorrect, 0, "A"),
                                                entry(1'000'000'000'000'050, grade::Status::incorrect, 0, "B")},
                                               k_exact);
    CHECK(numbers.dropped == std::vector<std::size_t>{1});
    REQUIRE(numbers.answers.size() == 2);
    CHECK(numbers.answers[1].entry == 2);
}

TEST_CASE("numbers are written as Moodle's NUMERICAL reads them", "[lms]") {
    CHECK(number_text(1050000) == "1050000");
    CHECK(number_text(4999.5) == "4999.5");
    CHECK(number_text(787799.5) == "787799.5");
    CHECK(number_text(0) == "0");
}

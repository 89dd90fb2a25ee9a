// evaluate()'s path for whole numbers (a formula computed in longs where every step is whole and fits) against the
// same formula computed over rationals alone (detail::evaluate_rational): the expected values here come from that
// second computation, which shares no code with the first, and from hand arithmetic in the comments.

#include <formula/formula.hpp>
#include <formula/irrational.hpp>
#include <formula/test_formulas.hpp>

#include <util/test_catch.hpp>

#include <climits>
#include <map>
#include <random>
#include <string>

using namespace headcount::formula;
using namespace headcount::formula::testing;

namespace {

/// Values at the edges of a long and past it, fractions, zero and signs.
const std::map<std::string, Number, std::less<>>& edges() {
    static const std::map<std::string, Number, std::less<>> values = {
        {"zero", Number(0)},
        {"one", Number(1)},
        {"minus_one", Number(-1)},
        {"two", Number(2)},
        {"three", Number(3)},
        {"big", Number(mpz_class("4611686018427387904"))},  // 2^62
        {"largest", Number(LONG_MAX)},                      // 2^63 - 1
        {"smallest", Number(LONG_MIN)},                     // -2^63
        {"past", Number(mpz_class("9223372036854775808"))}, // 2^63, no long
        {"half", Number(1, 2)},
        {"third", Number(-1, 3)},
        {"d_model", Number(4096)},
    };
    return values;
}

const Number* edge(std::string_view name) {
    const auto found = edges().find(name);
    return found == edges().end() ? nullptr : &found->second;
}

/// The two computations agree: the same value, or the same message at the same column.
void same_as_rational(const Node& formula, std::string_view text) {
    const auto fast = evaluate(formula, edge);
    const auto slow = detail::evaluate_rational(formula, edge);
    INFO("formula '" << std::string(text) << "': " << (fast ? fast->get_str() : fast.error().message) << " against "
                     << (slow ? slow->get_str() : slow.error().message));
    REQUIRE(fast.has_value() == slow.has_value());
    if (fast) {
        CHECK(*fast == *slow);
    } else {
        CHECK(fast.error().message == slow.error().message);
        CHECK(fast.error().column == slow.error().column);
    }
}

/// A random formula over edges()'s names and a few literals, of at most `depth` levels.
std::string random_formula(std::mt19937& random, int depth) {
    static const char* const leaves[] = {"zero",    "one",      "minus_one", "two",  "three", "big",
                                         "largest", "smallest", "past",      "half", "third", "d_model",
                                         "0",       "7",        "0.5",       "1e3",  "12",    "nope"};
    const auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
    if (depth == 0 || pick(4) == 0)
        return leaves[pick(static_cast<int>(std::size(leaves)))];
    const std::string a = random_formula(random, depth - 1);
    const std::string b = random_formula(random, depth - 1);
    switch (pick(12)) {
    case 0:
        return "(" + a + " + " + b + ")";
    case 1:
        return "(" + a + " - " + b + ")";
    case 2:
        return a + " * " + b;
    case 3:
        return "(" + a + ") / (" + b + ")";
    case 4:
        return "(" + a + ")^" + std::to_string(pick(70));
    case 5:
        return "-(" + a + ")";
    case 6:
        return "if(" + a + " > " + b + ", " + a + ", " + b + ")";
    case 7:
        return "min(" + a + ", " + b + ", 5)";
    case 8:
        return "max(" + a + ", " + b + ")";
    case 9:
        return "floor(" + a + ") + ceil(" + b + ")";
    case 10:
        return "abs(" + a + ")";
    default:
        return "(" + a + " == " + b + ") + (" + a + " != " + b + ") * 2 + (" + a + " <= " + b + ") * 4";
    }
}

} // namespace

TEST_CASE("whole arithmetic gives the rational value wherever it gives one", "[formula]") {
    // By hand: 2^62 * 2 = 2^63, one past a long: the rational path's 9223372036854775808.
    CHECK(value_with(parsed("big * 2"), edge) == Number(mpz_class("9223372036854775808")));
    // -(-2^63) = 2^63: no long either.
    CHECK(value_with(parsed("-smallest"), edge) == Number(mpz_class("9223372036854775808")));
    // 7 / 2 = 7/2, not 3: a division that is not exact leaves whole numbers.
    CHECK(value_with(parsed("7 / 2"), edge) == Number(7, 2));
    // 7 / 2 * 2 = 7: whole at the end, though not on the way.
    CHECK(value_with(parsed("7 / 2 * 2"), edge) == Number(7));
    // 2^63 - 1 + 1 - 1 = 2^63 - 1, through 2^63 on the way.
    CHECK(value_with(parsed("largest + 1 - 1"), edge) == Number(LONG_MAX));
    // 3^40 = 12157665459056928801, past a long.
    CHECK(value_with(parsed("3^40"), edge) == Number(mpz_class("12157665459056928801")));
    // (-1)^63 = -1, 0^0 = 1, 2^62 / 2^62 = 1.
    CHECK(value_with(parsed("minus_one^63 + zero^0 + big / big"), edge) == Number(1));
    // Errors are the rational path's, with its columns.
    CHECK(problem_with("d_model / zero", edge).message == "division by zero: zero is 0 here");
    CHECK(problem_with("two * nope", edge).message == "unknown name 'nope'");

    for (const std::string_view text : {"big * 2",
                                        "largest + 1",
                                        "smallest - 1",
                                        "smallest / minus_one",
                                        "abs(smallest)",
                                        "-smallest",
                                        "two^63",
                                        "two^62 * 2",
                                        "minus_one^64",
                                        "zero^0",
                                        "past - past",
                                        "half * 2",
                                        "third * 3",
                                        "if(half > 0, 1, 1 / zero)",
                                        "if(zero, 1 / zero, 2)",
                                        "floor(half) + ceil(half)",
                                        "min(past, 3)",
                                        "3 / zero",
                                        "zero^(0 - 1)",
                                        "sqrt(d_model)",
                                        "d_model^0.5",
                                        "12 / 5 * 5",
                                        "1e3 / 8"})
        same_as_rational(parsed(text), text);
}

TEST_CASE("whole arithmetic and rationals agree on random formulas", "[formula]") {
    std::mt19937 random(20261128); // a fixed seed: the same formulas every run
    int read = 0;
    for (int n = 0; n < 3000; ++n) {
        // The language allows one comparison, loosest of all: a formula with two, or past the bounds, is not read.
        const std::string text = random_formula(random, 4);
        if (const auto formula = parse(text)) {
            same_as_rational(*formula, text);
            ++read;
        }
    }
    CHECK(read > 1500);
}

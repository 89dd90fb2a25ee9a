// Hostile and broken answers: each must come back as a reason, never a crash, a hang, a throw or a wrapped
// number.

#include <answer/test_answers.hpp>

#include <random>
#include <string>
#include <string_view>

using Catch::Matchers::Contains;
using namespace headcount::answer;
using namespace headcount::testing;

TEST_CASE("length and nesting limits", "[answer]") {
    // 1 followed by 199 spaces is exactly 200 bytes and still read; one more space is refused.
    CHECK(parse_answer("1" + std::string(199, ' ')).value().integer == 1);
    CHECK_THAT(reason("1" + std::string(200, ' ')), Contains("longer than 200"));
    CHECK_THAT(reason(std::string(300, '9')), Contains("longer than 200"));
    // 32 parentheses deep is allowed, 33 is not.
    CHECK(parse_answer(std::string(32, '(') + "1" + std::string(32, ')')).value().integer == 1);
    CHECK_THAT(reason(std::string(33, '(') + "1" + std::string(33, ')')), Contains("nested too deeply"));
    std::string tower = "2";
    for (int i = 0; i < 40; ++i)
        tower += "^2";
    CHECK_THAT(reason(tower), Contains("nested too deeply"));
}

TEST_CASE("numbers too large or too small", "[answer]") {
    for (const char* text :
         {"10^1000", "2^120", "9^9^9", "1000000000000000000000000000000000001", "1e400", "2^60*2^60", "10^37",
          "1"
          "0000000000"
          "0000000000"
          "0000000000"
          "0000000000",
          "1e99999999999", "(10^18)^3", "999999999999999999999999999999999999999.5"})
        CHECK_THAT(reason(text), Contains("too large"));
    // Counts reach 10^36 either side of zero: -2^63 is a count now, and 10^36 + 1 is not.
    for (const char* text : {"-2^63", "-9223372036854775808"})
        CHECK(parse_answer(text).value().integer == -(static_cast<headcount::Count>(1) << 63));
    CHECK(parse_answer("-1e36").value().integer == -headcount::k_count_limit);
    CHECK_THAT(reason("-(10^36 + 1)"), Contains("too large"));
    CHECK_THAT(reason("1e-400"), Contains("too small"));
    CHECK_THAT(reason("0.000000000000000000000000000000000000000001"), Contains("too small"));
    // Zero times a huge power of ten is zero, not an overflow.
    CHECK(parse_answer("0e999").value().integer == 0);
}

TEST_CASE("garbage is refused with a reason that points at it", "[answer]") {
    for (const char* blank : {"", "   ", "\t\n"})
        CHECK(reason(blank) == "empty answer");
    CHECK(reason("NaN") == "unexpected 'NaN' at position 1");
    CHECK(reason("inf") == "unexpected 'inf' at position 1");
    CHECK(reason("-inf") == "unexpected 'inf' at position 2");
    CHECK(reason(")") == "unexpected ')' at position 1");
    CHECK_THAT(reason("--5"), Contains("two signs") && Contains("position 2"));
    CHECK_THAT(reason("(((("), Contains("ends where a number was expected"));
    CHECK_THAT(reason("(1+2"), Contains("missing ')'") && Contains("position 1"));
    CHECK_THAT(reason("1+"), Contains("ends where a number was expected"));
    CHECK_THAT(reason("1,,000"), Contains("group separator ','"));
    CHECK_THAT(reason("1__000"), Contains("group separator '_'"));
    CHECK_THAT(reason("0x1F"), Contains("hexadecimal"));
    CHECK_THAT(reason("1e"), Contains("exponent"));
    CHECK_THAT(reason("1e+"), Contains("exponent"));
    CHECK_THAT(reason("1.2.3"), Contains("second decimal point"));
    CHECK(reason("2^0.5") == "the exponent at position 3 is not a whole number");
    CHECK(reason("4(512") == "missing ')' for the '(' at position 2");
    CHECK(reason("4()") == "unexpected ')' at position 3");
    CHECK(reason("4 \\sqrt{2}") == "unexpected '\\sqrt' at position 3: headcount reads \\times, \\cdot, \\frac{a}{b}, "
                                   "^{...} and {,} in TeX");
    CHECK(reason("1.05 10") == "unexpected '10' at position 6");
    CHECK(reason("1050624 apples") == "unexpected 'apples' at position 9");
    // Positions count characters: × is two bytes, but q is the seventh character.
    CHECK(reason("4×512×q") == "unexpected 'q' at position 7");
}

TEST_CASE("bytes that are not text", "[answer]") {
    for (const char* text : {"\xff", "1\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "12\x80"})
        CHECK(reason(text) == "the answer is not valid UTF-8");
    CHECK_THAT(reason(std::string("1\0"
                                  "5",
                                  3)),
               Contains("NUL") && Contains("position 2"));
    CHECK_THAT(reason("1\x01"), Contains("control character"));
    CHECK(reason("\U0001F600") == "unexpected '\U0001F600' at position 1");
    CHECK(reason("1050624 \U0001F600") == "unexpected '\U0001F600' at position 9");
    CHECK(reason("1é") == "unexpected 'é' at position 2");
}

TEST_CASE("odd but valid answers", "[answer]") {
    const auto half = parse_answer(".5"); // 1/2: a value, not a whole number
    REQUIRE(half.has_value());
    CHECK_FALSE(half->integer.has_value());
    CHECK(half->value == 0.5);
    CHECK(parse_answer("-5").value().integer == -5);
    CHECK(parse_answer(".5M").value().integer == 500'000); // 0.5 · 10^6
}

TEST_CASE("random strings of tricky characters never throw", "[answer]") {
    // Not a proof, but it walks paths the hand-written cases miss; the seed is fixed so failures reproduce.
    const std::string_view pieces[] = {
        "1",    "0",      "9",         ".",          ",",      "_",      " ",      "e",       "E", "-",     "+",
        "*",    "**",     "^",         "/",          "(",      ")",      "x",      "M",       "B", "KiB",   "mb",
        "Mb",   "\u2009", "\u00D7",    "\u2212",     "\u2076", "\u207B", "\u2248", "~",       "=", "about", "\xff",
        "\xc3", "0x",     "999999999", "parameters", "bn",     "%",      "\\%",    "percent", "s", "days",  "min",
        "yr",   "m",      "FLOP",      "TFLOP",      "GPU",    "tokens", "\\frac", "{",       "}"};
    std::mt19937 random(20240611);
    std::uniform_int_distribution<std::size_t> pick(0, std::size(pieces) - 1);
    std::uniform_int_distribution<int> length(0, 40);
    for (int round = 0; round < 20'000; ++round) {
        std::string text;
        for (int n = length(random); n > 0; --n)
            text += pieces[pick(random)];
        for (AnswerUnit unit : {AnswerUnit::count, AnswerUnit::bytes, AnswerUnit::time, AnswerUnit::plain})
            for (bool wide : {false, true}) {
                INFO("answer '" << text << "'");
                CHECK_NOTHROW([&] {
                    const auto result = parse_answer(text, unit, ParseOptions{.wide = wide, .noun = {}});
                    if (!result)
                        REQUIRE_FALSE(result.error().empty());
                    else
                        REQUIRE(result->exact.has_value());
                }());
            }
    }
}

TEST_CASE("what looks like a product or TeX but is not one is refused, not guessed", "[answer]") {
    // An answer followed by its working in parentheses is two numbers, not 1,050,624 x 1,050,624.
    CHECK(reason("1050624 (4*262656)") ==
          "a second number at position 9: to multiply, write * or × between the factors");
    CHECK(reason("1.5 (2)") == "a second number at position 5: to multiply, write * or × between the factors");
    // After a small factor a space still multiplies, as on paper: 4 (512^2 + 512) = 4 x 262,656 = 1,050,624.
    const auto spaced = parse_answer("4 (512^2+512)");
    REQUIRE(spaced.has_value());
    CHECK(*spaced->integer == 1'050'624);
    // TeX braces must balance.
    CHECK(reason("\\text{1050624") == "the '{' at position 6 is never closed");
    CHECK(reason("1050624 \\text{ params}}") == "unexpected '}' at position 23");
    CHECK(reason("1050624}") == "unexpected '}' at position 8");
}

TEST_CASE("wide answers and the new units keep the limits", "[answer]") {
    const ParseOptions wide{.wide = true, .noun = {}};
    // Towers of powers fail at once: 10^10 is a fine exponent, but 10^(10^10) passes 10^36 long before it is
    // computed (any exponent above 127 overflows), and the same holds for every unit.
    for (AnswerUnit unit : {AnswerUnit::count, AnswerUnit::bytes, AnswerUnit::time, AnswerUnit::plain})
        for (const char* text : {"10^10^10", "9^9^9", "10^10^10^10^10", "2^200", "1e37", "1e99999999999",
                                 "99999999999999999999999999999999999999", "(10^18)^3", "10^36*10"}) {
            INFO(text);
            const auto result = parse_answer(text, unit, wide);
            REQUIRE_FALSE(result.has_value());
            CHECK_THAT(result.error(), Contains("too large"));
        }
    for (const char* text : {"1/0", "\\frac{1}{0}", "5/(3-3)", "0^-1"})
        CHECK(parse_answer(text, AnswerUnit::count, wide).error() == "division by zero");
    CHECK_THAT(parse_answer("1e-37", AnswerUnit::plain, wide).error(), Contains("too small"));
    CHECK_THAT(parse_answer("1e-35%", AnswerUnit::plain, wide).error(), Contains("too small"));
    // 10^36 s is the bound in seconds too, so 10^29 years (3.16 * 10^36 s) is refused.
    CHECK_THAT(parse_answer("1e29 years", AnswerUnit::time, wide).error(), Contains("too large"));
    // The length and depth limits hold whatever the unit and options.
    for (AnswerUnit unit : {AnswerUnit::time, AnswerUnit::plain}) {
        CHECK_THAT(parse_answer("1" + std::string(200, ' '), unit, wide).error(), Contains("longer than 200"));
        CHECK_THAT(parse_answer(std::string(33, '(') + "1" + std::string(33, ')'), unit, wide).error(),
                   Contains("nested too deeply"));
    }
    CHECK_THAT(parse_answer(std::string(40, '(') + "1%" + std::string(40, ')'), AnswerUnit::plain).error(),
               Contains("nested too deeply"));
    // Units and nouns alone, or a tail with nothing before it, are no answer.
    CHECK(parse_answer("days", AnswerUnit::time).error() == "unexpected 'days' at position 1");
    CHECK(parse_answer("FLOP/s").error() == "unexpected 'FLOP' at position 1");
    CHECK(parse_answer("/s").error() == "unexpected '/' at position 1");
    CHECK(parse_answer("5 FLOP/", AnswerUnit::count).error() == "unexpected '/' at position 7");
    CHECK(parse_answer("5 GPU-", AnswerUnit::count).error() == "unexpected '-' at position 6");
    CHECK(parse_answer("%%", AnswerUnit::plain).error() == "unexpected '%' at position 1");
}

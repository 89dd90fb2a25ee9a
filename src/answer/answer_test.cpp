// The forms students type, each with its value worked out by hand in the comment beside it.

#include <answer/test_answers.hpp>

#include <string>
#include <string_view>

using headcount::Count;
using namespace headcount::answer;
using namespace headcount::testing;

namespace {

Count whole(std::string_view text, AnswerUnit unit = AnswerUnit::count) {
    const ParsedAnswer answer = read(text, unit);
    INFO("answer '" << text << "' has value " << answer.value);
    REQUIRE(answer.integer.has_value());
    return *answer.integer;
}

using Catch::Matchers::Contains;

} // namespace

TEST_CASE("plain integers, with every accepted group separator", "[answer]") {
    // 4·(512² + 512) = 4·262,656 = 1,050,624 (by hand), written seven ways.
    for (const char* text : {"1050624", "1,050,624", "1 050 624", "1_050_624", "1\u2009050\u2009624",
                             "1\u00A0050\u00A0624", "1\u202F050\u202F624"}) {
        const ParsedAnswer answer = read(text);
        INFO(text);
        CHECK(whole(text) == 1'050'624);
        CHECK(answer.value == 1050624.0);
        CHECK(answer.significant_figures == 0);
        CHECK(answer.resolution == 0);
        CHECK_FALSE(answer.approximate);
        CHECK(answer.unit.empty());
    }
    CHECK(whole("1,000,000") == 1'000'000);
    CHECK(whole("999") == 999);
    CHECK(whole("0") == 0);
}

TEST_CASE("group separators only between groups of three digits", "[answer]") {
    // No guessing at European decimal commas: each of these is refused and the reason names the separator.
    for (const char* text : {"1,05", "10,50,624", "1050,624", "1,0500", "1,000,", "1 05", "1_05"})
        CHECK_THAT(reason(text), Contains("group separator"));
    CHECK_THAT(reason("1,05"), Contains("','") && Contains("position 2"));
    CHECK_THAT(reason("1,050 624"), Contains("differs"));
    CHECK_THAT(reason("1.050,624"), Contains("after the decimal point"));
}

TEST_CASE("e-notation is exact and keeps the written precision", "[answer]") {
    // 1.050624 · 10^6 = 1,050,624: seven digits written, the last one in the units place.
    const ParsedAnswer full = read("1.050624e6");
    CHECK(whole("1.050624e6") == 1'050'624);
    CHECK(full.significant_figures == 7);
    CHECK(full.resolution == Approx(1.0));
    // 1.05 · 10^6 = 1,050,000; last digit in the ten-thousands place.
    const ParsedAnswer short_form = read("1.05E6");
    CHECK(whole("1.05E6") == 1'050'000);
    CHECK(short_form.significant_figures == 3);
    CHECK(short_form.resolution == Approx(10'000.0));
    // 1.0e6: the trailing zero was written, so two figures.
    CHECK(whole("1.0e6") == 1'000'000);
    CHECK(read("1.0e6").significant_figures == 2);
    // 1.5 · 10^-3 = 0.0015 is not whole.
    const ParsedAnswer small = read("1.5e-3");
    CHECK_FALSE(small.integer.has_value());
    CHECK(small.value == Approx(0.0015));
    CHECK(small.significant_figures == 2);
}

TEST_CASE("scale letters and words", "[answer]") {
    // 1.05 · 10^6 = 1,050,000, three figures, last digit worth 10,000.
    for (const char* text : {"1.05M", "1.05 M", "1.05 million", "1.05m", "1.05 Million", "1.05mn"}) {
        INFO(text);
        CHECK(whole(text) == 1'050'000);
        CHECK(read(text).value == 1050000.0);
        CHECK(read(text).significant_figures == 3);
        CHECK(read(text).resolution == Approx(10'000.0));
    }
    // 1.05 · 10^3 = 1,050.
    for (const char* text : {"1.05K", "1.05k", "1.05 thousand"}) {
        INFO(text);
        CHECK(whole(text) == 1'050);
        CHECK(read(text).significant_figures == 3);
    }
    // 2.1 · 10^9 = 2,100,000,000; for counts B means billion.
    for (const char* text : {"2.1B", "2.1 billion", "2.1bn", "2.1 Bn", "2.1b"}) {
        INFO(text);
        CHECK(whole(text) == 2'100'000'000);
        CHECK(read(text).significant_figures == 2);
    }
    // A whole mantissa scaled by a word is still a mantissa: one figure in "2 billion".
    CHECK(whole("2 billion") == 2'000'000'000);
    CHECK(read("2 billion").significant_figures == 1);
    // 1.2 · 10^12.
    CHECK(whole("1.2 trillion") == 1'200'000'000'000);
    // Leading zeros are not significant: 0.05 · 10^6 = 50,000, one figure, last digit worth 10,000.
    CHECK(whole("0.05M") == 50'000);
    CHECK(read("0.05M").significant_figures == 1);
    CHECK(read("0.05M").resolution == Approx(10'000.0));
    // Trailing zeros without a point are not, as in a plain 100,000,000 (issue 9: 110M is a two-figure rounding):
    // "100M" has one figure, "100.0M" four.
    CHECK(read("100M").significant_figures == 1);
    CHECK(read("100.0M").significant_figures == 4);
}

TEST_CASE("mantissa times ten to a power", "[answer]") {
    // 1.05 · 10^6 = 1,050,000 in every spelling of the multiplication and the power.
    for (const char* text : {"1.05×10^6", "1.05 x 10^6", "1.05*10^6", "1.05·10^6", "1.05 × 10⁶", "1.05X10^6",
                             "1.05 * 10**6", "1.05⋅10^6"}) {
        INFO(text);
        CHECK(whole(text) == 1'050'000);
        CHECK(read(text).significant_figures == 3);
        CHECK(read(text).resolution == Approx(10'000.0));
    }
    // 1.05 · 10^-3 = 0.00105.
    const ParsedAnswer small = read("1.05 × 10⁻³");
    CHECK_FALSE(small.integer.has_value());
    CHECK(small.value == Approx(0.00105));
    CHECK(small.significant_figures == 3);
    // 10^6 alone is an exact expression, not a mantissa.
    CHECK(whole("10^6") == 1'000'000);
    CHECK(read("10^6").significant_figures == 0);
}

TEST_CASE("approximation markers", "[answer]") {
    // Each denotes 1,050,000 (or 1,050,624 for the exact ones) and is marked approximate.
    for (const char* text : {"≈1.05×10^6", "~1.05M", "about 1.05 million", "approx. 1.05M", "Approx 1.05M",
                             "approximately 1,050,000", "≃ 1.05M", "roughly 1.05M", "~ 1050000", "=≈1.05M"}) {
        INFO(text);
        CHECK(whole(text) == 1'050'000);
        CHECK(read(text).approximate);
    }
    CHECK_FALSE(read("1.05M").approximate);
}

TEST_CASE("integer expressions evaluate exactly", "[answer]") {
    // 4·(512² + 512) = 4·(262,144 + 512) = 4·262,656 = 1,050,624.
    CHECK(whole("4*(512^2+512)") == 1'050'624);
    // 512·513 = 256,000 + 6,656 = 262,656; ·4 = 1,050,624.
    for (const char* text : {"4·512·513", "4 × 512 × 513", "4x512x513", "(512+1)*512*4", "4 * 512 * 513"})
        CHECK(whole(text) == 1'050'624);
    CHECK(whole("3 * 262,656") == 787'968); // 3·262,656 = 787,968
    CHECK(whole("512^2") == 262'144);       // 2^18
    CHECK(whole("2**10") == 1'024);
    CHECK(whole("8*64") == 512);
    CHECK(whole("512/8") == 64);
    CHECK(whole("-5") == -5);
    CHECK(whole("\u22125") == -5); // U+2212 MINUS SIGN
    CHECK(whole("2^62") == 4'611'686'018'427'387'904);
    CHECK(whole("9223372036854775807") == 9'223'372'036'854'775'807); // INT64_MAX itself still fits
    CHECK(read("4*(512^2+512)").significant_figures == 0);
    // Arithmetic on a scaled mantissa makes an exact expression: 2 · 1,050,000 = 2,100,000.
    CHECK(whole("2*1.05M") == 2'100'000);
    CHECK(read("2*1.05M").significant_figures == 0);
    // A decimal without a scale still reports its figures: 1050624.0 has eight, last digit worth 0.1.
    CHECK(whole("1050624.0") == 1'050'624);
    CHECK(read("1050624.0").significant_figures == 8);
    CHECK(read("1050624.0").resolution == Approx(0.1));
}

TEST_CASE("precedence: ^ above unary minus above * / above + -", "[answer]") {
    CHECK(whole("-2^2") == -4);    // -(2^2)
    CHECK(whole("2^3^2") == 512);  // 2^(3^2) = 2^9, right-associative
    CHECK(whole("(2^3)^2") == 64); // 8^2
    CHECK(whole("2+3*4") == 14);
    CHECK(whole("2*3^2") == 18);
    CHECK(whole("10-4-3") == 3); // (10-4)-3, left-associative
    CHECK(whole("64/8/2") == 4); // (64/8)/2
    CHECK(whole("2*-3") == -6);
    CHECK(whole("-(-5)") == 5);
    CHECK(whole("+7") == 7);
    const ParsedAnswer half = read("2^-1"); // 1/2
    CHECK_FALSE(half.integer.has_value());
    CHECK(half.value == 0.5);
}

TEST_CASE("division must come out whole", "[answer]") {
    CHECK(whole("512/8") == 64);
    CHECK(whole("1050624÷4") == 262'656);
    CHECK_THAT(reason("513/2"), Contains("not a whole number") && Contains("position 4"));
    CHECK_THAT(reason("1/0"), Contains("division by zero"));
    CHECK_THAT(reason("0^-1"), Contains("division by zero"));
}

TEST_CASE("count nouns and harmless decoration", "[answer]") {
    for (const char* text : {"1,050,624 parameters", "1050624 params", "1050624 Weights", "  1050624  ", "1050624.",
                             "=1050624", "= 4*(512^2+512)", "1,050,624 parameters.", "\t1050624\n"}) {
        INFO(text);
        CHECK(whole(text) == 1'050'624);
    }
    CHECK(whole("1.05M parameters") == 1'050'000);
}

TEST_CASE("TeX as students paste it from their notes", "[answer]") {
    // 4·512·513 = 4·262,656 = 1,050,624 (by hand: 512·513 = 262,656; ×4 = 1,050,624), in the TeX forms of issue 9.
    for (const char* text :
         {"4 \\times 512 \\times 513", "4\\cdot 512\\cdot 513", "$4 \\times 262{,}656$", "\\( 4 \\cdot 262656 \\)",
          "\\[4 \\cdot 262\\,656\\]", "$$1{,}050{,}624$$", "4 \\cdot (512^{2} + 512)", "4\\left(512^2+512\\right)",
          "\\frac{4202496}{4}", "1\\,050\\,624", "1{,}050{,}624 \\text{ parameters}", "4 \\ast 262656"}) {
        INFO(text);
        CHECK(whole(text) == 1'050'624);
    }
    // 1.05 × 10^6 in TeX keeps its three significant figures, as 1.05M does.
    const ParsedAnswer scaled = read("1.05 \\times 10^{6}");
    CHECK(scaled.significant_figures == 3);
    CHECK(scaled.value == 1'050'000.0);
    CHECK(read("\\approx 1.05M").approximate);
    // \frac must come out whole, as '/' must: 513/2 is a slip, not an answer.
    CHECK(reason("\\frac{513}{2}") == "the fraction at position 1 is not a whole number");
    CHECK_THAT(reason("\\sqrt{4}"), Contains("'\\sqrt' at position 1"));
}

TEST_CASE("products written as on paper, and words after the number", "[answer]") {
    CHECK(whole("4(512^2+512)") == 1'050'624);     // 4 · 262,656
    CHECK(whole("(512+1)(512)") == 262'656);       // 513 · 512
    CHECK(whole("2·512²·4 + 4·512") == 2'099'200); // 2,097,152 + 2,048
    CHECK(whole("3(512·512 + 512)") == 787'968);   // 3 · 262,656
    for (const char* text : {"1,050,624 parameters total", "1050624 params", "1,050,624 learnable parameters",
                             "1050624 weights and biases", "1,050,624 in total", "1,050,624 parameters in all."}) {
        INFO(text);
        CHECK(whole(text) == 1'050'624);
    }
    CHECK(whole("64 dimensions") == 64);
    // 343.6 GFLOPs = 343.6 · 10^9 = 343,600,000,000, four figures.
    CHECK(whole("343.6 GFLOPs") == 343'600'000'000);
    CHECK(read("343.6 GFLOPs").significant_figures == 4);
    // Words a count cannot carry are still refused by name.
    CHECK(reason("1050624 apples") == "unexpected 'apples' at position 9");
    // In bytes, the filler words are fine but "parameters" is not a unit of bytes.
    CHECK(whole("16 MiB in total", AnswerUnit::bytes) == 16'777'216);
}

TEST_CASE("a mantissa's trailing zeros count as a plain number's do", "[answer]") {
    // 110M: two significant figures, stepping by 10M (it stands for 105M to 115M); 110.0M: four, by 100,000.
    const ParsedAnswer two = read("110M");
    CHECK(two.significant_figures == 2);
    CHECK(two.resolution == 10'000'000.0);
    const ParsedAnswer four = read("110.0M");
    CHECK(four.significant_figures == 4);
    CHECK(four.resolution == 100'000.0);
    CHECK(read("≈110 million").significant_figures == 2);
}

// The exact value (also past 64 bits and as a fraction, with ParseOptions::wide), answers in units of time, the
// count nouns of rates (FLOP/s) and plain numbers with percentages. Each expected value is worked out by hand in
// the comment beside it.

#include <answer/test_answers.hpp>

#include <algorithm>
#include <string>
#include <string_view>

using Catch::Matchers::Contains;
using headcount::Count;
using namespace headcount::answer;
using namespace headcount::testing;

namespace {

constexpr ParseOptions k_wide{.wide = true, .noun = {}};

// A 128-bit integer in decimal: Catch cannot print one, and the digits are what the comments work out.
std::string decimal(Wide v) {
    if (v == 0)
        return "0";
    const bool negative = v < 0;
    std::string digits;
    for (; v != 0; v /= 10)
        digits += static_cast<char>('0' + static_cast<int>(negative ? -(v % 10) : v % 10));
    if (negative)
        digits += '-';
    std::reverse(digits.begin(), digits.end());
    return digits;
}

// The exact value as "num/den", or "unset".
std::string exact(const ParsedAnswer& answer) {
    return answer.exact ? decimal(answer.exact->num) + "/" + decimal(answer.exact->den) : "unset";
}

std::string exact(std::string_view text, AnswerUnit unit = AnswerUnit::count, ParseOptions options = {}) {
    return exact(read(text, unit, options));
}

} // namespace

TEST_CASE("the exact value of integers, decimals and expressions", "[answer]") {
    CHECK(exact("1,050,624") == "1050624/1");
    CHECK(exact("4*(512^2+512)") == "1050624/1"); // 4 · 262,656
    CHECK(exact("-5") == "-5/1");
    CHECK(exact("0") == "0/1");
    CHECK(exact("25.36") == "634/25");    // 2536/100, both divided by 4
    CHECK(exact("1.5e-3") == "3/2000");   // 15/10,000, both divided by 5
    CHECK(exact("1.05M") == "1050000/1"); // 1.05 · 10^6
    CHECK(exact("2^-1") == "1/2");
    CHECK(exact(".5") == "1/2");
    CHECK(exact("16 MiB", AnswerUnit::bytes) == "16777216/1"); // 16 · 2^20, in bytes
    CHECK(exact("2.1B", AnswerUnit::bytes) == "21/10");        // 2.1 bytes
    // The exact value agrees with integer and value where they are set.
    const ParsedAnswer answer = read("1.050624e6");
    CHECK(answer.integer == 1'050'624);
    CHECK(exact(answer) == "1050624/1");
}

TEST_CASE("without wide, fractions are refused; whole numbers past 64 bits are counts", "[answer]") {
    CHECK_THAT(reason("1/3"), Contains("not a whole number") && Contains("position 2"));
    CHECK(reason("\\frac{513}{2}") == "the fraction at position 1 is not a whole number");
    // 6 · 175e9 · 300e9 = 315,000 · 10^18; 2^63 = 9,223,372,036,854,775,808 (one past INT64_MAX).
    const Count gpt3 = static_cast<Count>(315'000) * 1'000'000'000'000'000'000;
    for (const char* text : {"315000000000000000000000", "3.15e23", "6*175e9*300e9"})
        CHECK(read(text).integer == gpt3);
    CHECK(read("9223372036854775808").integer == static_cast<Count>(1) << 63);
}

TEST_CASE("wide answers: fractions", "[answer]") {
    const ParsedAnswer third = read("1/3", AnswerUnit::count, k_wide);
    CHECK(exact(third) == "1/3");
    CHECK_FALSE(third.integer.has_value());
    CHECK(third.value == Approx(1.0 / 3.0));
    CHECK(exact("513/2", AnswerUnit::count, k_wide) == "513/2");
    CHECK(exact("\\frac{513}{2}", AnswerUnit::count, k_wide) == "513/2");
    CHECK(exact("2/6*9", AnswerUnit::count, k_wide) == "3/1"); // (2/6)·9 = 1/3 · 9 = 3
    // A division that comes out whole is an integer as before: 1,050,624 / 4 = 262,656.
    const ParsedAnswer whole = read("1050624/4", AnswerUnit::count, k_wide);
    CHECK(whole.integer == 262'656);
    CHECK(exact(whole) == "262656/1");
    CHECK(reason("1/0", AnswerUnit::count, k_wide) == "division by zero");
}

TEST_CASE("wide answers: magnitudes past 64 bits", "[answer]") {
    // 6 · 175e9 · 300e9 = 6 · 175 · 300 · 10^18 = 315,000 · 10^18 = 3.15 · 10^23, written three ways.
    for (const char* text :
         {"315000000000000000000000", "3.15e23", "6*175e9*300e9", "315,000,000,000,000,000,000,000"}) {
        INFO(text);
        const ParsedAnswer answer = read(text, AnswerUnit::count, k_wide);
        CHECK(exact(answer) == "315000000000000000000000/1");
        CHECK(answer.integer == static_cast<Count>(315'000) * 1'000'000'000'000'000'000);
        CHECK(answer.value == Approx(3.15e23));
    }
    // 3.15e23 keeps its three figures; its last digit is worth 10^21.
    CHECK(read("3.15e23", AnswerUnit::count, k_wide).significant_figures == 3);
    CHECK(read("3.15e23", AnswerUnit::count, k_wide).resolution == Approx(1e21));
    CHECK(exact("-3.15e23", AnswerUnit::count, k_wide) == "-315000000000000000000000/1");
    // 2^63 = 9,223,372,036,854,775,808 is one past INT64_MAX: a count like any other.
    CHECK(read("9223372036854775808", AnswerUnit::count, k_wide).integer == static_cast<Count>(1) << 63);
    CHECK(exact("2^63", AnswerUnit::count, k_wide) == "9223372036854775808/1");
    // The parser's bound is 10^36: 1e36 is read, 1e37 is not.
    CHECK(exact("1e36", AnswerUnit::count, k_wide) == "1000000000000000000000000000000000000/1");
    CHECK_THAT(reason("1e37", AnswerUnit::count, k_wide), Contains("too large"));
    // 300e9 tokens over 1,000 GPU-hours: 3 · 10^11 / (3.6 · 10^6) = 300,000/3.6 = 83,333.3... = 250,000/3.
    CHECK(exact("300e9/(1000*3600)", AnswerUnit::count, k_wide) == "250000/3");
}

TEST_CASE("time answers are read in seconds", "[answer]") {
    // 25.4 days = 25.4 · 86,400 s = 2,160,000 + 34,560 = 2,194,560 s; the last digit is 0.1 day = 8,640 s.
    for (const char* text : {"25.4 days", "25.4 d", "25.4days", "≈ 25.4 days", "25.4 days.", "about 25.4 Days"}) {
        INFO(text);
        const ParsedAnswer answer = read(text, AnswerUnit::time);
        CHECK(answer.value == 2'194'560.0);
        CHECK(answer.integer == 2'194'560);
        CHECK(exact(answer) == "2194560/1");
        CHECK(answer.resolution == Approx(8'640.0));
        CHECK(answer.significant_figures == 3);
        CHECK(answer.unit == "d");
    }
    CHECK(read("≈ 25.4 days", AnswerUnit::time).approximate);
    // A Julian year is 365.25 · 86,400 = 31,557,600 s; 18 of them: 18 · 31,557,600 = 568,036,800 s.
    const ParsedAnswer years = read("about 18 years", AnswerUnit::time);
    CHECK(years.integer == 568'036'800);
    CHECK(years.approximate);
    CHECK(years.unit == "yr");
    CHECK(years.significant_figures == 2);
    CHECK(years.resolution == 31'557'600.0);
    // 2.19 · 10^6 s = 2,190,000 s, three figures, last digit worth 10,000 s.
    const ParsedAnswer seconds = read("2.19e6 s", AnswerUnit::time);
    CHECK(seconds.integer == 2'190'000);
    CHECK(seconds.unit == "s");
    CHECK(seconds.significant_figures == 3);
    CHECK(seconds.resolution == Approx(10'000.0));
    // 36.5 h = 36.5 · 3,600 = 108,000 + 23,400 = 131,400 s; last digit 0.1 h = 360 s.
    const ParsedAnswer hours = read("36.5 hours", AnswerUnit::time);
    CHECK(hours.integer == 131'400);
    CHECK(hours.unit == "h");
    CHECK(hours.resolution == Approx(360.0));
    // 90 min = 5,400 s. Like any number without a point, 90 has one figure, stepping by 10 min = 600 s.
    const ParsedAnswer minutes = read("90 min", AnswerUnit::time);
    CHECK(minutes.integer == 5'400);
    CHECK(minutes.unit == "min");
    CHECK(minutes.significant_figures == 1);
    CHECK(minutes.resolution == 600.0);
    CHECK(read("3 weeks", AnswerUnit::time).integer == 1'814'400); // 3 · 7 · 86,400
    CHECK(read("3 wk", AnswerUnit::time).unit == "wk");
    CHECK(exact("1.5 s", AnswerUnit::time) == "3/2");
}

TEST_CASE("every spelling of a unit of time", "[answer]") {
    // 2 of each unit: 2 s, 120 s, 7,200 s, 172,800 s, 1,209,600 s, 63,115,200 s.
    const struct {
        const char* unit;
        Count seconds;
        std::initializer_list<const char*> spellings;
    } units[] = {
        {"s", 2, {"s", "sec", "secs", "second", "seconds", "S", "Sec"}},
        {"min", 120, {"min", "mins", "minute", "minutes", "Min", "MINUTES"}},
        {"h", 7'200, {"h", "hr", "hrs", "hour", "hours", "H", "Hours"}},
        {"d", 172'800, {"d", "day", "days", "D", "Days"}},
        {"wk", 1'209'600, {"wk", "wks", "week", "weeks", "Weeks"}},
        {"yr", 63'115'200, {"yr", "yrs", "year", "years", "Years"}},
    };
    for (const auto& unit : units)
        for (const char* spelling : unit.spellings) {
            const std::string text = std::string("2 ") + spelling;
            INFO(text);
            const ParsedAnswer answer = read(text, AnswerUnit::time);
            CHECK(answer.integer == unit.seconds);
            CHECK(answer.unit == unit.unit);
        }
}

TEST_CASE("time answers with scale words, and without a unit", "[answer]") {
    // 2.5 million seconds = 2,500,000 s, two figures, last digit worth 100,000 s.
    const ParsedAnswer million = read("2.5 million seconds", AnswerUnit::time);
    CHECK(million.integer == 2'500'000);
    CHECK(million.unit == "s");
    CHECK(million.significant_figures == 2);
    CHECK(million.resolution == Approx(100'000.0));
    CHECK(read("2.5M s", AnswerUnit::time).integer == 2'500'000);
    // 1.2k hours = 1,200 · 3,600 = 4,320,000 s; last digit 100 h = 360,000 s.
    const ParsedAnswer kilo = read("1.2k hours", AnswerUnit::time);
    CHECK(kilo.integer == 4'320'000);
    CHECK(kilo.resolution == Approx(360'000.0));
    // Without a unit nothing is scaled: the number is in the question's own unit.
    const ParsedAnswer bare = read("25.4", AnswerUnit::time);
    CHECK(bare.value == Approx(25.4));
    CHECK(exact(bare) == "127/5"); // 254/10
    CHECK(bare.unit.empty());
    CHECK(read("25.4", AnswerUnit::time).significant_figures == 3);
}

TEST_CASE("units of the wrong kind in time and count answers", "[answer]") {
    CHECK(reason("25 GB", AnswerUnit::time) == "this part's answer is a time, not bytes ('GB' at position 4)");
    CHECK(reason("16 MiB", AnswerUnit::time) == "this part's answer is a time, not bytes ('MiB' at position 4)");
    CHECK(reason("16 Mb", AnswerUnit::time) == "this part's answer is a time, not bits ('Mb' at position 4)");
    CHECK(reason("3 days") == "this part's answer is a count, not a time ('days' at position 3)");
    CHECK(reason("5400 s") == "this part's answer is a count, not a time ('s' at position 6)");
    CHECK(reason("3 days", AnswerUnit::bytes) == "this part's answer is in bytes, not a time ('days' at position 3)");
    // In a time, M alone might be minutes.
    CHECK(reason("90 m", AnswerUnit::time) ==
          "'m' at position 4 is ambiguous in a time: write min for minutes or million");
    CHECK(reason("1 h + 30 min", AnswerUnit::time) == "a second unit 'min' at position 10");
    CHECK(reason("45%", AnswerUnit::time) == "unexpected '%' at position 3");
    CHECK(reason("1050624 parameters", AnswerUnit::time) == "unexpected 'parameters' at position 9");
    CHECK(reason("1e30 years", AnswerUnit::time, k_wide) == "the number is too large"); // 3.16e37 s > 10^36
}

TEST_CASE("counts of FLOP/s, tokens, steps and GPUs", "[answer]") {
    // 312 · 10^12 = 312,000,000,000,000 = 3.12 · 10^14, three figures, last digit worth 10^12.
    for (const char* text : {"312 TFLOP/s", "312 TFLOPS", "312 TFLOPs/s", "312 tflop/s", "312 TFLOP/sec",
                             "3.12e14 FLOP/s", "3.12e14 FLOPS", "3.12e14 flop/s", "3.12e14 FLOP/sec", "3.12e14 FLOPs/s",
                             "3.12 × 10^14 FLOP/s", "≈ 312 TFLOP/s."}) {
        INFO(text);
        const ParsedAnswer answer = read(text);
        CHECK(answer.integer == 312'000'000'000'000);
        CHECK(answer.significant_figures == 3);
        // In FLOPs (per second) whatever the part's unit, so that a part asking in TFLOP/s can scale it.
        CHECK(answer.unit.starts_with("FLOP"));
    }
    CHECK(read("312 TFLOP/s").unit == "FLOP/s");
    CHECK(read("312 TFLOPS").unit == "FLOPs");
    CHECK(read("312 TFLOP/s").resolution == Approx(1e12));
    CHECK(read("1.5e4 tokens/s").integer == 15'000);
    CHECK(read("2048 tokens").integer == 2'048);
    CHECK(read("10k steps").integer == 10'000);
    CHECK(read("1,024 GPUs").integer == 1'024);
    CHECK(read("8 GPU").integer == 8);
    CHECK(read("1,000 GPU-hours").integer == 1'000);
    CHECK(read("2.5k GPU-days").integer == 2'500);
    // The hyphen of GPU-hours is part of the word; a spaced minus is still a minus that leads nowhere.
    CHECK(reason("1000 GPU - hours") == "unexpected '-' at position 10");
    CHECK(reason("312 TFLOP/s", AnswerUnit::bytes) == "unexpected 'TFLOP' at position 5");
    CHECK(reason("3.12e14 FLOP/s", AnswerUnit::time) == "unexpected 'FLOP' at position 9");
    CHECK(reason("312 TFLOP/apples") == "unexpected 'apples' at position 11");
}

TEST_CASE("a count of devices takes the other names of a device, and only such a count", "[answer]") {
    // A part in chips (or GPUs, TPUs, accelerators, devices) reads 85 followed by any of those names as 85.
    for (const char* own : {"chips", "GPUs", "TPU", "accelerators", "devices"})
        for (const char* text : {"85 chips", "85 chip", "85 GPUs", "85 TPUs", "85 accelerators", "85 Devices"}) {
            INFO(own << ": " << text);
            CHECK(read(text, AnswerUnit::count, ParseOptions{.wide = false, .noun = own}).integer == 85);
        }
    // A count of something else takes its own noun, not a device's (GPU stays a count noun everywhere: GPU-hours).
    const ParseOptions sequences{.wide = false, .noun = "sequences"};
    CHECK(read("12 sequences", AnswerUnit::count, sequences).integer == 12);
    CHECK(reason("12 chips", AnswerUnit::count, sequences) == "unexpected 'chips' at position 4");
    CHECK(reason("12 TPUs", AnswerUnit::count, sequences) == "unexpected 'TPUs' at position 4");
    CHECK(reason("12 accelerators") == "unexpected 'accelerators' at position 4");
}

TEST_CASE("a unit of several words is read whole after the number", "[answer]") {
    // tokens.per_parameter's unit: 296.8 written with it is 296.8, in any case and with a plural "parameters".
    const ParseOptions ratio{.wide = true, .noun = "tokens per parameter"};
    for (const char* text :
         {"296.8 tokens per parameter", "296.8 Tokens per Parameters", "about 296.8 tokens per parameter"}) {
        INFO(text);
        CHECK(read(text, AnswerUnit::count, ratio).value == Approx(296.8));
    }
    // Another "per" is not the part's unit, and without the part's noun "per" is not read at all.
    CHECK(reason("296.8 tokens per GPU", AnswerUnit::count, ratio) == "unexpected 'per' at position 14");
    CHECK(reason("296.8 tokens per parameter", AnswerUnit::count) == "unexpected 'per' at position 14");
}

TEST_CASE("plain numbers and percentages", "[answer]") {
    // 45% = 45/100 = 9/20 = 0.45; two figures, last digit worth 1% = 0.01.
    for (const char* text : {"45%", "45 %", "45 percent", "45\\%", "≈ 45%", "45%."}) {
        INFO(text);
        const ParsedAnswer answer = read(text, AnswerUnit::plain);
        CHECK(answer.value == Approx(0.45));
        CHECK(exact(answer) == "9/20");
        CHECK_FALSE(answer.integer.has_value());
        CHECK(answer.unit == "%");
        CHECK(answer.significant_figures == 2);
        CHECK(answer.resolution == Approx(0.01));
    }
    // 45.0 % has three figures; its last digit is 0.1% = 0.001.
    CHECK(read("45.0 %", AnswerUnit::plain).significant_figures == 3);
    CHECK(read("45.0 %", AnswerUnit::plain).resolution == Approx(0.001));
    CHECK(exact("12.5%", AnswerUnit::plain) == "1/8");   // 125/1000
    CHECK(read("100%", AnswerUnit::plain).integer == 1); // 100/100
    // Without % a plain number is read as written, like a count.
    const ParsedAnswer fraction = read("0.45", AnswerUnit::plain);
    CHECK(exact(fraction) == "9/20");
    CHECK(fraction.unit.empty());
    CHECK(read("1.05M parameters", AnswerUnit::plain).integer == 1'050'000);
    // With wide a percentage may be a fraction: 1/3 % = 1/300.
    CHECK(exact("1/3", AnswerUnit::plain, k_wide) == "1/3");
    CHECK(exact("(1/3)%", AnswerUnit::plain, k_wide) == "1/300");
    CHECK_THAT(reason("1/3", AnswerUnit::plain), Contains("not a whole number"));
}

TEST_CASE("a percentage is refused where it does not belong", "[answer]") {
    // As before: in count, bytes and time answers % is an unexpected character and "percent" an unexpected word.
    CHECK(reason("45%") == "unexpected '%' at position 3");
    CHECK(reason("45%", AnswerUnit::bytes) == "unexpected '%' at position 3");
    CHECK(reason("45 percent") == "unexpected 'percent' at position 4");
    CHECK(reason("45\\%") == "unexpected '\\' at position 3: headcount reads \\times, \\cdot, \\frac{a}{b}, ^{...} and "
                             "{,} in TeX");
    CHECK(reason("45%%", AnswerUnit::plain) == "unexpected '%' at position 4");
    CHECK(reason("45% + 5%", AnswerUnit::plain) == "a second unit '%' at position 8"); // as 1 MiB + 2 KiB is refused
    CHECK(reason("16 MiB", AnswerUnit::plain) ==
          "this part's answer is a plain number, not bytes ('MiB' at position 4)");
    CHECK(reason("3 days", AnswerUnit::plain) ==
          "this part's answer is a plain number, not a time ('days' at position 3)");
    CHECK(reason("%", AnswerUnit::plain) == "unexpected '%' at position 1");
}

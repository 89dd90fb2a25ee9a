#include <util/checked.hpp>
#include <util/error.hpp>
#include <util/text.hpp>
#include <util/utf8.hpp>

#include <util/test_catch.hpp>

#include <array>
#include <limits>

using namespace headcount;

TEST_CASE("with_thousands groups digits in threes", "[text]") {
    CHECK(with_thousands(0) == "0");
    CHECK(with_thousands(512) == "512");
    CHECK(with_thousands(2048) == "2,048");
    CHECK(with_thousands(1050624) == "1,050,624");
    CHECK(with_thousands(-2048) == "-2,048");
    CHECK(with_thousands(std::numeric_limits<std::int64_t>::min()) == "-9,223,372,036,854,775,808");
    // Past 64 bits: GPT-3's 300B-token run, 318,563,374,694,400,000,000,000 FLOPs (tests/architectures_cli_test.cpp
    // derives it), and 10^36, the largest count.
    CHECK(with_thousands(static_cast<Wide>(318'563'374'694'400) * 1'000'000'000) == "318,563,374,694,400,000,000,000");
    CHECK(with_thousands(k_count_limit) == "1,000,000,000,000,000,000,000,000,000,000,000,000");
    CHECK(plain_number(-k_count_limit) == "-1000000000000000000000000000000000000");
}

TEST_CASE("did_you_mean suggests only plausible typos", "[text]") {
    constexpr std::array<std::string_view, 4> keys{"d_model", "h", "d_k", "n_kv_heads"};
    CHECK(did_you_mean("hh", keys) == " (did you mean 'h'?)");
    CHECK(did_you_mean("dmodel", keys) == " (did you mean 'd_model'?)");
    CHECK(did_you_mean("n_kv_head", keys) == " (did you mean 'n_kv_heads'?)");
    CHECK(did_you_mean("hd", keys) == " (did you mean 'h'?)");
    CHECK(did_you_mean("d_mdoel", keys) == " (did you mean 'd_model'?)"); // a swapped pair counts as one typo
    CHECK(did_you_mean("vocabulary", keys).empty());
}

TEST_CASE("checked arithmetic reports overflow instead of wrapping", "[text]") {
    // Counts reach 10^36 exactly; one more is refused, and so is a product that would wrap 128 bits.
    const Count big = k_count_limit;
    CHECK(checked_add(big - 1, 1, "x").value() == big);
    CHECK(checked_add(-big, -1, "x").error().message.starts_with("x is too large"));
    REQUIRE_FALSE(checked_add(big, 1, "the total").has_value());
    CHECK(checked_mul(big, 2, "the total").error().message ==
          "the total is too large to count exactly: its magnitude is past 10^36");
    CHECK(is_overflow(checked_mul(big, big, "the total").error()));
    CHECK_FALSE(is_overflow(Error{{}, 0, 0, "d_model must be a positive integer"}));
    // 4e9 squared is 1.6 x 10^19, past 64 bits: exact now. 10^18 squared is 10^36 itself.
    CHECK(checked_mul(4'000'000'000, 4'000'000'000, "x").value() == static_cast<Count>(16'000'000'000) * 1'000'000'000);
    CHECK(checked_mul(1'000'000'000'000'000'000, 1'000'000'000'000'000'000, "x").value() == k_count_limit);
    CheckedArithmetic math;
    CHECK(math.mul(2'000'000'000'000'000'000, 1'000'000'000'000'000'000, "d_model^2") == 0);
    CHECK(math.add(1, 1, "later") == 0); // after an overflow the first error is kept
    REQUIRE_FALSE(math.ok());
    CHECK(math.error().message.starts_with("d_model^2 is too large"));
}

TEST_CASE("text that Markdown, JSON and XML can all carry", "[text][hostile]") {
    using headcount::unwritable_text_problem;
    CHECK_FALSE(unwritable_text_problem("Multi-head attention, d_model = 512\n\tZoë 李华 ≈ ×").has_value());
    CHECK(unwritable_text_problem("a\x1b[31m").value() == "contains a control character (U+001B)");
    CHECK(unwritable_text_problem("a\r\n").value() == "contains a control character (U+000D)");
    CHECK(unwritable_text_problem(std::string_view("a\0", 2)).value() == "contains a control character (U+0000)");
    CHECK(unwritable_text_problem("\x7f").value() == "contains a control character (U+007F)");
    CHECK(unwritable_text_problem("\xC2\x9B").value() == "contains a control character (U+009B)"); // C1 CSI
    CHECK(unwritable_text_problem("\xEF\xBF\xBE").value() == "contains U+FFFE, which is not a character");
    CHECK(unwritable_text_problem("caf\xE9").value() == "is not valid UTF-8");
}

TEST_CASE("repair_utf8 replaces each stray byte with U+FFFD", "[text][hostile]") {
    using headcount::repair_utf8;
    CHECK(repair_utf8("Zoë") == "Zoë");
    CHECK(repair_utf8("caf\xE9!") == "caf\xEF\xBF\xBD!");
    // A cut-off 3-byte sequence (E2 82 of €) is two stray bytes; an overlong '/' (C0 AF) too.
    CHECK(repair_utf8("\xE2\x82x") == "\xEF\xBF\xBD\xEF\xBF\xBDx");
    CHECK(repair_utf8("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST_CASE("percentages and ratios are rounded exactly, half up", "[text]") {
    // Seed 000: weights 1,048,576 and biases 2,048 of 1,050,624 are 99.8% and 0.2% (99.805% and 0.195%).
    CHECK(percent_text(1048576, 1050624) == "99.8%");
    CHECK(percent_text(2048, 1050624) == "0.2%");
    CHECK(percent_text(1, 8, 1) == "12.5%"); // 12.5 exactly
    CHECK(percent_text(1, 16, 1) == "6.3%"); // 6.25 rounds half up
    CHECK(percent_text(0, 0) == "0%");
    CHECK(percent_text(2, 3, 0) == "67%");
    // 4 x 1024 x 1025 / (4 x 512 x 513) = 4,198,400 / 1,050,624 = 3.99610...
    CHECK(ratio_text(4198400, 1050624, 2) == "4.00");
    CHECK(ratio_text(4198400, 1050624, 3) == "3.996");
    CHECK(ratio_text(1, 3, 0) == "0");
    CHECK(ratio_text(3, 2, 0) == "2");
    // Rounding carries through nines: 0.9995 to three places is 1.000; 99.96% to one place is 100.0%.
    CHECK(ratio_text(1999, 2000, 3) == "1.000");
    CHECK(percent_text(9996, 10000, 1) == "100.0%");
    CHECK(percent_text(1, 1000, 1) == "0.1%");
    CHECK(percent_text(1, 3000, 2) == "0.03%");
    // Counts past 64 bits: 10^36 / 3 x 10^35 = 3.333...; 10^35 of 10^36 is 10%.
    CHECK(ratio_text(k_count_limit, k_count_limit / 10 * 3, 2) == "3.33");
    CHECK(percent_text(k_count_limit / 10, k_count_limit) == "10.0%");
}

TEST_CASE("large counts in words keep three significant figures", "[text]") {
    CHECK(in_words(999'999) == "999,999");
    CHECK(in_words(1'050'624) == "1.05 million");
    CHECK(in_words(109'482'240) == "109 million");    // BERT-base
    CHECK(in_words(6'738'415'616) == "6.74 billion"); // LLaMA-2-7B
    CHECK(in_words(343'597'383'680) == "344 billion");
    CHECK(in_words(999'600'000) == "1.00 billion"); // 999.6 million rounds up a scale
    CHECK(in_words(12'345'678'901'234) == "12.3 trillion");
    CHECK(in_words(9'996'000) == "10.0 million");
    CHECK(in_words(99'960'000) == "100 million");
    // Past 64 bits: GPT-3's run, 318,563,374,694,400,000,000,000 FLOPs, is 319 sextillion (10^21); 10^36 is the
    // largest count, 1,000 decillion (10^33).
    CHECK(in_words(static_cast<Wide>(318'563'374'694'400) * 1'000'000'000) == "319 sextillion");
    CHECK(in_words(static_cast<Wide>(1'000'000'000'000'000'000)) == "1.00 quintillion");
    CHECK(in_words(k_count_limit) == "1000 decillion");
}

TEST_CASE("ascii_lowered lowers A-Z only", "[text]") {
    CHECK(ascii_lowered("Week3-MHA_Params.Z") == "week3-mha_params.z");
    CHECK(ascii_lowered("\xC3\x89t\xC3\xA9") == "\xC3\x89t\xC3\xA9"); // "Été": UTF-8 bytes are left alone
    CHECK(ascii_lowered("@[`{") == "@[`{");                           // the neighbours of A-Z and a-z
}

TEST_CASE("an error's source line is quoted with a caret under its column", "[error]") {
    // Column 37 of this line is the 'a' of "all" (counted by hand: 36 characters before it).
    CHECK(source_excerpt("parts: [{id: a, ask: d_k, feedback: all}]", 4, 37) ==
          "    4 | parts: [{id: a, ask: d_k, feedback: all}]\n"
          "      |                                     ^\n");
    // Columns count bytes; the caret counts characters: 'é' is two bytes before the x.
    CHECK(source_excerpt("é: x", 12, 5) == "   12 | é: x\n      |    ^\n");
    // Control characters and bytes that are not UTF-8 are shown as '?', keeping the caret's place.
    CHECK(source_excerpt("a\tb\xff"
                         "c",
                         1, 5) == "    1 | a?b?c\n      |     ^\n");
    // A long line is cut to 100 characters around the column.
    const std::string long_line = std::string(300, 'a') + "X" + std::string(300, 'b');
    const std::string cut = source_excerpt(long_line, 9, 301);
    CHECK(cut == "    9 | ..." + std::string(50, 'a') + "X" + std::string(49, 'b') + "...\n      | " +
                     std::string(53, ' ') + "^\n");
}

#include <util/checked.hpp>
#include <util/text.hpp>
#include <util/utf8.hpp>

#include <catch2/catch.hpp>

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
    const Count big = std::numeric_limits<Count>::max();
    CHECK(checked_add(big - 1, 1, "x").value() == big);
    REQUIRE_FALSE(checked_add(big, 1, "the total").has_value());
    CHECK(checked_mul(big, 2, "the total").error().message ==
          "the total is too large: it does not fit in a 64-bit integer (over 9,223,372,036,854,775,807)");
    CheckedArithmetic math;
    CHECK(math.mul(4'000'000'000, 4'000'000'000, "d_model^2") == 0);
    CHECK(math.add(1, 1, "later") == 0); // after an overflow the first error is kept
    REQUIRE_FALSE(math.ok());
    CHECK(math.error().message.starts_with("d_model^2 is too large"));
}

TEST_CASE("text that Markdown, JSON and XML can all carry", "[text][hostile]") {
    using headcount::unwritable_text_problem;
    CHECK_FALSE(unwritable_text_problem("Multi-head attention, d_model = 512\n\tZoë 李华 ≈ ×").has_value());
    CHECK(unwritable_text_problem("a\x1b[31m").value() == "contains a control character (U+001B)");
    CHECK(unwritable_text_problem("a\r\n").value() == "contains a control character (U+000D)");
    CHECK(unwritable_text_problem(std::string_view("a\0", 2)).value() ==
          "contains a control character (U+0000)");
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

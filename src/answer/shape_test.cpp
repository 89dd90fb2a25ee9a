// Answers that are not one number: tensor shapes (parse_shape) and one word of a few (parse_choice).

#include <answer/answer.hpp>
#include <answer/test_answers.hpp>
#include <util/text.hpp>

#include <random>
#include <string>
#include <string_view>

using Catch::Matchers::Contains;
using namespace headcount;
using namespace headcount::answer;
using namespace headcount::testing;
using solve::Shape;

namespace {

Shape shape(std::string_view text) { return headcount::testing::accepted(text, parse_shape(text)); }

std::string shape_reason(std::string_view text) { return headcount::testing::refused(text, parse_shape(text)); }

/// The words the flops.dominant ask is answered with, as the catalogue has them.
std::span<const headcount::solve::Choice> dominant_choices() {
    const auto* ask = headcount::solve::find_ask("flops.dominant");
    REQUIRE(ask != nullptr);
    return ask->choices;
}

/// The index of `word` among the choices, found by its printed word so the test does not hard-code the order.
std::size_t index_of(std::string_view word) {
    const auto choices = dominant_choices();
    for (std::size_t i = 0; i < choices.size(); ++i)
        if (choices[i].word == word)
            return i;
    FAIL("no choice '" << std::string(word) << "'");
    return 0;
}

std::string choice_reason(std::string_view text) {
    return headcount::testing::refused(text, parse_choice(text, dominant_choices()));
}

} // namespace

TEST_CASE("shapes in every documented form", "[answer][shape]") {
    // The attention weights of b 32, h 8, n 128: (b, h, n, n).
    const Shape weights{32, 8, 128, 128};
    for (const char* text : {"(32, 8, 128, 128)", "[32,8,128,128]", "32x8x128x128", "32 × 8 × 128 × 128",
                             "torch.Size([32, 8, 128, 128])", "  (32, 8, 128, 128)  ", "[ 32 , 8 , 128 , 128 ]",
                             "32 x 8 x 128 x 128", "32X8X128X128", "TORCH.SIZE([32, 8, 128, 128])"}) {
        INFO(text);
        CHECK(shape(text) == weights);
    }
    CHECK(shape("32X8") == Shape{32, 8});
    // Python's one-axis tuple has a trailing comma; a bracketed single number is a one-axis list.
    CHECK(shape("(4096,)") == Shape{4096});
    CHECK(shape("(32, 8, 128, 128,)") == weights); // as Python prints nothing but accepts
    CHECK(shape("[4096]") == Shape{4096});
    CHECK(shape("torch.Size([4096])") == Shape{4096});
    // An axis may be an expression: 2 * 64 = 128, 4096 / 32 = 128, 2^7 = 128.
    CHECK(shape("(2*64, 8)") == Shape{128, 8});
    CHECK(shape("(4096/32, 2^3)") == Shape{128, 8});
    CHECK(shape("2*64 x 8") == Shape{128, 8});
    // The order of the axes is kept: a shape is not a set.
    CHECK(shape("(128, 128, 8, 32)") == Shape{128, 128, 8, 32});
}

TEST_CASE("shapes that are not shapes are refused with the reason", "[answer][shape]") {
    // One plain number is an element count, not a shape.
    for (const char* text : {"4194304", "  128 ", "4.194304e6", "2^22"})
        CHECK_THAT(shape_reason(text), Contains("one number, not a shape"));
    // Words between the numbers are not a separator headcount knows; it does not call that one number.
    CHECK_THAT(shape_reason("32 by 8 by 128 by 64"), Contains("no axes found: separate them with commas or x"));
    // Commas separate axes (documented), so a count written with thousands separators reads as three axes.
    CHECK(shape("4,194,304") == Shape{4, 194, 304});
    // Symbols instead of numbers: the reason names the first one and its axis.
    CHECK_THAT(shape_reason("(b, h, n, d_k)"), Contains("axis 1 is the symbol 'b'"));
    CHECK_THAT(shape_reason("(32, h, n, d_k)"), Contains("axis 2 is the symbol 'h'"));
    CHECK_THAT(shape_reason("(32, 8, 128, d_k)"), Contains("axis 4 is the symbol 'd_k'"));
    CHECK_THAT(shape_reason("b x h x n x n"), Contains("axis 1 is the symbol 'b'"));
    // An empty axis.
    CHECK_THAT(shape_reason("(32,,8)"), Contains("axis 2 is empty"));
    CHECK_THAT(shape_reason("(,8)"), Contains("axis 1 is empty"));
    CHECK_THAT(shape_reason("32xx8"), Contains("axis 2 is empty"));
    CHECK_THAT(shape_reason("()"), Contains("axis 1 is empty"));
    CHECK_THAT(shape_reason("torch.Size([])"), Contains("axis 1 is empty"));
    // Every axis is at least 1.
    CHECK_THAT(shape_reason("(32, 0, 128)"), Contains("axis 2 ('0') is not a whole number of at least 1"));
    CHECK_THAT(shape_reason("(32, -8, 128)"), Contains("axis 2 ('-8') is not a whole number of at least 1"));
    CHECK_THAT(shape_reason("(32, 8-8, 128)"), Contains("axis 2"));
    // Not whole: 1.5, and 65 / 2 = 32.5.
    CHECK_THAT(shape_reason("(1.5, 8)"), Contains("axis 1 ('1.5') is not a whole number"));
    CHECK_THAT(shape_reason("(65/2, 8)"), Contains("axis 1"));
    // Brackets that do not match: no pair is taken off, so the bracket is left in an axis.
    CHECK_THAT(shape_reason("(32, 8]"), Contains("axis 1 ('(32')"));
    CHECK_THAT(shape_reason("[32, 8)"), Contains("axis 1 ('[32')"));
    CHECK_THAT(shape_reason("(32, 8"), Contains("axis 1"));
    CHECK_THAT(shape_reason("32, 8)"), Contains("axis 2 ('8)')"));
    CHECK_THAT(shape_reason("((32, 8)"), Contains("axis 1"));
    // Two numbers with nothing between them.
    CHECK_THAT(shape_reason("(32 8)"), Contains("axis 1 ('32 8')"));
    // Every refusal ends with the hint of how to write a shape.
    CHECK_THAT(shape_reason("(b, h)"), Contains("e.g. (2, 4, 16, 8)"));
    CHECK_THAT(shape_reason("128"), Contains("e.g. (2, 4, 16, 8)"));
}

TEST_CASE("shape answers at the limits: length, encoding, magnitude", "[answer][shape]") {
    CHECK(shape_reason("") == "empty answer");
    CHECK(shape_reason(" \t ") == "empty answer");
    // (8,) padded with spaces to exactly k_max_answer_bytes is read; one more byte is refused, not truncated.
    std::string padded = "(8,)";
    padded += std::string(k_max_answer_bytes - padded.size(), ' ');
    REQUIRE(padded.size() == k_max_answer_bytes);
    CHECK(shape(padded) == Shape{8});
    CHECK(shape_reason(padded + " ") == "answer longer than 200 bytes");
    std::string long_shape = "(1";
    while (long_shape.size() <= k_max_answer_bytes)
        long_shape += ", 1";
    CHECK(shape_reason(long_shape + ")") == "answer longer than 200 bytes");
    // Bytes that are not UTF-8: a lone continuation byte, a truncated sequence, an overlong '/'.
    for (const char* text : {"(32, 8\x80)", "(32, \xc3)", "(\xc0\xaf, 8)", "\xff"})
        CHECK(shape_reason(text) == "the answer is not valid UTF-8 text");
    // Past 10^36, the largest count, an axis is refused, never wrapped.
    CHECK_THAT(shape_reason("(1000000000000000000000000000000000001, 8)"), Contains("axis 1"));
    CHECK_THAT(shape_reason("(32, 9999999999999999999999999999999999999)"), Contains("axis 2"));
    CHECK_THAT(shape_reason("(2^120, 8)"), Contains("axis 1"));
    // 2^63, once past a 64-bit axis, is a whole number and fits; the grader checks the product of the axes.
    CHECK(shape("(9223372036854775808, 1)") == Shape{static_cast<Count>(1) << 63, 1});
}

TEST_CASE("the shape parser never throws: fixed-seed random bytes and mutated shapes", "[answer][shape]") {
    // Each result must be a shape of positive axes or a non-empty reason that is itself valid UTF-8 (reasons
    // quote the answer and end up in JSON). The seed is fixed so a failure reproduces.
    auto check_one = [](const std::string& text) {
        INFO("answer bytes '" << text << "' (" << text.size() << " bytes)");
        CHECK_NOTHROW([&] {
            const auto result = parse_shape(text);
            if (result) {
                REQUIRE_FALSE(result->empty());
                for (Count axis : *result)
                    REQUIRE(axis >= 1);
            } else {
                REQUIRE_FALSE(result.error().empty());
                REQUIRE(headcount::is_valid_utf8(result.error()));
            }
        }());
    };
    std::mt19937 random(20261121);
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_int_distribution<int> length(0, 80);
    for (int round = 0; round < 3'000; ++round) {
        std::string text;
        for (int n = length(random); n > 0; --n)
            text += static_cast<char>(byte(random));
        check_one(text);
    }
    // Mutations of valid shapes: replace, insert or delete a byte, or splice in a piece that means something
    // here.
    const std::string_view seeds[] = {
        "(32, 8, 128, 128)", "[32,8,128,128]", "32x8x128x128", "32 × 8 × 128 × 128", "torch.Size([32, 8, 128, 128])",
        "(4096,)",           "(2*64, 8)"};
    const std::string_view pieces[] = {"(",           ")",    "[",
                                       "]",           ",",    "x",
                                       "×",           "*",    "^",
                                       "-",           "0",    "9999999999999999999",
                                       "torch.Size(", "d_k",  " ",
                                       "\xc3",        "\x80", "e9",
                                       ".",           "/",    std::string_view("\0", 1)};
    std::uniform_int_distribution<std::size_t> pick_seed(0, std::size(seeds) - 1);
    std::uniform_int_distribution<std::size_t> pick_piece(0, std::size(pieces) - 1);
    std::uniform_int_distribution<int> edits(1, 4);
    std::uniform_int_distribution<int> kind(0, 3);
    for (int round = 0; round < 3'000; ++round) {
        std::string text(seeds[pick_seed(random)]);
        for (int n = edits(random); n > 0; --n) {
            const std::size_t at = std::uniform_int_distribution<std::size_t>(0, text.size())(random);
            switch (kind(random)) {
            case 0:
                if (at < text.size())
                    text[at] = static_cast<char>(byte(random));
                break;
            case 1:
                text.insert(at, 1, static_cast<char>(byte(random)));
                break;
            case 2:
                if (at < text.size())
                    text.erase(at, 1);
                break;
            default:
                text.insert(at, pieces[pick_piece(random)]);
                break;
            }
        }
        check_one(text);
    }
}

TEST_CASE("a quoted axis in a reason is cut at a character boundary", "[answer][shape]") {
    // A 61-character axis whose é spans bytes 60 and 61: the reason quotes the first 60 bytes of it, which
    // must not end halfway through the é (a reason goes into JSON, which needs valid UTF-8).
    const std::string axis = std::string(59, '1') + "é" + "1";
    const auto result = parse_shape("(" + axis + ", 8)");
    REQUIRE_FALSE(result.has_value());
    CHECK_THAT(result.error(), Contains("axis 1"));
    CHECK(headcount::is_valid_utf8(result.error()));
}

TEST_CASE("which term dominates, in the words students use", "[answer][choice]") {
    const std::size_t projections = index_of("projections");
    const std::size_t attention = index_of("attention");
    const std::size_t equal = index_of("equal");
    REQUIRE(dominant_choices().size() == 3);
    auto named = [](std::string_view text) {
        return headcount::testing::accepted(text, parse_choice(text, dominant_choices()));
    };
    for (const char* text : {"attention", "Attention dominates.", "ATTENTION", "the attention matmuls",
                             "self-attention", "QK^T", "the scores"}) {
        INFO(text);
        CHECK(named(text) == attention);
    }
    for (const char* text : {"projections", "the projections", "linear layers", "The linear layers dominate.",
                             "projection", "QKV projections"}) {
        INFO(text);
        CHECK(named(text) == projections);
    }
    for (const char* text : {"equal", "neither", "Neither dominates.", "they are equal", "a tie"}) {
        INFO(text);
        CHECK(named(text) == equal);
    }
}

TEST_CASE("choices that name none or several are refused", "[answer][choice]") {
    CHECK_THAT(choice_reason("both projections and attention"), Contains("more than one"));
    CHECK_THAT(choice_reason("linear layers, or maybe attention"), Contains("more than one"));
    CHECK_THAT(choice_reason(""), Contains("empty answer"));
    CHECK_THAT(choice_reason("  ?!  "), Contains("empty answer"));
    CHECK_THAT(choice_reason("banana"), Contains("names none"));
    // A word is matched whole: "attentions" and "projectionist" are not the choices they start with.
    CHECK_THAT(choice_reason("attentions"), Contains("names none"));
    CHECK_THAT(choice_reason("projectionist"), Contains("names none"));
    // Every refusal lists the words that would be read.
    CHECK_THAT(choice_reason("banana"), Contains("projections, attention, equal"));
    // An overlong answer is refused before it is read, even when it names a choice.
    CHECK(choice_reason("attention" + std::string(k_max_answer_bytes, ' ')) == "answer longer than 200 bytes");
    // Invalid UTF-8 and NUL bytes are never read as letters: they split "atten" from "tion".
    CHECK_FALSE(choice_reason("\xff\xfe").empty());
    CHECK_THAT(choice_reason(std::string("atten\0tion", 10)), Contains("names none"));
}

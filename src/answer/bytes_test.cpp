// Answers in bytes: decimal and binary prefixes, and the units that do not belong to the ask.

#include <answer/test_answers.hpp>

#include <string>
#include <string_view>

using Catch::Matchers::Contains;
using namespace headcount::answer;
using namespace headcount::testing;

namespace {

ParsedAnswer bytes(std::string_view text) { return read(text, AnswerUnit::bytes); }

} // namespace

TEST_CASE("bytes written plainly", "[answer]") {
    // 16 · 2^20 = 16 · 1,048,576 = 16,777,216.
    CHECK(bytes("16777216").integer == 16'777'216);
    CHECK(bytes("16777216").unit.empty());
    for (const char* text : {"16777216 B", "16777216 bytes", "16,777,216 b", "16777216B", "16777216 byte"}) {
        INFO(text);
        CHECK(bytes(text).integer == 16'777'216);
        CHECK(bytes(text).unit == "B");
        CHECK(bytes(text).significant_figures == 0);
    }
}

TEST_CASE("binary prefixes are powers of 1024", "[answer]") {
    // 16 MiB = 16 · 1,048,576 = 16,777,216; "16" is a mantissa scaled by a unit, last digit worth 1 MiB.
    for (const char* text : {"16 MiB", "16 mib", "16 MIB", "16MiB", "16 mebibytes"}) {
        INFO(text);
        const ParsedAnswer answer = bytes(text);
        CHECK(answer.integer == 16'777'216);
        CHECK(answer.unit == "MiB");
        CHECK(answer.significant_figures == 2);
        CHECK(answer.resolution == 1'048'576.0);
    }
    CHECK(bytes("2 GiB").integer == 2'147'483'648); // 2 · 1,073,741,824
    CHECK(bytes("2 GiB").unit == "GiB");
    CHECK(bytes("512 KiB").integer == 524'288);         // 512 · 1,024
    CHECK(bytes("1 TiB").integer == 1'099'511'627'776); // 1024^4
    // (2^10) KiB, not 2^(10 KiB): 1,024 · 1,024 = 1,048,576, an exact expression.
    CHECK(bytes("2^10 KiB").integer == 1'048'576);
    CHECK(bytes("2^10 KiB").significant_figures == 0);
}

TEST_CASE("decimal prefixes are powers of 1000", "[answer]") {
    // 16.8 · 10^6 = 16,800,000; three figures, last digit worth 100,000.
    for (const char* text : {"16.8 MB", "16.8 mb", "16.8MB", "16.8 megabytes", "16.8 million bytes"}) {
        INFO(text);
        const ParsedAnswer answer = bytes(text);
        CHECK(answer.integer == 16'800'000);
        CHECK(answer.significant_figures == 3);
        CHECK(answer.resolution == Approx(100'000.0));
    }
    CHECK(bytes("16.8 mb").unit == "MB");
    CHECK(bytes("16.8 million bytes").unit == "B");
    // 16.777216 · 10^6 = 16,777,216 exactly, eight figures.
    CHECK(bytes("16.777216 MB").integer == 16'777'216);
    CHECK(bytes("16.777216 MB").significant_figures == 8);
    CHECK(bytes("1 kB").integer == 1'000);
    CHECK(bytes("1 kB").unit == "KB");
    CHECK(bytes("2 GB").integer == 2'000'000'000);
    // For bytes, B is the byte: 2.1B is 2.1 bytes, not 2.1 billion.
    const ParsedAnswer tiny = bytes("2.1B");
    CHECK_FALSE(tiny.integer.has_value());
    CHECK(tiny.value == Approx(2.1));
    CHECK(tiny.unit == "B");
}

TEST_CASE("units that do not fit the ask are refused with a reason", "[answer]") {
    for (const char* text : {"16 MiB", "16 MB", "3 bytes", "2 GiB"})
        CHECK_THAT(reason(text, AnswerUnit::count), Contains("count, not bytes"));
    CHECK_THAT(reason("16 Mb", AnswerUnit::count), Contains("count, not bits"));
    // An upper-case prefix with a lower-case b is bits (Mb, Gb, Kb, Mib); so are spelled-out bits.
    for (const char* text : {"16 Mb", "16 Gb", "16 Kb", "16 Mib", "128 bits", "16 Mbit", "16 megabits"})
        CHECK_THAT(reason(text, AnswerUnit::bytes), Contains("bits") && Contains("bytes"));
    // A bare prefix cannot say whether 1000 or 1024 was meant.
    CHECK_THAT(reason("16 M", AnswerUnit::bytes), Contains("ambiguous") && Contains("MiB"));
    CHECK_THAT(reason("16k", AnswerUnit::bytes), Contains("ambiguous") && Contains("KiB"));
    CHECK_THAT(reason("1 MiB + 2 KiB", AnswerUnit::bytes), Contains("second unit"));
    CHECK_THAT(reason("1050624 parameters", AnswerUnit::bytes), Contains("unexpected 'parameters'"));
}

#include <grade/class_reports.hpp>

#include <catch2/catch.hpp>

#include <random>
#include <sstream>

using namespace headcount;

TEST_CASE("results.jsonl strings are escaped exactly as nlohmann::json writes them", "[grade][results]") {
    // The log is written by hand for speed; the reference is the library that wrote it before.
    std::mt19937 random(7);
    const std::string alphabet = std::string("aZ09 ,\"\\/\b\f\n\r\t\x01\x1f\x7f") + "é€😀";
    for (int i = 0; i < 2000; ++i) {
        std::string text;
        const int length = static_cast<int>(random() % 12);
        for (int k = 0; k < length; ++k)
            text += alphabet[random() % alphabet.size()]; // may cut a UTF-8 character: invalid text too
        INFO("text of " << text.size() << " bytes");
        CHECK(grade::json_string(text) ==
              nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
}

TEST_CASE("superseded rows are rewritten in place, the rest copied", "[grade][results]") {
    std::istringstream in("{\"line\":2,\"outcome\":\"graded\",\"student\":\"a\",\"problem\":\"p\",\"part\":\"b\","
                          "\"answer\":\"1\",\"status\":\"incorrect\",\"score\":0.0,\"points\":3.0,\"mistakes\":[]}\n"
                          "{\"line\":3,\"outcome\":\"rejected\",\"student\":\"\",\"problem\":\"\",\"part\":\"\","
                          "\"answer\":\"\",\"reason\":\"malformed row\"}\n");
    std::ostringstream out;
    REQUIRE(grade::mark_superseded(in, out, {{0, 4}}).has_value());
    CHECK(out.str() == "{\"line\":2,\"outcome\":\"superseded\",\"student\":\"a\",\"problem\":\"p\",\"part\":\"b\","
                       "\"answer\":\"1\",\"reason\":\"superseded by the answer on line 4\"}\n"
                       "{\"line\":3,\"outcome\":\"rejected\",\"student\":\"\",\"problem\":\"\",\"part\":\"\","
                       "\"answer\":\"\",\"reason\":\"malformed row\"}\n");
}

// Finding a key without its ':' in a line of a spec. The whole messages, as a user reads them, are asserted in
// tests/spec_messages_cli_test.cpp.
#include <spec/yaml_syntax.hpp>

#include <util/test_catch.hpp>

using namespace headcount::spec::detail;

TEST_CASE("colon_slip finds a key without its ':' and says where it belongs", "[spec]") {
    const auto slip = colon_slip("d_model 512");
    REQUIRE(slip);
    CHECK(slip->offset == 7); // after "d_model"
    CHECK(slip->message == "missing ':' after 'd_model' (write 'd_model: 512')");
    // A word alone, a comment after it, and a ':' without its space.
    CHECK(colon_slip("parts")->message == "missing ':' after 'parts'");
    CHECK(colon_slip("ask qkv_params  # the first part")->message ==
          "missing ':' after 'ask' (write 'ask: qkv_params')");
    const auto no_space = colon_slip("d_model:512");
    REQUIRE(no_space);
    CHECK(no_space->offset == 7); // the ':'
    CHECK(no_space->message == "no space after the ':' of 'd_model:512' (write 'd_model: 512')");
}

TEST_CASE("colon_slip quotes the line as a message may: control characters as '?', cut at 60 bytes", "[spec]") {
    CHECK(colon_slip("ask \x1b[31mqkv_params")->message == "missing ':' after 'ask' (write 'ask: ?[31mqkv_params')");
    CHECK(colon_slip("text " + std::string(100, 'x'))->message ==
          "missing ':' after 'text' (write 'text: " + std::string(60, 'x') + "…')");
}

TEST_CASE("colon_slip leaves alone a line that has its ':' or is no key's", "[spec]") {
    for (const char* line :
         {"d_model: 512", "given:", "title: Heads: how many?", "text: a long question: why?", "{id: a, ask: d_k}",
          "[4, 8]", "\"quoted\" text", "# a comment", "", "512 tokens", "a question about heads: how many"}) {
        INFO(line);
        CHECK_FALSE(colon_slip(line));
    }
}

TEST_CASE("source_line is one line of the text, without its line break", "[spec]") {
    const std::string_view text = "id: p\r\ntitle: t\n\nlast";
    CHECK(source_line(text, 1) == "id: p");
    CHECK(source_line(text, 2) == "title: t");
    CHECK(source_line(text, 3).empty());
    CHECK(source_line(text, 4) == "last");
    CHECK(source_line(text, 5).empty());
}

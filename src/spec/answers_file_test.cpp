#include <spec/answers_file.hpp>

#include <catch2/catch.hpp>

#include <string>

using namespace headcount;

TEST_CASE("a YAML answers file cannot expand into more answers than it may hold", "[spec][answers]") {
    // One mapping of 300 parts, aliased under 300 problems: 90,000 answers from a file of a few KiB. Reading must
    // stop at k_max_answers (2,000), not build all of them first.
    std::string yaml = "p: &x {";
    for (int i = 0; i < 300; ++i)
        yaml += (i ? ", k" : "k") + std::to_string(i) + ": 1";
    yaml += "}\n";
    for (int i = 0; i < 300; ++i)
        yaml += "q" + std::to_string(i) + ": *x\n";
    REQUIRE(yaml.size() < spec::k_max_answers_file_bytes);
    const auto answers = spec::parse_answers_file(yaml, "answers.yaml", true);
    REQUIRE_FALSE(answers.has_value());
    CHECK(answers.error().message == "the answers file holds more than 2000 answers, the most read");
    // p holds answers 1-300, q0 301-600, ..., q5 1,801-2,100: the 2,001st is q5's k200, an alias of line 1's k200.
    CHECK(answers.error().line == 1);
}

TEST_CASE("an answers file of exactly k_max_answers answers is read", "[spec][answers]") {
    std::string yaml;
    for (std::size_t i = 0; i < spec::k_max_answers; ++i)
        yaml += "p" + std::to_string(i) + ": {a: 1}\n";
    const auto answers = spec::parse_answers_file(yaml, "answers.yaml", true);
    REQUIRE(answers.has_value());
    CHECK(answers->size() == spec::k_max_answers);
}

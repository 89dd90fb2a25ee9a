#include <spec/answers_file.hpp>

#include <util/test_catch.hpp>

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
    // The error names where the student wrote the alias: q5, on line 7 (p is line 1, q0 line 2).
    CHECK(answers.error().line == 7);
}

TEST_CASE("a YAML answers file cannot repeat one long answer into more text than it may hold", "[spec][answers]") {
    // A 1,000-byte answer anchored on line 1 and aliased by the next 299 lines: 300,000 bytes of answers from a file
    // of ~4 KB. 262 answers are 262,000 bytes, within k_max_answers_file_bytes (262,144); the 263rd, p262 on line
    // 263, passes it.
    std::string yaml = "p0: &s " + std::string(1000, '7') + "\n";
    for (int i = 1; i < 300; ++i)
        yaml += "p" + std::to_string(i) + ": *s\n";
    REQUIRE(yaml.size() < 10'000);
    const auto answers = spec::parse_answers_file(yaml, "answers.yaml", true);
    REQUIRE_FALSE(answers.has_value());
    CHECK(answers.error().message == "the answers in this file add up to more than 262144 bytes, the most read (a "
                                     "YAML alias repeats its text each time it is used)");
    CHECK(answers.error().line == 263);
}

TEST_CASE("an answers file of exactly k_max_answers answers is read", "[spec][answers]") {
    std::string yaml;
    for (std::size_t i = 0; i < spec::k_max_answers; ++i)
        yaml += "p" + std::to_string(i) + ": {a: 1}\n";
    const auto answers = spec::parse_answers_file(yaml, "answers.yaml", true);
    REQUIRE(answers.has_value());
    CHECK(answers->size() == spec::k_max_answers);
}

// End-to-end tests of `headcount check`: what a student sees when checking one answer.
#include "run_binary.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using headcount::testing::run_headcount;

namespace {
const std::string k_week3 = "problems/week3-mha-params.yaml";
}

TEST_CASE("check exits 0 for a right answer, 1 otherwise, 2 for bad input", "[e2e][check]") {
    // 4 x 512 x 513 = 1,050,624 (../shared/seeds/000).
    CHECK(run_headcount({"check", k_week3, "--part", "b", "--answer", "1,050,624"}).exit_code == 0);
    CHECK(run_headcount({"check", k_week3, "--part", "b", "--answer", "4*512*513"}).exit_code == 0);
    CHECK(run_headcount({"check", k_week3, "--part", "b", "--answer", "1048576"}).exit_code == 1);
    CHECK(run_headcount({"check", k_week3, "--part", "b", "--answer", "1.05M"}).exit_code == 1);
    CHECK(run_headcount({"check", k_week3, "--part", "b", "--answer", "no idea"}).exit_code == 1);
    const auto bad_part = run_headcount({"check", k_week3, "--part", "bb", "--answer", "1"});
    CHECK(bad_part.exit_code == 2);
    CHECK(bad_part.err == "problems/week3-mha-params.yaml: problem 'week3-mha-params' has no part 'bb' (did you mean "
                          "'b'?); its parts are: a, b\n");
    CHECK(run_headcount({"check", k_week3, "--part", "b"}).exit_code == 2); // --answer is required
}

TEST_CASE("check names the mistake and explains it with the problem's numbers", "[e2e][check]") {
    // 4 x 512^2 = 1,048,576: the 4 bias vectors of 512 (2,048) are missing.
    const auto run = run_headcount({"check", k_week3, "--part", "b", "--answer", "1048576"});
    CHECK(run.out.find("Your answer is 2,048 short. It matches a known mistake:") != std::string::npos);
    CHECK(run.out.find("(`missing_biases`)") != std::string::npos);
    CHECK(run.out.find("2,048 in all") != std::string::npos);
    CHECK(run.out.find("Expected") == std::string::npos); // not without --reveal
    const auto revealed = run_headcount({"check", k_week3, "--part", "b", "--answer", "1048576", "--reveal"});
    CHECK(revealed.out.find("Expected: 1,050,624 parameters") != std::string::npos);
}

TEST_CASE("near misses and dimension parts get hints that fit them", "[e2e][check]") {
    // 1,050,623 is one short of 1,050,624: 0.0001% away.
    const auto one_off = run_headcount({"check", k_week3, "--part", "b", "--answer", "1050623"});
    CHECK(one_off.out.find("It is less than 0.1% away from the right value") != std::string::npos);
    // d_k = 4096 / 32 = 128 in mha-gqa; 32 matches no mistake and is no rounding of 128.
    const auto d_k = run_headcount({"check", "problems/mha-gqa.yaml", "--part", "a", "--answer", "32"});
    CHECK(d_k.out.find("Check how the model width is shared among the heads.") != std::string::npos);
    CHECK(d_k.out.find("rounded") == std::string::npos);
}

TEST_CASE("check --format json has the documented fields", "[e2e][check]") {
    const auto run = run_headcount({"check", k_week3, "--part", "a", "--answer", "3 * 262,144", "--format", "json"});
    CHECK(run.exit_code == 1);
    const auto json = nlohmann::json::parse(run.out);
    CHECK(json["problem"] == "week3-mha-params");
    CHECK(json["part"] == "a");
    CHECK(json["answer"] == "3 * 262,144");
    CHECK(json["value"] == 786432); // 3 x 512^2: Q, K, V without biases
    CHECK(json["correct"] == false);
    CHECK(json["score"] == 0.0);
    REQUIRE(json["mistakes"].size() == 1);
    CHECK(json["mistakes"][0]["id"] == "missing_biases");
    CHECK_FALSE(json["mistakes"][0]["title"].get<std::string>().empty());
    CHECK(json["mistakes"][0]["feedback"].get<std::string>().find("1,536 in all") != std::string::npos);
    CHECK_FALSE(json.contains("expected"));

    const auto revealed = run_headcount({"check", k_week3, "--part", "a", "--answer", "x", "--format", "json", "--reveal"});
    const auto unreadable = nlohmann::json::parse(revealed.out);
    CHECK(unreadable["status"] == "unreadable");
    CHECK(unreadable["value"].is_null());
    CHECK(unreadable["expected"] == 787968); // 3 x 262,656
}

TEST_CASE("the article's formulas are flagged through the command line", "[e2e][check]") {
    // ../shared/seeds/001 with d 512, h 8, d_k 64, d_v 32: weights h(2 d d_k + d d_v) + d^2 = 917,504 plus
    // biases h(3 d_k + d_v) + d = 2,304 gives 919,808.
    const auto run = run_headcount({"check", "problems/mha-dk-dv.yaml", "--part", "c", "--answer", "919808",
                                    "--format", "json"});
    const auto json = nlohmann::json::parse(run.out);
    REQUIRE(json["mistakes"].size() == 2);
    CHECK(json["mistakes"][0]["id"] == "output_projection_square");
    CHECK(json["mistakes"][1]["id"] == "bias_formula_per_head");
}

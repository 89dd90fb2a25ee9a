// End-to-end tests of `headcount check`: what a student sees when checking one answer.
#include "run_binary.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <fstream>

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

namespace {
/// Week 3's block (d_model 512, h 8, biases) with a feedback policy, as an instructor would write it.
std::string week3_with(const std::string& name, const std::string& policy_lines) {
    const std::string path = headcount::testing::fresh_temp_dir("policy-" + name) + "/week3.yaml";
    std::ofstream(path) << "id: week3\ntitle: t\n"
                        << policy_lines
                        << "given: {d_model: 512, h: 8}\nparts:\n  - {id: a, ask: qkv_params}\n"
                           "  - {id: b, ask: total_params}\n  - {id: c, ask: total_params, feedback: full}\n";
    return path;
}
} // namespace

TEST_CASE("check names the mistake; the reveal policy decides which numbers it shows", "[e2e][check]") {
    // 4 x 512^2 = 1,048,576: the 4 bias vectors of 512 (2,048 in all) are missing from 1,050,624.
    const auto hints = run_headcount({"check", k_week3, "--part", "b", "--answer", "1048576"});
    CHECK(hints.out.find("It matches a known mistake:") != std::string::npos);
    CHECK(hints.out.find("(`missing_biases`)") != std::string::npos);
    CHECK(hints.out.find("$b_Q$, $b_K$, $b_V$ and $b_O$ here") != std::string::npos);
    for (const char* number : {"2,048", "2048", "1,050,624", "1050624", "512"}) {
        INFO(number);
        CHECK(hints.out.find(number) == std::string::npos);
    }

    const std::string gaps = week3_with("gaps", "feedback: gaps\n");
    const auto with_gaps = run_headcount({"check", gaps, "--part", "b", "--answer", "1048576"});
    CHECK(with_gaps.out.find("Your answer is 2,048 short. It matches a known mistake:") != std::string::npos);
    CHECK(with_gaps.out.find("$b_Q$ 512; $b_K$ 512; $b_V$ 512; $b_O$ 512; 2,048 in all.") != std::string::npos);
    CHECK(with_gaps.out.find("Expected") == std::string::npos);
    // Part c overrides the problem's policy with full.
    const auto full = run_headcount({"check", gaps, "--part", "c", "--answer", "1048576"});
    CHECK(full.out.find("Expected: 1,050,624 parameters") != std::string::npos);
    // --reveal forces full whatever the spec says.
    const auto revealed = run_headcount({"check", k_week3, "--part", "b", "--answer", "1048576", "--reveal"});
    CHECK(revealed.out.find("Expected: 1,050,624 parameters") != std::string::npos);
    CHECK(revealed.out.find("2,048 in all") != std::string::npos);

    const std::string bad = week3_with("bad", "feedback: gap\n");
    const auto refused = run_headcount({"check", bad, "--part", "b", "--answer", "1"});
    CHECK(refused.exit_code == 2);
    CHECK(refused.err == bad + ":3:11: feedback must be one of hints, gaps, full, got 'gap' (did you mean 'gaps'?)\n"
                               "    3 | feedback: gap\n"
                               "      |           ^\n");
}

TEST_CASE("near misses and dimension parts get hints that fit them", "[e2e][check]") {
    // 1,050,623 is one short of 1,050,624: 0.0001% away, said only when gaps may be shown.
    const auto one_off = run_headcount({"check", k_week3, "--part", "b", "--answer", "1050623"});
    CHECK(one_off.out.find("It is close to the right value (within 5%)") != std::string::npos);
    const auto gaps =
        run_headcount({"check", week3_with("near", "feedback: gaps\n"), "--part", "b", "--answer", "1050623"});
    CHECK(gaps.out.find("It is less than 0.1% away from the right value") != std::string::npos);
    // d_k = 4096 / 32 = 128 in mha-gqa; 32 matches no mistake and is no rounding of 128.
    const auto d_k = run_headcount({"check", "problems/mha-gqa.yaml", "--part", "a", "--answer", "32"});
    CHECK(d_k.out.find("Check how the model width is shared among the heads.") != std::string::npos);
    CHECK(d_k.out.find("rounded") == std::string::npos);
    // 130 for 128: trailing zeros alone need three figures to read as a rounding.
    CHECK(run_headcount({"check", "problems/mha-gqa.yaml", "--part", "a", "--answer", "130"}).out.find("rounded") ==
          std::string::npos);
}

TEST_CASE("a rounded answer is told how many figures the part needs", "[e2e][check]") {
    // 1.1M is 1,050,624 rounded to two figures (1,050,000 <= 1,050,624 < 1,150,000).
    const auto rounded = run_headcount({"check", k_week3, "--part", "b", "--answer", "1.1M"});
    CHECK(rounded.exit_code == 1);
    CHECK(rounded.out.find("rounded — 1.5 of 3 points") != std::string::npos);
    CHECK(rounded.out.find("You gave 2 significant figures. This part asks for the exact count: write every digit.") !=
          std::string::npos);
    const std::string path = headcount::testing::fresh_temp_dir("sigfigs") + "/p.yaml";
    std::ofstream(path) << "id: p\ntitle: t\ngiven: {d_model: 512, h: 8}\n"
                           "parts: [{id: b, ask: total_params, tolerance: {sigfigs: 3}}]\n";
    CHECK(run_headcount({"check", path, "--part", "b", "--answer", "1.05M"}).exit_code == 0);
    CHECK(run_headcount({"check", path, "--part", "b", "--answer", "1.1M"})
              .out.find("This part asks for at least 3 significant figures.") != std::string::npos);
}

TEST_CASE("an unreadable answer is told what to type, with an example that is not the answer", "[e2e][check]") {
    const auto run = run_headcount({"check", k_week3, "--part", "b", "--answer", "about a million?"});
    CHECK(run.exit_code == 1);
    // Part (b)'s answer is 1,050,624, within a factor of 2 of 1,234,567 and of 1.23M, so the second examples are
    // shown; 12*(34^2+56) = 14,544 is far from it.
    CHECK(run.out.find("Write the number with digits (7,654,321 or 7.65M), or as arithmetic such as 12*(34^2+56)") !=
          std::string::npos);
    // A part whose answer is 1,234,567 gets the other example: with vdim 1,234,567, d_model 1, h 1 and no bias,
    // W_V is 1,234,567 x 1 (vdim x h·d_v), so v_params is 1,234,567.
    const std::string path = headcount::testing::fresh_temp_dir("example") + "/p.yaml";
    std::ofstream(path) << "id: p\ntitle: t\ngiven: {d_model: 1, h: 1, vdim: 1234567, bias: false}\n"
                           "parts: [{id: a, ask: v_params}]\n";
    const auto other = run_headcount({"check", path, "--part", "a", "--answer", "?"});
    CHECK(other.out.find("7,654,321") != std::string::npos);
    CHECK(other.out.find("1,234,567") == std::string::npos);
    // Nor one near the answer, which a tolerance or a rounding could make right: 1,228,800 bytes (3 x 4 x 160 x 160
    // x 4 bytes of fp32 attention weights) would take "1.23 MB", the first bytes example, as right.
    const std::string bytes = headcount::testing::fresh_temp_dir("example-bytes") + "/p.yaml";
    std::ofstream(bytes) << "id: p\ntitle: t\ngiven: {d_model: 512, h: 4, seq_len: 160, batch: 3, dtype: fp32}\n"
                            "parts: [{id: a, ask: memory.attention_weights}]\n";
    REQUIRE(run_headcount({"check", bytes, "--part", "a", "--answer", "1.23 MB"}).exit_code == 0);
    const auto help = run_headcount({"check", bytes, "--part", "a", "--answer", "lots"});
    CHECK(help.out.find("7.65 MB") != std::string::npos);
    CHECK(help.out.find("1.23 MB") == std::string::npos);
}

TEST_CASE("part ids are read whatever their case", "[e2e][check]") {
    CHECK(run_headcount({"check", k_week3, "--part", "B", "--answer", "1,050,624"}).exit_code == 0);
}

TEST_CASE("the article's formulas are flagged through the command line", "[e2e][check]") {
    // ../shared/seeds/001 with d 512, h 8, d_k 64, d_v 32: weights h(2 d d_k + d d_v) + d^2 = 917,504 plus
    // biases h(3 d_k + d_v) + d = 2,304 gives 919,808.
    const auto run =
        run_headcount({"check", "problems/mha-dk-dv.yaml", "--part", "c", "--answer", "919808", "--format", "json"});
    const auto json = nlohmann::json::parse(run.out);
    REQUIRE(json["mistakes"].size() == 2);
    CHECK(json["mistakes"][0]["id"] == "output_projection_square");
    CHECK(json["mistakes"][1]["id"] == "bias_formula_per_head");
}

// End-to-end tests of answers that are formulas (issue 41, item 6): a part with `answer: formula` asks for its
// quantity as a formula in the givens, judged by its values at the problem's givens and at random points around
// them. Every right formula and every mistake below is derived by hand in the comments.
#include "cli_json.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <fstream>
#include <iterator>
#include <string>

using headcount::testing::check_json;
using headcount::testing::has;
using headcount::testing::run_headcount;
using headcount::testing::solved_json;

namespace {

std::string write_spec(const std::string& name, const std::string& text) {
    const std::string path = headcount::testing::fresh_temp_dir("formula-answer-" + name) + "/" + name + ".yaml";
    std::ofstream(path) << text;
    return path;
}

// nn.MultiheadAttention at d_model = 512, h = 8, biases on: W_Q, W_K, W_V, W_O are d x d and each has a bias of d,
// so the block has 4 d^2 + 4 d = 4 (512^2 + 512) = 1,050,624 parameters, whatever h is (d_k = d / h).
const char* const k_block = "id: block\ntitle: One attention block\ngiven: {d_model: 512, h: 8}\n"
                            "parts:\n  - id: a\n    ask: total_params\n    answer: formula\n";

// Training compute as 6 N D (Kaplan et al. 2020: 2 N D forward, 4 N D backward), in two steps so that a slip in the
// first is carried into the second; `forward_only` is the instructor's listed mistake, 2 N D.
const char* const k_compute = "id: compute\ntitle: Training compute\nkind: quantities\n"
                              "given: {n_params: 7e9, tokens: 2e12}\n"
                              "quantities:\n"
                              "  per_token: {formula: 6 * n_params, unit: FLOPs, title: FLOPs per token}\n"
                              "  train_flops:\n"
                              "    formula: per_token * tokens\n"
                              "    unit: FLOPs\n"
                              "    title: training compute\n"
                              "    mistakes:\n"
                              "      - id: forward_only\n"
                              "        formula: 2 * n_params * tokens\n"
                              "        feedback: Only the forward pass was counted; the backward pass costs twice as "
                              "much again.\n"
                              "parts:\n  - id: a\n    ask: train_flops\n    answer: formula\n";

} // namespace

TEST_CASE("a formula answer is right when it is the same formula, however written", "[e2e][formula-answer]") {
    const std::string spec = write_spec("block", k_block);
    for (const char* right : {"4*d_model^2 + 4*d_model", "4 * d_model * (d_model + 1)", "(d_model + 1) * d_model * 4",
                              "4*d_model^2 + 4*h*d_k"}) {
        INFO(right);
        const auto verdict = check_json(spec, "a", right);
        CHECK(verdict["status"] == "correct");
        CHECK(verdict["score"] == 1);
    }
    // The solution shows the formula in the givens, and the key gives it as text.
    const auto solved = solved_json(spec);
    CHECK(solved["parts"][0]["answer"] == 1050624);
    CHECK(has(solved["parts"][0]["formula"].get<std::string>(), "d_model"));
    // The text the key gives is itself right.
    CHECK(check_json(spec, "a", solved["parts"][0]["formula"].get<std::string>())["status"] == "correct");
}

TEST_CASE("a wrong formula names the mistake it makes everywhere", "[e2e][formula-answer]") {
    const std::string spec = write_spec("block", k_block);
    // The biases left out: 4 d^2, the catalogue's missing_biases (1,048,576 here, and 4 d^2 at every point).
    const auto verdict = check_json(spec, "a", "4*d_model^2");
    CHECK(verdict["status"] == "incorrect");
    INFO(verdict.dump());
    CHECK(has(verdict.dump(), "missing_biases"));
    // A number is not a formula of the givens: 1,050,624 is right here and nowhere else; nor is 4 d^2 + 256 h,
    // which agrees here (256 x 8 = 2,048 = 4 x 512) and nowhere else.
    for (const char* lucky : {"1050624", "4*d_model^2 + 256*h"}) {
        INFO(lucky);
        CHECK(check_json(spec, "a", lucky)["status"] == "incorrect");
        const auto text = run_headcount({"check", spec, "--part", "a", "--answer", lucky});
        CHECK(text.exit_code == 1);
        CHECK(has(text.out, "right value for this problem's givens, but not for other values of them"));
    }
}

TEST_CASE("a formula naming what is not a given says which names it takes", "[e2e][formula-answer]") {
    const std::string spec = write_spec("block", k_block);
    const auto verdict = check_json(spec, "a", "4*dmodel^2 + 4*dmodel");
    CHECK(verdict["status"] == "unreadable");
    const std::string text = verdict.dump();
    INFO(text);
    CHECK(has(text, "'dmodel' is not a given of this problem"));
    CHECK(has(text, "did you mean 'd_model'"));
    CHECK(has(text, "d_model, h"));
    CHECK(check_json(spec, "a", "4*d_model^2 + 4*d_model = 5")["status"] == "unreadable");
}

TEST_CASE("a formula answer to the spec's own quantities names listed, derived and carried mistakes",
          "[e2e][formula-answer]") {
    const std::string spec = write_spec("compute", k_compute);
    CHECK(check_json(spec, "a", "6*n_params*tokens")["status"] == "correct");
    CHECK(check_json(spec, "a", "tokens * n_params * 3 * 2")["status"] == "correct");
    // The listed mistake, 2 N D.
    const auto forward = check_json(spec, "a", "2*n_params*tokens");
    CHECK(forward["status"] == "incorrect");
    CHECK(has(forward.dump(), "forward_only"));
    // The 6 left out of per_token, two levels down: N D.
    const auto carried = check_json(spec, "a", "n_params*tokens");
    CHECK(carried["status"] == "incorrect");
    INFO(carried.dump());
    CHECK(has(carried.dump(), "factor_left_out_6"));
    // per_token is a quantity, not a given.
    const auto quantity = check_json(spec, "a", "per_token*tokens");
    CHECK(quantity["status"] == "unreadable");
    CHECK(has(quantity.dump(), "'per_token' is a quantity of the problem, not a given"));
}

TEST_CASE("answer: formula is refused where the answer is no number", "[e2e][formula-answer]") {
    const std::string shape =
        write_spec("shape", "id: shape\ntitle: A shape\ngiven: {d_model: 512, h: 8, seq_len: 128, batch: 2}\n"
                            "parts:\n  - id: a\n    ask: shape.k\n    answer: formula\n");
    const auto refused = run_headcount({"solve", shape});
    CHECK(refused.exit_code == 2);
    INFO(refused.err);
    CHECK(has(refused.err, "shape.yaml:7:13: part 'a' cannot take answer: formula: the answer to shape.k is a shape"));
    const std::string other = write_spec("other", "id: other\ntitle: A block\ngiven: {d_model: 512, h: 8}\n"
                                                  "parts:\n  - id: a\n    ask: total_params\n    answer: number\n");
    const auto wrong = run_headcount({"solve", other});
    CHECK(wrong.exit_code == 2);
    CHECK(has(wrong.err, "other.yaml:7:13: answer must be 'formula'"));
}

// The shipped week (problems/week-formulas.yaml, its header derives each formula): GPT-2 small's layer is
// 4d^2 + 2 d d_ff + 9d + d_ff, its weights in fp16 twice the model's count.
TEST_CASE("the shipped week of formulas takes TeX and names the bytes slip", "[e2e][formula-answer]") {
    const std::string spec = headcount::testing::source_dir() + "/problems/week-formulas.yaml";
    CHECK(check_json(spec, "a", "4 d_{model}^2 + 2 d_{model} d_{ff} + 9 d_{model} + d_{ff}")["status"] == "correct");
    CHECK(check_json(spec, "a", "d_ff*(2*d_model + 1) + d_model*(4*d_model + 9)")["status"] == "correct");
    const std::string model = "layers*(4*d_model^2 + 2*d_model*d_ff + 9*d_model + d_ff) + d_model*(vocab + "
                              "max_positions + 2)";
    CHECK(check_json(spec, "c", model)["status"] == "correct");
    CHECK(check_json(spec, "d", "2*(" + model + ")")["status"] == "correct");
    // The values counted, not their bytes: the catalogue's bytes_per_value_missing, at every point.
    const auto bytes = check_json(spec, "d", model);
    CHECK(bytes["status"] == "incorrect");
    CHECK(has(bytes.dump(), "bytes_per_value_missing"));
    // The question says what to write, and which names.
    const std::string dir = headcount::testing::fresh_temp_dir("formula-sheet");
    std::ofstream(dir + "/roster.csv") << "student\nalice\n";
    const auto sheet =
        run_headcount({"generate", spec, "--seed", "s", "--roster", dir + "/roster.csv", "--out", dir + "/out"});
    INFO(sheet.err);
    REQUIRE(sheet.exit_code == 0);
    std::ifstream file(dir + "/out/alice/problems.md");
    const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    CHECK(has(text, "How many parameters does one layer have? Answer with a formula in the givens, not a number, "
                    "naming them `d_model`, `h`, `d_ff`, `layers`, `vocab` and `max_positions`."));
}

TEST_CASE("Moodle and Canvas leave a formula part out and say so; Gradescope keeps it", "[e2e][formula-answer]") {
    const std::string spec = write_spec(
        "mixed", "id: mixed\ntitle: A block\ngiven: {d_model: 512, h: 8}\n"
                 "parts:\n  - {id: a, ask: total_params, answer: formula}\n  - {id: b, ask: total_params}\n");
    const std::string out = headcount::testing::fresh_temp_dir("formula-moodle");
    const auto moodle = run_headcount({"export", "moodle", spec, "--variants", "1", "--seed", "s", "--out", out});
    REQUIRE(moodle.exit_code == 0);
    CHECK(has(moodle.err, "Moodle has no question that checks a formula, so part (a) of 'mixed' (answer: formula) is "
                          "left out of the bank"));
    std::ifstream xml(out + "/questions.xml");
    const std::string bank((std::istreambuf_iterator<char>(xml)), std::istreambuf_iterator<char>());
    CHECK(has(bank, "NUMERICAL")); // part (b), a number, stays
    CHECK(!has(bank, "Answer with a formula"));
    const auto canvas = run_headcount({"export", "canvas", spec, "--variants", "1", "--seed", "s", "--out",
                                       headcount::testing::fresh_temp_dir("formula-canvas")});
    REQUIRE(canvas.exit_code == 0);
    CHECK(has(canvas.err, "Canvas has no question that checks a formula, so part (a) of 'mixed'"));
    const auto gradescope =
        run_headcount({"export", "gradescope", spec, "--out", headcount::testing::fresh_temp_dir("formula-gs")});
    CHECK(gradescope.exit_code == 0);
    CHECK(!has(gradescope.err, "left out"));
}

TEST_CASE("a class's formula answers are graded and reported with the formula", "[e2e][formula-answer]") {
    const std::string spec = write_spec("block", k_block);
    const std::string dir = headcount::testing::fresh_temp_dir("formula-grade");
    std::ofstream(dir + "/class.csv") << "student,problem,part,answer\n"
                                      << "s1,block,a,4*d_model^2 + 4*d_model\n"
                                      << "s2,block,a,4*d_model^2\n"
                                      << "s3,block,a,\"4 d_{model}^2 + 4 d_{model}\"\n";
    const auto run = run_headcount({"grade", spec, "--submissions", dir + "/class.csv", "--out", dir + "/out"});
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    std::ifstream book(dir + "/out/gradebook.csv");
    const std::string gradebook((std::istreambuf_iterator<char>(book)), std::istreambuf_iterator<char>());
    CHECK(has(gradebook, "s1,1,1,1"));
    CHECK(has(gradebook, "s2,0,0,1"));
    CHECK(has(gradebook, "s3,1,1,1"));
    std::ifstream report_file(dir + "/out/report.md");
    const std::string report((std::istreambuf_iterator<char>(report_file)), std::istreambuf_iterator<char>());
    CHECK(has(report, "Right answer: `4 * d_model^2 + 4 * d_model`."));
}

// End-to-end tests of the scaling-law asks (issue 41, item 5): the compute-optimal parameters and tokens for a
// compute budget, and the loss Hoffmann et al. 2022's fit predicts. Every expected number is worked out by hand in
// the comments (python3 as a calculator, from the paper's formulas), none read from headcount's output.
#include "cli_json.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <cmath>
#include <fstream>
#include <string>

using headcount::testing::as_double;
using headcount::testing::check_json;
using headcount::testing::has;
using headcount::testing::run_headcount;
using headcount::testing::solved_json;

namespace {

// GPT-2 small as Hugging Face builds it (124,439,808 parameters, tests/training_cli_test.cpp): the compute-optimal
// asks do not read the model, the loss reads its parameters where the spec gives tokens.
std::string gpt2_spec(std::string_view name, std::string_view extra, std::string_view parts) {
    const std::string path = headcount::testing::fresh_temp_dir(std::string("scaling-") + std::string(name)) + "/" +
                             std::string(name) + ".yaml";
    std::ofstream(path) << "id: " << name << "\ntitle: Scaling\nkind: transformer\ngiven:\n"
                        << "  d_model: 768\n  h: 12\n  d_ff: 3072\n  layers: 12\n  vocab: 50257\n"
                        << "  max_positions: 1024\n  final_norm: true\n  lm_head: linear\n"
                        << extra << "parts:\n"
                        << parts;
    return path;
}

/// Whether `value` is `expected` within one part in 10^4 (the hand-worked figures are given to five or six).
bool near(double value, double expected) { return std::abs(value - expected) <= 1e-4 * std::abs(expected); }

/// The one mistake a verdict names, or "" where it names none or several.
std::string the_mistake(const nlohmann::json& verdict) {
    return verdict.contains("mistakes") && verdict["mistakes"].size() == 1
               ? verdict["mistakes"][0]["id"].get<std::string>()
               : std::string();
}

const char* const k_every_part = "  - {id: a, ask: chinchilla.params}\n"
                                 "  - {id: b, ask: chinchilla.tokens}\n"
                                 "  - {id: c, ask: loss.chinchilla}\n";

} // namespace

// Chinchilla's budget, Gopher's 5.76e23 FLOPs (Hoffmann et al. 2022, §4). C = 6 N D with D = 20 N is C = 120 N^2:
// - N = sqrt(5.76e23 / 120) = sqrt(4.8e21) = 6.92820e10 (their 70B), D = 20 N = 1.385641e12 (their 1.4T);
// - the square root left out: 4.8e21 parameters, 20 x 4.8e21 = 9.6e22 tokens;
// - the forward pass alone (C = 2 N D = 40 N^2): sqrt(1.44e22) = 1.2e11 parameters, 2.4e12 tokens;
// - D = N (C = 6 N^2): sqrt(9.6e22) = 3.09839e11;
// - the 20 on the wrong side (N = 20 D): 20 sqrt(C / 120) = 1.385641e12 parameters, sqrt(C / 120) = 6.92820e10 tokens.
TEST_CASE("the compute-optimal parameters and tokens of Chinchilla's budget", "[e2e][scaling]") {
    const std::string spec = gpt2_spec("chinchilla", "  compute_budget: 5.76e23 FLOPs\n",
                                       "  - {id: a, ask: chinchilla.params}\n  - {id: b, ask: chinchilla.tokens}\n");
    const auto json = solved_json(spec);
    const auto& parts = json["parts"];
    REQUIRE(parts.size() == 2);
    CHECK(near(as_double(parts[0]["answer"]), 6.92820e10));
    CHECK(parts[0]["unit"] == "parameters");
    CHECK(near(as_double(parts[1]["answer"]), 1.385641e12));
    CHECK(parts[1]["unit"] == "tokens");

    CHECK(check_json(spec, "a", "6.93e10")["status"] == "correct");
    CHECK(check_json(spec, "a", "69.3 billion")["status"] == "correct");
    CHECK(check_json(spec, "a", "69.3B")["status"] == "correct");
    CHECK(check_json(spec, "a", "7e10")["status"] != "correct"); // 70B is Chinchilla's rounding, not the formula's
    CHECK(the_mistake(check_json(spec, "a", "4.8e21")) == "square_root_forgotten");
    CHECK(the_mistake(check_json(spec, "a", "1.2e11")) == "forward_only_flops");
    CHECK(the_mistake(check_json(spec, "a", "3.10e11")) == "ratio_forgotten");
    CHECK(the_mistake(check_json(spec, "a", "1.39e12")) == "tokens_per_parameter_inverted");

    CHECK(check_json(spec, "b", "1.39e12")["status"] == "correct");
    CHECK(check_json(spec, "b", "1.386e12 tokens")["status"] == "correct");
    CHECK(the_mistake(check_json(spec, "b", "9.6e22")) == "square_root_forgotten");
    CHECK(the_mistake(check_json(spec, "b", "2.4e12")) == "forward_only_flops");
    CHECK(the_mistake(check_json(spec, "b", "6.93e10")) == "tokens_per_parameter_inverted");

    // The worked solution states the convention and its source.
    const auto solved = run_headcount({"solve", spec});
    REQUIRE(solved.exit_code == 0);
    CHECK(has(solved.out, "Hoffmann et al. 2022"));
    CHECK(has(solved.out, "arXiv:2203.15556"));
}

// The budget as a bare number: 6 x 70e9 x 1.4e12 = 5.88e23 FLOPs, so C / 120 = 4.9e21 and N = 7e10 exactly, D =
// 1.4e12 exactly: Chinchilla's own model. No tokens given, the loss is that of this compute-optimal run:
//   L = 1.69 + 406.4 / (7e10)^0.34 + 410.7 / (1.4e12)^0.28 = 1.69 + 0.0834873 + 0.1631582 = 1.936645;
// without E, 0.246645; with the exponents swapped, 1.69 + 406.4 / (7e10)^0.28 + 410.7 / (1.4e12)^0.34 = 2.093998.
TEST_CASE("the loss of Chinchilla's compute-optimal run", "[e2e][scaling]") {
    const std::string spec = gpt2_spec("loss-optimal", "  compute_budget: 588000000000000000000000\n", k_every_part);
    const auto json = solved_json(spec);
    const auto& parts = json["parts"];
    REQUIRE(parts.size() == 3);
    CHECK(near(as_double(parts[0]["answer"]), 7e10));
    CHECK(near(as_double(parts[1]["answer"]), 1.4e12));
    CHECK(near(as_double(parts[2]["answer"]), 1.936645));
    CHECK(check_json(spec, "c", "1.94")["status"] == "correct");
    CHECK(the_mistake(check_json(spec, "c", "0.247")) == "irreducible_loss_forgotten");
    CHECK(the_mistake(check_json(spec, "c", "2.09")) == "exponents_swapped");
    const auto solved = run_headcount({"solve", spec});
    CHECK(has(solved.out, "No `tokens` is given"));
}

// With tokens given the loss is the model's own: GPT-2 small's N = 124,439,808 on D = 1e10 tokens,
//   L = 1.69 + 406.4 / 124,439,808^0.34 + 410.7 / (1e10)^0.28 = 1.69 + 0.7188984 + 0.6509156 = 3.059814;
// without E, 1.369814; with the exponents swapped, 1.69 + 406.4 / N^0.28 + 410.7 / D^0.34 = 4.053211.
TEST_CASE("the loss of a model trained on the tokens given", "[e2e][scaling]") {
    const std::string spec = gpt2_spec("loss-own", "  tokens: 10000000000\n", "  - {id: c, ask: loss.chinchilla}\n");
    CHECK(near(as_double(solved_json(spec)["parts"][0]["answer"]), 3.059814));
    CHECK(check_json(spec, "c", "3.06")["status"] == "correct");
    CHECK(the_mistake(check_json(spec, "c", "1.37")) == "irreducible_loss_forgotten");
    CHECK(the_mistake(check_json(spec, "c", "4.05")) == "exponents_swapped");
    // A budget given beside the tokens changes nothing: the run's own tokens are used.
    const std::string both = gpt2_spec("loss-both", "  tokens: 10000000000\n  compute_budget: 1e21 FLOPs\n",
                                       "  - {id: c, ask: loss.chinchilla}\n");
    CHECK(near(as_double(solved_json(both)["parts"][0]["answer"]), 3.059814));
}

TEST_CASE("a scaling-law ask says what it needs", "[e2e][scaling]") {
    for (const char* ask : {"chinchilla.params", "chinchilla.tokens", "loss.chinchilla"}) {
        INFO(ask);
        const auto run =
            run_headcount({"solve", gpt2_spec("no-budget", "", std::string("  - {id: a, ask: ") + ask + "}\n")});
        CHECK(run.exit_code == 2);
        CHECK(has(run.err, "needs compute_budget in given"));
    }
    const auto negative = run_headcount(
        {"solve", gpt2_spec("negative", "  compute_budget: -1e21\n", "  - {id: a, ask: chinchilla.params}\n")});
    CHECK(negative.exit_code == 2);
    CHECK(has(negative.err, "compute_budget must be a positive number of FLOPs, got -1e21"));
}

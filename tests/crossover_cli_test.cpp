// End-to-end tests of crossovers (issue 41, item 8): a spec's quantity `{solve_for: GIVEN, equation: "A = B"}`, the
// value of a given at which two formulas are equal. Every expected root is derived by hand in the comments.
#include "cli_json.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <fstream>
#include <string>

using headcount::testing::as_double;
using headcount::testing::check_json;
using headcount::testing::has;
using headcount::testing::run_headcount;
using headcount::testing::solved_json;

namespace {

/// A spec `name` of kind quantities: `given` and `quantities` as written (indented by the caller), one part asking
/// `cross`.
std::string crossover_spec(const std::string& name, const std::string& given, const std::string& quantities) {
    const std::string path = headcount::testing::fresh_temp_dir("crossover-" + name) + "/" + name + ".yaml";
    std::ofstream(path) << "id: " << name << "\ntitle: A crossover\ngiven:\n"
                        << given << "quantities:\n"
                        << quantities << "parts:\n  - {id: a, ask: cross}\n";
    return path;
}

// The example, one layer at sequence length n and width d = 1,024: attention's score and weighted-sum
// products written as 2 n^2 d (Q K^T and A V, n^2 d multiply-adds each) against the FFN's 16 n d^2 (two d x 4d
// matrices, 2 x n x d x 4d multiply-adds at 2 FLOPs each). (In one unit, FLOPs, the products are 4 n^2 d and the
// crossover n = 4d; the test keeps the example's formulas.)
// 2 n^2 d = 16 n d^2  <=>  2 n d (n - 8 d) = 0  <=>  n = 0 or n = 8 d = 8,192. Only 8,192 lies in (0, 10^15].
// As a polynomial in n: 2,048 n^2 - 16,777,216 n (a = 2 d = 2,048, b = -16 d^2 = -16,777,216, c = 0), its
// discriminant b^2 = 2^48 = 281,474,976,710,656 and its roots (16,777,216 -+ 16,777,216) / 4,096 = 0 and 8,192.
const char* const k_attention_given = "  d: 1024\n  n: 2048\n";
const char* const k_attention_quantities =
    "  attention_flops: {formula: 2 * n^2 * d, unit: FLOPs, title: attention's score and weighted-sum FLOPs}\n"
    "  ffn_flops: {formula: 16 * n * d^2, unit: FLOPs, title: the FFN's FLOPs}\n"
    "  cross:\n"
    "    title: sequence length at which attention's products cost as much as the FFN\n"
    "    unit: tokens\n"
    "    solve_for: n\n"
    "    equation: attention_flops = ffn_flops\n";

} // namespace

TEST_CASE("a quadratic crossover is exact, with its algebra", "[e2e][crossover]") {
    const std::string spec = crossover_spec("attention", k_attention_given, k_attention_quantities);
    CHECK(solved_json(spec)["parts"][0]["answer"] == 8192);
    CHECK(check_json(spec, "a", "8192")["status"] == "correct");
    CHECK(check_json(spec, "a", "8,192 tokens")["status"] == "correct");
    // Whole, so graded exactly: 8,191 is wrong, and 8,190 is the answer rounded to three figures.
    CHECK(check_json(spec, "a", "8191")["status"] == "incorrect");
    CHECK(check_json(spec, "a", "8190")["status"] == "rounded");
    const auto solved = run_headcount({"solve", spec});
    REQUIRE(solved.exit_code == 0);
    INFO(solved.out);
    CHECK(has(solved.out, "\\text{the } n \\text{ at which }"));
    CHECK(has(solved.out, "quadratic in $n$: $2{,}048 \\, n^2 - 16{,}777{,}216 \\, n = 0$"));
    CHECK(has(solved.out, "$b^2 - 4ac = 281{,}474{,}976{,}710{,}656$"));
    CHECK(has(solved.out, "are $0$ and $8{,}192$"));
    CHECK(has(solved.out, "**Answer: 8,192 tokens.**"));
}

// Linear: a GPU rented at 100 + 3 t against one bought at 20 + 5 t (t in months): 100 + 3 t = 20 + 5 t, 2 t = 80,
// t = 40. As a polynomial in t: (100 + 3 t) - (20 + 5 t) = -2 t + 80.
TEST_CASE("a linear crossover is exact", "[e2e][crossover]") {
    const std::string spec = crossover_spec("linear", "  t: 1\n  rent: 100\n  buy: 20\n",
                                            "  cross: {solve_for: t, equation: \"rent + 3 * t = buy + 5 * t\"}\n");
    CHECK(solved_json(spec)["parts"][0]["answer"] == 40);
    const auto solved = run_headcount({"solve", spec});
    INFO(solved.out);
    CHECK(has(solved.out, "linear in $t$: $-2 \\, t + 80 = 0$, so $t = 40$."));
}

// x^2 = 2 has the roots -sqrt(2) and sqrt(2) = 1.41421356...; only the second is in (0, 10^15]. Not whole, so it
// is graded at three figures: 1.41 and 1.414 are right, 1.5 is not.
TEST_CASE("an irrational root is graded at the part's figures", "[e2e][crossover]") {
    const std::string spec = crossover_spec("root", "  x: 1\n", "  cross: {solve_for: x, equation: \"x^2 = 2\"}\n");
    CHECK(std::abs(as_double(solved_json(spec)["parts"][0]["answer"]) - 1.41421356) < 1e-8);
    CHECK(check_json(spec, "a", "1.41")["status"] == "correct");
    CHECK(check_json(spec, "a", "1.414")["status"] == "correct");
    CHECK(check_json(spec, "a", "1.5")["status"] == "incorrect");
}

// x ln x = 10 is not a polynomial in x: its root is found by bisection. x = 10 / W(10), W the Lambert function,
// W(10) = 1.7455280027...: x = 5.72892556538...
TEST_CASE("a crossover that is not linear or quadratic is found by bisection", "[e2e][crossover]") {
    const std::string spec = crossover_spec("bisection", "  x: 1\n  target: 10\n",
                                            "  cross: {solve_for: x, equation: \"x * ln(x) = target\"}\n");
    CHECK(std::abs(as_double(solved_json(spec)["parts"][0]["answer"]) - 5.72892556538) < 1e-9);
    CHECK(check_json(spec, "a", "5.73")["status"] == "correct");
    CHECK(check_json(spec, "a", "5.8")["status"] == "incorrect");
    const auto solved = run_headcount({"solve", spec});
    CHECK(has(solved.out, "not linear or quadratic in $x$, so the root is found numerically"));
}

TEST_CASE("a crossover with no root or two roots in its range is refused where it stands", "[e2e][crossover]") {
    // x^2 + 6 = 5 x: (x - 2)(x - 3) = 0, both roots in (0, 10^15]. The equation stands on line 8 (id, title,
    // given:, x, quantities:, cross:, solve_for:), its quote at column 15 ("    equation: "), its text at 16.
    const std::string keys = "  cross:\n    solve_for: x\n    equation: \"x^2 + 6 = 5 * x\"\n";
    auto run = run_headcount({"solve", crossover_spec("two", "  x: 1\n", keys)});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "two.yaml:8:16: equation of cross: x^2 + 6 = 5 * x has two roots for x in (0, "
                       "1000000000000000], 2 and 3; give a range: [low, high] that holds one"));
    // With range: [0, 2.5] only 2 is left.
    const std::string narrowed = crossover_spec("narrowed", "  x: 1\n", keys + "    range: [0, 2.5]\n");
    CHECK(solved_json(narrowed)["parts"][0]["answer"] == 2);
    // x^2 = -1: its discriminant is -4, no real root.
    run = run_headcount(
        {"solve", crossover_spec("none", "  x: 1\n", "  cross:\n    solve_for: x\n    equation: \"x^2 = -1\"\n")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "none.yaml:8:16: equation of cross: x^2 = -1 has no root for x in (0, 1000000000000000]"));
    // x ln x = -10 never holds for x > 0 (x ln x is at least -1/e).
    run = run_headcount({"solve", crossover_spec("never", "  x: 1\n",
                                                 "  cross:\n    solve_for: x\n    equation: \"x * ln(x) = -10\"\n")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "never.yaml:8:16: equation of cross: x * ln(x) = -10 has no root for x in"));
    // Not a given; an equation without '='.
    run = run_headcount(
        {"solve", crossover_spec("notgiven", "  x: 1\n", "  cross:\n    solve_for: y\n    equation: \"x = 2\"\n")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "notgiven.yaml:7:16: solve_for of cross: 'y' is not a given of this problem"));
    run = run_headcount(
        {"solve", crossover_spec("noequals", "  x: 1\n", "  cross:\n    solve_for: x\n    equation: \"x + 2\"\n")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "noequals.yaml:8:15: equation of cross must be two formulas with '=' between them"));
    // A size of an attention block's architecture may be solved for (below): with d = 512 and no biases, the
    // scores' 2 n^2 d FLOPs equal Q, K and V's 3 x 2 n d^2 at n = 3 d = 1,536.
    const std::string block = headcount::testing::fresh_temp_dir("crossover-block") + "/block.yaml";
    std::ofstream(block) << "id: block\ntitle: t\ngiven:\n  d_model: 512\n  h: 8\n  bias: false\n  seq_len: 128\n"
                            "quantities:\n  cross:\n    title: t\n    unit: tokens\n    solve_for: seq_len\n"
                            "    equation: flops_scores = flops_projections\nparts:\n  - {id: a, ask: cross}\n";
    CHECK(solved_json(block)["parts"][0]["answer"] == 1536);
}

// The issue's own example on the built-in counts: in one attention block of width d = 1,024 (batch 1), the score and
// weighted-sum products take 2 n^2 d FLOPs each (Q K^T and A V: n^2 d multiply-adds, 2 FLOPs each), 4 n^2 d
// together, and the Q, K, V projections 3 x 2 n d^2 = 6 n d^2. 4 n^2 d = 6 n d^2 at n = 1.5 d = 1,536. The
// sequence length is an architecture given: seq_len_kv, left to its default, follows it (else the scores would be
// linear in n, n x 2,048 x d, and the root another).
TEST_CASE("a crossover may solve for a size of the architecture, its defaults following", "[e2e][crossover]") {
    const std::string path = headcount::testing::fresh_temp_dir("crossover-seq-len") + "/seq.yaml";
    std::ofstream(path) << "id: seq\ntitle: Where attention catches up\ngiven: {d_model: 1024, h: 16, seq_len: 2048}\n"
                           "quantities:\n  cross:\n    title: sequence length at which attention's products cost as "
                           "much as Q, K and V\n    unit: tokens\n    solve_for: seq_len\n"
                           "    equation: flops_scores + flops_weighted_sum = flops_projections\n"
                           "parts:\n  - {id: a, ask: cross}\n";
    CHECK(solved_json(path)["parts"][0]["answer"] == 1536);
    CHECK(check_json(path, "a", "1536 tokens")["status"] == "correct");
    // A flag is no size: refused where solve_for stands.
    const std::string flag = headcount::testing::fresh_temp_dir("crossover-flag") + "/flag.yaml";
    std::ofstream(flag) << "id: flag\ntitle: A flag\ngiven: {d_model: 1024, h: 16, seq_len: 2048}\n"
                           "quantities:\n  cross: {solve_for: bias, equation: flops_scores = flops_projections}\n"
                           "parts:\n  - {id: a, ask: cross}\n";
    const auto refused = run_headcount({"solve", flag});
    CHECK(refused.exit_code == 2);
    INFO(refused.err);
    CHECK(has(refused.err, "flag.yaml:5:22: solve_for of cross: 'bias' is a setting of the architecture, not a size"));
}

// x^2 = 2: the root sqrt(2) is irrational, known to 256 bits, so no typed answer is every digit of it; x^2 = 4 has
// the rational root 2, which exact grading can take.
TEST_CASE("tolerance: exact is refused on an irrational crossover", "[e2e][crossover]") {
    const auto spec = [](const std::string& name, const std::string& equation) {
        const std::string path = headcount::testing::fresh_temp_dir("crossover-" + name) + "/" + name + ".yaml";
        std::ofstream(path) << "id: " << name << "\ntitle: t\nkind: quantities\ngiven:\n  x: 1\nquantities:\n"
                            << "  cross: {solve_for: x, equation: \"" << equation << "\"}\n"
                            << "parts:\n  - {id: a, ask: cross, tolerance: exact}\n";
        return path;
    };
    const auto refused = run_headcount({"solve", spec("irrational", "x^2 = 2")});
    CHECK(refused.exit_code == 2);
    CHECK(has(refused.err, "irrational.yaml:9:36: part 'a' cannot be graded exact: the root of cross is irrational"));
    CHECK(solved_json(spec("rational", "x^2 = 4"))["parts"][0]["answer"] == 2);
}

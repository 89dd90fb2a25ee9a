// End-to-end: a spec whose quantity takes a square root (Chinchilla's compute-optimal model size), solved, checked at
// three figures, its root left out named, and `tolerance: exact` refused. The expected numbers are derived by hand:
// C = 6 N D with D = 20 N gives C = 120 N^2, so N = sqrt(C / 120) = sqrt(5.76e23 / 120) = sqrt(4.8e21)
// = 1e10 * sqrt(48) = 6.9282...e10 (sqrt(48) = 4 sqrt(3) = 6.92820..., Python: Decimal(48).sqrt()).
#include "run_binary.hpp"

#include <util/test_catch.hpp>

#include <fstream>
#include <string>

using headcount::testing::run_headcount;

namespace {

std::string chinchilla(const std::string& name, const std::string& part) {
    const std::string path = headcount::testing::fresh_temp_dir("functions-" + name) + "/chinchilla.yaml";
    std::ofstream(path) << "id: chinchilla\n"
                           "title: A compute-optimal model\n"
                           "given:\n"
                           "  compute_budget: 5.76e23\n"
                           "quantities:\n"
                           "  compute_optimal_params:\n"
                           "    title: compute-optimal parameter count\n"
                           "    unit: parameters\n"
                           "    formula: sqrt(compute_budget / 120)\n"
                           "parts:\n"
                        << part;
    return path;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST_CASE("a quantity under a square root is solved, and checked at three figures", "[e2e][functions]") {
    const std::string path = chinchilla("check", "  - {id: a, ask: compute_optimal_params}\n");
    const auto solved = run_headcount({"solve", path});
    INFO(solved.out << solved.err);
    REQUIRE(solved.exit_code == 0);
    CHECK(has(solved.out, "\\sqrt{\\frac{"));                  // the formula in TeX
    CHECK(has(solved.out, "about 69,280,000,000 parameters")); // 6.928e10 to four figures, grouped as a count is
    // Three figures, the default for an irrational value: 6.93e10 is right, 6.92e10 is not.
    CHECK(run_headcount({"check", path, "--part", "a", "--answer", "6.93e10"}).exit_code == 0);
    CHECK(run_headcount({"check", path, "--part", "a", "--answer", "69,282,032,303"}).exit_code == 0);
    CHECK(run_headcount({"check", path, "--part", "a", "--answer", "6.92e10"}).exit_code == 1);
    // The root left out: 5.76e23 / 120 = 4.8e21.
    const auto no_root = run_headcount({"check", path, "--part", "a", "--answer", "4.8e21"});
    CHECK(no_root.exit_code == 1);
    CHECK(has(no_root.out, "The square root was left out"));
    // The 120 left out: sqrt(5.76e23) = 7.589...e11 (Python: Decimal('5.76e23').sqrt() = 758946638440.4113...).
    const auto no_120 = run_headcount({"check", path, "--part", "a", "--answer", "7.59e11"});
    CHECK(no_120.exit_code == 1);
    CHECK(has(no_120.out, "`120`"));
}

TEST_CASE("tolerance: exact is refused on a quantity that may be irrational", "[e2e][functions]") {
    const std::string path = chinchilla("exact", "  - id: a\n    ask: compute_optimal_params\n    tolerance: exact\n");
    const auto r = run_headcount({"solve", path});
    CHECK(r.exit_code == 2);
    // Line 13 is "    tolerance: exact"; its value starts at column 16.
    CHECK(r.err == path +
                       ":13:16: part 'a' cannot be graded exact: compute_optimal_params may be irrational (its formula "
                       "takes sqrt, cbrt, exp, ln, log2, log10 or a power that is not whole) and is computed to 77 "
                       "figures; leave tolerance out for {sigfigs: 3}, or give {sigfigs: n} or {rel: x}\n"
                       "   13 |     tolerance: exact\n"
                       "      |" +
                       std::string(16, ' ') + "^\n");
    // Through another quantity: a part asking for twice the root is refused as well.
    const std::string twice = headcount::testing::fresh_temp_dir("functions-twice") + "/twice.yaml";
    std::ofstream(twice) << "id: twice\ntitle: t\ngiven:\n  c: 5.76e23\nquantities:\n"
                            "  n: {formula: c^0.5}\n  two_n: {formula: 2 * n}\n"
                            "parts:\n  - {id: b, ask: two_n, tolerance: exact}\n";
    const auto through = run_headcount({"solve", twice});
    CHECK(through.exit_code == 2);
    CHECK(has(through.err, twice + ":9:"));
    CHECK(has(through.err, "part 'b' cannot be graded exact: two_n may be irrational"));
}

// The irrational functions of formulas (sqrt, cbrt, exp, ln, log2, log10, non-whole powers): values, exactness,
// domain and size errors, TeX and derived mistakes. The 40-figure references were computed apart from headcount,
// with Python's decimal module at 60 digits (getcontext().prec = 60; Decimal(2).sqrt(), Decimal(1).exp(),
// Decimal(2).ln(), Decimal(3).ln() / Decimal(2).ln(), Decimal(2).log10(), (Decimal('0.34') * Decimal(x).ln()).exp(),
// cbrt(2) as (Decimal(2).ln() / 3).exp()), then rounded half up to 40 figures with Context(prec=40).plus().

#include <formula/formula.hpp>
#include <formula/test_formulas.hpp>

#include <util/test_catch.hpp>

#include <chrono>
#include <string>

using namespace headcount::formula;
using namespace headcount::formula::testing;

namespace {

/// a = 8, b = 2, N = 1.75e11, budget = 5.76e23, gpus = 1024.
const Number* sample(std::string_view name) {
    static const Number a(8), b(2), n(mpz_class("175000000000")), budget(mpz_class("576000000000000000000000")),
        gpus(1024);
    return name == "a"        ? &a
           : name == "b"      ? &b
           : name == "N"      ? &n
           : name == "budget" ? &budget
           : name == "gpus"   ? &gpus
                              : nullptr;
}

Number value_of(const Node& formula) { return value_with(formula, sample); }

Number value_of(std::string_view text) { return value_of(parsed(text)); }

Problem problem_of(std::string_view text) { return problem_with(text, sample); }

} // namespace

TEST_CASE("irrational values agree with 40-figure references", "[formula][irrational]") {
    struct Case {
        const char* formula;
        const char* reference; // Python decimal, see the top of the file
    };
    for (const Case& c : {
             Case{"sqrt(2)", "1.414213562373095048801688724209698078570"},
             Case{"2^0.5", "1.414213562373095048801688724209698078570"},
             Case{"2^(1/2)", "1.414213562373095048801688724209698078570"},
             Case{"sqrt(10)", "3.162277660168379331998893544432718533720"},
             Case{"cbrt(2)", "1.259921049894873164767210607278228350570"},
             Case{"exp(1)", "2.718281828459045235360287471352662497757"},
             Case{"exp(-1)", "0.3678794411714423215955237701614608674458"},
             Case{"ln(2)", "0.6931471805599453094172321214581765680755"},
             Case{"ln(10)", "2.302585092994045684017991454684364207601"},
             Case{"log2(3)", "1.584962500721156181453738943947816508760"},
             Case{"log10(2)", "0.3010299956639811952137388947244930267682"},
             Case{"10^0.34", "2.187761623949552562226114916384187316712"},
             Case{"N^0.34", "6647.111083293609220945488161854590299701"},
             // Chinchilla: C = 6 N D with D = 20 N, so N = sqrt(C / 120) = sqrt(4.8e21).
             Case{"sqrt(budget / 120)", "69282032302.75509174109785366023489467771"},
         }) {
        INFO(c.formula);
        CHECK(rounded(value_of(c.formula), 40) == c.reference);
    }
}

TEST_CASE("a function whose value is rational gives it exactly", "[formula][irrational]") {
    CHECK(value_of("sqrt(16/9)") == Number(4, 3));
    CHECK(value_of("sqrt(0)") == 0);
    CHECK(value_of("sqrt(a * b)") == 4); // 8 * 2 = 16
    CHECK(value_of("cbrt(-27)") == -3);
    CHECK(value_of("cbrt(8/125)") == Number(2, 5));
    CHECK(value_of("log2(8)") == 3);
    CHECK(value_of("log2(0.125)") == -3);
    CHECK(value_of("log2(gpus)") == 10);
    CHECK(value_of("log10(1000)") == 3);
    CHECK(value_of("log10(0.001)") == -3);
    CHECK(value_of("exp(0)") == 1);
    CHECK(value_of("ln(1)") == 0);
    CHECK(value_of("(16/9)^0.5") == Number(4, 3));
    CHECK(value_of("27^(2/3)") == 9);
    CHECK(value_of("4^-0.5") == Number(1, 2));
    CHECK(value_of("0^0.5") == 0);
    CHECK(value_of("1^0.34") == 1);
    // An irrational value is the rational of 256 bits nearest it: close to, but not, what squares to 2.
    const Number root = value_of("sqrt(2)");
    CHECK(root * root != 2);
    CHECK(abs(Number(root * root - 2)) < Number(1, mpz_class(1) << 250));
    CHECK(mpz_popcount(root.get_den_mpz_t()) == 1); // a power of two
}

TEST_CASE("a value outside a function's domain is an error at its argument", "[formula][irrational]") {
    const Problem negative = problem_of("1 + sqrt(gpus - 2000)");
    CHECK(negative.message == "the square root of a negative number: gpus - 2000 is -976 here");
    CHECK(negative.column == 10);
    CHECK(problem_of("ln(0)").message == "the logarithm of a number that is not positive: 0 is 0 here");
    CHECK(problem_of("log2(a - 9)").message == "the logarithm of a number that is not positive: a - 9 is -1 here");
    CHECK(problem_of("log10(-b)").column == 7);
    CHECK(problem_of("0^-0.5").message == "division by zero: 0^-0.5 raises 0 to a negative power");
    const Problem power = problem_of("(b - a)^0.5");
    CHECK(power.message == "a negative number to a power that is not whole: (b - a) is -6 here");
    CHECK(power.column == 1);
    CHECK(value_of("cbrt(-2)") == -value_of("cbrt(2)")); // a cube root has a negative argument's
    CHECK(parse(std::string_view("sqrt(1, 2)")).error().message ==
          "sqrt() takes 1 argument (the value whose square root it is), not 2");
}

TEST_CASE("a value too large is refused before it is computed", "[formula][irrational]") {
    const auto start = std::chrono::steady_clock::now();
    // exp(1e9) is e^1000000000, 434,294,482 digits; its reciprocal as many under the point.
    const Problem huge = problem_of("2 * exp(1e9)");
    CHECK(huge.message == "exp(1e9) would have about 434294482 digits (at most 3000)");
    CHECK(huge.column == 5);
    CHECK(problem_of("exp(-1e9)").message == "exp(-1e9) would have about 434294482 digits (at most 3000)");
    CHECK(problem_of("exp(1e300)").message.find("digits") != std::string::npos);
    CHECK(problem_of("exp(exp(exp(10)))").message.find("digits") != std::string::npos);
    CHECK(problem_of("N^(1e6 + 0.5)").message.find("digits") != std::string::npos);
    CHECK(problem_of("2^(10^30 + 0.5)").message.find("digits") != std::string::npos);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
    // e^6000 has 2606 digits (6000 / ln 10 = 2605.77): within the bound with its 256 bits.
    CHECK(value_of("exp(6000)") > Number(mpz_class("1" + std::string(2605, '0'))));
    CHECK(value_of("exp(-100)") > 0);
}

TEST_CASE("whether a formula may be irrational, from its tree alone", "[formula][irrational]") {
    for (const char* formula : {"sqrt(x)", "2 * cbrt(x)", "exp(-x)", "a * ln(b)", "log2(n) + 1", "log10(n)", "x^0.5",
                                "N^0.34", "x^(1/2)", "x^(a / b)", "if(a > b, 1, exp(b))", "floor(sqrt(x))", "x^-0.5"}) {
        INFO(formula);
        CHECK(inexact(parsed(formula)));
    }
    for (const char* formula : {"d_model^2", "2^layers", "2^(-n)", "x^(a * b + 1)", "x^floor(y)", "abs(x) / 3",
                                "6 * n_params * tokens", "x^-2"}) {
        INFO(formula);
        CHECK_FALSE(inexact(parsed(formula)));
    }
    CHECK(irrational("sqrt"));
    CHECK_FALSE(irrational("floor"));
}

TEST_CASE("TeX of the irrational functions", "[formula][irrational]") {
    CHECK(plain_names("sqrt(2 * a * b)") == "\\sqrt{2 \\cdot a \\cdot b}");
    CHECK(plain_names("cbrt(x)") == "\\sqrt[3]{x}");
    CHECK(plain_names("exp(-x / 2)") == "e^{\\frac{-x}{2}}"); // (-x) / 2: a sign binds tighter than /
    CHECK(plain_names("ln(x)") == "\\ln x");
    CHECK(plain_names("ln(a + b)") == "\\ln(a + b)");
    CHECK(plain_names("ln(a / b)") == "\\ln\\left(\\frac{a}{b}\\right)");
    CHECK(plain_names("log2(n)") == "\\log_2 n");
    CHECK(plain_names("log10(1000)") == "\\log_{10} 1000");
    CHECK(plain_names("log10(1e9)") == "\\log_{10}(10^{9})");
    CHECK(plain_names("x^0.5") == "x^{0.5}");
    CHECK(plain_names("N^0.34") == "N^{0.34}");
    CHECK(plain_names("sqrt(x)^3") == "(\\sqrt{x})^{3}");
    CHECK(plain_names("2 * sqrt(budget / 120)") == "2 \\cdot \\sqrt{\\frac{budget}{120}}");
    // Substituted: the value in place of the name.
    CHECK(tex_substituted(parsed("ln(a)"), sample, {}) == "\\ln 8");
    CHECK(tex_substituted(parsed("sqrt(a * b)"), sample, {}) == "\\sqrt{8 \\cdot 2}");
}

TEST_CASE("derived mistakes reach under a root, and leave out the root or the exponent", "[formula][irrational]") {
    const Node formula = parsed("sqrt(2 * a * b)");
    const auto all = perturbations(formula);
    std::vector<std::string> ids;
    for (const Perturbation& p : all)
        ids.push_back(p.id);
    CHECK(ids == std::vector<std::string>{"root_left_out_sqrt_2_a_b", "factor_left_out_2", "factor_inverted_2",
                                          "factor_left_out_a", "factor_inverted_a", "factor_left_out_b",
                                          "factor_inverted_b"});
    const Perturbation& root = find(all, "root_left_out_sqrt_2_a_b");
    CHECK(root.kind == Perturbation::Kind::root_left_out);
    CHECK(root.subject == "sqrt(2 * a * b)");
    CHECK(root.path.empty());
    CHECK(value_of(formula) == value_of("sqrt(32)"));                                          // 2 * 8 * 2
    CHECK(value_of(apply(formula, {&root})) == 32);                                            // the root left out
    CHECK(value_of(apply(formula, {&find(all, "factor_left_out_2")})) == 4);                   // sqrt(8 * 2)
    CHECK(value_of(apply(formula, {&find(all, "factor_left_out_a")})) == 2);                   // sqrt(2 * 2)
    CHECK(value_of(apply(formula, {&find(all, "factor_inverted_b")})) == value_of("sqrt(8)")); // 2 * 8 / 2
    CHECK_FALSE(independent(root, find(all, "factor_left_out_2"))); // the root holds the factor
    CHECK(tex(apply(formula, {&find(all, "factor_left_out_2")}), {}) == "\\sqrt{\\mathrm{a} \\cdot \\mathrm{b}}");

    const Node cube = parsed("4 * cbrt(a)");
    CHECK(value_of(apply(cube, {&find(perturbations(cube), "root_left_out_cbrt_a")})) == 32); // 4 * 8

    const Node power = parsed("406.4 * N^0.34");
    const auto slips = perturbations(power);
    const Perturbation& dropped = find(slips, "exponent_dropped_n_0_34");
    CHECK(value_of(apply(power, {&dropped})) == Number(mpz_class("71120000000000"))); // 406.4 * 1.75e11
    CHECK(perturbations(parsed("exp(a)")).empty());
}

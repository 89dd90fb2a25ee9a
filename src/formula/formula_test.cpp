// Instructors' formulas: reading, exact values, TeX and derived mistakes. Every expected value here was worked out
// by hand (the arithmetic is in the comments), not printed by the code under test. Just over 400 lines: one file for
// the formula library's five parts (reading, evaluating, TeX, perturbing, decimals), each a few test cases.

#include <formula/formula.hpp>
#include <formula/test_formulas.hpp>

#include <util/test_catch.hpp>

#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <string>

using Catch::Matchers::Contains;
using namespace headcount::formula;
using namespace headcount::formula::testing;

namespace {

Problem parse_problem(std::string_view text) {
    auto result = parse(text);
    INFO("formula '" << std::string(text) << "'");
    REQUIRE_FALSE(result.has_value());
    return result.error();
}

/// The GPT-3 givens of the module's example (mfu 0.45 = 9/20), plus small values for the other formulas.
const std::map<std::string, Number, std::less<>>& givens() {
    static const std::map<std::string, Number, std::less<>> values = {
        {"n_params", Number(175000000000)},
        {"tokens", Number(300000000000)},
        {"gpus", Number(1024)},
        {"peak_flops", Number(mpz_class("312000000000000"))},
        {"mfu", Number(9, 20)},
        {"train_flops", Number(mpz_class("315000000000000000000000"))},
        {"attention", Number(4)},
        {"ffn", Number(8)},
        {"embeddings", Number(3)},
        {"d_model", Number(768)},
    };
    return values;
}

const Number* lookup(std::string_view name) {
    const auto found = givens().find(name);
    return found == givens().end() ? nullptr : &found->second;
}

/// x = -3, y = 1/2, z = 12, for TeX with values.
const Number* xyz(std::string_view name) {
    static const Number x(-3), y(1, 2), z(12);
    return name == "x" ? &x : name == "y" ? &y : name == "z" ? &z : nullptr;
}

Number value_of(const Node& formula) { return value_with(formula, lookup); }

Number value_of(std::string_view text) { return value_of(parsed(text)); }

Problem evaluate_problem(std::string_view text) { return problem_with(text, lookup); }

constexpr std::string_view k_train_days = "train_flops / (gpus * peak_flops * mfu) / 86400";

} // namespace

TEST_CASE("a sum and a product are each one node; parentheses make their own", "[formula]") {
    const Node sum = parsed("a + b - c");
    CHECK(sum.op == Node::Op::sum);
    REQUIRE(sum.children.size() == 3);
    CHECK(sum.inverse == std::vector<bool>{false, false, true});
    CHECK(sum.children[2].text == "c");
    CHECK(sum.children[2].column == 9);
    CHECK(sum.source == "a + b - c");

    const Node product = parsed("a*b/c/d");
    CHECK(product.op == Node::Op::product);
    REQUIRE(product.children.size() == 4);
    CHECK(product.inverse == std::vector<bool>{false, false, true, true});

    const Node days = parsed("x / (g*p*m)");
    REQUIRE(days.op == Node::Op::product);
    REQUIRE(days.children.size() == 2);
    CHECK(days.inverse == std::vector<bool>{false, true});
    const Node& divisor = days.children[1];
    CHECK(divisor.op == Node::Op::product);
    CHECK(divisor.parenthesized);
    CHECK(divisor.children.size() == 3);
    CHECK(divisor.source == "g*p*m");
    CHECK(divisor.column == 5);

    const Node power = parsed("4 * d_model^2");
    REQUIRE(power.children.size() == 2);
    CHECK(power.children[1].op == Node::Op::power);
    CHECK(power.children[1].source == "d_model^2");

    CHECK(names(parsed("a + b * a + c")) == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("precedence and associativity are those of maths", "[formula]") {
    CHECK(value_of("2^3^2") == 512); // 2^(3^2) = 2^9
    CHECK(value_of("2**3**2") == 512);
    CHECK(value_of("-2^2") == -4); // -(2^2)
    CHECK(value_of("8/4/2") == 1); // (8/4)/2
    CHECK(value_of("2 - 3 - 4") == -5);
    CHECK(value_of("2 * 3 + 4 * 5") == 26);
    CHECK(value_of("(1 + 2) * 3") == 9);
    CHECK(value_of("2^-1") == Number(1, 2));
    CHECK(value_of("(1/2)^-3") == 8);
    CHECK(value_of("- -3") == 3);
    CHECK(value_of("+3") == 3);
    CHECK(value_of("1 \u2212 2") == -1);           // U+2212 minus
    CHECK(value_of("6 \u00F7 4") == Number(3, 2)); // ÷
    CHECK(value_of("2 \u00B7 3 \u00D7 4") == 24);  // · and ×
    CHECK(value_of(" \t2\n*\r3 ") == 6);
}

TEST_CASE("floor rounds down to a whole number, and is written with floor brackets", "[formula]") {
    CHECK(value_of("floor(7 / 2)") == 3);   // 3.5 down
    CHECK(value_of("floor(-7 / 2)") == -4); // -3.5 down, not toward zero
    CHECK(value_of("floor(6 / 2)") == 3);
    CHECK(value_of("floor(1 / 3) + 1") == 1);
    CHECK(value_of("2 * floor(10 / 4)") == 4);
    // (25,769,803,776 - 1,991,036,928) / (8,606,711,808 / 8) = 22.10...: 22 sequences fit.
    CHECK(value_of("floor((25769803776 - 1991036928) / (8606711808 / 8))") == 22);
    CHECK(tex(parsed("floor(7 / 2)"), [](std::string_view name) { return std::string(name); }).find("\\lfloor") !=
          std::string::npos);
    // A name floor that is not called stays a name; floor with nothing to round is refused.
    CHECK(parsed("floor * 2").children.front().op == Node::Op::name);
    CHECK(parse_problem("floor()").message ==
          "floor() takes 1 argument (the value to round down to a whole number), not 0");
}

TEST_CASE("functions: if, min, max, ceil, floor and abs", "[formula]") {
    CHECK(value_of("min(3, 1, 2)") == 1);
    CHECK(value_of("max(2 / 3, 0.5)") == Number(2, 3)); // 2/3 > 1/2
    CHECK(value_of("max(-1, -2)") == -1);
    CHECK(value_of("ceil(7 / 2)") == 4);   // 3.5 up
    CHECK(value_of("ceil(-7 / 2)") == -3); // -3.5 up, toward zero
    CHECK(value_of("ceil(6 / 2)") == 3);   // already whole
    CHECK(value_of("abs(-3 / 4)") == Number(3, 4));
    CHECK(value_of("abs(5)") == 5);
    // Fewest GPUs for 175e9 parameters at 16 bytes each in 80e9 bytes: 2.8e12 / 8e10 = 35 exactly, and one more
    // byte needs a 36th.
    CHECK(value_of("ceil(n_params * 16 / 80e9)") == 35);
    CHECK(value_of("ceil((n_params * 16 + 1) / 80e9)") == 36);
    CHECK(value_of("if(1, 2, 3)") == 2);
    CHECK(value_of("if(0, 2, 3)") == 3);
    CHECK(value_of("if(1 / 2, 2, 3)") == 2); // any nonzero value holds
    CHECK(value_of("if(gpus > 1000, gpus, 1000)") == 1024);
    // Only the branch taken is evaluated: the other may divide by zero.
    CHECK(value_of("if(gpus == 1024, 5, 1 / 0)") == 5);
    CHECK(value_of("if(gpus < 1024, 1 / (gpus - 1024), 7)") == 7);
    // A name spelt like a function but not called is a name.
    CHECK(parsed("max + 1").children.front().op == Node::Op::name);
}

TEST_CASE("comparisons are 1 when they hold and 0 when not, and bind loosest", "[formula]") {
    CHECK(value_of("3 < 4") == 1);
    CHECK(value_of("4 < 4") == 0);
    CHECK(value_of("4 <= 4") == 1);
    CHECK(value_of("5 > 4") == 1);
    CHECK(value_of("4 >= 5") == 0);
    CHECK(value_of("4 == 4") == 1);
    CHECK(value_of("4 = 4") == 1); // one '=' compares too
    CHECK(value_of("4 != 4") == 0);
    CHECK(value_of("d_model \u2265 768") == 1); // ≥
    CHECK(value_of("d_model \u2264 767") == 0); // ≤
    CHECK(value_of("d_model \u2260 768") == 0); // ≠
    CHECK(value_of("2 + 2 > 3") == 1);          // (2 + 2) > 3, not 2 + (2 > 3) = 2
    CHECK(value_of("(2 > 1) + (3 > 1)") == 2);  // a comparison in parentheses is a value
    CHECK(value_of("1 / 3 == 2 / 6") == 1);     // exact: no rounding makes 1/3 differ from 2/6
}

TEST_CASE("a function's arity and a second comparison are refused at their column", "[formula]") {
    const Problem if_two = parse_problem("1 + if(a, 2)");
    CHECK(if_two.message ==
          "if() takes 3 arguments (a condition, the value when it holds, the value otherwise), not 2");
    CHECK(if_two.column == 5);
    CHECK(parse_problem("min(1)").message ==
          "min() takes at least 2 arguments (the values to take the smallest of), not 1");
    CHECK(parse_problem("abs(1, 2)").message == "abs() takes 1 argument (the value whose size it is), not 2");
    const Problem unknown = parse_problem("2 * sqr(x)");
    CHECK(
        unknown.message ==
        "unknown function 'sqr'; a formula may call if, min, max, ceil, floor, abs, sqrt, cbrt, exp, ln, log2, log10");
    CHECK(unknown.column == 5);
    const Problem chained = parse_problem("1 < 2 < 3");
    CHECK(chained.message == "a second comparison '<': compare two values at a time, e.g. if(a < b, ...)");
    CHECK(chained.column == 7);
    CHECK(parse_problem("max(1, 2").message == "missing ')'");
    CHECK(parse_problem("max(1, )").column == 8);
    CHECK_THAT(parse_problem("(1, 2)").message, Contains("separators"));
    CHECK_THAT(parse_problem("1, 2").message, Contains("separators"));
    CHECK(parse_problem("a ! b").message == "unexpected character '!'");
}

TEST_CASE("decimals are exact", "[formula]") {
    CHECK(value_of("0.45") == Number(9, 20));
    CHECK(value_of("1.5e-3") == Number(3, 2000));
    CHECK(value_of("3.12e14") == Number(mpz_class("312000000000000")));
    CHECK(value_of("2E+3") == 2000);
    CHECK(value_of("007.50") == Number(15, 2));
    CHECK(value_of("1e2999") == Number(mpz_class("1" + std::string(2999, '0'))));
    CHECK_THAT(parse_problem("1e3000").message, Contains("digits"));
    CHECK(parse_problem("1.").column == 3);
    CHECK(parse_problem("1.e5").column == 3);
}

TEST_CASE("the GPT-3 example is exact past 2^64", "[formula]") {
    // 6 * 175e9 * 300e9 = 6 * 175 * 300 * 10^18 = 315000 * 10^18
    CHECK(value_of("6 * n_params * tokens") == Number(mpz_class("315000000000000000000000")));
    CHECK(value_of("6*175e9*300e9") == Number(mpz_class("315000000000000000000000")));
    // 1024 * 312e12 * 0.45 = 143769.6e12 = 1437696e11, so 3.15e23 / 1437696e11 = 3150000000000 / 1437696 seconds,
    // and the days times 1437696 * 86400 are 3150000000000.
    const Number days = value_of(k_train_days);
    CHECK(days * 1437696 * 86400 == Number(mpz_class("3150000000000")));
    CHECK(rounded(days, 3) == "25.4"); // 2,190,992.65... s / 86400 = 25.359...
    CHECK(value_of("3.15e23 / (1024 * 312e12 * 0.45) / 86400") == days);
}

TEST_CASE("evaluation fails with the column of the node at fault", "[formula]") {
    const Problem zero = evaluate_problem("train_flops / (gpus - 1024)");
    CHECK(zero.message == "division by zero: (gpus - 1024) is 0 here");
    CHECK(zero.column == 15);
    CHECK(evaluate_problem("1 / 0").column == 5);
    CHECK_THAT(evaluate_problem("0^-1").message, Contains("division by zero"));

    const auto start = std::chrono::steady_clock::now();
    const Problem huge = evaluate_problem("10^10^10");
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
    CHECK_THAT(huge.message, Contains("digits"));
    CHECK(huge.column == 1);
    CHECK_THAT(evaluate_problem("2^10000").message, Contains("digits")); // 3011 digits
    CHECK(value_of("2^9000") > 0);                                       // 2710 digits
    CHECK_THAT(evaluate_problem("(10^1000)^3 / 10^2999").message, Contains("digits"));
    CHECK_THAT(evaluate_problem("(-2)^(1/2)").message, Contains("not whole")); // the rest: irrational_test.cpp
    CHECK_THAT(evaluate_problem("2^(10^30)").message, Contains("too large"));
    CHECK(value_of("1^(10^18)") == 1);
    CHECK(value_of("(-1)^(10^15 + 1)") == -1);
    CHECK(value_of("0^0") == 1);

    const Problem unknown = evaluate_problem("gpus + gpu");
    CHECK(unknown.message == "unknown name 'gpu'");
    CHECK(unknown.column == 8);
    CHECK_FALSE(evaluate(parsed("a"), Lookup{}).has_value());
}

TEST_CASE("reading fails with a short message and a column", "[formula]") {
    const Problem implicit = parse_problem("2 n");
    CHECK(implicit.message == "expected an operator between '2' and 'n'");
    CHECK(implicit.column == 3);
    CHECK(parse_problem("2(a + b)").column == 2);
    CHECK(parse_problem("(a)(b)").column == 4);
    CHECK(parse_problem("a $ b").message == "unexpected character '$'");
    CHECK(parse_problem("a $ b").column == 3);
    CHECK(parse_problem("a \u00D7 b $").column == 7); // columns count code points: × is two bytes, one column
    CHECK(parse_problem("a \u03B1").column == 3);
    CHECK(parse_problem("a + \xff").message == "malformed UTF-8");
    CHECK(parse_problem("").message == "empty formula");
    CHECK(parse_problem("   ").message == "empty formula");
    CHECK(parse_problem("a +").column == 4);
    CHECK(parse_problem("a + * b").column == 5);
    CHECK(parse_problem("(a + b").message == "missing ')'");
    CHECK(parse_problem("a + b)").column == 6);
    CHECK(parse_problem("()").column == 1);
    CHECK_THAT(parse_problem("1,000").message, Contains("separators"));
}

TEST_CASE("formulas are bounded in bytes, depth and nodes", "[formula]") {
    const auto nested = [](int levels) { return std::string(levels, '(') + "1" + std::string(levels, ')'); };
    CHECK(value_of(nested(k_max_formula_depth)) == 1);
    CHECK_THAT(parse_problem(nested(k_max_formula_depth + 1)).message, Contains("nested"));
    CHECK_THAT(parse_problem(std::string(100, '-') + "1").message, Contains("nested"));
    CHECK_THAT(parse_problem(std::string(100000, '(')).message, Contains("bytes"));
    std::string sum = "1";
    for (int i = 0; i < 450; ++i)
        sum += "+1"; // 451 numbers and a sum: past 400 nodes, within 2000 bytes
    CHECK_THAT(parse_problem(sum).message, Contains("parts"));
    CHECK_THAT(parse_problem(std::string(k_max_formula_bytes + 1, '1')).message, Contains("bytes"));
}

TEST_CASE("no input makes reading or evaluating throw or hang", "[formula]") {
    std::mt19937 random(20240601);
    const std::string alphabet = "0123456789.eE+-*/^() ab_\xC3\x97\xE2\x88\x92\x80";
    for (int round = 0; round < 3000; ++round) {
        std::string text;
        const std::size_t length = random() % 40;
        for (std::size_t i = 0; i < length; ++i)
            text += alphabet[random() % alphabet.size()];
        auto formula = parse(text);
        if (!formula)
            continue;
        const auto small = [](std::string_view) -> const Number* {
            static const Number three_sevenths(3, 7);
            return &three_sevenths;
        };
        (void)evaluate(*formula, small);
        (void)tex(*formula, [](std::string_view name) { return std::string(name); });
        for (const Perturbation& p : perturbations(*formula))
            (void)evaluate(apply(*formula, {&p}), small);
    }
}

TEST_CASE("TeX shows fractions, products and powers with only the parentheses needed", "[formula]") {
    CHECK(plain_names(k_train_days) == "\\frac{train_flops}{gpus \\cdot peak_flops \\cdot mfu \\cdot 86400}");
    CHECK(plain_names("attention + ffn + embeddings") == "attention + ffn + embeddings");
    CHECK(plain_names("d_model^2") == "d_model^{2}");
    CHECK(plain_names("4 * d_model^2") == "4 \\cdot d_model^{2}");
    CHECK(plain_names("(a + b) * c") == "(a + b) \\cdot c");
    CHECK(plain_names("(a + b) / c") == "\\frac{a + b}{c}");
    CHECK(plain_names("a - (b - c)") == "a - (b - c)");
    CHECK(plain_names("a + (b + c)") == "a + b + c");
    CHECK(plain_names("1 / (a * b)") == "\\frac{1}{a \\cdot b}");
    CHECK(plain_names("a / b * c") == "\\frac{a \\cdot c}{b}");
    CHECK(plain_names("(a * b)^2") == "(a \\cdot b)^{2}");
    CHECK(plain_names("a * -b") == "a \\cdot (-b)");
    CHECK(plain_names("-(a + b)") == "-(a + b)");
    CHECK(plain_names("2^-1") == "2^{-1}");
    CHECK(plain_names("3.12e14 * 1e9") == "3.12 \\times 10^{14} \\cdot 10^{9}");
    CHECK(tex(parsed("n_params"), {}) == "\\mathrm{n\\_params}");
}

TEST_CASE("a formula's text with the conditions a problem settles applied", "[formula]") {
    // Settings as a spec gives them: gated FFN, not sharded, LoRA on; x is not settled.
    const auto decide = [](const Node& condition) -> std::optional<bool> {
        auto value = evaluate(condition, [](std::string_view name) -> const Number* {
            static const Number one(1), zero(0);
            if (name == "gated" || name == "lora" || name == "k")
                return &one;
            if (name == "sharded" || name == "q")
                return &zero;
            return nullptr;
        });
        return value ? std::optional<bool>(*value != 0) : std::nullopt;
    };
    const auto resolve = [&](std::string_view text) { return resolved(parsed(text), text, decide); };
    CHECK(resolve("if(gated, 3, 2) * d_model * d_ff") == "3 * d_model * d_ff");
    // A factor of 1 and a term of 0 that a condition leaves go, with their operator.
    CHECK(resolve("2 * params / if(sharded, gpus, 1)") == "2 * params");
    CHECK(resolve("2 * params / if(gated, gpus, 1)") == "2 * params / gpus");
    CHECK(resolve("if(q, (d + d), 0) + if(k, (d + e), 0)") == "(d + e)");
    CHECK(resolve("l * (if(q, a, 0) + if(k, b, 0) + if(q, c, 0))") == "l * (b)");
    CHECK(resolve("if(q, 5, 0) + if(q, 6, 0)") == "0");
    // A first factor of 1 before a division stays: 1 / y.
    CHECK(resolve("if(gated, 1, 2) / y") == "1 / y");
    // A branch that is a sum gets parentheses where it needs them, and keeps those it was written with.
    CHECK(resolve("x * if(gated, a + b, a)") == "x * (a + b)");
    CHECK(resolve("if(lora, (m + p), m) * 2") == "(m + p) * 2");
    CHECK(resolve("x + if(gated, a + b, a)") == "x + a + b");
    CHECK(resolve("x - if(gated, a + b, a)") == "x - (a + b)");
    // A product that divides, or is raised to a power, keeps its group: x / (a * b) is not x / a * b. So does a
    // power raised again. (By hand: with a = 2, b = 3, x = 12, 12 / (2 * 3) = 2, where 12 / 2 * 3 = 18.)
    CHECK(resolve("x / if(gated, a * b, 1)") == "x / (a * b)");
    CHECK(resolve("if(gated, a * b, y) ^ 2") == "(a * b) ^ 2");
    CHECK(resolve("if(gated, a ^ b, y) ^ 2") == "(a ^ b) ^ 2");
    CHECK(resolve("x * if(gated, a * b, 1)") == "x * a * b");
    CHECK(resolve("p / if(lora, steps * if(gated, d, 1) * s, t)") == "p / (steps * d * s)");
    // Nested conditions, and one that is not settled, which stays as written.
    CHECK(resolve("if(gated, if(lora, 1, 2), 3) + z") == "1 + z");
    CHECK(resolve("if(x > 1, a, b)") == "if(x > 1, a, b)");
    CHECK(resolve("if(gated, 2, 4) * if(x > 1, a,   b)") == "2 * if(x > 1, a,   b)");
    // The result is a formula of the same value.
    const std::string text = resolve("if(gated, 6, 4) * d_model + if(sharded, 0, ffn) * 2");
    CHECK(text == "6 * d_model + ffn * 2");
    CHECK(value_of(text) == 6 * 768 + 8 * 2);
}

TEST_CASE("TeX of functions and comparisons", "[formula]") {
    CHECK(plain_names("max(a, b + 1)") == "\\max(a, b + 1)");
    CHECK(plain_names("2 * min(a, b)") == "2 \\cdot \\min(a, b)");
    CHECK(plain_names("ceil(x / 2)") == "\\left\\lceil \\frac{x}{2} \\right\\rceil");
    CHECK(plain_names("abs(x - y)") == "\\left| x - y \\right|");
    CHECK(plain_names("a <= b") == "a \\le b");
    CHECK(plain_names("(a != b) + 1") == "(a \\ne b) + 1");
    CHECK(plain_names("if(a > b, a, b)") ==
          "\\begin{cases} a & \\text{if } a > b \\\\ b & \\text{otherwise} \\end{cases}");
    // An if() in the last branch adds its rows to the same cases.
    CHECK(plain_names("if(x, 1, if(y, 2, 3))") ==
          "\\begin{cases} 1 & \\text{if } x \\\\ 2 & \\text{if } y \\\\ 3 & \\text{otherwise} \\end{cases}");
    // With values, the branch taken is written alone: x = -3 is not above y = 0.5.
    CHECK(tex_substituted(parsed("2 * if(x > y, x, y)"), xyz, {}) == "2 \\cdot 0.5");
    // A condition without a value (an unknown name) keeps every case.
    CHECK(tex_substituted(parsed("if(w, x, y)"), xyz, {}).find("cases") != std::string::npos);
}

TEST_CASE("TeX with values substituted", "[formula]") {
    CHECK(tex_substituted(parsed("x^2 + y^2 + z^2"), xyz, {}) == "(-3)^{2} + (0.5)^{2} + 12^{2}");
    CHECK(tex_substituted(parsed("y * x / z"), xyz, {}) == "\\frac{0.5 \\cdot (-3)}{12}");
    const auto grouped = [](const Number& v) { return v == 1024 ? std::string("1{,}024") : v.get_str(); };
    CHECK(tex_substituted(parsed("gpus * 2"), lookup, grouped) == "1{,}024 \\cdot 2");
}

TEST_CASE("perturbations of a sum: each term left out and counted twice", "[formula]") {
    const Node formula = parsed("attention + ffn + embeddings");
    const auto all = perturbations(formula);
    REQUIRE(all.size() == 6);
    CHECK(all[0].id == "term_left_out_attention");
    CHECK(all[1].id == "term_twice_attention");
    CHECK(all[2].id == "term_left_out_ffn");
    CHECK(all[3].id == "term_twice_ffn");
    CHECK(all[5].id == "term_twice_embeddings");
    CHECK(all[2].subject == "ffn");
    CHECK(all[2].child == 1);
    CHECK(all[2].path.empty());
    // attention 4, ffn 8, embeddings 3: 4 + 3 = 7 without ffn, 4 + 16 + 3 = 23 with it twice
    CHECK(value_of(apply(formula, {&all[2]})) == 7);
    CHECK(value_of(apply(formula, {&all[3]})) == 23);
    // two changes at once, paths of the original tree: 8 without attention and embeddings; 8 + 8 - nothing else
    CHECK(value_of(apply(formula, {&all[0], &all[4]})) == 8);
    CHECK(value_of(apply(formula, {&all[0], &all[2], &all[4]})) == 0);
    CHECK(value_of(apply(formula, {&all[0], &all[3]})) == 19); // 16 + 3
    CHECK(independent(all[0], all[4]));
    CHECK_FALSE(independent(all[2], all[3])); // the same term

    CHECK(perturbations(formula, 2).size() == 2);
    CHECK(perturbations(parsed("a + 0")).size() == 2); // a left out or twice; nothing for the 0
    CHECK(perturbations(parsed("a")).empty());
    const auto repeated = perturbations(parsed("a + a"));
    REQUIRE(repeated.size() == 4);
    CHECK(repeated[2].id == "term_left_out_a_2");
    CHECK(repeated[3].id == "term_twice_a_2");
}

TEST_CASE("perturbations of the training-time formula", "[formula]") {
    const Node formula = parsed(k_train_days);
    const auto all = perturbations(formula);
    CHECK(all.size() == 12); // 3 factors of the whole and 3 of the divisor, each left out or inverted
    const Perturbation& mfu = find(all, "factor_inverted_mfu");
    CHECK(mfu.divides);
    CHECK(mfu.path == std::vector<std::size_t>{1});
    CHECK(mfu.child == 2);
    CHECK_FALSE(find(all, "factor_inverted_train_flops").divides);
    CHECK(find(all, "factor_inverted_86400").divides);
    const Perturbation& divisor = find(all, "factor_left_out_gpus_peak_flops_mfu");
    CHECK(divisor.subject == "gpus * peak_flops * mfu");

    // train_flops * mfu / (gpus * peak_flops) / 86400 = 3.15e23 * 9/20 / 3.19488e17 / 86400, so the days times
    // 319488e12 * 86400 are 3.15e23 * 0.45 = 1.4175e23.
    const Number inverted = value_of(apply(formula, {&mfu}));
    CHECK(inverted * Number(mpz_class("319488000000000000")) * 86400 == Number(mpz_class("141750000000000000000000")));
    CHECK(inverted == value_of("train_flops * mfu / (gpus * peak_flops) / 86400"));

    // mfu inverted and 86400 left out: 1.4175e23 / 3.19488e17 seconds taken as days
    const Perturbation& seconds = find(all, "factor_left_out_86400");
    CHECK(independent(mfu, seconds));
    CHECK(value_of(apply(formula, {&mfu, &seconds})) * Number(mpz_class("319488000000000000")) ==
          Number(mpz_class("141750000000000000000000")));

    CHECK_FALSE(independent(divisor, mfu)); // the divisor contains mfu
    CHECK_FALSE(independent(mfu, divisor));
    CHECK_FALSE(independent(mfu, find(all, "factor_left_out_mfu"))); // the same node and child
}

TEST_CASE("a power's exponent dropped", "[formula]") {
    const Node formula = parsed("4 * d_model^2");
    const auto all = perturbations(formula);
    const Perturbation& dropped = find(all, "exponent_dropped_d_model_2");
    CHECK(dropped.subject == "d_model^2");
    CHECK(dropped.path == std::vector<std::size_t>{1});
    CHECK(value_of(formula) == 2359296);                 // 4 * 768^2 = 4 * 589824
    CHECK(value_of(apply(formula, {&dropped})) == 3072); // 4 * 768
    CHECK_FALSE(independent(dropped, find(all, "factor_left_out_d_model_2")));
    CHECK(independent(dropped, find(all, "factor_left_out_4")));
    CHECK(perturbations(parsed("a^1")).empty());
}

TEST_CASE("perturbations reach into a function's arguments, not into conditions", "[formula]") {
    const Node formula = parsed("if(gpus > 1000, 2 * ffn + attention, ffn)");
    const auto all = perturbations(formula);
    std::vector<std::string> ids;
    for (const Perturbation& p : all)
        ids.push_back(p.id);
    // The branch taken: its two terms, each left out or doubled, and the factors of 2 * ffn; nothing of gpus > 1000.
    CHECK(ids == std::vector<std::string>{"term_left_out_2_ffn", "term_twice_2_ffn", "term_left_out_attention",
                                          "term_twice_attention", "factor_left_out_2", "factor_inverted_2",
                                          "factor_left_out_ffn", "factor_inverted_ffn"});
    CHECK(value_of(formula) == 20);                                                 // 2 * 8 + 4
    CHECK(value_of(apply(formula, {&find(all, "term_left_out_attention")})) == 16); // 2 * 8
    CHECK(value_of(apply(formula, {&find(all, "factor_left_out_2")})) == 12);       // 8 + 4
    CHECK(perturbations(parsed("max(a + b, c)")).size() == 4);
    CHECK(perturbations(parsed("a + b > c")).empty());
}

TEST_CASE("identifiers from subjects", "[formula]") {
    CHECK(identifier("2 * d_model") == "2_d_model");
    CHECK(identifier("d_model^2") == "d_model_2");
    CHECK(identifier("gpus * peak_flops * mfu") == "gpus_peak_flops_mfu");
    CHECK(identifier("  Peak FLOPs! ") == "peak_flops");
    CHECK(identifier("a\u00D7b") == "a_b");
    // Nothing left of the subject: a name that says so.
    for (const char* nothing : {"***", ""})
        CHECK(identifier(nothing) == "term");
}

TEST_CASE("values written exactly and rounded", "[formula]") {
    CHECK(exact_decimal(Number(25)) == "25");
    CHECK(exact_decimal(Number(9, 20)) == "0.45");
    CHECK(exact_decimal(Number(-25, 8)) == "-3.125");
    CHECK(exact_decimal(Number(1, 1024)) == "0.0009765625");
    CHECK(exact_decimal(Number(0)) == "0");
    CHECK_FALSE(exact_decimal(Number(1, 3)).has_value());
    CHECK_FALSE(exact_decimal(Number(123456), 5).has_value());

    const Number gpt3_flops(mpz_class("315000000000000000000000"));
    CHECK(rounded(gpt3_flops, 3) == "3.15e23");
    CHECK(rounded(Number(mpz_class("310000000000000000000000")), 3) == "3.10e23");
    CHECK(rounded(Number(253594, 10000), 3) == "25.4");
    CHECK(rounded(Number(123456, 1000000000), 3) == "0.000123"); // 0.000123456
    CHECK(rounded(Number(1234, 100000000), 3) == "1.23e-5");
    CHECK(rounded(Number(mpz_class("10000000000000000")), 1) == "1e16");
    CHECK(rounded(Number(mpz_class("10000000000000000")), 3) == "1.00e16");
    CHECK(rounded(Number(5, 2), 3) == "2.50");
    CHECK(rounded(Number(-2535, 100), 3) == "-25.4"); // half away from zero
    CHECK(rounded(Number(2, 3), 3) == "0.667");
    CHECK(rounded(Number(9996, 1000), 3) == "10.0");
    CHECK(rounded(Number(1234567), 3) == "1230000");
    CHECK(rounded(Number(mpz_class("1999999999999999"), 2), 3) == "1000000000000000"); // 1e15 - 0.5
    CHECK(rounded(Number(0), 3) == "0");

    CHECK(to_double(Number(9, 20)) == 0.45);
    CHECK(to_double(Number(1, 3)) == 1.0 / 3.0);
    CHECK(to_double(Number(-7, 2)) == -3.5);
    CHECK(to_double(gpt3_flops) == 3.15e23);
    CHECK(to_double(Number(mpz_class("1" + std::string(400, '0')))) == HUGE_VAL);
    CHECK(to_double(-Number(mpz_class("1" + std::string(400, '0')))) == -HUGE_VAL);
}

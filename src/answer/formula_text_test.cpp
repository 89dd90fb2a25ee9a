// Formula answers as students type them, plain and TeX: each rewritten text is asserted whole, read back by
// formula::parse, and where the reading matters evaluated, with the value worked out by hand in the comment beside it.

#include <answer/formula_text.hpp>
#include <answer/test_answers.hpp>
#include <formula/test_formulas.hpp>
#include <util/text.hpp>

#include <expected>
#include <map>
#include <random>
#include <string>
#include <string_view>

using Catch::Matchers::Contains;
using headcount::formula::Number;
using namespace headcount::answer;
using namespace headcount::testing;
using namespace headcount::formula::testing;

namespace {

/// What `typed` is rewritten as; fails the test when it is refused or when formula::parse cannot read the result.
std::string rewritten(std::string_view typed) {
    const std::string text = accepted(typed, formula_answer_text(typed));
    INFO("answer '" << std::string(typed) << "' -> '" << text << "'");
    parsed(text);
    return text;
}

/// Why `typed` is refused.
std::string why(std::string_view typed) { return refused(typed, formula_answer_text(typed)); }

/// The value of `typed` with the givens N = 3, T = 5, a = 2, b = 7, x = 64, d_model = 10, layers = 4.
Number value_of(std::string_view typed) {
    static const std::map<std::string, Number, std::less<>> givens{{"N", 3},  {"T", 5},        {"a", 2},     {"b", 7},
                                                                   {"x", 64}, {"d_model", 10}, {"layers", 4}};
    return value_with(parsed(rewritten(typed)), [](std::string_view name) -> const Number* {
        const auto found = givens.find(name);
        return found == givens.end() ? nullptr : &found->second;
    });
}

} // namespace

TEST_CASE("formula answers: plain arithmetic passes through", "[answer][formula_text]") {
    CHECK(rewritten("12*layers*d_model^2") == "12*layers*d_model^2");
    CHECK(rewritten("2 * N * T") == "2*N*T");
    CHECK(rewritten("4*(d_model^2 + d_model)") == "4*(d_model^2+d_model)");
    CHECK(rewritten("sqrt(C/120)") == "sqrt(C/120)");
    CHECK(rewritten("max(a, b)") == "max(a, b)");
    CHECK(rewritten("if(N > 1, 2, 3)") == "if(N > 1, 2, 3)");
    CHECK(rewritten("2**3") == "2^3");
    CHECK(rewritten("2^-1") == "2^-1");
    // The Unicode operators formula::parse reads become ASCII.
    CHECK(rewritten("2·N × T − 1 ÷ a") == "2*N*T-1/a");
    CHECK(rewritten("a ≤ b") == "a <= b");
    // 12 · 4 · 10² = 4,800.
    CHECK(value_of("12*layers*d_model^2") == 4'800);
}

TEST_CASE("formula answers: juxtaposition is a product", "[answer][formula_text]") {
    CHECK(rewritten("2 N T") == "2*N*T");
    CHECK(rewritten("12layers") == "12*layers");
    CHECK(rewritten("2(a+b)") == "2*(a+b)");
    CHECK(rewritten("(a+b)(c+d)") == "(a+b)*(c+d)");
    CHECK(rewritten("N T") == "N*T");
    CHECK(rewritten("N sqrt(x)") == "N*sqrt(x)");
    CHECK(rewritten("d_model^2 L") == "d_model^2*L");
    // A function's name followed by a group is a call, and a longer name is one name.
    CHECK(rewritten("sqrt(x)") == "sqrt(x)");
    CHECK(rewritten("max(a,b) min(a, b)") == "max(a, b)*min(a, b)");
    CHECK(rewritten("NT") == "NT");
    // 2 · 3 · 5 = 30; 2 · (2 + 7) = 18; (2 + 7)(3 + 5) = 72; 12 · 4 = 48.
    CHECK(value_of("2 N T") == 30);
    CHECK(value_of("2(a+b)") == 18);
    CHECK(value_of("(a+b)(N+T)") == 72);
    CHECK(value_of("12layers") == 48);
}

TEST_CASE("formula answers: a number is one token, its exponent only when digits follow the e",
          "[answer][formula_text]") {
    CHECK(rewritten("1e9") == "1e9");
    CHECK(rewritten("3.12e14") == "3.12e14");
    CHECK(rewritten("0.45 x") == "0.45*x");
    CHECK(rewritten("1e-3 N") == "1e-3*N");
    CHECK(rewritten("2e") == "2*e");
    CHECK(rewritten("2ex") == "2*ex");
    CHECK(rewritten(".5 N") == "0.5*N");
    CHECK(rewritten("262{,}656 N") == "262656*N");
    // 3.12 · 10^14 = 312,000,000,000,000; 0.45 · 64 = 28.8 = 144/5.
    CHECK(value_of("3.12e14") == Number(312'000'000'000'000));
    CHECK(value_of("0.45x") == Number(144, 5));
}

TEST_CASE("formula answers: TeX delimiters, operators and fractions", "[answer][formula_text]") {
    for (const char* typed : {"$2 N T$", "$$2 N T$$", "\\(2 N T\\)", "\\[2 N T\\]", "  $ 2N T $ "})
        CHECK(rewritten(typed) == "2*N*T");
    CHECK(rewritten("a \\cdot b \\times N \\ast T \\div x") == "a*b*N*T/x");
    CHECK(rewritten("\\frac{2 N T}{10^9}") == "((2*N*T)/(10^9))");
    CHECK(rewritten("\\frac{a}{b} + \\dfrac{1}{2} + \\tfrac12") == "(a/b)+(1/2)+(1/2)");
    CHECK(rewritten("\\frac{d_{model}}{n_{heads}}") == "(d_model/n_heads)");
    CHECK(rewritten("3 \\times 10^{9}") == "3*10^(9)");
    CHECK(rewritten("x^{a+b}") == "x^(a+b)");
    // 2 · 3 · 5 / 10^9 = 30 / 1,000,000,000 = 3 / 100,000,000.
    CHECK(value_of("\\frac{2 N T}{10^9}") == Number(3, 100'000'000));
    // 1 / (2 · 3) = 1/6, not (1/2) · 3: a fraction's parts are parenthesised.
    CHECK(value_of("\\frac{1}{2N}") == Number(1, 6));
    // 2^(2+7) = 512.
    CHECK(value_of("a^{a+b}") == 512);
}

TEST_CASE("formula answers: TeX roots, logarithms and other functions", "[answer][formula_text]") {
    CHECK(rewritten("\\sqrt{x} + \\sqrt[3]{x} + \\sqrt[2]{x}") == "sqrt(x)+cbrt(x)+sqrt(x)");
    CHECK(rewritten("\\ln N + \\exp(x) + \\log_2 N + \\log_{2}(N) + \\log_{10} x") ==
          "ln(N)+exp(x)+log2(N)+log2(N)+log10(x)");
    CHECK(rewritten("\\max(a, b) + \\min\\left(a, b\\right)") == "max(a, b)+min(a, b)");
    CHECK(rewritten("\\lceil x/2 \\rceil + \\lfloor N \\rfloor") == "ceil(x/2)+floor(N)");
    CHECK(rewritten("\\left\\lceil \\frac{N}{T} \\right\\rceil") == "ceil((N/T))");
    // Without parentheses a function takes the next atom.
    CHECK(rewritten("\\ln N") == "ln(N)");
    CHECK(rewritten("\\sqrt x") == "sqrt(x)");
    CHECK(rewritten("sqrt x + 1") == "sqrt(x)+1");
    CHECK(rewritten("\\sqrt{x} N") == "sqrt(x)*N");
    // √64 + ∛64 = 8 + 4 = 12; ⌈64/5⌉ = ⌈12.8⌉ = 13; ⌊7/2⌋ = 3; log2(64) = 6.
    CHECK(value_of("\\sqrt{x} + \\sqrt[3]{x}") == 12);
    CHECK(value_of("\\left\\lceil \\frac{x}{T} \\right\\rceil") == 13);
    CHECK(value_of("\\lfloor b/a \\rfloor") == 3);
    CHECK(value_of("\\log_2 x") == 6);
}

TEST_CASE("formula answers: TeX names and subscripts", "[answer][formula_text]") {
    CHECK(rewritten("12 L d_{model}^2") == "12*L*d_model^2");
    CHECK(rewritten("$4d_{\\text{model}}^2 + 4 d_{model}$") == "4*d_model^2+4*d_model");
    CHECK(rewritten("d_{\\mathrm{model}} + n_{kv} + d_k + x_{10} + d_\\text{ff}") == "d_model+n_kv+d_k+x_10+d_ff");
    CHECK(rewritten("\\mathrm{d\\_model} + \\text{layers} + \\mathit{N} + d\\_ff") == "d_model+layers+N+d_ff");
    CHECK(rewritten("\\operatorname{ceil}(x) + \\text{d}_k") == "ceil(x)+d_k");
    // 4 · 10² + 4 · 10 = 440.
    CHECK(value_of("$4d_{\\text{model}}^2 + 4 d_{model}$") == 440);
}

TEST_CASE("formula answers: TeX groups and spaces", "[answer][formula_text]") {
    CHECK(rewritten("\\left( a + b \\right) \\left[ N \\right] \\bigl( T \\bigr) \\Bigl(x\\Bigr)") ==
          "(a+b)*(N)*(T)*(x)");
    CHECK(rewritten("[a+b] N") == "(a+b)*N");
    CHECK(rewritten("{a+b} N") == "(a+b)*N");
    CHECK(rewritten("\\{a+b\\} N") == "(a+b)*N");
    CHECK(rewritten("a\\,b\\;N\\!T\\ x~d_model\\quad c") == "a*b*N*T*x*d_model*c");
    CHECK(rewritten("d_{model}{}^2") == "d_model^2");
    // (2 + 7) · 3 = 27.
    CHECK(value_of("\\left[ a + b \\right] N") == 27);
}

TEST_CASE("formula answers: Unicode superscripts, roots and dots", "[answer][formula_text]") {
    CHECK(rewritten("N² + N³ + N¹⁰") == "N^2+N^3+N^10");
    CHECK(rewritten("√x + √(x+1) + ∛x") == "sqrt(x)+sqrt(x+1)+cbrt(x)");
    CHECK(rewritten("a ⋅ b") == "a*b");
    CHECK(rewritten("⌈x/T⌉") == "ceil(x/T)");
    // 3² · 5 = 45; √64 = 8.
    CHECK(value_of("N²T") == 45);
    CHECK(value_of("√x") == 8);
}

TEST_CASE("formula answers: a name given to the answer is dropped", "[answer][formula_text]") {
    CHECK(rewritten("FLOPs = 6*N*D") == "6*N*D");
    CHECK(rewritten("C_{\\text{train}} = 6 N D") == "6*N*D");
    CHECK(rewritten("= 6 N D") == "6*N*D");
    // Anything else left of '=' is kept, for formula::parse to read as a comparison (which a grader refuses).
    CHECK(rewritten("2 N = 3") == "2*N = 3");
}

TEST_CASE("formula answers: ambiguous and unknown writing is refused with a reason", "[answer][formula_text]") {
    CHECK(why("\\foo x") == "\\foo is not a TeX command headcount reads");
    CHECK(why("\\alpha") == "\\alpha is not a TeX command headcount reads");
    CHECK(why("\\log x") == "write \\ln or \\log_2 / \\log_{10}");
    CHECK(why("log(x)") == "write ln, log2 or log10");
    CHECK(why("\\log_3 x") == "headcount reads logarithms to base 2 and 10: \\log_2, \\log_{10}, or \\ln");
    CHECK(why("\\sqrt[4]{x}") == "headcount reads square and cube roots: \\sqrt{x} and \\sqrt[3]{x}");
    // Is a/2N a/(2N) or (a/2)N? People read it both ways, so the student is asked, not guessed for.
    for (const char* typed : {"a/2N", "a/2 N", "a / b (c+d)", "a/2^N T", "a \\div 2 N"})
        CHECK(why(typed) == "a division by a product written without '*' is ambiguous: write a/(b c) or a/b*c");
    CHECK(rewritten("a/(2N)") == "a/(2*N)");
    CHECK(rewritten("a/2*N") == "a/2*N");
    CHECK(rewritten("2N/T") == "2*N/T");
    // Is \ln N^2 ln(N²) or (ln N)²? Is \sqrt 2 N √(2N) or √2·N?
    CHECK(why("\\ln N^2") == "write what \\ln applies to in parentheses, as in \\ln(...)");
    CHECK(why("\\sqrt 2 N") == "write what \\sqrt applies to in parentheses, as in \\sqrt(...)");
    CHECK(why("√x²") == "write what √ applies to in parentheses, as in √(...)");
    CHECK(why("\\max x") == "\\max needs its arguments in parentheses");
    CHECK(why("\\sqrt") == "\\sqrt needs an argument");
    CHECK(why("\\frac{a}") == "\\frac needs its numerator and denominator in braces: \\frac{a}{b}");
    CHECK(why("\\text{num layers}") == "\\text{num layers} is not a name: a name is letters, digits and _");
    CHECK(why("x_{i+1}") == "the subscript of x must be a name, as in d_{model}");
    CHECK(why("2_{3}") == "a subscript (_) must follow a name");
    CHECK(why("$x$ + $y$") == "unexpected character '$'");
    CHECK(why("N π") == "unexpected character 'π'");
    CHECK(why("N!") == "unexpected character '!'");
    CHECK(why("$$") == "the answer has no formula");
    CHECK(why("\xff") == "malformed UTF-8");
}

TEST_CASE("formula answers: unbalanced groups", "[answer][formula_text]") {
    for (const char* typed : {"{a", "a}", "\\frac{a}{b", "{a)", "\\{a"})
        CHECK(why(typed) == "unbalanced braces");
    for (const char* typed : {"(a", "a)", "(a]", "[a"})
        CHECK(why(typed) == "unbalanced parentheses");
    CHECK(why("\\lceil a") == "unbalanced \\lceil \\rceil or \\lfloor \\rfloor");
}

TEST_CASE("formula answers: length and nesting limits", "[answer][formula_text]") {
    // "1" and 399 spaces is exactly 400 bytes and still read; one more byte is refused before anything is read.
    CHECK(rewritten("1" + std::string(399, ' ')) == "1");
    CHECK(why("1" + std::string(400, ' ')) == "answer longer than 400 bytes");
    CHECK(why(std::string(401, '{')) == "answer longer than 400 bytes");
    // 48 groups deep is read, 49 is not; so for functions without parentheses (√√...x) and fractions.
    CHECK(formula_answer_text(std::string(48, '{') + "x" + std::string(48, '}')).has_value());
    const std::string too_deep = "the formula is nested too deeply (more than 48 levels)";
    CHECK(why(std::string(49, '{') + "x" + std::string(49, '}')) == too_deep);
    CHECK(why(std::string(49, '(') + "x" + std::string(49, ')')) == too_deep);
    std::string roots;
    for (int i = 0; i < 49; ++i)
        roots += "\\sqrt ";
    CHECK(why(roots + "x") == too_deep);
    // A fraction is a level, and so is each braced part: 24 fractions in each other's denominators are 48 levels,
    // 25 are 50.
    const auto fractions = [](int count) {
        std::string text;
        for (int i = 0; i < count; ++i)
            text += "\\frac{1}{";
        return text + "2" + std::string(static_cast<std::size_t>(count), '}');
    };
    CHECK(formula_answer_text(fractions(24)).has_value());
    CHECK(why(fractions(25)) == too_deep);
}

TEST_CASE("formula answers: random TeX-like text is read or refused, never thrown", "[answer][formula_text]") {
    // Pieces of every construct, shuffled: each answer must come back, and what is accepted must be a formula
    // formula::parse reads or refuses with a problem (never a crash or a throw).
    const char* pieces[] = {"\\frac", "{", "}", "(",    ")",      "[",  "]",     "\\sqrt", "\\ln", "^",       "_",
                            "N",      "2", " ", "\\,",  "\\left", "+",  "/",     "\\log",  "$",    "\\text{", "d",
                            "√",      "²", "e", "1.5e", "=",      "\\", "\\max", ",",      "\xe2", "\\lceil"};
    std::mt19937 random(20261128);
    std::uniform_int_distribution<std::size_t> piece(0, std::size(pieces) - 1);
    std::uniform_int_distribution<int> length(1, 40);
    for (int round = 0; round < 3000; ++round) {
        std::string typed;
        for (int i = length(random); i > 0; --i)
            typed += pieces[piece(random)];
        INFO(typed);
        std::expected<std::string, std::string> text;
        REQUIRE_NOTHROW(text = formula_answer_text(typed));
        if (text)
            REQUIRE_NOTHROW((void)headcount::formula::parse(*text));
        else
            CHECK_FALSE(text.error().empty());
    }
}

// fuzz/answer found it: a backslash before a broken UTF-8 character was quoted in the reason ("\<0x9a> is not a TeX
// command"), which made the reason itself invalid text. The whole answer is checked first.
TEST_CASE("a formula answer with broken UTF-8 gets a reason that is text", "[answer][formula_text]") {
    const std::string broken = "\\\x9a\x96"
                               "ac{8 d_{\\text{model}}^3}";
    const auto read = formula_answer_text(broken);
    REQUIRE(!read.has_value());
    CHECK(read.error() == "malformed UTF-8");
    CHECK(headcount::is_valid_utf8(read.error()));
}

// fuzz/answer found it too: valid text with a backslash before a two-byte character ("_\×") quoted the first byte
// of the character alone in the reason. A command is the whole character after the '\', as a reader sees it.
TEST_CASE("a backslash before a character that is no letter quotes the whole character", "[answer][formula_text]") {
    const auto read = formula_answer_text("32 × 8 \\× 16");
    REQUIRE(!read.has_value());
    CHECK(headcount::is_valid_utf8(read.error()));
    CHECK(read.error().find("\\×") != std::string::npos); // the character whole, as typed
}

#pragma once
// Instructors' formulas (a spec's `quantities:`): read from the arithmetic students type, evaluated exactly over
// rationals of any size (GMP's mpq_class), written in TeX, and perturbed the ways students slip (derived mistakes).
// Formulas are instructor input: every function here is bounded in size, depth and digits, and never throws.

#include <util/wide.hpp>

#include <gmpxx.h>

#include <cstddef>
#include <expected>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::formula {

/// An exact value: a rational in lowest terms with a positive denominator, of any size.
using Number = mpq_class;

/// Has GMP keep the blocks of small values in lists of free blocks (formula/memory.cpp), instead of malloc and free
/// for each: called by parse() and evaluate(), and safe to call at any time from any thread.
void use_small_block_memory();

/// Longest formula read, in bytes.
inline constexpr std::size_t k_max_formula_bytes = 2000;
/// Deepest nesting of parentheses, signs and powers.
inline constexpr int k_max_formula_depth = 48;
/// Most nodes a formula may have.
inline constexpr std::size_t k_max_nodes = 400;
/// Most decimal digits a numerator or denominator may have, in any value computed along the way.
inline constexpr std::size_t k_max_digits = 3000;

/// One node of a formula. A sum holds terms (each added or subtracted), a product factors (each multiplied or
/// divided), so `a / (b * c) / 86400` is a product of a, ÷(b·c), ÷86400 whose second factor is itself a product.
struct Node {
    enum class Op {
        number,  ///< a literal: `value`, and `text` as written (0.45, 3.12e14, 86400)
        name,    ///< a given or quantity: `text` is the name
        sum,     ///< `children` are the terms; `inverse[i]` marks a subtracted term
        product, ///< `children` are the factors; `inverse[i]` marks a divided factor
        power,   ///< children[0] ^ children[1]
        negate,  ///< -children[0]
        call,    ///< a function of functions() (`text`: its name) of `children`, its arguments
        compare, ///< children[0] `text` children[1], `text` one of < <= > >= == !=: 1 when it holds, else 0
    };
    Op op = Op::number;
    /// For a number, its value (empty for every other node: a rational costs an allocation to make, and a node is
    /// moved through every level of the parser).
    std::optional<Number> value;
    std::string text;           ///< a number as written, or a name
    std::vector<Node> children; ///< see Op
    std::vector<bool> inverse;  ///< for a sum or product, one per child
    bool parenthesized = false; ///< written in parentheses (kept so TeX can show what the instructor wrote)
    int column = 1;             ///< 1-based character column of the node's first character (its '(' if any)
    std::string source;         ///< the node's text as written, trimmed, inside its parentheses ("2 * d_model")
    std::size_t begin = 0;      ///< byte offsets of the node's text in the formula, its parentheses included
    std::size_t end = 0;

    // gmpxx's move of a rational is not noexcept (it may allocate the moved-from value anew), so without these a
    // vector of nodes copies every subtree each time it grows: a third of the parser's time. A failed allocation
    // there ends the program, as it would anywhere else in GMP.
    Node() = default;
    Node(const Node&) = default;
    Node(Node&&) noexcept = default;
    Node& operator=(const Node&) = default;
    Node& operator=(Node&&) noexcept = default;
    ~Node() = default;
};

/// Why a formula could not be read or evaluated, with the 1-based character column it concerns (0: the whole).
struct Problem {
    std::string message;
    int column = 0;
};

/// A function a formula may call, and how many arguments it takes.
struct Function {
    std::string_view name;
    std::size_t min_arguments;
    std::size_t max_arguments;  ///< at least min_arguments; SIZE_MAX for any number
    std::string_view arguments; ///< what it takes, for errors ("a condition, the value when it holds, ...")
};

/// The functions of the formula language: if(condition, then, otherwise), min(a, b, ...), max(a, b, ...), ceil(x),
/// floor(x), abs(x), and the irrational ones of irrational(): sqrt(x), cbrt(x), exp(x), ln(x), log2(x), log10(x).
std::span<const Function> functions();

/// Whether `function` (a name of functions()) may have a value that is not rational: sqrt, cbrt, exp, ln, log2, log10.
bool irrational(std::string_view function);

/// Bits of precision an irrational value is computed to (MPFR, rounding to nearest) before it is made an exact
/// rational: 256 bits, about 77 significant digits, of which at least 40 are right after a few more operations.
inline constexpr long k_irrational_bits = 256;

/// Whether the formula's value may be irrational, so that it is known only to k_irrational_bits: it calls a function
/// of irrational(), or raises to a power whose exponent is not built of whole literals and names with + - * and
/// signs (x^0.5, N^0.34, x^(1/3); a name in an exponent is taken to be whole, as counts are). Checked on the tree
/// alone, for every variant at once.
bool inexact(const Node& formula);

/// Reads a formula: integers and decimals (0.45, 1e9, 3.12e14; decimals are exact), names ([A-Za-z_][A-Za-z0-9_]*),
/// + - − * × · / ÷ ^ (right-associative; ** as well), unary minus, parentheses, the functions of functions() and one
/// comparison (< <= > >= == != = ≤ ≥ ≠, loosest of all: a + b > c compares a + b with c). Fails on anything else,
/// on a function of the wrong arity, on more than k_max_formula_bytes, k_max_formula_depth or k_max_nodes, with a
/// short message and a column.
std::expected<Node, Problem> parse(std::string_view text);

/// The names a formula uses, each once, in the order first met.
std::vector<std::string> names(const Node& formula);
/// The same names as views of `formula`'s nodes, valid while it lives.
std::vector<std::string_view> name_views(const Node& formula);

/// Whether a condition has a value yet: true or false when it does, nullopt when it depends on what is not known.
using Decide = std::function<std::optional<bool>(const Node& condition)>;

/// The formula's text (`text`, the text `formula` was read from) with every if() whose condition `decide` settles
/// written as the branch it takes, in parentheses where the branch needs them: for a problem's settings,
/// "if(gated, 3, 2) * d_model * d_ff" is "3 * d_model * d_ff". The rest is the text as written.
std::string resolved(const Node& formula, std::string_view text, const Decide& decide);

/// The value of a name, or nullptr when there is none (evaluate then fails naming it). The value is read where it
/// lies, not copied: it must stay put while the formula is evaluated, and be in lowest terms (any value GMP computes
/// or a formula reads is).
using Lookup = std::function<const Number*(std::string_view name)>;

/// The formula's value: exact, except that a function of irrational() and a power whose exponent is not whole are
/// computed to k_irrational_bits and made the nearest rational of that many bits, unless their value is rational
/// and cheap to find (sqrt(16/9) = 4/3, log2(8) = 3, 27^(1/3) = 3, exp(0) = 1, ln(1) = 0). Fails on an unknown
/// name, division by zero ("division by zero: (gpus - 1024) is 0"), a value outside a function's domain (the square
/// root of a negative number, the logarithm of one that is not positive, 0 to a negative power, a negative number
/// to a power that is not whole), a value that would pass k_max_digits (checked before it is computed, so 10^10^10
/// and exp(1e9) fail at once), each with the column of the node at fault. if() evaluates only the branch its
/// condition takes (nonzero: the first), so the other may divide by zero.
std::expected<Number, Problem> evaluate(const Node& formula, const Lookup& lookup);

/// How a name is written in TeX (e.g. \mathrm{n\_params} or a quantity's symbol).
using NameTex = std::function<std::string(std::string_view name)>;
/// How a number is written in TeX when substituted (e.g. with thousands separators).
using NumberTex = std::function<std::string(const Number& value)>;

/// The formula in TeX: \cdot for products, \frac{…}{…} for a product with divided factors, ^{…}, parentheses
/// only where precedence needs them; names through `name_tex`, literals as written.
std::string tex(const Node& formula, const NameTex& name_tex);
/// The same with every name replaced by its value (through `number_tex`, parenthesised when negative), and every
/// if() whose condition has a value written as the branch it takes.
std::string tex_substituted(const Node& formula, const Lookup& lookup, const NumberTex& number_tex);

/// One way a student could misread the formula's structure.
struct Perturbation {
    enum class Kind {
        term_left_out,    ///< a term of a sum dropped
        term_twice,       ///< a term of a sum counted twice
        factor_left_out,  ///< a factor of a product dropped (a divided one too)
        factor_inverted,  ///< a factor multiplied where it divides, or divided where it multiplies
        exponent_dropped, ///< a power replaced by its base
        root_left_out,    ///< a square or cube root, sqrt(x) or cbrt(x), replaced by its argument
    };
    Kind kind;
    std::vector<std::size_t> path; ///< child indices from the root to the node whose child is changed
    std::size_t child = 0;         ///< which child of that node (for a power: 0)
    /// For factor_inverted: true when the factor divides in the formula as a whole (an odd number of divisions on
    /// the path from the root to it, its own included: mfu in `f / (g * p * mfu)`), so the student multiplied by it.
    bool divides = false;
    bool subtracted = false; ///< for a term: it is subtracted in its sum (a - b: b)
    std::string subject;     ///< the child's source text ("ffn", "mfu", "2 * d_model * d_ff", "d_model^2")
    /// A stable id: "<kind>_<subject>" with the subject made an identifier ("term_left_out_ffn",
    /// "factor_inverted_mfu", "exponent_dropped_d_model_2", "root_left_out_sqrt_c_120"); a repeated id gets _2, ...
    std::string id;
};

/// Every perturbation of `formula`, in the order of a walk from the left, at most `limit` of them. Leaves out those
/// that cannot change a value: dropping the only term or factor, inverting a literal 1, twice a term of 0.
std::vector<Perturbation> perturbations(const Node& formula, std::size_t limit = 64);

/// Whether two perturbations change different parts of the formula (neither's changed child contains the other's;
/// a dropped exponent changes the whole power, a left-out root the whole call), so that a student could make both.
bool independent(const Perturbation& a, const Perturbation& b);

/// The formula with the perturbations applied (independent of each other).
Node apply(const Node& formula, const std::vector<const Perturbation*>& changes);

/// An identifier made of `text`: lower-case letters, digits and single underscores ("2 * d_model" -> "2_d_model").
std::string identifier(std::string_view text);

/// Exact decimal text when the value has a finite decimal expansion of at most `max_digits` significant digits
/// ("25", "0.45", "-3.125"); otherwise nullopt.
std::optional<std::string> exact_decimal(const Number& value, std::size_t max_digits = 40);
/// The value to `figures` significant figures, as plain decimal text when its exponent is in [-4, 15], else
/// as "3.15e23" ("25.4", "0.000123", "3.15e23"). Exact: rounding half away from zero on the rational itself.
std::string rounded(const Number& value, int figures);
/// The nearest double (±inf past its range).
double to_double(const Number& value);

/// A count as an exact number (any Wide: no digits are lost).
Number to_number(Wide count);
/// The whole number `value` as a count, or nullopt when it is not whole or its magnitude is past k_count_limit.
std::optional<Wide> to_count(const Number& value);

} // namespace headcount::formula

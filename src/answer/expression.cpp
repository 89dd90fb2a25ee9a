#include <answer/parser.hpp>
#include <util/enum_names.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace headcount::answer::detail {

namespace {
constexpr auto k_error_texts = std::to_array<std::string_view>(
    {"the number is too large", "the number is too small (or has too many decimal places)", "division by zero"});
static_assert(names_every(RationalError::division_by_zero, k_error_texts));
} // namespace

std::string describe(RationalError error) {
    return std::string(enum_name(error, k_error_texts, "the number cannot be evaluated"));
}

WordKind AnswerParser::peek_word() const {
    return peek_is(TokenKind::word) ? classify_word(peek().text, m_unit, m_options.noun).kind : WordKind::other;
}

std::string AnswerParser::unexpected_here() const {
    if (peek_is(TokenKind::end))
        return "the answer ends where a number was expected";
    if (peek_is(TokenKind::open) && peek().spaced)
        return fmt::format("a second number at position {}: to multiply, write * or × between the factors",
                           peek().position);
    return fmt::format("unexpected '{}' at position {}", peek().text, peek().position);
}

std::string AnswerParser::too_deep() const {
    return fmt::format("the expression is nested too deeply (more than {} levels) at position {}", k_max_answer_depth,
                       peek().position);
}

Step AnswerParser::expression() {
    auto left = term();
    while (left && peek_is_sign()) {
        const bool minus = advance().kind == TokenKind::minus;
        auto right = term();
        if (!right)
            return right;
        auto sum = minus ? subtract(left->exact, right->exact) : add(left->exact, right->exact);
        if (!sum)
            return std::unexpected(describe(sum.error()));
        left = Value{*sum, std::nullopt, false, false};
    }
    return left;
}

Step AnswerParser::term() {
    auto left = unary();
    while (left && (peek_is(TokenKind::times) || peek_is(TokenKind::divide) || peek_word() == WordKind::multiply ||
                    implicit_product(*left))) {
        // 4(512^2 + 512) multiplies as on paper: the '(' is the next factor, not an operator to skip.
        const bool implicit = implicit_product(*left);
        const Token& op = implicit ? peek() : advance();
        auto right = unary();
        if (!right)
            return right;
        if (op.kind == TokenKind::divide) {
            auto quotient = divide(left->exact, right->exact);
            if (!quotient)
                return std::unexpected(describe(quotient.error()));
            // A count is whole; 513/2 is more likely a slip than an answer, so it is refused, not rounded, unless
            // the caller reads exact fractions (options.wide).
            if (quotient->den != 1 && !m_options.wide)
                return std::unexpected(fmt::format("the division at position {} is not a whole number", op.position));
            left = Value{*quotient, std::nullopt, false, false};
            continue;
        }
        auto product = multiply(left->exact, right->exact);
        if (!product)
            return std::unexpected(describe(product.error()));
        std::optional<Precision> precision;
        if (left->precision && right->is_power_of_ten) { // 1.05 × 10^6: still a mantissa, now scaled
            precision = left->precision;
            precision->scaled = true;
            precision->step *= to_double(right->exact);
        }
        left = Value{*product, precision, false, false};
    }
    return left;
}

// --5 and 2^--1 are typos far more often than double negations, so a sign may not follow a sign.
Step AnswerParser::signed_operand(Step (AnswerParser::*operand)()) {
    const bool minus = advance().kind == TokenKind::minus;
    if (peek_is_sign())
        return std::unexpected(fmt::format("two signs in a row at position {}", peek().position));
    const Nesting nesting(m_depth);
    if (nesting.too_deep())
        return std::unexpected(too_deep());
    auto value = (this->*operand)();
    if (value && minus)
        value->exact = negate(value->exact);
    return value;
}

Step AnswerParser::unary() { return peek_is_sign() ? signed_operand(&AnswerParser::unary) : power(); }

Step AnswerParser::power() {
    auto base = primary();
    if (!base)
        return base;
    auto raised = raise(*base);
    if (!raised)
        return raised;
    return suffixes(*raised);
}

// The exponent of ^ takes no scale word or unit, so 2^10 KiB is (2^10) KiB; it may be signed (10^-3).
Step AnswerParser::exponent() {
    if (peek_is_sign())
        return signed_operand(&AnswerParser::exponent);
    auto base = primary();
    if (!base)
        return base;
    return raise(*base);
}

Step AnswerParser::raise(Value base) {
    if (!peek_is(TokenKind::power))
        return base;
    advance();
    const Nesting nesting(m_depth);
    if (nesting.too_deep())
        return std::unexpected(too_deep());
    const int exponent_position = peek().position;
    auto exponent_value = exponent();
    if (!exponent_value)
        return exponent_value;
    if (exponent_value->exact.den != 1)
        return std::unexpected(fmt::format("the exponent at position {} is not a whole number", exponent_position));
    auto result = detail::power(base.exact, exponent_value->exact.num);
    if (!result)
        return std::unexpected(describe(result.error()));
    return Value{*result, std::nullopt, false, base.is_ten};
}

// A parenthesis touching its factor multiplies (4(512^2+512)); after a space it does only when the factor is a
// small number as written (4 (512^2+512)), since "1050624 (4*262656)" is an answer with its working, not a product.
bool AnswerParser::implicit_product(const Value& left) const {
    if (!peek_is(TokenKind::open) && !peek_is(TokenKind::frac))
        return false;
    const bool small_factor = left.precision && left.exact.den == 1 && left.exact.num > -1000 && left.exact.num < 1000;
    return !peek().spaced || small_factor;
}

Step AnswerParser::primary() {
    if (peek_is(TokenKind::number))
        return literal(advance());
    if (peek_is(TokenKind::frac)) { // \frac{a}{b}: two groups, divided
        const Token& frac = advance();
        auto numerator = primary();
        if (!numerator)
            return numerator;
        auto denominator = primary();
        if (!denominator)
            return denominator;
        auto quotient = divide(numerator->exact, denominator->exact);
        if (!quotient)
            return std::unexpected(describe(quotient.error()));
        if (quotient->den != 1 && !m_options.wide)
            return std::unexpected(fmt::format("the fraction at position {} is not a whole number", frac.position));
        return Value{*quotient, std::nullopt, false, false};
    }
    if (!peek_is(TokenKind::open))
        return std::unexpected(unexpected_here());
    const Token& open = advance();
    const Nesting nesting(m_depth);
    if (nesting.too_deep())
        return std::unexpected(too_deep());
    auto inner = expression();
    if (!inner)
        return inner;
    if (!peek_is(TokenKind::close))
        return std::unexpected(peek_is(TokenKind::end)
                                   ? fmt::format("missing ')' for the '(' at position {}", open.position)
                                   : unexpected_here());
    advance();
    return Value{inner->exact, std::nullopt, false, false};
}

Step AnswerParser::literal(const Token& token) {
    const NumberLiteral& n = token.number;
    Value out;
    if (n.digits != 0) { // 0e999 is zero, not an overflow of 10^999
        auto scale = detail::power(Rational{10, 1}, static_cast<Wide>(n.exponent) - n.decimals);
        if (!scale)
            return std::unexpected(describe(scale.error()));
        auto value = multiply(Rational{n.digits, 1}, *scale);
        if (!value)
            return std::unexpected(describe(value.error()));
        out.exact = *value;
    }
    // Without a point, trailing zeros are not significant, as in a plain 1,050,000: 110M is two figures (a
    // step of 10M), while 110.0M is four.
    int trailing = 0;
    if (!n.has_point && n.digits != 0)
        for (Wide d = n.digits; d % 10 == 0; d /= 10)
            ++trailing;
    out.precision = Precision{std::max(n.significant - trailing, 1), std::pow(10.0, n.exponent - n.decimals + trailing),
                              n.has_point, n.has_exponent};
    out.is_ten = n.digits == 10 && !n.has_point && !n.has_exponent;
    return out;
}

} // namespace headcount::answer::detail

#pragma once
// The answer parser shared by answer.cpp (the answer around the number: markers, scale words, units, the
// result) and answer_expression.cpp (the arithmetic). Internal to grade.

#include <answer/answer.hpp>
#include <answer/lexer.hpp>
#include <answer/rational.hpp>
#include <answer/words.hpp>

#include <expected>
#include <optional>
#include <span>
#include <string>

namespace headcount::answer::detail {

/// How precisely a literal was written. It survives a sign, a scale word, a unit and "× 10^k", so 1.05M and
/// 1.05 × 10^6 both keep three significant figures; any other operation makes the value exact.
struct Precision {
    int significant = 0;
    double step = 1; // place value of the last digit written
    bool has_point = false;
    bool scaled = false;
};

/// A value met while parsing: exact, with the precision of the literal it still is (if it is one).
struct Value {
    Rational exact;
    std::optional<Precision> precision;
    bool is_ten = false;          // the bare literal 10, a candidate base for × 10^k
    bool is_power_of_ten = false; // 10^k, which scales a mantissa rather than computing with it
};

/// A parsed value, or the reason there is none.
using Step = std::expected<Value, std::string>;

/// The reason shown for a failed exact operation.
std::string describe(RationalError error);

/// Counts one level of parentheses, signs or exponents for as long as it lives.
class Nesting {
  public:
    explicit Nesting(int& depth) : m_depth(depth) { ++m_depth; }
    ~Nesting() { --m_depth; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    [[nodiscard]] bool too_deep() const { return m_depth > k_max_answer_depth; }

  private:
    int& m_depth;
};

/// Recursive descent over the tokens, loosest first: + -, then * × · x /, then a unary sign, then ^ (right-
/// associative; its exponent may carry a sign), then numbers and parentheses with their scale word and unit.
class AnswerParser {
  public:
    AnswerParser(std::span<const Token> tokens, AnswerUnit unit, ParseOptions options)
        : m_tokens(tokens), m_unit(unit), m_options(options) {}

    /// The whole answer, ['='] [approximation marker] expression [count noun] ['.'], or why it is not one.
    std::expected<ParsedAnswer, std::string> answer();

  private:
    const Token& peek() const { return m_tokens[m_next]; }
    const Token& advance() { return m_tokens[m_next < m_tokens.size() - 1 ? m_next++ : m_next]; }
    bool peek_is(TokenKind kind) const { return peek().kind == kind; }
    bool peek_is_sign() const { return peek_is(TokenKind::plus) || peek_is(TokenKind::minus); }
    WordKind peek_word() const;
    std::string unexpected_here() const;
    bool implicit_product(const Value& left) const;
    void skip_trailing_words();
    bool skip_noun_tail(); ///< true when it read a rate's "/s" (or another unit of time after "/")
    std::optional<std::string> byte_rate_tail();
    std::string wrong_kind(const Token& word, std::string_view kind) const;
    std::optional<std::string> unit_word(const Token& word, const WordMeaning& meaning) const;
    Step percent(Value value);
    std::string too_deep() const;

    Step expression();
    Step term();
    Step signed_operand(Step (AnswerParser::*operand)());
    Step unary();
    Step power();
    Step exponent();
    Step raise(Value base);
    Step primary();
    Step literal(const Token& token);
    Step suffixes(Value value);
    Step scale_by(Value value, Rational factor);
    std::expected<ParsedAnswer, std::string> finish(const Value& value, ParsedAnswer out) const;

    std::span<const Token> m_tokens;
    std::size_t m_next = 0;
    AnswerUnit m_unit;
    ParseOptions m_options;
    int m_depth = 0;
    std::string m_unit_text;
};

} // namespace headcount::answer::detail

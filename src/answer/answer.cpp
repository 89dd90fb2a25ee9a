#include <answer/answer.hpp>

#include <answer/parser.hpp>

#include <fmt/format.h>

#include <cctype>
#include <limits>

namespace headcount::answer {

namespace detail {

std::expected<ParsedAnswer, std::string> AnswerParser::answer() {
    ParsedAnswer out;
    if (peek_is(TokenKind::end))
        return std::unexpected("empty answer");
    if (peek_is(TokenKind::equals)) // pasted from a spreadsheet cell
        advance();
    if (peek_is(TokenKind::approx) || peek_word() == WordKind::approx_marker) {
        out.approximate = true;
        if (advance().kind == TokenKind::word && peek_is(TokenKind::dot)) // "approx."
            advance();
    }
    auto value = expression();
    if (!value)
        return std::unexpected(value.error());
    skip_trailing_words();
    if (peek_is(TokenKind::dot)) // a sentence's full stop
        advance();
    if (!peek_is(TokenKind::end))
        return std::unexpected(unexpected_here());
    return finish(*value, std::move(out));
}

// "parameters", "learnable parameters in total", "weights and biases", "FLOPs": what a count is of, said after it.
void AnswerParser::skip_trailing_words() {
    while (peek_word() == WordKind::count_noun || peek_word() == WordKind::filler)
        advance();
}

// After a number, parenthesis or power: an optional scale word (1.05 million) then an optional unit (16 MiB).
Step AnswerParser::suffixes(Value value) {
    if (peek_is(TokenKind::word)) {
        const WordMeaning scale = classify_word(peek().text, m_unit);
        if (scale.kind == WordKind::ambiguous_prefix) {
            const char prefix = static_cast<char>(std::toupper(static_cast<unsigned char>(peek().text[0])));
            return std::unexpected(fmt::format("'{}' at position {} is ambiguous for bytes: write {}B or {}iB",
                                               peek().text, peek().position, prefix, prefix));
        }
        if (scale.kind == WordKind::scale) {
            advance();
            auto scaled = scale_by(std::move(value), scale.factor);
            if (!scaled)
                return scaled;
            value = *scaled;
        }
    }
    if (!peek_is(TokenKind::word))
        return value;
    const Token& word = peek();
    const WordMeaning unit = classify_word(word.text, m_unit);
    if (unit.kind == WordKind::bits_unit)
        return std::unexpected(
            m_unit == AnswerUnit::count
                ? fmt::format("this part's answer is a count, not bits ('{}' at position {})", word.text, word.position)
                : fmt::format("'{}' at position {} is bits; this answer is in bytes (1 byte = 8 bits)", word.text,
                              word.position));
    if (unit.kind != WordKind::bytes_unit)
        return value;
    if (m_unit == AnswerUnit::count)
        return std::unexpected(
            fmt::format("this part's answer is a count, not bytes ('{}' at position {})", word.text, word.position));
    if (!m_unit_text.empty())
        return std::unexpected(fmt::format("a second unit '{}' at position {}", word.text, word.position));
    advance();
    m_unit_text = unit.unit;
    return unit.factor == 1 ? Step(std::move(value)) : scale_by(std::move(value), unit.factor);
}

Step AnswerParser::scale_by(Value value, Wide factor) {
    auto product = multiply(value.exact, Rational{factor, 1});
    if (!product)
        return std::unexpected(describe(product.error()));
    value.exact = *product;
    if (value.precision) {
        value.precision->scaled = true;
        value.precision->step *= static_cast<double>(factor);
    }
    value.is_ten = false;
    value.is_power_of_ten = false;
    return value;
}

std::expected<ParsedAnswer, std::string> AnswerParser::finish(const Value& value, ParsedAnswer out) const {
    // Counts are 64-bit, so anything past INT64_MAX in magnitude, whole or not, cannot be an answer.
    const Rational& r = value.exact;
    const Wide magnitude = r.num < 0 ? -r.num : r.num;
    const Wide whole = magnitude / r.den;
    const Wide max = std::numeric_limits<Count>::max();
    if (whole > max || (whole == max && magnitude % r.den != 0))
        return std::unexpected(r.num < 0 ? "the number is too far below zero (under -9,223,372,036,854,775,807)"
                                         : "the number is too large (over 9,223,372,036,854,775,807)");
    if (r.den == 1)
        out.integer = static_cast<Count>(r.num);
    out.value = to_double(r);
    out.literal = value.precision.has_value();
    if (value.precision && (value.precision->scaled || value.precision->has_point)) {
        out.significant_figures = value.precision->significant;
        out.resolution = value.precision->step;
    }
    out.unit = m_unit_text;
    return out;
}

} // namespace detail

std::expected<ParsedAnswer, std::string> parse_answer(std::string_view text, AnswerUnit unit) {
    if (text.size() > k_max_answer_bytes)
        return std::unexpected(fmt::format("answer longer than {} bytes", k_max_answer_bytes));
    auto tokens = detail::lex_answer(text);
    if (!tokens)
        return std::unexpected(tokens.error());
    return detail::AnswerParser(*tokens, unit).answer();
}

} // namespace headcount::answer

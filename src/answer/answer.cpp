#include <answer/answer.hpp>

#include <answer/parser.hpp>

#include <util/text.hpp>

#include <fmt/format.h>

#include <cctype>
#include <limits>
#include <optional>
#include <string_view>

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

// "parameters", "learnable parameters in total", "weights and biases", "FLOPs", "FLOP/s", "GPU-hours": what a count
// is of, said after it.
void AnswerParser::skip_trailing_words() {
    while (peek_word() == WordKind::count_noun || peek_word() == WordKind::filler) {
        const bool noun = peek_word() == WordKind::count_noun;
        const bool flop = ascii_lowered(peek().text).starts_with("flop");
        advance();
        // The rest of the part's own unit: "296.8 tokens per parameter".
        if (noun && peek_is(TokenKind::word) && ascii_lowered(peek().text) == "per" &&
            m_tokens[m_next + 1].kind == TokenKind::word && per_tail_of(m_tokens[m_next + 1].text, m_options.noun)) {
            advance();
            advance();
            continue;
        }
        const bool rate = noun && skip_noun_tail();
        if (flop && m_unit_text.empty()) // FLOPs or FLOP/s written out: the value is in them, not the part's unit
            m_unit_text = rate ? "FLOP/s" : "FLOPs";
    }
}

// After a count's noun, the unit of time that makes it a rate or a product: FLOP/s, tokens/sec, GPU-hours. The
// unit of time belongs to the noun here, so a count may carry it. The hyphen must touch both words.
bool AnswerParser::skip_noun_tail() {
    const bool per = peek_is(TokenKind::divide);
    const bool hyphen = peek_is(TokenKind::minus) && !peek().spaced;
    if (!per && !hyphen)
        return false;
    const Token& next = m_tokens[m_next + 1]; // exists: the current token is not the final end
    if (next.kind != TokenKind::word || classify_word(next.text, m_unit).kind != WordKind::time_unit ||
        (hyphen && next.spaced))
        return false;
    advance();
    advance();
    return per;
}

// After a unit of bytes, "/s" (or another unit of time) makes it a rate: 3.35 TB/s. Only seconds are read, as
// bandwidth is quoted; the rate's unit is the bytes' with "/s".
std::optional<std::string> AnswerParser::byte_rate_tail() {
    if (!peek_is(TokenKind::divide) || m_tokens[m_next + 1].kind != TokenKind::word)
        return std::nullopt;
    const Token& next = m_tokens[m_next + 1];
    const WordMeaning time = classify_word(next.text, m_unit);
    if (time.kind != WordKind::time_unit)
        return std::nullopt;
    if (time.unit != "s")
        return fmt::format("write a rate of bytes per second ('{}' at position {})", next.text, next.position);
    advance();
    advance();
    m_unit_text += "/s";
    return std::string();
}

// "this part's answer is a count, not bytes ('MiB' at position 4)".
std::string AnswerParser::wrong_kind(const Token& word, std::string_view kind) const {
    std::string_view what = "a count";
    switch (m_unit) {
    case AnswerUnit::count:
        break;
    case AnswerUnit::bytes:
        what = "in bytes";
        break;
    case AnswerUnit::time:
        what = "a time";
        break;
    case AnswerUnit::plain:
        what = "a plain number";
        break;
    }
    return fmt::format("this part's answer is {}, not {} ('{}' at position {})", what, kind, word.text, word.position);
}

// Why a unit word does not belong to this answer, or nothing when it does or is no unit at all.
std::optional<std::string> AnswerParser::unit_word(const Token& word, const WordMeaning& meaning) const {
    if (meaning.kind == WordKind::bits_unit)
        return m_unit == AnswerUnit::bytes
                   ? fmt::format("'{}' at position {} is bits; this answer is in bytes (1 byte = 8 bits)", word.text,
                                 word.position)
                   : wrong_kind(word, "bits");
    if (meaning.kind == WordKind::bytes_unit && m_unit != AnswerUnit::bytes)
        return wrong_kind(word, "bytes");
    if (meaning.kind == WordKind::time_unit && m_unit != AnswerUnit::time)
        return wrong_kind(word, "a time");
    return std::nullopt;
}

// After a number, parenthesis or power: an optional scale word (1.05 million) then an optional unit (16 MiB,
// 2.5 million seconds, 45%).
Step AnswerParser::suffixes(Value value) {
    if (peek_is(TokenKind::word)) {
        const Token& word = peek();
        const WordMeaning scale = classify_word(word.text, m_unit);
        if (scale.kind == WordKind::ambiguous_prefix) {
            const char prefix = static_cast<char>(std::toupper(static_cast<unsigned char>(word.text[0])));
            return std::unexpected(fmt::format("'{}' at position {} is ambiguous for bytes: write {}B or {}iB",
                                               word.text, word.position, prefix, prefix));
        }
        if (scale.kind == WordKind::scale) {
            advance();
            // In a time, 90 m may mean minutes: M is million only before a unit of time (2.5M s).
            if (m_unit == AnswerUnit::time && (word.text == "m" || word.text == "M") &&
                peek_word() != WordKind::time_unit)
                return std::unexpected(
                    fmt::format("'{}' at position {} is ambiguous in a time: write min for minutes or million",
                                word.text, word.position));
            auto scaled = scale_by(std::move(value), Rational{scale.factor, 1});
            if (!scaled)
                return scaled;
            value = *scaled;
            if (scale.noun) // 312 TFLOP/s: the value is then in FLOPs (per second), whatever the part's unit
                m_unit_text = skip_noun_tail() ? "FLOP/s" : "FLOPs";
        }
    }
    if (peek_is(TokenKind::percent) || peek_word() == WordKind::percent)
        return percent(std::move(value));
    if (!peek_is(TokenKind::word))
        return value;
    const Token& word = peek();
    const WordMeaning unit = classify_word(word.text, m_unit);
    if (auto refused = unit_word(word, unit))
        return std::unexpected(*refused);
    if (unit.kind != WordKind::bytes_unit && unit.kind != WordKind::time_unit)
        return value;
    if (!m_unit_text.empty())
        return std::unexpected(fmt::format("a second unit '{}' at position {}", word.text, word.position));
    advance();
    m_unit_text = unit.unit;
    if (unit.kind == WordKind::bytes_unit)
        if (auto refused = byte_rate_tail(); refused && !refused->empty())
            return std::unexpected(*refused);
    const Rational factor{unit.factor, unit.divisor};
    return unit.factor == 1 && unit.divisor == 1 ? Step(std::move(value)) : scale_by(std::move(value), factor);
}

// A plain answer's % or "percent": hundredths, so 45% is 0.45 and keeps the figures of its 45.
Step AnswerParser::percent(Value value) {
    const Token& sign = peek();
    if (!m_unit_text.empty())
        return std::unexpected(fmt::format("a second unit '{}' at position {}", sign.text, sign.position));
    advance();
    m_unit_text = "%";
    return scale_by(std::move(value), Rational{1, 100});
}

Step AnswerParser::scale_by(Value value, Rational factor) {
    auto product = multiply(value.exact, factor);
    if (!product)
        return std::unexpected(describe(product.error()));
    value.exact = *product;
    if (value.precision) {
        value.precision->scaled = true;
        value.precision->step *= to_double(factor);
    }
    value.is_ten = false;
    value.is_power_of_ten = false;
    return value;
}

std::expected<ParsedAnswer, std::string> AnswerParser::finish(const Value& value, ParsedAnswer out) const {
    // Counts reach 10^36 (k_count_limit), the rational's own bound, so every whole value read is a count.
    const Rational& r = value.exact;
    if (r.den == 1)
        out.integer = r.num;
    out.exact = Fraction{r.num, r.den};
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

std::expected<ParsedAnswer, std::string> parse_answer(std::string_view text, AnswerUnit unit, ParseOptions options) {
    if (text.size() > k_max_answer_bytes)
        return std::unexpected(fmt::format("answer longer than {} bytes", k_max_answer_bytes));
    // Only a plain number reads %; elsewhere it stays the unexpected character it always was.
    auto tokens = detail::lex_answer(text, unit == AnswerUnit::plain);
    if (!tokens)
        return std::unexpected(tokens.error());
    return detail::AnswerParser(*tokens, unit, options).answer();
}

} // namespace headcount::answer

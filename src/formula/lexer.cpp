// The formula reader's lexer: UTF-8 in, tokens with 1-based code-point columns out. Numbers get their exact
// value here, built from their digits (never through a double, and never past k_max_digits).

#include <formula/lexer.hpp>

#include <util/utf8.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace headcount::formula::detail {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

/// A number's value from its digits: exact, and refused past k_max_digits rather than computed.
std::expected<Number, std::string> number_value(std::string_view mantissa, long exponent) {
    std::size_t first = 0;
    while (first < mantissa.size() && mantissa[first] == '0')
        ++first;
    mantissa.remove_prefix(first);
    if (mantissa.empty())
        return Number(0);
    if ((exponent > 0 && mantissa.size() + static_cast<std::size_t>(exponent) > k_max_digits) ||
        (exponent < 0 && static_cast<std::size_t>(-exponent) > k_max_digits))
        return std::unexpected(fmt::format("the number has more than {} digits", k_max_digits));
    mpz_class digits;
    if (mpz_set_str(digits.get_mpz_t(), std::string(mantissa).c_str(), 10) != 0)
        return std::unexpected("not a number");
    mpz_class scale;
    mpz_ui_pow_ui(scale.get_mpz_t(), 10, static_cast<unsigned long>(exponent < 0 ? -exponent : exponent));
    Number value = exponent < 0 ? Number(digits, scale) : Number(digits * scale);
    value.canonicalize();
    return value;
}

class Lexer {
  public:
    explicit Lexer(std::string_view text) : m_text(text) {}

    std::expected<std::vector<Token>, Problem> run() {
        std::vector<Token> tokens;
        tokens.reserve(m_text.size() / 2 + 2); // at most a token per character and the end: rarely more than half
        while (m_at < m_text.size()) {
            const char c = m_text[m_at];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
                step(1);
                continue;
            }
            Token token{
                .kind = Tok::end, .begin = m_at, .end = m_at, .column = m_column, .value = {}, .comparison = {}};
            if (is_digit(c)) {
                auto value = number();
                if (!value)
                    return std::unexpected(value.error());
                token.kind = Tok::number;
                token.value = std::move(*value);
            } else if (is_name_start(c)) {
                std::size_t length = 0;
                while (m_at + length < m_text.size() && is_name_char(m_text[m_at + length]))
                    ++length;
                token.kind = Tok::name;
                step(length);
            } else if (auto comparison = comparison_at(); !comparison.empty()) {
                token.kind = Tok::compare;
                token.comparison = comparison;
            } else if (auto kind = symbol(c)) {
                const bool double_star = c == '*' && m_at + 1 < m_text.size() && m_text[m_at + 1] == '*';
                token.kind = double_star ? Tok::power : *kind;
                step(double_star ? 2 : 1);
            } else {
                const auto [code, length] = decode_utf8_at(m_text, m_at);
                if (length == 0)
                    return std::unexpected(Problem{"malformed UTF-8", m_column});
                if (code == 0xA0 || code == 0x2009 || code == 0x202F) { // no-break and thin spaces
                    step(length);
                    continue;
                }
                token.kind = code == 0x2212                                       ? Tok::minus
                             : code == 0xD7 || code == 0xB7                       ? Tok::times
                             : code == 0xF7                                       ? Tok::divide
                             : code == 0x2264 || code == 0x2265 || code == 0x2260 ? Tok::compare
                                                                                  : Tok::end;
                token.comparison = code == 0x2264 ? "<=" : code == 0x2265 ? ">=" : code == 0x2260 ? "!=" : "";
                if (token.kind == Tok::end)
                    return std::unexpected(Problem{unexpected_character(code, length), m_column});
                step(length);
            }
            token.end = m_at;
            tokens.push_back(std::move(token));
        }
        tokens.push_back(
            Token{.kind = Tok::end, .begin = m_at, .end = m_at, .column = m_column, .value = {}, .comparison = {}});
        return tokens;
    }

  private:
    std::string_view m_text;
    std::size_t m_at = 0;
    int m_column = 1;

    void step(std::size_t bytes) {
        for (std::size_t k = 0; k < bytes; ++k, ++m_at)
            if ((static_cast<unsigned char>(m_text[m_at]) & 0xC0) != 0x80)
                ++m_column;
    }

    static std::optional<Tok> symbol(char c) {
        switch (c) {
        case '+':
            return Tok::plus;
        case '-':
            return Tok::minus;
        case '*':
            return Tok::times;
        case '/':
            return Tok::divide;
        case '^':
            return Tok::power;
        case '(':
            return Tok::lparen;
        case ')':
            return Tok::rparen;
        case ',':
            return Tok::comma;
        default:
            return std::nullopt;
        }
    }

    /// A comparison operator at the current position, read and stepped over: < <= > >= == != and = for ==; "" when
    /// there is none. A lone '!' is no operator.
    std::string_view comparison_at() {
        const char c = m_text[m_at];
        const bool equals_next = m_at + 1 < m_text.size() && m_text[m_at + 1] == '=';
        std::string_view found;
        if (c == '<')
            found = equals_next ? "<=" : "<";
        else if (c == '>')
            found = equals_next ? ">=" : ">";
        else if (c == '=')
            found = "==";
        else if (c == '!' && equals_next)
            found = "!=";
        if (!found.empty())
            step(equals_next ? 2 : 1);
        return found;
    }

    std::string unexpected_character(char32_t code, std::size_t length) const {
        if (code >= 0x20 && code != 0x7F)
            return fmt::format("unexpected character '{}'", m_text.substr(m_at, length));
        return fmt::format("unexpected character U+{:04X}", static_cast<unsigned>(code));
    }

    std::size_t digits_from(std::size_t at) const {
        std::size_t end = at;
        while (end < m_text.size() && is_digit(m_text[end]))
            ++end;
        return end;
    }

    // digits [. digits] [e|E [+|-] digits]; an 'e' not followed by digits is left for the next token.
    std::expected<Number, Problem> number() {
        const std::size_t start = m_at;
        const int column = m_column;
        std::size_t end = digits_from(start);
        std::string mantissa(m_text.substr(start, end - start));
        long exponent = 0;
        if (end < m_text.size() && m_text[end] == '.') {
            const std::size_t fraction_end = digits_from(end + 1);
            if (fraction_end == end + 1) {
                step(end + 1 - start);
                return std::unexpected(Problem{"expected a digit after '.'", m_column});
            }
            mantissa += m_text.substr(end + 1, fraction_end - end - 1);
            exponent = -static_cast<long>(fraction_end - end - 1);
            end = fraction_end;
        }
        if (end < m_text.size() && (m_text[end] == 'e' || m_text[end] == 'E')) {
            std::size_t at = end + 1;
            const bool negative = at < m_text.size() && m_text[at] == '-';
            if (at < m_text.size() && (m_text[at] == '-' || m_text[at] == '+'))
                ++at;
            const std::size_t exponent_end = digits_from(at);
            if (exponent_end > at) {
                long written = 0;
                for (std::size_t k = at; k < exponent_end; ++k)
                    written = std::min(written * 10 + (m_text[k] - '0'), 100'000'000L);
                exponent += negative ? -written : written;
                end = exponent_end;
            }
        }
        step(end - start);
        auto value = number_value(mantissa, exponent);
        if (!value)
            return std::unexpected(Problem{value.error(), column});
        return std::move(*value);
    }
};

} // namespace

std::expected<std::vector<Token>, Problem> lex(std::string_view text) { return Lexer(text).run(); }

} // namespace headcount::formula::detail

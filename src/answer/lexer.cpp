// The tokenizer lexer.hpp describes. Just over ~400 lines: one scanner, with every kind of token beside the others.
#include <answer/lexer.hpp>

#include <util/utf8.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>

namespace headcount::answer::detail {

namespace {

constexpr char32_t k_no_char = 0xFFFFFFFF;

bool is_digit(char32_t c) { return c >= '0' && c <= '9'; }
bool is_letter(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// The micro sign and the Greek mu, which spell µs; read as letters so that the unit is one word.
bool is_micro(char32_t c) { return c == 0x00B5 || c == 0x03BC; }
bool is_word_char(char32_t c) { return is_letter(c) || is_micro(c); }
bool is_hex_digit(char32_t c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// Spaces that may also group digits (1 050 624): ASCII, no-break, thin and narrow no-break.
bool is_group_space(char32_t c) { return c == ' ' || c == 0x00A0 || c == 0x2009 || c == 0x202F; }
bool is_space(char32_t c) { return is_group_space(c) || c == '\t' || c == '\n' || c == '\r'; }

// 0-9 for superscript digits, -1 otherwise; they are scattered over Latin-1 and U+2070.
int superscript_digit(char32_t c) {
    switch (c) {
    case 0x2070:
        return 0;
    case 0x00B9:
        return 1;
    case 0x00B2:
        return 2;
    case 0x00B3:
        return 3;
    default:
        return (c >= 0x2074 && c <= 0x2079) ? static_cast<int>(c - 0x2070) : -1;
    }
}

std::string separator_name(char32_t c) {
    switch (c) {
    case ' ':
        return "space";
    case 0x00A0:
        return "no-break space";
    case 0x2009:
        return "thin space";
    case 0x202F:
        return "narrow no-break space";
    default:
        return fmt::format("'{}'", static_cast<char>(c));
    }
}

// Spaces of every kind count as one style of separator; ',' and '_' are each their own.
char32_t separator_style(char32_t c) { return is_group_space(c) ? U' ' : c; }

class Lexer {
  public:
    Lexer(std::string_view text, std::vector<CodePoint> points, bool percent)
        : m_text(text), m_points(std::move(points)), m_percent(percent) {}

    std::expected<std::vector<Token>, std::string> run();

  private:
    char32_t at(std::size_t i) const { return i < m_points.size() ? m_points[i].value : k_no_char; }
    std::string slice(std::size_t from, std::size_t to) const;
    static int position(std::size_t i) { return static_cast<int>(i) + 1; }
    void push(TokenKind kind, std::size_t from, std::size_t to);
    std::expected<void, std::string> number();
    std::expected<void, std::string> group_separator(std::size_t group_digits, char32_t& style);
    std::expected<void, std::string> exponent(NumberLiteral& literal);
    std::expected<void, std::string> superscript();
    std::optional<TokenKind> operator_at(std::size_t& length) const;
    std::expected<void, std::string> command();
    std::size_t separator_length() const;

    std::string_view m_text;
    std::vector<CodePoint> m_points;
    bool m_percent = false; ///< '%' is a token, not an unexpected character
    std::size_t m_i = 0;
    std::vector<Token> m_tokens;
    struct Brace {
        bool group = true;  ///< a TeX group (read as parentheses), or the braces of \text{...} and its kin
        std::size_t at = 0; ///< where it opened
    };
    std::vector<Brace> m_braces; ///< open TeX braces, innermost last
    bool m_spaced = false;       ///< whitespace since the last token
};

std::string Lexer::slice(std::size_t from, std::size_t to) const {
    const std::size_t begin = from < m_points.size() ? m_points[from].offset : m_text.size();
    const std::size_t end = to < m_points.size() ? m_points[to].offset : m_text.size();
    return std::string(m_text.substr(begin, end - begin));
}

void Lexer::push(TokenKind kind, std::size_t from, std::size_t to) {
    m_tokens.push_back(Token{kind, position(from), slice(from, to), {}});
}

std::optional<TokenKind> Lexer::operator_at(std::size_t& length) const {
    length = 1;
    switch (at(m_i)) {
    case '+':
        return TokenKind::plus;
    case '-':
    case 0x2212:
        return TokenKind::minus;
    case '*':
        if (at(m_i + 1) == '*') {
            length = 2;
            return TokenKind::power;
        }
        return TokenKind::times;
    case 0x00D7:
    case 0x00B7:
    case 0x22C5:
    case 0x2219:
        return TokenKind::times; // × · ⋅ ∙
    case '/':
    case 0x00F7:
        return TokenKind::divide;
    case '^':
        return TokenKind::power;
    case '(':
        return TokenKind::open;
    case ')':
        return TokenKind::close;
    case '=':
        return TokenKind::equals;
    case '~':
    case 0x2248:
    case 0x2243:
    case 0x223C:
        return TokenKind::approx; // ~ ≈ ≃ ∼
    case '.':
        return TokenKind::dot;
    default:
        return std::nullopt;
    }
}

std::expected<std::vector<Token>, std::string> Lexer::run() {
    while (m_i < m_points.size()) {
        const char32_t c = at(m_i);
        const std::size_t tokens = m_tokens.size();
        if (is_space(c) || c == '$') { // $...$ and $$...$$ only say "this is math"
            m_spaced = m_spaced || is_space(c);
            ++m_i;
        } else if (c == '\\') {
            if (auto done = command(); !done)
                return std::unexpected(done.error());
        } else if (c == '{' || c == '}') {
            // A '}' with nothing open is a stray close, which the parser refuses like a stray ')'.
            const bool group = c == '{' || m_braces.empty() || m_braces.back().group;
            if (c == '{')
                m_braces.push_back({true, m_i});
            else if (!m_braces.empty())
                m_braces.pop_back();
            if (group)
                push(c == '{' ? TokenKind::open : TokenKind::close, m_i, m_i + 1);
            ++m_i;
        } else if (is_digit(c) || (c == '.' && is_digit(at(m_i + 1)))) {
            if (auto done = number(); !done)
                return std::unexpected(done.error());
        } else if (is_word_char(c)) {
            const std::size_t start = m_i;
            while (is_word_char(at(m_i)))
                ++m_i;
            push(TokenKind::word, start, m_i);
        } else if (superscript_digit(c) >= 0 || c == 0x207B || c == 0x207A) {
            if (auto done = superscript(); !done)
                return std::unexpected(done.error());
        } else if (c == '%' && m_percent) {
            push(TokenKind::percent, m_i, m_i + 1);
            ++m_i;
        } else if (std::size_t length = 0; auto kind = operator_at(length)) {
            push(*kind, m_i, m_i + length);
            m_i += length;
        } else if (c == 0) {
            return std::unexpected(fmt::format("the answer contains a NUL byte at position {}", position(m_i)));
        } else if (c < 0x20 || c == 0x7F) {
            return std::unexpected(fmt::format("unexpected control character at position {}", position(m_i)));
        } else {
            return std::unexpected(fmt::format("unexpected '{}' at position {}", slice(m_i, m_i + 1), position(m_i)));
        }
        if (m_tokens.size() > tokens) {
            m_tokens[tokens].spaced = m_spaced;
            m_spaced = false;
        }
    }
    if (!m_braces.empty())
        return std::unexpected(fmt::format("the '{{' at position {} is never closed", position(m_braces.back().at)));
    m_tokens.push_back(Token{TokenKind::end, position(m_points.size()), "", {}});
    return std::move(m_tokens);
}

// Digits go into one Wide shared by the integer and fraction parts; false once it would pass
// k_rational_limit.
bool append_digit(Wide& value, int digit) {
    if (value > (k_rational_limit - digit) / 10)
        return false;
    value = value * 10 + digit;
    return true;
}

std::expected<void, std::string> Lexer::number() {
    const std::size_t start = m_i;
    NumberLiteral literal;
    bool seen_nonzero = false;
    const auto take_digit = [&](bool fraction) -> std::expected<void, std::string> {
        const int digit = static_cast<int>(at(m_i) - U'0');
        if (!append_digit(literal.digits, digit))
            return std::unexpected(
                fraction ? fmt::format("the number at position {} has too many digits after the decimal point",
                                       position(start))
                         : fmt::format("the number at position {} is too large", position(start)));
        seen_nonzero = seen_nonzero || digit != 0;
        literal.significant += seen_nonzero ? 1 : 0;
        literal.decimals += fraction ? 1 : 0;
        ++m_i;
        return {};
    };

    std::size_t group_digits = 0;
    char32_t style = 0;
    while (true) {
        const char32_t c = at(m_i);
        if (is_digit(c)) {
            if (auto ok = take_digit(false); !ok)
                return ok;
            ++group_digits;
            continue;
        }
        if (separator_length() == 0)
            break;
        if (auto ok = group_separator(group_digits, style); !ok)
            return ok;
        group_digits = 0;
    }

    if (at(m_i) == '.' && is_digit(at(m_i + 1))) {
        literal.has_point = true;
        ++m_i;
        while (is_digit(at(m_i)))
            if (auto ok = take_digit(true); !ok)
                return ok;
        const char32_t c = at(m_i);
        if ((c == ',' || c == '_') && is_digit(at(m_i + 1)))
            return std::unexpected(
                fmt::format("group separators are not accepted after the decimal point (position {})", position(m_i)));
        if (c == '.' && is_digit(at(m_i + 1)))
            return std::unexpected(fmt::format("a second decimal point at position {}", position(m_i)));
    }

    if (m_i == start + 1 && at(start) == '0' && (at(m_i) == 'x' || at(m_i) == 'X') && is_hex_digit(at(m_i + 1)))
        return std::unexpected(fmt::format(
            "hexadecimal numbers are not accepted (position {}): write the number in decimal", position(start)));
    if (at(m_i) == 'e' || at(m_i) == 'E')
        if (auto ok = exponent(literal); !ok)
            return ok;

    literal.significant = std::max(literal.significant, 1);
    m_tokens.push_back(Token{TokenKind::number, position(start), slice(start, m_i), literal});
    return {};
}

// The length of the digit-group separator at m_i, 0 for none: ',', '_', a space followed by a digit (otherwise it
// just ends the number, as in "16 MiB"), TeX's {,} (262{,}656) and its thin space \, (1\,050\,624).
std::size_t Lexer::separator_length() const {
    const char32_t c = at(m_i);
    if (c == ',' || c == '_')
        return 1;
    if (is_group_space(c) && is_digit(at(m_i + 1)))
        return 1;
    if (c == '{' && at(m_i + 1) == ',' && at(m_i + 2) == '}')
        return 3;
    if (c == '\\' && at(m_i + 1) == ',' && is_digit(at(m_i + 2)))
        return 2;
    return 0;
}

// At a separator inside the integer part. Only groups of exactly three digits may follow it, and the first group
// may be one to three digits: 1,05 and 10,50,624 are refused rather than read as European decimals.
std::expected<void, std::string> Lexer::group_separator(std::size_t group_digits, char32_t& style) {
    const std::size_t length = separator_length();
    // {,} is a comma and \, a thin space, whatever their spelling.
    const char32_t c = length == 3 ? U',' : (length == 2 ? char32_t{0x2009} : at(m_i));
    std::size_t following = 0;
    while (is_digit(at(m_i + length + following)))
        ++following;
    if (style != 0 && style != separator_style(c))
        return std::unexpected(fmt::format("the group separator {} at position {} differs from the one before it",
                                           separator_name(c), position(m_i)));
    if (group_digits > 3 || following != 3)
        return std::unexpected(
            fmt::format("the group separator {} at position {} must sit between groups of three digits",
                        separator_name(c), position(m_i)));
    style = separator_style(c);
    m_i += length;
    return {};
}

std::expected<void, std::string> Lexer::exponent(NumberLiteral& literal) {
    std::size_t j = m_i + 1;
    bool negative = false;
    if (at(j) == '+' || at(j) == '-' || at(j) == 0x2212) {
        negative = at(j) != '+';
        ++j;
    }
    if (!is_digit(at(j))) {
        if (j == m_i + 1 && is_letter(at(j)))
            return {}; // a word such as "EB" follows the number, not an exponent
        return std::unexpected(
            fmt::format("the exponent after '{}' at position {} has no digits", slice(m_i, m_i + 1), position(m_i)));
    }
    int value = 0;
    for (; is_digit(at(j)); ++j)
        value = std::min(value * 10 + static_cast<int>(at(j) - U'0'), k_max_literal_exponent);
    literal.exponent = negative ? -value : value;
    literal.has_exponent = true;
    m_i = j;
    return {};
}

// At a backslash: a TeX command or TeX spacing. Only what a numeric answer uses is read; anything else is refused
// by name, so the student sees what headcount did not understand.
std::expected<void, std::string> Lexer::command() {
    const std::size_t start = m_i;
    const char32_t next = at(m_i + 1);
    if (next == '%' && m_percent) { // \% as TeX writes a percent sign
        push(TokenKind::percent, m_i, m_i + 2);
        m_i += 2;
        return {};
    }
    if (next == ',' || next == ';' || next == ':' || next == '!' || next == ' ' || next == '(' || next == ')' ||
        next == '[' || next == ']') { // spacing, and the \( \) \[ \] math delimiters
        m_spaced = m_spaced || (next != '(' && next != ')' && next != '[' && next != ']');
        m_i += 2;
        return {};
    }
    std::size_t end = m_i + 1;
    while (is_letter(at(end)))
        ++end;
    const std::string name = slice(m_i + 1, end);
    m_i = end;
    static constexpr auto k_times = std::to_array<std::string_view>({"times", "cdot", "ast", "cross"});
    static constexpr auto k_approx = std::to_array<std::string_view>({"approx", "simeq", "sim"});
    static constexpr auto k_ignored = std::to_array<std::string_view>(
        {"left", "right", "big", "Big", "bigl", "bigr", "Bigl", "Bigr", "displaystyle"});
    static constexpr auto k_text =
        std::to_array<std::string_view>({"text", "mathrm", "textrm", "mbox", "operatorname", "mathit", "textit"});
    const auto in = [&](const auto& names) { return std::find(names.begin(), names.end(), name) != names.end(); };
    if (in(k_times))
        push(TokenKind::times, start, m_i);
    else if (name == "div")
        push(TokenKind::divide, start, m_i);
    else if (in(k_approx))
        push(TokenKind::approx, start, m_i);
    else if (name == "frac" || name == "dfrac" || name == "tfrac")
        push(TokenKind::frac, start, m_i);
    else if (in(k_text)) {
        while (is_space(at(m_i)))
            ++m_i;
        if (at(m_i) == '{') { // the words inside stand as typed; the braces are not a group
            m_braces.push_back({false, m_i});
            ++m_i;
        }
    } else if (!in(k_ignored))
        return std::unexpected(fmt::format("unexpected '{}' at position {}: headcount reads \\times, \\cdot, "
                                           "\\frac{{a}}{{b}}, ^{{...}} and {{,}} in TeX",
                                           slice(start, m_i), position(start)));
    return {};
}

// 10⁶ and 10⁻³ become the tokens of 10^6 and 10^-3.
std::expected<void, std::string> Lexer::superscript() {
    std::size_t i = m_i;
    std::optional<TokenKind> sign;
    if (at(i) == 0x207B || at(i) == 0x207A) {
        sign = at(i) == 0x207B ? TokenKind::minus : TokenKind::plus;
        ++i;
    }
    const std::size_t digits_start = i;
    NumberLiteral literal;
    for (; superscript_digit(at(i)) >= 0; ++i)
        if (!append_digit(literal.digits, superscript_digit(at(i))))
            return std::unexpected(fmt::format("the exponent at position {} is too large", position(m_i)));
    if (i == digits_start)
        return std::unexpected(
            fmt::format("the superscript sign at position {} has no digits after it", position(m_i)));
    literal.significant = 1;
    push(TokenKind::power, m_i, i);
    if (sign)
        push(*sign, m_i, digits_start);
    m_tokens.push_back(Token{TokenKind::number, position(digits_start), slice(digits_start, i), literal});
    m_i = i;
    return {};
}

} // namespace

std::expected<std::vector<Token>, std::string> lex_answer(std::string_view text, bool percent) {
    auto points = decode_utf8(text);
    if (!points)
        return std::unexpected("the answer is not valid UTF-8");
    return Lexer(text, std::move(*points), percent).run();
}

} // namespace headcount::answer::detail

// The formula answer's lexer: UTF-8 in, one token per thing written out, however it was spelled.

#include <answer/formula_tokens.hpp>

#include <util/utf8.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

namespace headcount::answer::detail {

namespace {

using Kind = FormulaTokenKind;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_name_char(char c) { return is_letter(c) || is_digit(c) || c == '_'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

/// The digit a Unicode superscript stands for (² -> '2'), or 0.
char superscript_digit(char32_t code) {
    if (code == 0x2070)
        return '0';
    if (code == 0xB9)
        return '1';
    if (code == 0xB2 || code == 0xB3)
        return static_cast<char>('0' + (code - 0xB0));
    if (code >= 0x2074 && code <= 0x2079)
        return static_cast<char>('0' + (code - 0x2070));
    return 0;
}

/// The text inside math delimiters $...$, $$...$$, \(...\), \[...\], trimmed; the text itself when there are none.
std::string_view unwrapped(std::string_view text) {
    const auto trim = [](std::string_view s) {
        while (!s.empty() && is_space(s.front()))
            s.remove_prefix(1);
        while (!s.empty() && is_space(s.back()))
            s.remove_suffix(1);
        return s;
    };
    text = trim(text);
    for (const auto& [open, close] : std::to_array<std::pair<std::string_view, std::string_view>>(
             {{"$$", "$$"}, {"$", "$"}, {"\\(", "\\)"}, {"\\[", "\\]"}}))
        if (text.size() >= open.size() + close.size() && text.starts_with(open) && text.ends_with(close))
            return trim(text.substr(open.size(), text.size() - open.size() - close.size()));
    return text;
}

class Lexer {
  public:
    explicit Lexer(std::string_view text) : m_text(text) {}

    std::expected<std::vector<FormulaToken>, std::string> run() {
        while (m_at < m_text.size()) {
            const std::size_t before = m_at;
            if (auto problem = step(); !problem.empty())
                return std::unexpected(problem);
            m_spaced = m_at > before && m_tokens.size() == m_count;
            m_count = m_tokens.size();
        }
        m_tokens.push_back(FormulaToken{});
        return std::move(m_tokens);
    }

  private:
    std::string_view m_text;
    std::size_t m_at = 0;
    std::vector<FormulaToken> m_tokens;
    std::size_t m_count = 0; ///< tokens before the last step
    bool m_spaced = true;    ///< the last step was a space, or nothing has been read

    char at(std::size_t i) const { return i < m_text.size() ? m_text[i] : '\0'; }

    void push(Kind kind, std::string text, char closer = 0) {
        m_tokens.push_back(
            FormulaToken{.kind = kind, .text = std::move(text), .closer = closer, .display = {}, .tex_index = false});
    }
    void push_function(std::string name, std::string display, bool tex_index = false) {
        push(Kind::function, std::move(name));
        m_tokens.back().display = std::move(display);
        m_tokens.back().tex_index = tex_index;
    }

    /// Reads one token, or one space; the reason when the text cannot be read, else "".
    std::string step() {
        const char c = m_text[m_at];
        if (is_space(c) || c == '~') {
            ++m_at;
            return {};
        }
        if (is_digit(c) || (c == '.' && is_digit(at(m_at + 1)))) {
            number();
            return {};
        }
        if (c == '_' && (at(m_at + 1) == '{' || (at(m_at + 1) == '\\' && at(m_at + 2) != '_') ||
                         (!m_spaced && !m_tokens.empty() && m_tokens.back().kind == Kind::name))) {
            ++m_at;
            push(Kind::subscript, "_");
            return {};
        }
        if (is_letter(c) || c == '_' || (c == '\\' && at(m_at + 1) == '_')) {
            push(Kind::name, name_run());
            return {};
        }
        if (c == '\\')
            return command();
        if (static_cast<unsigned char>(c) >= 0x80)
            return non_ascii();
        const char next = at(m_at + 1);
        const bool twice = (c == '*' || c == '=') && next == c;
        const bool with_equals = (c == '<' || c == '>' || c == '!') && next == '=';
        std::string_view found;
        if (std::string_view("+-*/^,=<>").find(c) != std::string_view::npos)
            found = m_text.substr(m_at, twice || with_equals ? 2 : 1);
        else if (with_equals)
            found = "!=";
        if (!found.empty()) {
            m_at += found.size();
            push(Kind::op, found == "**" ? "^" : std::string(found));
            return {};
        }
        if (c == '(' || c == '[' || c == '{') {
            ++m_at;
            push(Kind::open, "", c == '(' ? ')' : c == '[' ? ']' : '}');
            return {};
        }
        if (c == ')' || c == ']' || c == '}') {
            ++m_at;
            push(Kind::close, "", c);
            return {};
        }
        if (c >= 0x20 && c < 0x7F)
            return fmt::format("unexpected character '{}'", c);
        return fmt::format("unexpected character U+{:04X}", static_cast<unsigned>(c));
    }

    // digits [. digits] [e|E [+|-] digits], the exponent only when digits follow: 2e followed by a name is 2 times
    // that name. A trailing '.' is dropped (formula::parse wants a digit after it); TeX's group separator {,} between
    // digits (262{,}656) is left out.
    void number() {
        std::string digits = m_text[m_at] == '.' ? "0" : "";
        while (is_digit(at(m_at)) || (m_text.substr(m_at, 3) == "{,}" && is_digit(at(m_at + 3)) && !digits.empty()))
            if (is_digit(m_text[m_at]))
                digits += m_text[m_at++];
            else
                m_at += 3;
        if (at(m_at) == '.' && is_digit(at(m_at + 1))) {
            digits += m_text[m_at++];
            while (is_digit(at(m_at)))
                digits += m_text[m_at++];
        } else if (at(m_at) == '.' && !digits.empty()) {
            ++m_at;
        }
        if (at(m_at) == 'e' || at(m_at) == 'E') {
            const std::size_t sign = (at(m_at + 1) == '+' || at(m_at + 1) == '-') ? 1 : 0;
            if (is_digit(at(m_at + 1 + sign))) {
                std::size_t end = m_at + 1 + sign;
                while (is_digit(at(end)))
                    ++end;
                digits += m_text.substr(m_at, end - m_at);
                m_at = end;
            }
        }
        push(Kind::number, std::move(digits));
    }

    // letters, digits and '_' ('\_' too), stopping before a '_' that starts a TeX subscript (_{...}, _\text{...}).
    std::string name_run() {
        std::string name;
        while (m_at < m_text.size()) {
            const char c = m_text[m_at];
            if (c == '\\' && at(m_at + 1) == '_') {
                name += '_';
                m_at += 2;
            } else if (c == '_' && (at(m_at + 1) == '{' || (at(m_at + 1) == '\\' && at(m_at + 2) != '_'))) {
                break;
            } else if (is_name_char(c)) {
                name += c;
                ++m_at;
            } else {
                break;
            }
        }
        return name;
    }

    std::string command() {
        const std::size_t start = m_at + 1;
        std::size_t end = start;
        while (is_letter(at(end)))
            ++end;
        if (end == start && start < m_text.size()) // one character after the '\', all its bytes (\× is no command)
            end = start + std::max<std::size_t>(decode_utf8_at(m_text, start).second, 1);
        const std::string_view word = m_text.substr(start, end - start);
        m_at = end;
        if (word.empty())
            return "a '\\' ends the answer";
        constexpr std::string_view spaces[] = {",",        ";", ":", "!", " ", ">", "quad", "qquad", "displaystyle",
                                               "textstyle"};
        constexpr std::string_view sizes[] = {"left", "right", "middle", "big",   "Big",   "bigg",  "Bigg", "bigl",
                                              "bigr", "Bigl",  "Bigr",   "biggl", "biggr", "Biggl", "Biggr"};
        if (std::ranges::find(spaces, word) != std::end(spaces))
            return {};
        if (std::ranges::find(sizes, word) != std::end(sizes)) {
            // \left( is a parenthesis; \left. and \right. are no delimiter at all.
            while (is_space(at(m_at)))
                ++m_at;
            if (at(m_at) == '.')
                ++m_at;
            return {};
        }
        constexpr std::pair<std::string_view, std::string_view> ops[] = {
            {"cdot", "*"}, {"times", "*"}, {"ast", "*"}, {"div", "/"},  {"le", "<="}, {"leq", "<="},
            {"ge", ">="},  {"geq", ">="},  {"ne", "!="}, {"neq", "!="}, {"lt", "<"},  {"gt", ">"}};
        if (auto op = std::ranges::find(ops, word, &std::pair<std::string_view, std::string_view>::first);
            op != std::end(ops)) {
            push(Kind::op, std::string(op->second));
            return {};
        }
        constexpr std::string_view names[] = {"text",   "textrm",       "textit", "textsf", "texttt",
                                              "textbf", "mathrm",       "mathit", "mathsf", "mathtt",
                                              "mathbf", "operatorname", "mbox"};
        if (std::ranges::find(names, word) != std::end(names))
            return name_command(word);
        if (word == "{" || word == "}") {
            push(word == "{" ? Kind::open : Kind::close, "", 'B');
            return {};
        }
        if (word == "lceil" || word == "lfloor") {
            push(Kind::open, word == "lceil" ? "ceil" : "floor", word == "lceil" ? 'C' : 'F');
            return {};
        }
        if (word == "rceil" || word == "rfloor") {
            push(Kind::close, "", word == "rceil" ? 'C' : 'F');
            return {};
        }
        if (word == "frac" || word == "dfrac" || word == "tfrac" || word == "cfrac")
            push_function("frac", fmt::format("\\{}", word));
        else if (word == "sqrt")
            push_function("sqrt", "\\sqrt", true);
        else if (word == "ln" || word == "exp" || word == "max" || word == "min")
            push_function(std::string(word), fmt::format("\\{}", word));
        else if (word == "log")
            return logarithm();
        else
            return fmt::format("\\{} is not a TeX command headcount reads", word);
        return {};
    }

    // \text{d\_model} and its like: a name (or a number) in braces.
    std::string name_command(std::string_view word) {
        while (is_space(at(m_at)))
            ++m_at;
        if (at(m_at) != '{')
            return fmt::format("\\{0} needs braces: \\{0}{{name}}", word);
        std::string inner;
        for (++m_at; m_at < m_text.size() && m_text[m_at] != '}'; ++m_at) {
            if (m_text[m_at] == '\\' && at(m_at + 1) == '_')
                ++m_at;
            inner += m_text[m_at];
        }
        if (m_at == m_text.size())
            return "unbalanced braces";
        ++m_at;
        while (!inner.empty() && is_space(inner.back()))
            inner.pop_back();
        inner.erase(0, std::min(inner.find_first_not_of(" \t\n"), inner.size()));
        const bool digits = !inner.empty() && std::ranges::all_of(inner, is_digit);
        if (inner.empty() || (!digits && (is_digit(inner[0]) || !std::ranges::all_of(inner, is_name_char))))
            return fmt::format("\\{}{{{}}} is not a name: a name is letters, digits and _", word, inner);
        push(digits ? Kind::number : Kind::name, std::move(inner));
        return {};
    }

    // \log_2, \log_{2}, \log_{10} (and \log_10, read as its writer meant it): a base is required.
    std::string logarithm() {
        while (is_space(at(m_at)))
            ++m_at;
        if (at(m_at) != '_')
            return "write \\ln or \\log_2 / \\log_{10}";
        ++m_at;
        const bool braced = at(m_at) == '{';
        std::string base;
        for (m_at += braced ? 1 : 0; is_digit(at(m_at)) || (braced && is_space(at(m_at))); ++m_at)
            if (!is_space(m_text[m_at]))
                base += m_text[m_at];
        if (braced && at(m_at++) != '}')
            base.clear();
        if (base != "2" && base != "10")
            return "headcount reads logarithms to base 2 and 10: \\log_2, \\log_{10}, or \\ln";
        push_function("log" + base, "\\log_" + base);
        return {};
    }

    std::string non_ascii() {
        const auto [code, length] = decode_utf8_at(m_text, m_at);
        if (length == 0)
            return "malformed UTF-8";
        const std::string_view written = m_text.substr(m_at, length);
        m_at += length;
        if (code == 0xA0 || (code >= 0x2002 && code <= 0x200B) || code == 0x202F)
            return {};
        if (const char digit = superscript_digit(code)) {
            std::string digits(1, digit);
            while (m_at < m_text.size()) {
                const auto [more, more_length] = decode_utf8_at(m_text, m_at);
                const char more_digit = more_length == 0 ? 0 : superscript_digit(more);
                if (more_digit == 0)
                    break;
                digits += more_digit;
                m_at += more_length;
            }
            push(Kind::op, "^");
            push(Kind::number, std::move(digits));
            return {};
        }
        const std::string_view op = code == 0x2212                                                     ? "-"
                                    : code == 0xD7 || code == 0xB7 || code == 0x22C5 || code == 0x2217 ? "*"
                                    : code == 0xF7                                                     ? "/"
                                    : code == 0x2264                                                   ? "<="
                                    : code == 0x2265                                                   ? ">="
                                    : code == 0x2260                                                   ? "!="
                                                                                                       : "";
        if (!op.empty())
            push(Kind::op, std::string(op));
        else if (code == 0x221A || code == 0x221B)
            push_function(code == 0x221A ? "sqrt" : "cbrt", std::string(written));
        else if (code == 0x2308 || code == 0x230A)
            push(Kind::open, code == 0x2308 ? "ceil" : "floor", code == 0x2308 ? 'C' : 'F');
        else if (code == 0x2309 || code == 0x230B)
            push(Kind::close, "", code == 0x2309 ? 'C' : 'F');
        else
            return fmt::format("unexpected character '{}'", written);
        return {};
    }
};

} // namespace

std::expected<std::vector<FormulaToken>, std::string> lex_formula_answer(std::string_view typed) {
    return Lexer(unwrapped(typed)).run();
}

} // namespace headcount::answer::detail

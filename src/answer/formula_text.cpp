// A formula answer in two passes: the lexer (formula_tokens.cpp) knows every spelling (ASCII, Unicode, TeX) and
// leaves a flat list of tokens; the reader here rebuilds groups, calls and fractions from them and writes '*' where
// two operands meet. formula::parse does the real parsing afterwards: this only decides what the student wrote.

#include <answer/formula_text.hpp>

#include <answer/formula_tokens.hpp>

#include <formula/formula.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <optional>
#include <utility>
#include <vector>

namespace headcount::answer {

namespace {

using Kind = detail::FormulaTokenKind;
using Token = detail::FormulaToken;

enum class ItemKind { operand, name, op };

/// One piece of a group as it will be written: an operand (a number, group, call), a bare name, or an operator.
struct Item {
    ItemKind kind = ItemKind::operand;
    std::string text;
};

const formula::Function* function_named(std::string_view name) {
    const auto all = formula::functions();
    const auto found = std::ranges::find(all, name, &formula::Function::name);
    return found == all.end() ? nullptr : &*found;
}

std::string unbalanced(char closer) {
    return closer == '}' || closer == 'B'   ? "unbalanced braces"
           : closer == 'C' || closer == 'F' ? "unbalanced \\lceil \\rceil or \\lfloor \\rfloor"
                                            : "unbalanced parentheses";
}

class Reader {
  public:
    explicit Reader(std::vector<Token> tokens) : m_tokens(std::move(tokens)) {}

    std::expected<std::string, std::string> run() {
        std::vector<Item> items;
        if (!sequence(0, items))
            return std::unexpected(m_error);
        // "FLOPs = 6ND" and "= 6ND": the student named the answer, or began it with '='.
        if (items.size() > 2 && items[0].kind == ItemKind::name && items[1].kind == ItemKind::op &&
            items[1].text == "=")
            items.erase(items.begin(), items.begin() + 2);
        else if (items.size() > 1 && items[0].kind == ItemKind::op && items[0].text == "=")
            items.erase(items.begin());
        auto text = joined(items);
        if (!text)
            return std::unexpected(m_error);
        if (text->empty())
            return std::unexpected("the answer has no formula");
        return std::move(*text);
    }

  private:
    std::vector<Token> m_tokens;
    std::size_t m_at = 0;
    int m_depth = 0;
    std::string m_error;

    const Token& peek() const { return m_tokens[m_at]; }
    bool at_operand() const {
        const Kind kind = peek().kind;
        return kind == Kind::number || kind == Kind::name || kind == Kind::open || kind == Kind::function;
    }

    std::nullopt_t fail(std::string reason) {
        if (m_error.empty())
            m_error = std::move(reason);
        return std::nullopt;
    }
    bool refuse(std::string reason) {
        fail(std::move(reason));
        return false;
    }

    /// One level deeper (a group, or a function's argument), refused past k_max_formula_answer_depth.
    bool deeper() {
        if (++m_depth > k_max_formula_answer_depth)
            return refuse(
                fmt::format("the formula is nested too deeply (more than {} levels)", k_max_formula_answer_depth));
        return true;
    }

    // Items up to the token closing `closer` (left for the caller), or to the end when `closer` is 0.
    bool sequence(char closer, std::vector<Item>& items) {
        while (true) {
            const Token& token = peek();
            if (token.kind == Kind::end) {
                if (closer != 0)
                    return refuse(unbalanced(closer));
                return true;
            }
            if (token.kind == Kind::close) {
                if (token.closer == closer)
                    return true;
                return refuse(unbalanced(closer == 0 || closer == ')' || closer == ']' ? token.closer : closer));
            }
            if (token.kind == Kind::op) {
                items.push_back(Item{ItemKind::op, token.text});
                ++m_at;
                continue;
            }
            if (token.kind == Kind::subscript)
                return refuse("a subscript (_) must follow a name");
            auto item = operand();
            if (!item)
                return false;
            if (!item->text.empty())
                items.push_back(std::move(*item));
        }
    }

    /// The items written out, with '*' between two operands that meet.
    std::optional<std::string> joined(const std::vector<Item>& items) {
        std::string text;
        bool dividing = false; // from a '/' to the next operator looser than '^'
        for (std::size_t i = 0; i < items.size(); ++i) {
            const Item& item = items[i];
            const bool after_operand = i > 0 && items[i - 1].kind != ItemKind::op;
            if (item.kind != ItemKind::op) {
                if (after_operand && dividing)
                    return fail("a division by a product written without '*' is ambiguous: write a/(b c) or a/b*c");
                if (after_operand)
                    text += '*';
                text += item.text;
            } else if (item.text == "," || item.text.find_first_of("=<>!") != std::string::npos) {
                text += item.text == "," ? ", " : " " + item.text + " ";
                dividing = false;
            } else {
                if (item.text == "/")
                    dividing = true;
                else if (item.text != "^" && after_operand)
                    dividing = false;
                if (item.text == "*" && !text.empty() && text.back() == '*')
                    text += ' '; // "2 * * 3" is a mistake, not 2**3
                text += item.text;
            }
        }
        return text;
    }

    /// The content of the group at an open token: its items, the open token's call prefix ("ceil") in `prefix`.
    bool group(std::vector<Item>& items, std::string& prefix, char& closer) {
        const Token& open = peek();
        prefix = open.text;
        closer = open.closer;
        ++m_at;
        if (!deeper() || !sequence(closer, items))
            return false;
        ++m_at; // the closer
        --m_depth;
        return true;
    }

    std::optional<Item> operand() {
        const Token& token = peek();
        if (token.kind == Kind::number) {
            ++m_at;
            return Item{ItemKind::operand, token.text};
        }
        if (token.kind == Kind::name)
            return name();
        if (token.kind == Kind::function)
            return function();
        std::vector<Item> items;
        std::string prefix;
        char closer = 0;
        if (!group(items, prefix, closer))
            return std::nullopt;
        if (items.empty() && closer == '}' && prefix.empty())
            return Item{}; // {} is TeX's empty group: nothing
        auto inner = joined(items);
        if (!inner)
            return std::nullopt;
        return Item{ItemKind::operand, prefix + "(" + *inner + ")"};
    }

    // A name with its subscripts (d_{model}, d_{\text{model}}), called when it is a function.
    std::optional<Item> name() {
        std::string name = m_tokens[m_at++].text;
        while (peek().kind == Kind::subscript) {
            ++m_at;
            const bool braced = peek().kind == Kind::open && peek().closer == '}';
            m_at += braced ? 1 : 0;
            std::string appended;
            while (peek().kind == Kind::name || peek().kind == Kind::number) {
                appended += m_tokens[m_at++].text;
                if (!braced)
                    break;
            }
            if (appended.empty() || (braced && (peek().kind != Kind::close || peek().closer != '}')))
                return fail(fmt::format("the subscript of {} must be a name, as in d_{{model}}", name));
            m_at += braced ? 1 : 0;
            name += "_" + appended;
        }
        if (name == "log" && (at_operand()))
            return fail("write ln, log2 or log10");
        const formula::Function* function = function_named(name);
        if (function != nullptr && (peek().kind == Kind::open || function->max_arguments == 1))
            return applied(name, name);
        return Item{ItemKind::name, name};
    }

    std::optional<Item> function() {
        const Token& token = m_tokens[m_at++];
        if (token.text == "frac")
            return fraction(token.display);
        std::string called = token.text;
        if (token.tex_index && peek().kind == Kind::open && peek().closer == ']') {
            // \sqrt[3]{x}: the index is 2 or 3
            ++m_at;
            const bool index = peek().kind == Kind::number && (peek().text == "2" || peek().text == "3") &&
                               m_tokens[m_at + 1].kind == Kind::close && m_tokens[m_at + 1].closer == ']';
            if (!index)
                return fail("headcount reads square and cube roots: \\sqrt{x} and \\sqrt[3]{x}");
            called = peek().text == "3" ? "cbrt" : "sqrt";
            m_at += 2;
        }
        if ((called == "max" || called == "min") && peek().kind != Kind::open)
            return fail(fmt::format("{} needs its arguments in parentheses", token.display));
        return applied(called, token.display);
    }

    // A call: `called` followed by a group (its arguments), or by one atom (\ln N, \sqrt x, √2).
    std::optional<Item> applied(const std::string& called, const std::string& display) {
        if (peek().kind == Kind::open) {
            std::vector<Item> items;
            std::string prefix;
            char closer = 0;
            if (!group(items, prefix, closer))
                return std::nullopt;
            auto inner = joined(items);
            if (!inner)
                return std::nullopt;
            return Item{ItemKind::operand,
                        called + "(" + (prefix.empty() ? *inner : prefix + "(" + *inner + ")") + ")"};
        }
        if (!at_operand())
            return fail(fmt::format("{} needs an argument", display));
        if (!deeper())
            return std::nullopt;
        auto argument = operand();
        if (!argument)
            return std::nullopt;
        --m_depth;
        // \ln N^2 and \sqrt 2 N are read both ways by people: ask for the parentheses.
        if (at_operand() || (peek().kind == Kind::op && peek().text == "^"))
            return fail(fmt::format("write what {0} applies to in parentheses, as in {0}(...)", display));
        return Item{ItemKind::operand, called + "(" + argument->text + ")"};
    }

    // \frac{a}{b} -> (a/b), each part parenthesised unless it is one operand. Without braces a part is one
    // character, as in TeX: \frac12 is \frac{1}{2}, \frac ab is a/b.
    std::optional<Item> fraction(const std::string& display) {
        if (!deeper())
            return std::nullopt;
        std::string parts[2];
        for (std::string& part : parts) {
            Token& token = m_tokens[m_at];
            std::vector<Item> items;
            if ((token.kind == Kind::number || token.kind == Kind::name) && token.text.size() > 1) {
                items.push_back(Item{ItemKind::operand, token.text.substr(0, 1)});
                token.text.erase(0, 1);
            } else if (token.kind == Kind::number || token.kind == Kind::name) {
                items.push_back(Item{ItemKind::operand, token.text});
                ++m_at;
            } else if (token.kind == Kind::open && token.closer == '}') {
                std::string prefix;
                char closer = 0;
                if (!group(items, prefix, closer))
                    return std::nullopt;
            } else {
                return fail(fmt::format("{0} needs its numerator and denominator in braces: {0}{{a}}{{b}}", display));
            }
            auto text = joined(items);
            if (!text)
                return std::nullopt;
            if (text->empty())
                return fail(fmt::format("{} has an empty numerator or denominator", display));
            part = items.size() == 1 && items[0].kind != ItemKind::op ? *text : "(" + *text + ")";
        }
        --m_depth;
        return Item{ItemKind::operand, "(" + parts[0] + "/" + parts[1] + ")"};
    }
};

} // namespace

std::expected<std::string, std::string> formula_answer_text(std::string_view typed) {
    if (typed.size() > k_max_formula_answer_bytes)
        return std::unexpected(fmt::format("answer longer than {} bytes", k_max_formula_answer_bytes));
    // Checked whole before any of it is read: a reason may quote what was typed ("\\x is not a TeX command"), and
    // a quoted byte of a broken character would make the reason itself invalid text (found by fuzz/answer).
    if (!is_valid_utf8(typed))
        return std::unexpected(std::string("malformed UTF-8"));
    try {
        auto tokens = detail::lex_formula_answer(typed);
        if (!tokens)
            return std::unexpected(tokens.error());
        return Reader(std::move(*tokens)).run();
    } catch (const std::exception& error) { // only std::bad_alloc can reach here
        return std::unexpected(fmt::format("could not read the formula: {}", error.what()));
    }
}

} // namespace headcount::answer

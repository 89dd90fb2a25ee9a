// Reading a formula: a recursive-descent parser over the lexer's tokens. Sums and products are flat nodes (a+b-c
// is one sum of three terms), parentheses make a node of their own, and nodes and nesting are counted as they are
// made, so no input runs past k_max_nodes or k_max_formula_depth.

#include <formula/formula.hpp>
#include <formula/lexer.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <exception>
#include <utility>

namespace headcount::formula {

namespace {

using detail::Tok;
using detail::Token;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Parser {
  public:
    Parser(std::string_view text, std::vector<Token> tokens) : m_text(text), m_tokens(std::move(tokens)) {}

    std::expected<Node, Problem> run() {
        auto formula = comparison();
        if (!formula)
            return formula;
        if (!at(Tok::end))
            return std::unexpected(after_expression());
        return formula;
    }

  private:
    using Result = std::expected<Node, Problem>;

    std::string_view m_text;
    std::vector<Token> m_tokens;
    std::size_t m_at = 0;
    std::size_t m_nodes = 0;
    int m_depth = 0;

    bool at(Tok kind) const { return m_tokens[m_at].kind == kind; }
    const Token& peek() const { return m_tokens[m_at]; }
    const Token& advance() { return m_tokens[m_at++]; }
    std::string_view text_of(const Token& token) const {
        return token.kind == Tok::end ? "" : m_text.substr(token.begin, token.end - token.begin);
    }

    /// Sets a new node's column and source from its first token to the last token read, and counts it.
    std::optional<Problem> finish(Node& node, std::size_t first_token) {
        const Token& first = m_tokens[first_token];
        node.column = first.column;
        node.begin = first.begin;
        node.end = m_tokens[m_at - 1].end;
        node.source = std::string(m_text.substr(first.begin, m_tokens[m_at - 1].end - first.begin));
        if (++m_nodes > k_max_nodes)
            return Problem{fmt::format("the formula has more than {} parts", k_max_nodes), first.column};
        return std::nullopt;
    }

    std::optional<Problem> deeper() {
        if (++m_depth > k_max_formula_depth)
            return Problem{fmt::format("nested more than {} deep", k_max_formula_depth), peek().column};
        return std::nullopt;
    }

    // What follows a complete expression that is neither an operator, ')' or ',' where one belongs, nor the end.
    Problem after_expression() const {
        const Token& next = peek();
        if (next.kind == Tok::rparen)
            return {"unexpected ')' with no '(' before it", next.column};
        if (next.kind == Tok::comma)
            return {"unexpected ',' (write numbers without separators: 1000000 or 1e6)", next.column};
        if (next.kind == Tok::compare)
            return {fmt::format("a second comparison '{}': compare two values at a time, e.g. if(a < b, ...)",
                                next.comparison),
                    next.column};
        return {fmt::format("expected an operator between '{}' and '{}'", text_of(m_tokens[m_at - 1]), text_of(next)),
                next.column};
    }

    // A node of `op` over `children`, spanning the tokens from `first`.
    template <class... Children> Result node_of(Node::Op op, std::size_t first, Children&&... children) {
        Node node;
        node.op = op;
        node.children.reserve(sizeof...(Children));
        (node.children.push_back(std::forward<Children>(children)), ...);
        if (auto problem = finish(node, first))
            return std::unexpected(*problem);
        return node;
    }

    // One comparison of two sums, or the single sum: comparisons bind loosest, and do not chain (a < b < c).
    Result comparison() {
        const std::size_t first = m_at;
        auto left = expression();
        if (!left || !at(Tok::compare))
            return left;
        const std::string_view op = advance().comparison;
        auto right = expression();
        if (!right)
            return right;
        auto node = node_of(Node::Op::compare, first, std::move(*left), std::move(*right));
        if (node)
            node->text = std::string(op);
        return node;
    }

    // A sum when there is a + or -, else the single term.
    Result expression() { return chain(Node::Op::sum, Tok::plus, Tok::minus, &Parser::product); }

    // A product when there is a * or /, else the single factor.
    Result product() { return chain(Node::Op::product, Tok::times, Tok::divide, &Parser::signed_factor); }

    // A node of `op` over the operands (read by `operand`) that `forward` and `inverse` join, each operand marked
    // inverse when `inverse` comes before it (a - b, a / b); when none joins two, the single operand.
    Result chain(Node::Op op, Tok forward, Tok inverse, Result (Parser::*operand)()) {
        const std::size_t first = m_at;
        auto head = (this->*operand)();
        if (!head || !(at(forward) || at(inverse)))
            return head;
        Node node;
        node.op = op;
        // Most sums and products have a few operands: room for four saves moving them as the vector grows.
        node.children.reserve(4);
        node.children.push_back(std::move(*head));
        node.inverse.push_back(false);
        while (at(forward) || at(inverse)) {
            const bool inverted = advance().kind == inverse;
            auto next = (this->*operand)();
            if (!next)
                return next;
            node.children.push_back(std::move(*next));
            node.inverse.push_back(inverted);
        }
        if (auto problem = finish(node, first))
            return std::unexpected(*problem);
        return node;
    }

    // Unary signs bind looser than ^, as in maths: -2^2 is -(2^2).
    Result signed_factor() {
        if (!at(Tok::plus) && !at(Tok::minus))
            return power();
        const std::size_t first = m_at;
        if (auto problem = deeper())
            return std::unexpected(*problem);
        const bool minus = advance().kind == Tok::minus;
        auto operand = signed_factor();
        --m_depth;
        if (!operand || !minus)
            return operand;
        return node_of(Node::Op::negate, first, std::move(*operand));
    }

    // base ^ exponent, right-associative, the exponent may carry a sign: 2^3^2 is 2^9, 10^-3 a thousandth.
    Result power() {
        const std::size_t first = m_at;
        auto base = primary();
        if (!base || !at(Tok::power))
            return base;
        if (auto problem = deeper())
            return std::unexpected(*problem);
        advance();
        auto exponent = signed_factor();
        --m_depth;
        if (!exponent)
            return exponent;
        return node_of(Node::Op::power, first, std::move(*base), std::move(*exponent));
    }

    Result primary() {
        const std::size_t first = m_at;
        const Token& token = peek();
        Node node;
        switch (token.kind) {
        case Tok::name:
            if (m_tokens[m_at + 1].kind == Tok::lparen)
                return call();
            [[fallthrough]];
        case Tok::number:
            advance();
            node.op = token.kind == Tok::number ? Node::Op::number : Node::Op::name;
            node.value = token.value;
            node.text = std::string(text_of(token));
            if (auto problem = finish(node, first))
                return std::unexpected(*problem);
            return node;
        case Tok::lparen:
            return parenthesized();
        case Tok::end:
            if (m_at == 0)
                return std::unexpected(Problem{"empty formula", 0});
            return std::unexpected(
                Problem{fmt::format("the formula ends after '{}'", text_of(m_tokens[m_at - 1])), token.column});
        default:
            return std::unexpected(Problem{fmt::format("unexpected '{}'", text_of(token)), token.column});
        }
    }

    // name ( argument, ... ): a function of functions(), with as many arguments as it takes.
    Result call() {
        const std::size_t first = m_at;
        const Token& name = advance();
        const std::string_view called = text_of(name);
        const auto all = functions();
        const auto function = std::find_if(all.begin(), all.end(), [&](const Function& f) { return f.name == called; });
        if (function == all.end()) {
            std::string known;
            for (const Function& f : all)
                known += (known.empty() ? "" : ", ") + std::string(f.name);
            return std::unexpected(
                Problem{fmt::format("unknown function '{}'; a formula may call {}", called, known), name.column});
        }
        advance(); // '('
        if (auto problem = deeper())
            return std::unexpected(*problem);
        Node node;
        node.op = Node::Op::call;
        node.text = std::string(called);
        node.children.reserve(function->min_arguments);
        if (!at(Tok::rparen)) {
            while (true) {
                auto argument = comparison();
                if (!argument)
                    return argument;
                node.children.push_back(std::move(*argument));
                if (!at(Tok::comma))
                    break;
                advance();
            }
        }
        if (at(Tok::end))
            return std::unexpected(Problem{"missing ')'", peek().column});
        if (!at(Tok::rparen))
            return std::unexpected(after_expression());
        advance();
        --m_depth;
        const std::size_t given = node.children.size();
        if (given < function->min_arguments || given > function->max_arguments) {
            const bool exact = function->min_arguments == function->max_arguments;
            return std::unexpected(
                Problem{fmt::format("{}() takes {}{} argument{} ({}), not {}", called, exact ? "" : "at least ",
                                    function->min_arguments, function->min_arguments == 1 && exact ? "" : "s",
                                    function->arguments, given),
                        name.column});
        }
        if (auto problem = finish(node, first))
            return std::unexpected(*problem);
        return node;
    }

    // ( expression ): its own node, marked parenthesized, its column the '(' and its source the text inside.
    Result parenthesized() {
        const Token& open = advance();
        if (auto problem = deeper())
            return std::unexpected(*problem);
        if (at(Tok::rparen))
            return std::unexpected(Problem{"empty parentheses", open.column});
        auto inner = comparison();
        if (!inner)
            return inner;
        if (at(Tok::end))
            return std::unexpected(Problem{"missing ')'", peek().column});
        if (!at(Tok::rparen))
            return std::unexpected(after_expression());
        const Token& close = advance();
        --m_depth;
        inner->parenthesized = true;
        inner->column = open.column;
        inner->begin = open.begin;
        inner->end = close.end;
        inner->source = std::string(m_text.substr(open.end, close.begin - open.end));
        const auto space = inner->source.find_first_not_of(" \t\r\n\f\v");
        inner->source.erase(0, space == std::string::npos ? inner->source.size() : space);
        inner->source.erase(inner->source.find_last_not_of(" \t\r\n\f\v") + 1);
        return inner;
    }
};

constexpr auto k_functions = std::to_array<Function>({
    {"if", 3, 3, "a condition, the value when it holds, the value otherwise"},
    {"min", 2, SIZE_MAX, "the values to take the smallest of"},
    {"max", 2, SIZE_MAX, "the values to take the largest of"},
    {"ceil", 1, 1, "the value to round up to a whole number"},
    {"floor", 1, 1, "the value to round down to a whole number"},
    {"abs", 1, 1, "the value whose size it is"},
    {"sqrt", 1, 1, "the value whose square root it is"},
    {"cbrt", 1, 1, "the value whose cube root it is"},
    {"exp", 1, 1, "the power of e"},
    {"ln", 1, 1, "the value whose natural logarithm it is"},
    {"log2", 1, 1, "the value whose logarithm to base 2 it is"},
    {"log10", 1, 1, "the value whose logarithm to base 10 it is"},
});

} // namespace

std::span<const Function> functions() { return k_functions; }

std::expected<Node, Problem> parse(std::string_view text) {
    use_small_block_memory();
    try {
        if (text.size() > k_max_formula_bytes)
            return std::unexpected(Problem{fmt::format("the formula is longer than {} bytes", k_max_formula_bytes), 0});
        auto tokens = detail::lex(text);
        if (!tokens)
            return std::unexpected(tokens.error());
        return Parser(text, std::move(*tokens)).run();
    } catch (const std::exception& error) {
        return std::unexpected(Problem{fmt::format("could not read the formula: {}", error.what()), 0});
    }
}

std::string identifier(std::string_view text) {
    std::string out;
    bool gap = false;
    for (const char c : text) {
        const bool letter = (c >= 'a' && c <= 'z') || is_digit(c);
        const bool upper = c >= 'A' && c <= 'Z';
        if (!letter && !upper) {
            gap = true;
            continue;
        }
        if (gap && !out.empty())
            out += '_';
        gap = false;
        out += upper ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return out.empty() ? "term" : out;
}

} // namespace headcount::formula

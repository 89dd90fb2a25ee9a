// Formulas in TeX for worked solutions. Literals are written as the instructor wrote them (86400 stays 86400, with
// no thousands separators; only e-notation becomes "3.12 \times 10^{14}"), names through the caller's NameTex.
// Parentheses appear only where precedence needs them: a sum inside a product or subtracted from a sum, a sign
// after an operator, and a base of a power that is not a plain number or name.

#include <formula/formula.hpp>

#include <optional>
#include <utility>

namespace headcount::formula {

namespace {

/// How a number or name is written; `power_base` when it is raised to a power (so it may need parentheses).
using Leaf = std::function<std::string(const Node& node, bool power_base)>;

/// Deeper than any parsed formula: a hand-built tree past it is cut short rather than overflowing the stack.
constexpr int k_max_tex_depth = 4 * k_max_formula_depth + 16;

std::string wrapped(const std::string& text) {
    return text.find("\\frac") != std::string::npos ? "\\left(" + text + "\\right)" : "(" + text + ")";
}

/// A literal as written, with e-notation as a power of ten: 3.12e14 -> 3.12 \times 10^{14}, 1e9 -> 10^{9}.
std::string literal_tex(const Node& node) {
    if (node.text.empty()) {
        const Number value = node.value.value_or(0);
        if (auto decimal = exact_decimal(value))
            return *decimal;
        return "\\frac{" + value.get_num().get_str() + "}{" + value.get_den().get_str() + "}";
    }
    const auto e = node.text.find_first_of("eE");
    if (e == std::string::npos)
        return node.text;
    const std::string mantissa = node.text.substr(0, e);
    std::string exponent = node.text.substr(e + 1);
    const bool negative = !exponent.empty() && exponent[0] == '-';
    if (!exponent.empty() && (exponent[0] == '-' || exponent[0] == '+'))
        exponent.erase(0, 1);
    exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
    const std::string power = "10^{" + std::string(negative ? "-" : "") + exponent + "}";
    return mantissa == "1" ? power : mantissa + " \\times " + power;
}

std::string default_name_tex(std::string_view name) {
    std::string out = "\\mathrm{";
    for (const char c : name)
        out += c == '_' ? std::string("\\_") : std::string(1, c);
    return out + "}";
}

std::string default_number_tex(const Number& value) {
    if (auto decimal = exact_decimal(value))
        return *decimal;
    const std::string sign = value < 0 ? "-" : "";
    return sign + "\\frac{" + mpz_class(abs(value.get_num())).get_str() + "}{" + value.get_den().get_str() + "}";
}

bool has_division(const Node& node) {
    for (std::size_t i = 0; i < node.children.size(); ++i)
        if (i < node.inverse.size() && node.inverse[i])
            return true;
    return false;
}

/// Which branch an if() takes, when its condition has a value (substituted TeX); nullopt to write every case.
using Choose = std::function<std::optional<bool>(const Node& condition)>;

std::string_view comparison_tex(std::string_view op) {
    return op == "<=" ? "\\le" : op == ">=" ? "\\ge" : op == "==" ? "=" : op == "!=" ? "\\ne" : op;
}

class Writer {
  public:
    explicit Writer(const Leaf& leaf, Choose choose = {}) : m_leaf(leaf), m_choose(std::move(choose)) {}

    std::string write(const Node& node, int depth) {
        if (depth > k_max_tex_depth)
            return "\\ldots";
        switch (node.op) {
        case Node::Op::number:
        case Node::Op::name:
            return m_leaf(node, false);
        case Node::Op::negate:
            return node.children.empty() ? "-" : "-" + signed_operand(node.children[0], depth);
        case Node::Op::call:
            return call(node, depth);
        case Node::Op::compare:
            if (node.children.size() != 2)
                return "";
            {
                // Parenthesised inside an expression, (a > b) + 1, but not as a whole formula or an if()'s condition.
                const bool bare = depth == 0 || m_bare;
                m_bare = false;
                const std::string text = write(node.children[0], depth + 1) + " " +
                                         std::string(comparison_tex(node.text)) + " " +
                                         write(node.children[1], depth + 1);
                return bare ? text : wrapped(text);
            }
        case Node::Op::sum:
            return sum(node, depth);
        case Node::Op::product:
            return product(node, depth);
        case Node::Op::power:
            return power(node, depth);
        }
        return "";
    }

  private:
    const Leaf& m_leaf;
    Choose m_choose;
    bool m_bare = false; ///< the node written next is an if()'s condition: a comparison needs no parentheses

    std::string condition(const Node& node, int depth) {
        m_bare = true;
        std::string text = write(node, depth);
        m_bare = false;
        return text;
    }

    std::string call(const Node& node, int depth) {
        const std::string& name = node.text;
        if (name == "if")
            return conditional(node, depth);
        std::string arguments;
        for (const Node& argument : node.children)
            arguments += (arguments.empty() ? "" : ", ") + write(argument, depth + 1);
        if (name == "floor")
            return "\\left\\lfloor " + arguments + " \\right\\rfloor";
        if (name == "ceil")
            return "\\left\\lceil " + arguments + " \\right\\rceil";
        if (name == "abs")
            return "\\left| " + arguments + " \\right|";
        if (name == "sqrt")
            return "\\sqrt{" + arguments + "}";
        if (name == "cbrt")
            return "\\sqrt[3]{" + arguments + "}";
        if (name == "exp")
            return "e^{" + arguments + "}";
        if (name == "ln" || name == "log2" || name == "log10") {
            // \ln x for a plain name or number, else \ln(a + b) (and \log_{10}(10^{9})): where the argument ends is
            // clear.
            const std::string_view log = name == "ln" ? "\\ln" : name == "log2" ? "\\log_2" : "\\log_{10}";
            const bool bare = node.children.size() == 1 &&
                              (node.children[0].op == Node::Op::name || node.children[0].op == Node::Op::number) &&
                              arguments.find_first_of(" -^") == std::string::npos;
            return std::string(log) + (bare ? " " + arguments : wrapped(arguments));
        }
        return "\\" + name + "(" + arguments + ")";
    }

    // if(c, a, b): the branch taken when the condition has a value, else cases, an if() in the last branch adding
    // its own rows: a if c, b if d, e otherwise.
    std::string conditional(const Node& node, int depth) {
        if (node.children.size() != 3)
            return "";
        if (m_choose)
            if (const auto taken = m_choose(node.children[0]))
                return write(node.children[*taken ? 1 : 2], depth + 1);
        std::string rows;
        const Node* at = &node;
        for (int level = 0;
             at->op == Node::Op::call && at->text == "if" && at->children.size() == 3 && level < k_max_tex_depth;
             ++level) {
            rows += write(at->children[1], depth + 1) + " & \\text{if } " + condition(at->children[0], depth + 1) +
                    " \\\\ ";
            at = &at->children[2];
        }
        return "\\begin{cases} " + rows + write(*at, depth + 1) + " & \\text{otherwise} \\end{cases}";
    }

    /// One factor of a product's numerator or denominator: a sum there needs parentheses when it has company.
    struct Factor {
        std::string text;
        bool sum = false;
        bool negate = false;
    };

    std::string signed_operand(const Node& node, int depth) {
        const std::string text = write(node, depth + 1);
        return node.op == Node::Op::sum || node.op == Node::Op::negate ? wrapped(text) : text;
    }

    std::string sum(const Node& node, int depth) {
        std::string out;
        for (std::size_t i = 0; i < node.children.size(); ++i) {
            const Node& term = node.children[i];
            const bool minus = i < node.inverse.size() && node.inverse[i];
            std::string text = write(term, depth + 1);
            if ((term.op == Node::Op::sum && minus) || (term.op == Node::Op::negate && (i > 0 || minus)))
                text = wrapped(text);
            out += i == 0 ? (minus ? "-" : "") : (minus ? " - " : " + ");
            out += text;
        }
        return node.children.empty() ? "0" : out;
    }

    // Multiplied factors go to the numerator, divided ones to the denominator; a nested product multiplied is
    // spread over both, and one divided keeps its factors in the denominator (x / (g p m) / 86400 is one \frac).
    void collect(const Node& node, int depth, std::vector<Factor>& numerator, std::vector<Factor>& denominator) {
        for (std::size_t i = 0; i < node.children.size(); ++i) {
            const Node& factor = node.children[i];
            const bool divided = i < node.inverse.size() && node.inverse[i];
            if (factor.op == Node::Op::product && depth < k_max_tex_depth) {
                if (!divided) {
                    collect(factor, depth + 1, numerator, denominator);
                    continue;
                }
                if (!has_division(factor)) {
                    collect(factor, depth + 1, denominator, denominator);
                    continue;
                }
            }
            (divided ? denominator : numerator)
                .push_back({write(factor, depth + 1), factor.op == Node::Op::sum, factor.op == Node::Op::negate});
        }
    }

    static std::string joined(const std::vector<Factor>& factors) {
        std::string out;
        for (std::size_t i = 0; i < factors.size(); ++i) {
            const Factor& factor = factors[i];
            const bool parentheses = (factor.sum && factors.size() > 1) || (factor.negate && i > 0);
            out += (i == 0 ? "" : " \\cdot ") + (parentheses ? wrapped(factor.text) : factor.text);
        }
        return out;
    }

    std::string product(const Node& node, int depth) {
        std::vector<Factor> numerator;
        std::vector<Factor> denominator;
        collect(node, depth, numerator, denominator);
        if (denominator.empty())
            return numerator.empty() ? "1" : joined(numerator);
        return "\\frac{" + (numerator.empty() ? std::string("1") : joined(numerator)) + "}{" + joined(denominator) +
               "}";
    }

    std::string power(const Node& node, int depth) {
        if (node.children.size() != 2)
            return "";
        const Node& base = node.children[0];
        const bool leaf = base.op == Node::Op::number || base.op == Node::Op::name;
        const std::string base_text = leaf ? m_leaf(base, true) : wrapped(write(base, depth + 1));
        return base_text + "^{" + write(node.children[1], depth + 1) + "}";
    }
};

/// A literal as written, parenthesised as a power's base when it is more than digits (3.12 \times 10^{14}).
std::string literal_leaf(const Node& node, bool power_base) {
    const std::string text = literal_tex(node);
    return power_base && text.find_first_not_of("0123456789.") != std::string::npos ? wrapped(text) : text;
}

/// The formula written with `leaf` for its names and literals, or its source text if writing it fails.
std::string write_or_source(const Node& formula, const Leaf& leaf, Choose choose = {}) {
    try {
        return Writer(leaf, std::move(choose)).write(formula, 0);
    } catch (const std::exception&) {
        return formula.source;
    }
}

} // namespace

std::string tex(const Node& formula, const NameTex& name_tex) {
    return write_or_source(formula, [&](const Node& node, bool power_base) {
        if (node.op == Node::Op::name)
            return name_tex ? name_tex(node.text) : default_name_tex(node.text);
        return literal_leaf(node, power_base);
    });
}

std::string tex_substituted(const Node& formula, const Lookup& lookup, const NumberTex& number_tex) {
    return write_or_source(
        formula,
        [&](const Node& node, bool power_base) {
            if (node.op == Node::Op::name) {
                const Number* value = lookup ? lookup(node.text) : nullptr;
                if (!value)
                    return default_name_tex(node.text);
                const std::string text = number_tex ? number_tex(*value) : default_number_tex(*value);
                const bool plain_integer = value->get_den() == 1 && *value >= 0;
                return *value < 0 || (power_base && !plain_integer) ? wrapped(text) : text;
            }
            return literal_leaf(node, power_base);
        },
        [&](const Node& condition) -> std::optional<bool> {
            auto value = evaluate(condition, lookup);
            return value ? std::optional<bool>(*value != 0) : std::nullopt;
        });
}

} // namespace headcount::formula

#include <solve/formula_form.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>

namespace headcount::solve {

namespace {

using formula::Node;
using Op = formula::Node::Op;

/// The sizes a problem with an architecture gives, in the catalogue's order.
constexpr auto k_sizes =
    std::to_array<std::string_view>({"d_model",        "h",          "d_k",           "d_v",        "kdim",
                                     "vdim",           "n_kv_heads", "d_ff",          "layers",     "encoder_layers",
                                     "decoder_layers", "vocab",      "max_positions", "type_vocab", "experts",
                                     "top_k",          "batch",      "seq_len",       "seq_len_kv", "bits"});

/// Nodes a formula may grow to while quantities are put in place of their names, before constants are folded.
constexpr std::size_t k_max_inlined_nodes = 20000;

Node number_node(Number value) {
    Node n;
    n.op = Op::number;
    n.value = std::move(value);
    return n;
}

bool is_number(const Node& n) { return n.op == Op::number && n.value; }

bool has_names(const Node& n) {
    if (n.op == Op::name)
        return true;
    return std::any_of(n.children.begin(), n.children.end(), has_names);
}

/// `node` with constant parts computed, nested sums and products made one, factors of 1 and terms of 0 left out.
Node folded(Node node) {
    for (Node& child : node.children)
        child = folded(std::move(child));
    node.parenthesized = false;
    if (node.op != Op::number && node.op != Op::name && !has_names(node)) {
        auto value = formula::evaluate(node, [](std::string_view) -> const Number* { return nullptr; });
        if (value)
            return number_node(std::move(*value));
        return node;
    }
    if (node.op == Op::call && node.text == "if" && node.children.size() == 3 && is_number(node.children[0]))
        return std::move(node.children[*node.children[0].value != 0 ? 1 : 2]);
    if (node.op == Op::power && node.children.size() == 2 && is_number(node.children[1]) &&
        *node.children[1].value == 1)
        return std::move(node.children[0]);
    if (node.op != Op::sum && node.op != Op::product)
        return node;
    const bool sum = node.op == Op::sum;
    std::vector<Node> children;
    std::vector<bool> inverse;
    Number constant = sum ? 0 : 1;
    const std::function<void(Node&, bool)> add = [&](Node& child, bool inverted) {
        if (child.op == node.op) {
            for (std::size_t i = 0; i < child.children.size(); ++i)
                add(child.children[i], inverted != (i < child.inverse.size() && child.inverse[i]));
            return;
        }
        if (is_number(child)) {
            const Number& v = *child.value;
            if (sum)
                constant += inverted ? Number(-v) : v;
            else if (inverted && v != 0)
                constant /= v;
            else
                constant *= v;
            return;
        }
        children.push_back(std::move(child));
        inverse.push_back(inverted);
    };
    for (std::size_t i = 0; i < node.children.size(); ++i)
        add(node.children[i], i < node.inverse.size() && node.inverse[i]);
    if (!sum && constant == 0)
        return number_node(0);
    Node out;
    out.op = node.op;
    out.column = node.column;
    if (sum) {
        out.children = std::move(children);
        out.inverse = std::move(inverse);
        if (constant != 0) {
            out.children.push_back(number_node(abs(constant)));
            out.inverse.push_back(constant < 0);
        }
    } else {
        // The coefficient first, as a course writes it: 4 * d_model^2, d_model / 2.
        if (constant.get_num() != 1 || children.empty()) {
            out.children.push_back(number_node(Number(constant.get_num())));
            out.inverse.push_back(false);
        }
        if (constant.get_den() != 1) {
            out.children.push_back(number_node(Number(constant.get_den())));
            out.inverse.push_back(true);
        }
        for (std::size_t i = 0; i < children.size(); ++i) {
            out.children.push_back(std::move(children[i]));
            out.inverse.push_back(inverse[i]);
        }
    }
    if (out.children.empty())
        return number_node(sum ? 0 : 1);
    if (out.children.size() == 1 && !out.inverse[0])
        return std::move(out.children[0]);
    return out;
}

/// A Laurent polynomial in the names: each monomial (a name's exponent, never 0) with its coefficient (never 0).
using Monomial = std::map<std::string, long>;
using Polynomial = std::map<Monomial, Number>;

/// Most terms a polynomial form may have, and the largest whole exponent expanded.
constexpr std::size_t k_max_terms = 64;
constexpr long k_max_expanded_exponent = 8;

void add_term(Polynomial& p, const Monomial& m, const Number& c) {
    Number& at = p[m];
    at += c;
    if (at == 0)
        p.erase(m);
}

std::optional<Polynomial> times(const Polynomial& a, const Polynomial& b) {
    Polynomial out;
    for (const auto& [ma, ca] : a)
        for (const auto& [mb, cb] : b) {
            Monomial m = ma;
            for (const auto& [name, e] : mb)
                if ((m[name] += e) == 0)
                    m.erase(name);
            add_term(out, m, ca * cb);
            if (out.size() > k_max_terms)
                return std::nullopt;
        }
    return out;
}

/// The inverse of a polynomial of one term (a monomial with its coefficient), else nullopt.
std::optional<Polynomial> inverse_of(const Polynomial& p) {
    if (p.size() != 1)
        return std::nullopt;
    Monomial m;
    for (const auto& [name, e] : p.begin()->first)
        m[name] = -e;
    return Polynomial{{m, Number(1) / p.begin()->second}};
}

/// The formula as a polynomial in its names, or nullopt when it is none (a function, a division by a sum, a power
/// that is not whole) or too large.
std::optional<Polynomial> polynomial(const Node& n) {
    switch (n.op) {
    case Op::number:
        if (!n.value)
            return std::nullopt;
        return *n.value == 0 ? Polynomial{} : Polynomial{{Monomial{}, *n.value}};
    case Op::name:
        return Polynomial{{Monomial{{n.text, 1}}, Number(1)}};
    case Op::negate: {
        auto inner = n.children.empty() ? std::nullopt : polynomial(n.children[0]);
        if (inner)
            for (auto& [m, c] : *inner)
                c = -c;
        return inner;
    }
    case Op::sum: {
        Polynomial out;
        for (std::size_t i = 0; i < n.children.size(); ++i) {
            auto term = polynomial(n.children[i]);
            if (!term)
                return std::nullopt;
            const bool minus = i < n.inverse.size() && n.inverse[i];
            for (const auto& [m, c] : *term)
                add_term(out, m, minus ? Number(-c) : c);
            if (out.size() > k_max_terms)
                return std::nullopt;
        }
        return out;
    }
    case Op::product: {
        Polynomial out{{Monomial{}, Number(1)}};
        for (std::size_t i = 0; i < n.children.size(); ++i) {
            auto factor = polynomial(n.children[i]);
            if (factor && i < n.inverse.size() && n.inverse[i])
                factor = inverse_of(*factor);
            if (!factor)
                return std::nullopt;
            auto next = times(out, *factor);
            if (!next)
                return std::nullopt;
            out = std::move(*next);
        }
        return out;
    }
    case Op::power: {
        if (n.children.size() != 2 || !is_number(n.children[1]) || n.children[1].value->get_den() != 1 ||
            !n.children[1].value->get_num().fits_slong_p())
            return std::nullopt;
        const long e = n.children[1].value->get_num().get_si();
        auto base = polynomial(n.children[0]);
        if (!base)
            return std::nullopt;
        if (base->size() == 1 && std::abs(e) <= 1000) { // a monomial to any whole power
            Monomial m;
            for (const auto& [name, k] : base->begin()->first)
                m[name] = k * e;
            Number c = 1;
            for (long i = 0; i < std::abs(e); ++i)
                c *= base->begin()->second;
            return Polynomial{{m, e < 0 ? Number(1 / c) : c}};
        }
        if (e < 0 || e > k_max_expanded_exponent)
            return std::nullopt;
        Polynomial out{{Monomial{}, Number(1)}};
        for (long i = 0; i < e; ++i) {
            auto next = times(out, *base);
            if (!next)
                return std::nullopt;
            out = std::move(*next);
        }
        return out;
    }
    case Op::call:
    case Op::compare:
        return std::nullopt;
    }
    return std::nullopt;
}

/// The polynomial as a formula: terms by falling degree, the names of each in `order`'s order, a coefficient first.
Node polynomial_node(const Polynomial& p, const std::vector<std::string>& order) {
    const auto rank = [&](const std::string& name) {
        return static_cast<std::size_t>(std::find(order.begin(), order.end(), name) - order.begin());
    };
    std::vector<std::pair<Monomial, Number>> terms(p.begin(), p.end());
    const auto degree = [](const Monomial& m) {
        long d = 0;
        for (const auto& [name, e] : m)
            d += e;
        return d;
    };
    const auto key = [&](const Monomial& m) {
        std::vector<std::pair<std::size_t, long>> k;
        for (const auto& [name, e] : m)
            k.emplace_back(rank(name), -e);
        std::sort(k.begin(), k.end());
        return k;
    };
    std::stable_sort(terms.begin(), terms.end(), [&](const auto& a, const auto& b) {
        const long da = degree(a.first), db = degree(b.first);
        return da != db ? da > db : key(a.first) < key(b.first);
    });
    Node sum;
    sum.op = Op::sum;
    for (const auto& [m, c] : terms) {
        Node product;
        product.op = Op::product;
        const Number magnitude = abs(c);
        if (magnitude.get_num() != 1 || m.empty()) {
            product.children.push_back(number_node(Number(magnitude.get_num())));
            product.inverse.push_back(false);
        }
        std::vector<std::pair<std::string, long>> names(m.begin(), m.end());
        std::sort(names.begin(), names.end(),
                  [&](const auto& a, const auto& b) { return rank(a.first) < rank(b.first); });
        for (const bool divided : {false, true})
            for (const auto& [name, e] : names) {
                if ((e < 0) != divided)
                    continue;
                Node leaf;
                leaf.op = Op::name;
                leaf.text = name;
                if (std::abs(e) != 1) {
                    Node power;
                    power.op = Op::power;
                    power.children.push_back(std::move(leaf));
                    power.children.push_back(number_node(Number(std::abs(e))));
                    leaf = std::move(power);
                }
                product.children.push_back(std::move(leaf));
                product.inverse.push_back(divided);
            }
        if (magnitude.get_den() != 1) {
            product.children.push_back(number_node(Number(magnitude.get_den())));
            product.inverse.push_back(true);
        }
        Node term =
            product.children.size() == 1 && !product.inverse[0] ? std::move(product.children[0]) : std::move(product);
        sum.children.push_back(std::move(term));
        sum.inverse.push_back(c < 0);
    }
    if (sum.children.empty())
        return number_node(0);
    if (sum.children.size() == 1 && !sum.inverse[0])
        return std::move(sum.children[0]);
    return sum;
}

/// Whether a polynomial is a whole number for whole sizes: whole coefficients, and only sizes (counts) to whole
/// powers that are not negative.
bool whole_for_sizes(const Polynomial& p) {
    for (const auto& [m, c] : p) {
        if (c.get_den() != 1)
            return false;
        for (const auto& [name, e] : m)
            if (e < 0 || std::find(k_sizes.begin(), k_sizes.end(), name) == k_sizes.end())
                return false;
    }
    return true;
}

/// `node` with like terms collected wherever a part of it is a polynomial (inside a function's arguments too), and
/// ceil() or floor() of a polynomial that is whole for whole sizes left out.
Node collected(Node node, const std::vector<std::string>& order) {
    if (const auto p = polynomial(node))
        return polynomial_node(*p, order);
    for (Node& child : node.children)
        child = collected(std::move(child), order);
    if (node.op == Op::call && (node.text == "ceil" || node.text == "floor") && node.children.size() == 1)
        if (const auto p = polynomial(node.children[0]); p && whole_for_sizes(*p))
            return std::move(node.children[0]);
    return node;
}

class Inliner {
  public:
    Inliner(const Computation& c, const std::set<std::string>& kept, const std::set<std::string>& defaulted)
        : m_c(c), m_kept(kept), m_defaulted(defaulted) {}

    std::optional<Node> form(int index) {
        if (const auto it = m_memo.find(index); it != m_memo.end())
            return it->second;
        m_memo[index] = std::nullopt; // a cycle finds no formula
        std::optional<Node> out = make(index);
        if (out)
            out = folded(std::move(*out));
        m_memo[index] = out;
        return out;
    }

  private:
    const Computation& m_c;
    const std::set<std::string>& m_kept;
    const std::set<std::string>& m_defaulted;
    std::map<int, std::optional<Node>> m_memo;
    std::size_t m_nodes = 0;

    std::optional<Node> make(int index) {
        if (!m_c.available(index))
            return std::nullopt;
        const Computation::Slot& s = m_c.slot(index);
        if (s.given) {
            if (m_kept.contains(std::string(s.name))) {
                Node n;
                n.op = Op::name;
                n.text = std::string(s.name);
                return n;
            }
            // A given the spec leaves to its default (d_k = d_model / h) is that default, in the kept names.
            if (s.entry && !s.entry->formula.empty() && m_defaulted.contains(std::string(s.name)))
                return substituted(*catalogue_formula(s.entry->formula), index);
            return number_node(m_c.value(index));
        }
        if (s.quantity && s.quantity->crossover)
            return std::nullopt;
        if (s.shaped()) {
            Node product;
            product.op = Op::product;
            for (const auto& axis : s.axes) {
                auto part = substituted(*axis, index);
                if (!part)
                    return std::nullopt;
                product.children.push_back(std::move(*part));
                product.inverse.push_back(false);
            }
            return product;
        }
        const std::shared_ptr<const Node> formula = m_c.formula(index); // givens were answered above
        if (!formula)
            return std::nullopt;
        return substituted(*formula, index);
    }

    std::optional<Node> substituted(const Node& node, int scope) {
        if (++m_nodes > k_max_inlined_nodes)
            return std::nullopt;
        if (node.op == Op::name) {
            const Computation::Slot& s = m_c.slot(scope);
            int used = -1;
            for (std::size_t i = 0; i < s.names.size() && i < s.uses.size(); ++i)
                if (s.names[i] == node.text)
                    used = s.uses[i];
            if (used < 0)
                used = s.entry && !s.quantity ? m_c.find(node.text) : m_c.find_visible(node.text);
            if (used < 0)
                return std::nullopt;
            auto out = form(used);
            if (out)
                m_nodes += 1;
            return out;
        }
        Node out;
        out.op = node.op;
        out.value = node.value;
        out.text = node.text;
        out.inverse = node.inverse;
        out.column = node.column;
        for (const Node& child : node.children) {
            auto part = substituted(child, scope);
            if (!part)
                return std::nullopt;
            out.children.push_back(std::move(*part));
        }
        return out;
    }
};

std::size_t node_count(const Node& n) {
    std::size_t count = 1;
    for (const Node& child : n.children)
        count += node_count(child);
    return count;
}

/// How tightly a node binds: a child that binds less than its place needs is parenthesised.
int binding(const Node& n) {
    switch (n.op) {
    case Op::compare:
        return 0;
    case Op::sum:
        return 1;
    case Op::product:
        return 2;
    case Op::negate:
        return 3;
    case Op::power:
        return 4;
    case Op::number:
        return n.text.empty() && n.value && (n.value->get_den() != 1 || *n.value < 0) ? 2 : 5;
    case Op::name:
    case Op::call:
        return 5;
    }
    return 5;
}

std::string write(const Node& n);

std::string operand(const Node& n, int needs) {
    const std::string text = write(n);
    return binding(n) < needs ? "(" + text + ")" : text;
}

std::string write(const Node& n) {
    switch (n.op) {
    case Op::number:
        if (!n.text.empty())
            return n.text;
        if (!n.value)
            return "0";
        if (auto decimal = formula::exact_decimal(*n.value))
            return *decimal;
        return n.value->get_num().get_str() + "/" + n.value->get_den().get_str();
    case Op::name:
        return n.text;
    case Op::negate:
        return n.children.empty() ? "-" : "-" + operand(n.children[0], 4);
    case Op::power:
        return n.children.size() == 2 ? operand(n.children[0], 5) + "^" + operand(n.children[1], 5) : "";
    case Op::call: {
        std::string out = n.text + "(";
        for (std::size_t i = 0; i < n.children.size(); ++i)
            out += (i ? ", " : "") + write(n.children[i]);
        return out + ")";
    }
    case Op::compare:
        return n.children.size() == 2 ? operand(n.children[0], 1) + " " + n.text + " " + operand(n.children[1], 1) : "";
    case Op::sum:
    case Op::product: {
        const bool sum = n.op == Op::sum;
        std::string out;
        for (std::size_t i = 0; i < n.children.size(); ++i) {
            const bool inverted = i < n.inverse.size() && n.inverse[i];
            // A divided factor binds as a power does (a / (b * c)); a subtracted term as a product (a - (b + c)).
            const int needs = sum ? (inverted ? 2 : 1) : (inverted ? 3 : 2);
            if (i == 0)
                out += inverted ? (sum ? "-" : "1 / ") : "";
            else
                out += sum ? (inverted ? " - " : " + ") : (inverted ? " / " : " * ");
            out += operand(n.children[i], needs);
        }
        return out;
    }
    }
    return "";
}

} // namespace

std::vector<std::string> formula_answer_names(const Computation& c, const spec::Problem& problem) {
    std::vector<std::string> out;
    const auto add = [&](std::string_view name) {
        const int slot = c.find_visible(name);
        if (!c.available(slot) || !c.slot(slot).given || c.value(slot) == 0)
            return;
        if (std::find(out.begin(), out.end(), name) == out.end())
            out.emplace_back(name);
    };
    if (problem.kind != "quantities")
        for (const std::string_view name : k_sizes)
            add(name);
    for (const auto& [name, value] : problem.values)
        add(name);
    return out;
}

bool fixed_in_formula_answers(std::string_view name) { return name == "bits"; }

std::vector<std::string> stated_formula_names(const Computation& computation, const spec::Problem& problem) {
    const GivenValues stated = given_values(problem);
    std::vector<std::string> out;
    for (std::string& name : formula_answer_names(computation, problem))
        if (stated.contains(name) && !fixed_in_formula_answers(name))
            out.push_back(std::move(name));
    return out;
}

std::optional<formula::Node> in_givens(const Computation& computation, int target, const std::set<std::string>& kept,
                                       const std::set<std::string>& defaulted) {
    if (!computation.available(target))
        return std::nullopt;
    Inliner inliner(computation, kept, defaulted);
    auto out = inliner.form(target);
    if (!out)
        return std::nullopt;
    // Like terms collected (4 * d_model^2 + 4 * d_model, not the sum of the four projections' counts) where the
    // formula is a polynomial in the givens; else as folded.
    std::vector<std::string> order;
    for (const std::string_view name : k_sizes)
        order.emplace_back(name);
    for (const std::string& name : kept)
        order.push_back(name);
    if (Node tidy = collected(*out, order); node_count(tidy) <= formula::k_max_nodes)
        out = std::move(tidy);
    if (node_count(*out) > formula::k_max_nodes)
        return std::nullopt;
    return out;
}

std::string formula_text(const formula::Node& formula) { return write(formula); }

} // namespace headcount::solve

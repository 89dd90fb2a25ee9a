#pragma once
// A formula's text with the conditions a problem settles applied (formula::resolved), over any form of its parsed
// nodes: formula::Node trees, and the tables the build parsed the catalogue into (solve/computation.cpp), which
// resolve a catalogue row without making its tree. A node is reached through a reference type `Ref` that has:
//   op(), text(), size() (its children), child(i), begin(), end(), parenthesized(), inverse(i) (a subtracted term
//   or divided factor), is_number(n) (a literal of value n), and same(other) (the same node).
// Internal to formula::resolved and the catalogue's tables.

#include <formula/formula.hpp>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::formula::detail {

/// Where a node stands in its parent, for whether a branch put there needs parentheses.
enum class Place { whole, term, subtracted, factor, divisor, power, negated, argument };

inline constexpr int k_max_resolve_depth = 4 * k_max_formula_depth + 16;

template <class Ref> bool is_if(const Ref& node) {
    return node.op() == Node::Op::call && node.text() == "if" && node.size() == 3;
}

/// The resolving of one formula's text: `decide` says whether a condition holds, or nullopt when it is not settled.
template <class Ref> class Resolver {
  public:
    using DecideRef = std::function<std::optional<bool>(const Ref& condition)>;

    Resolver(std::string_view text, const DecideRef& decide) : m_text(text), m_decide(decide) {}

    std::string text_of(const Ref& node, Place place, int depth) {
        if (depth > k_max_resolve_depth || node.end() > m_text.size() || node.begin() > node.end())
            return std::string(m_text.substr(std::min(node.begin(), m_text.size())));
        if (const std::optional<Ref> branch = taken(node)) {
            std::string inner = text_of(*branch, place, depth + 1);
            const bool loose =
                !branch->parenthesized() && (branch->op() == Node::Op::sum || branch->op() == Node::Op::compare ||
                                             branch->op() == Node::Op::negate);
            const bool tight = place == Place::subtracted || place == Place::factor || place == Place::divisor ||
                               place == Place::power || place == Place::negated ||
                               (place == Place::term && branch->op() == Node::Op::compare);
            // A product divides or is raised as a whole only in parentheses (x / (a * b), (a * b)^2), and so is a
            // power raised again ((a^b)^2).
            const bool grouped =
                !branch->parenthesized() &&
                ((branch->op() == Node::Op::product && (place == Place::divisor || place == Place::power)) ||
                 (branch->op() == Node::Op::power && place == Place::power));
            if ((node.parenthesized() && !branch->parenthesized()) || (loose && tight) || grouped)
                return "(" + inner + ")";
            return inner;
        }
        if ((node.op() == Node::Op::sum || node.op() == Node::Op::product) && node.size() > 0)
            return chain(node, depth);
        std::string out;
        std::size_t at = node.begin();
        for (std::size_t i = 0; i < node.size(); ++i) {
            const Ref child = node.child(i);
            if (child.begin() < at || child.end() > node.end())
                continue; // a hand-built tree: keep the text as written
            const std::string replaced = text_of(child, place_of(node, i), depth + 1);
            if (replaced == m_text.substr(child.begin(), child.end() - child.begin()))
                continue;
            out += m_text.substr(at, child.begin() - at);
            out += replaced;
            at = child.end();
        }
        out += m_text.substr(at, node.end() - at);
        return out;
    }

  private:
    std::string_view m_text;
    const DecideRef& m_decide;

    /// The branch an if() takes when its condition is settled, or nullopt.
    std::optional<Ref> taken(const Ref& node) const {
        if (!is_if(node) || !m_decide)
            return std::nullopt;
        const auto holds = m_decide(node.child(0));
        return holds ? std::optional<Ref>(node.child(*holds ? 1 : 2)) : std::nullopt;
    }

    /// Whether `child`, an operand of a sum (`identity` 0) or a product (1), is an if() that comes to that identity.
    bool vanishes(const Ref& child, int identity) const {
        Ref at = child;
        for (int depth = 0; depth < k_max_resolve_depth; ++depth) {
            const std::optional<Ref> branch = taken(at);
            if (!branch)
                break;
            at = *branch;
        }
        return !at.same(child) && at.is_number(identity);
    }

    // A sum or product: its operands with the text between them (the operators) as written, an operand that vanishes
    // dropped with the operator before it; the first with the operator after it, where that operator can go (a
    // dividing first factor of 1 stays: 1 / x).
    std::string chain(const Ref& node, int depth) {
        const bool sum = node.op() == Node::Op::sum;
        const std::size_t n = node.size();
        std::vector<Ref> children;
        children.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            children.push_back(node.child(i));
        for (std::size_t i = 0; i < n; ++i)
            if (children[i].begin() < (i == 0 ? node.begin() : children[i - 1].end()) || children[i].end() > node.end())
                return std::string(m_text.substr(node.begin(), node.end() - node.begin())); // a hand-built tree
        const auto inverse = [&](std::size_t i) { return node.inverse(i); };
        std::vector<char> dropped(n, 0);
        for (std::size_t i = 0; i < n; ++i)
            dropped[i] = vanishes(children[i], sum ? 0 : 1) ? 1 : 0;
        // The first kept operand takes the place of the dropped ones before it; a divided one cannot (1 / x).
        std::size_t first = 0;
        while (first < n && dropped[first])
            ++first;
        if (first > 0 && first < n && !sum && inverse(first))
            dropped[--first] = 0;
        if (first == n)
            return std::string(sum ? "0" : "1");
        std::string prefix(m_text.substr(node.begin(), children[0].begin() - node.begin()));
        if (first > 0) // the first operand's own sign goes with it
            while (!prefix.empty() &&
                   (prefix.back() == '-' || prefix.back() == ' ' || static_cast<unsigned char>(prefix.back()) >= 0x80))
                prefix.pop_back();
        std::string out = prefix;
        for (std::size_t i = first; i < n; ++i) {
            if (dropped[i])
                continue;
            const Ref& child = children[i];
            if (i > first) {
                out += m_text.substr(children[i - 1].end(), child.begin() - children[i - 1].end());
            } else if (i > 0) { // a subtracted first operand keeps its sign
                if (inverse(i))
                    out += "-";
            }
            out += text_of(child, place_of(node, i), depth + 1);
        }
        out += m_text.substr(children[n - 1].end(), node.end() - children[n - 1].end());
        return out;
    }

    static Place place_of(const Ref& parent, std::size_t i) {
        const bool inverse = parent.inverse(i);
        switch (parent.op()) {
        case Node::Op::sum:
            return inverse ? Place::subtracted : Place::term;
        case Node::Op::product:
            return inverse ? Place::divisor : Place::factor;
        case Node::Op::power:
            return Place::power;
        case Node::Op::negate:
            return Place::negated;
        case Node::Op::call:
        case Node::Op::compare:
            return Place::argument;
        default:
            return Place::whole;
        }
    }
};

} // namespace headcount::formula::detail

// A formula's text with the conditions a problem settles applied: each if() whose condition has a value written as
// the branch it takes. Done on the text, so the rest reads exactly as written (its spacing and parentheses), and the
// result is read again as a formula of its own: what a worked solution shows and what is counted are one text. A
// branch that leaves a factor of 1 or a term of 0 leaves nothing: "2 * params / if(sharded, gpus, 1)" is
// "2 * params" where nothing is sharded.

#include <formula/formula.hpp>

#include <algorithm>
#include <exception>

namespace headcount::formula {

namespace {

/// Where a node stands in its parent, for whether a branch put there needs parentheses.
enum class Place { whole, term, subtracted, factor, divisor, power, negated, argument };

constexpr int k_max_depth = 4 * k_max_formula_depth + 16;

bool is_if(const Node& node) { return node.op == Node::Op::call && node.text == "if" && node.children.size() == 3; }

class Resolver {
  public:
    Resolver(std::string_view text, const Decide& decide) : m_text(text), m_decide(decide) {}

    std::string text_of(const Node& node, Place place, int depth) {
        if (depth > k_max_depth || node.end > m_text.size() || node.begin > node.end)
            return std::string(m_text.substr(std::min(node.begin, m_text.size())));
        if (const Node* branch = taken(node)) {
            std::string inner = text_of(*branch, place, depth + 1);
            const bool loose =
                !branch->parenthesized &&
                (branch->op == Node::Op::sum || branch->op == Node::Op::compare || branch->op == Node::Op::negate);
            const bool tight = place == Place::subtracted || place == Place::factor || place == Place::divisor ||
                               place == Place::power || place == Place::negated ||
                               (place == Place::term && branch->op == Node::Op::compare);
            if ((node.parenthesized && !branch->parenthesized) || (loose && tight))
                return "(" + inner + ")";
            return inner;
        }
        if ((node.op == Node::Op::sum || node.op == Node::Op::product) && !node.children.empty())
            return chain(node, depth);
        std::string out;
        std::size_t at = node.begin;
        for (std::size_t i = 0; i < node.children.size(); ++i) {
            const Node& child = node.children[i];
            if (child.begin < at || child.end > node.end)
                continue; // a hand-built tree: keep the text as written
            const std::string replaced = text_of(child, place_of(node, i), depth + 1);
            if (replaced == m_text.substr(child.begin, child.end - child.begin))
                continue;
            out += m_text.substr(at, child.begin - at);
            out += replaced;
            at = child.end;
        }
        out += m_text.substr(at, node.end - at);
        return out;
    }

  private:
    std::string_view m_text;
    const Decide& m_decide;

    /// The branch an if() takes when its condition is settled, or nullptr.
    const Node* taken(const Node& node) const {
        if (!is_if(node) || !m_decide)
            return nullptr;
        const auto holds = m_decide(node.children[0]);
        return holds ? &node.children[*holds ? 1 : 2] : nullptr;
    }

    /// Whether `child`, an operand of a sum (`identity` 0) or a product (1), is an if() that comes to that identity.
    bool vanishes(const Node& child, int identity) const {
        const Node* at = &child;
        for (int depth = 0; depth < k_max_depth; ++depth) {
            const Node* branch = taken(*at);
            if (!branch)
                break;
            at = branch;
        }
        return at != &child && at->op == Node::Op::number && at->value == identity;
    }

    // A sum or product: its operands with the text between them (the operators) as written, an operand that vanishes
    // dropped with the operator before it; the first with the operator after it, where that operator can go (a
    // dividing first factor of 1 stays: 1 / x).
    std::string chain(const Node& node, int depth) {
        const bool sum = node.op == Node::Op::sum;
        const std::size_t n = node.children.size();
        for (std::size_t i = 0; i < n; ++i)
            if (node.children[i].begin < (i == 0 ? node.begin : node.children[i - 1].end) ||
                node.children[i].end > node.end)
                return std::string(m_text.substr(node.begin, node.end - node.begin)); // a hand-built tree
        const auto inverse = [&](std::size_t i) { return i < node.inverse.size() && node.inverse[i]; };
        std::vector<char> dropped(n, 0);
        for (std::size_t i = 0; i < n; ++i)
            dropped[i] = vanishes(node.children[i], sum ? 0 : 1) ? 1 : 0;
        // The first kept operand takes the place of the dropped ones before it; a divided one cannot (1 / x).
        std::size_t first = 0;
        while (first < n && dropped[first])
            ++first;
        if (first > 0 && first < n && !sum && inverse(first))
            dropped[--first] = 0;
        if (first == n)
            return std::string(sum ? "0" : "1");
        std::string prefix(m_text.substr(node.begin, node.children[0].begin - node.begin));
        if (first > 0) // the first operand's own sign goes with it
            while (!prefix.empty() &&
                   (prefix.back() == '-' || prefix.back() == ' ' || static_cast<unsigned char>(prefix.back()) >= 0x80))
                prefix.pop_back();
        std::string out = prefix;
        for (std::size_t i = first; i < n; ++i) {
            if (dropped[i])
                continue;
            const Node& child = node.children[i];
            if (i > first) {
                out += m_text.substr(node.children[i - 1].end, child.begin - node.children[i - 1].end);
            } else if (i > 0) { // a subtracted first operand keeps its sign
                if (inverse(i))
                    out += "-";
            }
            out += text_of(child, place_of(node, i), depth + 1);
        }
        out += m_text.substr(node.children[n - 1].end, node.end - node.children[n - 1].end);
        return out;
    }

    static Place place_of(const Node& parent, std::size_t i) {
        const bool inverse = i < parent.inverse.size() && parent.inverse[i];
        switch (parent.op) {
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

} // namespace

std::string resolved(const Node& formula, std::string_view text, const Decide& decide) {
    try {
        return Resolver(text, decide).text_of(formula, Place::whole, 0);
    } catch (const std::exception&) {
        return std::string(text);
    }
}

} // namespace headcount::formula

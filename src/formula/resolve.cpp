// A formula's text with the conditions a problem settles applied: each if() whose condition has a value written as
// the branch it takes. Done on the text, so the rest reads exactly as written (its spacing and parentheses), and the
// result is read again as a formula of its own: what a worked solution shows and what is counted are one text. A
// branch that leaves a factor of 1 or a term of 0 leaves nothing: "2 * params / if(sharded, gpus, 1)" is
// "2 * params" where nothing is sharded.

#include <formula/resolver.hpp>

#include <exception>

namespace headcount::formula {

namespace {

/// A node of a formula::Node tree, as detail::Resolver reads one.
class TreeRef {
  public:
    explicit TreeRef(const Node& node) : m_node(&node) {}
    [[nodiscard]] Node::Op op() const { return m_node->op; }
    [[nodiscard]] std::string_view text() const { return m_node->text; }
    [[nodiscard]] std::size_t size() const { return m_node->children.size(); }
    [[nodiscard]] TreeRef child(std::size_t i) const { return TreeRef(m_node->children[i]); }
    [[nodiscard]] std::size_t begin() const { return m_node->begin; }
    [[nodiscard]] std::size_t end() const { return m_node->end; }
    [[nodiscard]] bool parenthesized() const { return m_node->parenthesized; }
    [[nodiscard]] bool inverse(std::size_t i) const { return i < m_node->inverse.size() && m_node->inverse[i]; }
    [[nodiscard]] bool is_number(int n) const { return m_node->op == Node::Op::number && m_node->value == n; }
    [[nodiscard]] bool same(const TreeRef& other) const { return m_node == other.m_node; }
    [[nodiscard]] const Node& node() const { return *m_node; }

  private:
    const Node* m_node;
};

} // namespace

std::string resolved(const Node& formula, std::string_view text, const Decide& decide) {
    try {
        const detail::Resolver<TreeRef>::DecideRef by_ref =
            decide ? detail::Resolver<TreeRef>::DecideRef([&](const TreeRef& c) { return decide(c.node()); })
                   : detail::Resolver<TreeRef>::DecideRef();
        return detail::Resolver<TreeRef>(text, by_ref).text_of(TreeRef(formula), detail::Place::whole, 0);
    } catch (const std::exception&) {
        return std::string(text);
    }
}

} // namespace headcount::formula

// Derived mistakes: the ways a student could misread a formula's structure, found by walking its tree, and the
// formula with some of them made. Paths always refer to the original tree; apply() rebuilds it bottom-up, so
// several changes (even two removals from the same sum) apply together without shifting each other's indices.

#include <formula/formula.hpp>
#include <util/enum_names.hpp>

#include <algorithm>
#include <map>

namespace headcount::formula {

namespace {

using Kind = Perturbation::Kind;

constexpr int k_max_walk_depth = 4 * k_max_formula_depth + 16;

constexpr auto k_kind_names = std::to_array<std::string_view>(
    {"term_left_out", "term_twice", "factor_left_out", "factor_inverted", "exponent_dropped", "root_left_out"});
static_assert(names_every(Kind::root_left_out, k_kind_names));

std::string_view kind_name(Kind kind) { return enum_name(kind, k_kind_names, "changed"); }

bool is_literal(const Node& node, int value) { return node.op == Node::Op::number && node.value == value; }

bool inverse_at(const Node& node, std::size_t i) { return i < node.inverse.size() && node.inverse[i]; }

class Walker {
  public:
    explicit Walker(std::size_t limit) : m_limit(limit) {}

    void walk(const Node& node, int divisions, int depth) {
        if (full() || depth > k_max_walk_depth)
            return;
        const std::size_t count = node.children.size();
        if (node.op == Node::Op::sum && count >= 2) {
            for (std::size_t i = 0; i < count; ++i) {
                if (is_literal(node.children[i], 0))
                    continue; // neither leaving out nor doubling a 0 changes anything
                add(Kind::term_left_out, i, node.children[i].source, false, inverse_at(node, i));
                add(Kind::term_twice, i, node.children[i].source, false, inverse_at(node, i));
            }
        } else if (node.op == Node::Op::product && count >= 2) {
            for (std::size_t i = 0; i < count; ++i) {
                if (is_literal(node.children[i], 1))
                    continue;
                add(Kind::factor_left_out, i, node.children[i].source);
                add(Kind::factor_inverted, i, node.children[i].source,
                    (divisions + (inverse_at(node, i) ? 1 : 0)) % 2 == 1);
            }
        } else if (node.op == Node::Op::power && count == 2 && !is_literal(node.children[1], 1)) {
            add(Kind::exponent_dropped, 0, node.source);
        } else if (node.op == Node::Op::call && count == 1 && (node.text == "sqrt" || node.text == "cbrt")) {
            add(Kind::root_left_out, 0, node.source);
        }
        if (node.op == Node::Op::compare)
            return; // a comparison decides; a slip changes what is compared, not how
        for (std::size_t i = 0; i < count; ++i) {
            if (node.op == Node::Op::call && node.text == "if" && i == 0)
                continue; // an if()'s condition, likewise
            const bool divided = node.op == Node::Op::product && inverse_at(node, i);
            m_path.push_back(i);
            walk(node.children[i], divisions + (divided ? 1 : 0), depth + 1);
            m_path.pop_back();
        }
    }

    std::vector<Perturbation> take() { return std::move(m_found); }

  private:
    std::size_t m_limit;
    std::vector<std::size_t> m_path;
    std::vector<Perturbation> m_found;
    std::map<std::string, int> m_ids;

    bool full() const { return m_found.size() >= m_limit; }

    void add(Kind kind, std::size_t child, const std::string& subject, bool divides = false, bool subtracted = false) {
        if (full())
            return;
        std::string id = std::string(kind_name(kind)) + "_" + identifier(subject);
        if (const int seen = ++m_ids[id]; seen > 1)
            id += "_" + std::to_string(seen);
        m_found.push_back(Perturbation{.kind = kind,
                                       .path = m_path,
                                       .child = child,
                                       .divides = kind == Kind::factor_inverted && divides,
                                       .subtracted = subtracted,
                                       .subject = subject,
                                       .id = std::move(id)});
    }
};

/// The part of the tree a perturbation changes: the child it names, or for a dropped exponent or a root left out the
/// whole power or call.
std::vector<std::size_t> changed_part(const Perturbation& p) {
    std::vector<std::size_t> part = p.path;
    if (p.kind != Kind::exponent_dropped && p.kind != Kind::root_left_out)
        part.push_back(p.child);
    return part;
}

bool contains(const std::vector<std::size_t>& outer, const std::vector<std::size_t>& inner) {
    return outer.size() <= inner.size() && std::equal(outer.begin(), outer.end(), inner.begin());
}

class Applier {
  public:
    explicit Applier(const std::vector<const Perturbation*>& changes) : m_changes(changes) {}

    Node rebuild(const Node& node, int depth) {
        Node out = node;
        if (depth > k_max_walk_depth)
            return out;
        for (std::size_t i = 0; i < node.children.size(); ++i) {
            m_path.push_back(i);
            out.children[i] = rebuild(node.children[i], depth + 1);
            m_path.pop_back();
        }
        std::vector<bool> removed(node.children.size(), false);
        std::vector<bool> doubled(node.children.size(), false);
        bool drop_exponent = false;
        for (const Perturbation* change : m_changes) {
            if (change == nullptr || change->path != m_path)
                continue;
            const std::size_t i = change->child;
            const bool in_range = i < node.children.size();
            switch (change->kind) {
            case Kind::term_left_out:
            case Kind::factor_left_out:
                if (in_range)
                    removed[i] = true;
                break;
            case Kind::term_twice:
                if (in_range)
                    doubled[i] = true;
                break;
            case Kind::factor_inverted:
                if (in_range) {
                    out.inverse.resize(node.children.size(), false);
                    out.inverse[i] = !out.inverse[i];
                }
                break;
            case Kind::exponent_dropped:
                drop_exponent = node.op == Node::Op::power && !node.children.empty();
                break;
            case Kind::root_left_out:
                drop_exponent = node.op == Node::Op::call && node.children.size() == 1;
                break;
            }
        }
        if (drop_exponent) { // the power's base, or the root's argument
            Node base = std::move(out.children[0]);
            base.parenthesized = base.parenthesized || node.parenthesized;
            return base;
        }
        if (node.op != Node::Op::sum && node.op != Node::Op::product)
            return out;
        const bool changed = std::find(removed.begin(), removed.end(), true) != removed.end() ||
                             std::find(doubled.begin(), doubled.end(), true) != doubled.end();
        if (!changed)
            return out;
        Node result = out;
        result.children.clear();
        result.inverse.clear();
        for (std::size_t i = 0; i < out.children.size(); ++i) {
            if (removed[i])
                continue;
            for (int copy = 0; copy < (doubled[i] ? 2 : 1); ++copy) {
                result.children.push_back(out.children[i]);
                result.inverse.push_back(inverse_at(out, i));
            }
        }
        if (result.children.empty()) { // everything left out: an empty sum is 0, an empty product 1
            Node empty;
            empty.op = Node::Op::number;
            empty.value = node.op == Node::Op::sum ? 0 : 1;
            empty.text = node.op == Node::Op::sum ? "0" : "1";
            empty.column = node.column;
            empty.source = empty.text;
            return empty;
        }
        if (result.children.size() == 1 && !result.inverse[0]) { // one factor or term left: that is the node
            Node only = std::move(result.children[0]);
            only.parenthesized = only.parenthesized || node.parenthesized;
            return only;
        }
        return result;
    }

  private:
    const std::vector<const Perturbation*>& m_changes;
    std::vector<std::size_t> m_path;
};

} // namespace

std::vector<Perturbation> perturbations(const Node& formula, std::size_t limit) {
    Walker walker(limit);
    try {
        walker.walk(formula, 0, 0);
    } catch (const std::exception&) { // out of memory: what was found so far
    }
    return walker.take();
}

bool independent(const Perturbation& a, const Perturbation& b) {
    const auto part_a = changed_part(a);
    const auto part_b = changed_part(b);
    return !contains(part_a, part_b) && !contains(part_b, part_a);
}

Node apply(const Node& formula, const std::vector<const Perturbation*>& changes) {
    try {
        return Applier(changes).rebuild(formula, 0);
    } catch (const std::exception&) {
        return formula;
    }
}

} // namespace headcount::formula

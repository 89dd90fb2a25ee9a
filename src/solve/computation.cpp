#include <solve/computation.hpp>

#include <formula/resolver.hpp>
#include <formula/whole.hpp>

#include <spec/givens.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <deque>
#include <mutex>
#include <set>
#include <unordered_map>

namespace headcount::solve {

namespace {

/// The parsed catalogue formulas, by their text: each parsed once per process, shared by every computation.
struct FormulaCache {
    std::mutex mutex;
    std::unordered_map<std::string_view, std::shared_ptr<const formula::Node>> parsed;
};

FormulaCache& formula_cache() {
    // Never destroyed: the formulas live as long as the program, and freeing a few thousand nodes at exit was a
    // tenth of a student's `check`. (Reachable from a static pointer, it is no leak to LeakSanitizer.)
    static FormulaCache* cache = new FormulaCache;
    return *cache;
}

/// Makes `n` the tree of the nodes from `at` on (one node and its subtrees), moving `at` past them. Each node is
/// made where it stays, in its parent's list of children: a node moved there would make its value's rational again.
void build_into(formula::Node& n, std::span<const ParsedNode> nodes, std::size_t& at) {
    const ParsedNode& p = nodes[at++];
    n.op = static_cast<formula::Node::Op>(p.op);
    long whole = 0;
    if (const auto [end, error] = std::from_chars(p.value.data(), p.value.data() + p.value.size(), whole);
        !p.value.empty() && error == std::errc() && end == p.value.data() + p.value.size())
        n.value = Number(whole); // most are small whole numbers
    else if (!p.value.empty())
        n.value = Number(std::string(p.value), 10); // mpq's own writing of a value in lowest terms
    n.text = p.text;
    n.children.resize(p.children);
    for (formula::Node& child : n.children)
        build_into(child, nodes, at);
    n.inverse.reserve(p.inverse.size());
    for (const char c : p.inverse)
        n.inverse.push_back(c == '1');
    n.parenthesized = p.parenthesized;
    n.column = p.column;
    n.source = p.source;
    n.begin = p.begin;
    n.end = p.end;
}

/// The whole value of the prebuilt formula whose nodes begin at `at` (formula/whole.hpp's steps), moving `at` past
/// them; nullopt at the first step that is not whole, leaving `at` anywhere.
class PrebuiltWhole {
  public:
    PrebuiltWhole(std::span<const ParsedNode> nodes, const formula::Lookup& lookup)
        : m_nodes(nodes), m_lookup(&lookup) {}
    /// Names read by their entries' indices (ParsedNode::slot) rather than by text.
    PrebuiltWhole(std::span<const ParsedNode> nodes, const SlotValues& slots) : m_nodes(nodes), m_slots(&slots) {}

    std::optional<long> value(std::size_t& at) {
        using Op = formula::Node::Op;
        namespace whole = formula::whole;
        const ParsedNode& p = m_nodes[at++];
        switch (static_cast<Op>(p.op)) {
        case Op::number:
            return p.is_whole ? std::optional<long>(p.whole) : std::nullopt;
        case Op::name: {
            const Number* found = m_slots ? (p.slot >= 0 ? m_slots->value(m_slots->context, p.slot) : nullptr)
                                  : m_lookup && *m_lookup ? (*m_lookup)(p.text)
                                                          : nullptr;
            m_unknown = m_unknown || !found;
            return found ? whole::of(*found) : std::nullopt;
        }
        case Op::negate: {
            const auto inner = p.children == 1 ? value(at) : std::nullopt;
            long out = 0;
            return inner && whole::step(out, *inner, true, true) ? std::optional<long>(out) : std::nullopt;
        }
        case Op::compare:
        case Op::power: {
            if (p.children != 2)
                return std::nullopt;
            const auto first = value(at);
            const auto second = first ? value(at) : std::nullopt;
            if (!second)
                return std::nullopt;
            if (static_cast<Op>(p.op) == Op::power)
                return whole::power(*first, *second);
            return whole::holds(p.text, (*first > *second) - (*first < *second)) ? 1 : 0;
        }
        case Op::sum:
        case Op::product: {
            const bool sum = static_cast<Op>(p.op) == Op::sum;
            long total = sum ? 0 : 1;
            for (std::size_t i = 0; i < p.children; ++i) {
                const auto term = value(at);
                if (!term || !whole::step(total, *term, sum, i < p.inverse.size() && p.inverse[i] == '1'))
                    return std::nullopt;
            }
            return total;
        }
        case Op::call:
            return call(p, at);
        }
        return std::nullopt;
    }

    /// Whether the walk stopped at a name the lookup does not know: the formula has no value then, whole or not.
    [[nodiscard]] bool stopped_at_unknown_name() const { return m_unknown; }

  private:
    std::span<const ParsedNode> m_nodes;
    const formula::Lookup* m_lookup = nullptr;
    const SlotValues* m_slots = nullptr;
    bool m_unknown = false;

    /// How the build settled the condition whose nodes begin at `at`, if it did (SlotValues::decisions).
    [[nodiscard]] std::optional<bool> decided(std::size_t at) const {
        if (m_slots && m_slots->decisions)
            for (const auto& [condition, outcome] : *m_slots->decisions)
                if (condition == static_cast<int>(at))
                    return outcome;
        return std::nullopt;
    }

    /// Moves `at` past one node and its subtrees.
    void skip(std::size_t& at) {
        const unsigned short children = m_nodes[at++].children;
        for (unsigned short i = 0; i < children; ++i)
            skip(at);
    }

    std::optional<long> call(const ParsedNode& p, std::size_t& at) {
        if (p.children == 0)
            return std::nullopt;
        if (p.text == "if") { // only the branch the condition takes
            if (p.children != 3)
                return std::nullopt;
            std::optional<bool> holds = decided(at); // settled when the computation was built, or read now
            if (holds) {
                skip(at);
            } else if (const auto condition = value(at)) {
                holds = *condition != 0;
            } else {
                return std::nullopt;
            }
            if (!*holds)
                skip(at);
            const auto taken = value(at);
            if (*holds)
                skip(at);
            return taken;
        }
        if (p.text == "min" || p.text == "max") {
            std::optional<long> best;
            for (std::size_t i = 0; i < p.children; ++i) {
                const auto v = value(at);
                if (!v)
                    return std::nullopt;
                if (!best || (p.text == "min" ? *v < *best : *v > *best))
                    best = *v;
            }
            return best;
        }
        const auto inner = p.children == 1 ? value(at) : std::nullopt;
        return inner ? formula::whole::function_of_one(p.text, *inner) : std::nullopt;
    }
};

} // namespace

int prebuilt_first(std::string_view text) {
    const auto formulas = parsed_formulas();
    const auto it = std::lower_bound(formulas.begin(), formulas.end(), text,
                                     [](const ParsedFormula& f, std::string_view t) { return f.text < t; });
    return it == formulas.end() || it->text != text ? -1 : static_cast<int>(it->first);
}

std::optional<long> prebuilt_whole_value(int first, const formula::Lookup& lookup) {
    std::size_t at = static_cast<std::size_t>(first);
    return PrebuiltWhole(parsed_nodes(), lookup).value(at);
}

std::optional<long> prebuilt_whole_value(int first, const SlotValues& slots) {
    std::size_t at = static_cast<std::size_t>(first);
    return PrebuiltWhole(parsed_nodes(), slots).value(at);
}

std::optional<Number> prebuilt_value(int first, const formula::Lookup& lookup) {
    std::size_t at = static_cast<std::size_t>(first);
    PrebuiltWhole whole(parsed_nodes(), lookup);
    if (const auto value = whole.value(at))
        return std::optional<Number>(std::in_place, *value);
    if (whole.stopped_at_unknown_name()) // every earlier step was exact: the rational walk stops there too
        return std::nullopt;
    formula::use_small_block_memory();
    formula::Node node;
    at = static_cast<std::size_t>(first);
    build_into(node, parsed_nodes(), at);
    auto value = formula::evaluate(node, lookup);
    return value ? std::optional<Number>(std::move(*value)) : std::nullopt;
}

namespace {

/// A node of the build's tables, as formula::detail::Resolver reads one: its index, and where each subtree of its
/// formula ends (found once per formula).
class TableRef {
  public:
    TableRef(const std::vector<unsigned>& ends, unsigned first, unsigned at)
        : m_ends(&ends), m_first(first), m_at(at) {}
    [[nodiscard]] formula::Node::Op op() const { return static_cast<formula::Node::Op>(node().op); }
    [[nodiscard]] std::string_view text() const { return node().text; }
    [[nodiscard]] std::size_t size() const { return node().children; }
    [[nodiscard]] TableRef child(std::size_t i) const {
        unsigned at = m_at + 1;
        for (std::size_t k = 0; k < i; ++k)
            at = (*m_ends)[at - m_first];
        return TableRef(*m_ends, m_first, at);
    }
    [[nodiscard]] std::size_t begin() const { return node().begin; }
    [[nodiscard]] std::size_t end() const { return node().end; }
    [[nodiscard]] bool parenthesized() const { return node().parenthesized; }
    [[nodiscard]] bool inverse(std::size_t i) const { return i < node().inverse.size() && node().inverse[i] == '1'; }
    [[nodiscard]] bool is_number(int n) const {
        return op() == formula::Node::Op::number && node().is_whole && node().whole == n;
    }
    [[nodiscard]] bool same(const TableRef& other) const { return m_at == other.m_at; }
    [[nodiscard]] unsigned index() const { return m_at; }

  private:
    const std::vector<unsigned>* m_ends;
    unsigned m_first, m_at;
    [[nodiscard]] const ParsedNode& node() const { return parsed_nodes()[m_at]; }
};

/// Where the subtree at `at` ends, for it and every node in it (`ends`, indexed from `first`).
unsigned fill_ends(std::vector<unsigned>& ends, unsigned first, unsigned at) {
    const unsigned short children = parsed_nodes()[at].children;
    unsigned next = at + 1;
    for (unsigned short i = 0; i < children; ++i)
        next = fill_ends(ends, first, next);
    if (ends.size() <= at - first)
        ends.resize(at - first + 1);
    ends[at - first] = next;
    return next;
}

} // namespace

ResolvedRow prebuilt_resolved(int first, std::string_view text, const std::function<std::optional<bool>(int)>& decide) {
    const auto start = static_cast<unsigned>(first);
    std::vector<unsigned> ends;
    fill_ends(ends, start, start);
    const auto outcome = [&](unsigned condition) { return decide(static_cast<int>(condition)); };
    const formula::detail::Resolver<TableRef>::DecideRef by_ref = [&](const TableRef& c) { return outcome(c.index()); };
    ResolvedRow out;
    out.text = formula::detail::Resolver<TableRef>(text, by_ref)
                   .text_of(TableRef(ends, start, start), formula::detail::Place::whole, 0);
    // The names of that text, in the order it writes them: a settled if()'s condition and other branch left out.
    const std::function<void(const TableRef&)> walk = [&](const TableRef& node) {
        if (node.op() == formula::Node::Op::name) {
            if (std::find(out.names.begin(), out.names.end(), node.text()) == out.names.end())
                out.names.push_back(node.text());
            return;
        }
        if (formula::detail::is_if(node))
            if (const auto holds = outcome(node.child(0).index())) {
                walk(node.child(*holds ? 1 : 2));
                return;
            }
        for (std::size_t i = 0; i < node.size(); ++i)
            walk(node.child(i));
    };
    walk(TableRef(ends, start, start));
    return out;
}

std::optional<formula::Node> prebuilt_formula(std::string_view text) {
    const int first = prebuilt_first(text);
    if (first < 0)
        return std::nullopt;
    formula::use_small_block_memory(); // as parse() does, before the first value is made
    std::size_t at = static_cast<std::size_t>(first);
    std::optional<formula::Node> out(std::in_place);
    build_into(*out, parsed_nodes(), at);
    return out;
}

std::string_view interned(std::string text) {
    static std::mutex mutex;
    static std::set<std::string, std::less<>> texts; // a set never moves what it holds
    const std::lock_guard lock(mutex);
    return *texts.insert(std::move(text)).first;
}

std::shared_ptr<const formula::Node> catalogue_formula(std::string_view text) {
    FormulaCache& cache = formula_cache();
    const std::lock_guard lock(cache.mutex);
    if (const auto it = cache.parsed.find(text); it != cache.parsed.end())
        return it->second;
    // cmake/catalogue_gen.cpp parsed every formula of the catalogue when the program was built; a text it did not
    // see (a formula resolved for a problem's settings) is parsed here, and cannot fail either.
    auto prebuilt = prebuilt_formula(text);
    auto parsed =
        prebuilt ? std::expected<formula::Node, formula::Problem>(std::move(*prebuilt)) : formula::parse(text);
    auto node = std::make_shared<const formula::Node>(parsed ? std::move(*parsed) : formula::Node{});
    cache.parsed.emplace(text, node);
    return node;
}

int catalogue_index(std::string_view name) {
    // The table was made when the program was compiled: a process makes no index of its own.
    const std::span<const short> table = catalogue_name_index();
    const auto entries = catalogue_entries();
    const std::size_t mask = table.size() - 1;
    for (std::size_t at = catalogue_name_hash(name) & mask; table[at] >= 0; at = (at + 1) & mask)
        if (entries[static_cast<std::size_t>(table[at])].name == name)
            return table[at];
    return -1;
}

const CatalogueEntry* find_entry(std::string_view name) {
    const int index = catalogue_index(name);
    return index < 0 ? nullptr : &catalogue_entries()[static_cast<std::size_t>(index)];
}

GivenValues given_values(const spec::Problem& problem) { return spec::formula_givens(problem); }

std::optional<Number> Computation::evaluate(int index, const formula::Node* node, const Overlay* overlay) const {
    // A crossover's value is the root of its formula, not its value: a mistake does not reach it (yet).
    if (const Slot& s = slot(index); s.quantity && s.quantity->crossover)
        return std::nullopt;
    // One pointer captured, so that the lookup fits std::function's own storage: no allocation per evaluation.
    struct Context {
        const Computation& c;
        const Slot& s;
        const Overlay* overlay;
    } context{*this, slot(index), overlay};
    const formula::Lookup lookup = [at = &context](std::string_view name) -> const Number* {
        const Slot& s = at->s;
        int used = -1;
        for (std::size_t i = 0; i < s.names.size(); ++i)
            if (s.names[i] == name) {
                used = s.uses[i];
                break;
            }
        if (used < 0) // a name only a mistake's formula uses
            used = s.entry && !s.quantity ? at->c.find(name) : at->c.find_visible(name);
        if (used < 0 || !at->c.available(used))
            return nullptr;
        if (at->overlay)
            if (const Number* changed = at->overlay->find(used))
                return changed;
        return &at->c.value(used);
    };
    // The slot's own formula, as the catalogue writes it: from the build's tables where every step is whole, each
    // name read by its entry's slot (the one the lookup above finds: a catalogue formula's scope is the catalogue).
    if (const Slot& s = slot(index); !node && !s.formula && s.prebuilt >= 0) {
        const SlotValues slots{&context,
                               [](const void* at, int used) -> const Number* {
                                   const auto& here = *static_cast<const Context*>(at);
                                   if (!here.c.available(used))
                                       return nullptr;
                                   if (here.overlay)
                                       if (const Number* changed = here.overlay->find(used))
                                           return changed;
                                   return &here.c.value(used);
                               },
                               &m_s->decisions};
        if (const auto whole = prebuilt_whole_value(s.prebuilt, slots))
            return std::optional<Number>(std::in_place, *whole);
    }
    const std::shared_ptr<const formula::Node> own = node ? nullptr : formula(index);
    auto result = formula::evaluate(node ? *node : *own, lookup);
    if (!result)
        return std::nullopt;
    return std::move(*result);
}

std::shared_ptr<const formula::Node> Computation::formula(int index) const {
    const Slot& s = slot(index);
    if (s.formula || s.given || s.shaped() || !s.entry || s.text.empty())
        return s.formula;
    return catalogue_formula(s.text); // a catalogue formula as written: made once per process, then shared
}

int Computation::find(std::string_view name) const { return m_s->catalogue ? catalogue_index(name) : -1; }

int Computation::find_visible(std::string_view name) const {
    if (const auto it = m_s->own_names.find(name); it != m_s->own_names.end())
        return it->second;
    const int index = find(name);
    return index >= 0 && m_s->slots[static_cast<std::size_t>(index)].visible ? index : -1;
}

const Number* Computation::value(std::string_view name) const {
    const int index = find(name);
    return available(index) ? &value(index) : nullptr;
}

std::map<std::string, Number, std::less<>> Computation::visible_values() const {
    std::map<std::string, Number, std::less<>> out;
    for (std::size_t i = 0; i < m_s->slots.size(); ++i) {
        const Slot& s = m_s->slots[i];
        const int index = static_cast<int>(i);
        if (s.visible && find_visible(s.name) == index && available(index) && !s.shaped())
            out.emplace(s.name, value(index));
    }
    return out;
}

bool Computation::holds(std::string_view condition) const {
    if (condition.empty())
        return true;
    auto result = formula::evaluate(*catalogue_formula(condition), [&](std::string_view name) -> const Number* {
        const int used = find(name);
        return available(used) ? &value(used) : nullptr;
    });
    return result && *result != 0;
}

std::vector<int> Computation::cone(int target) const {
    std::vector<char> seen(m_s->slots.size(), 0);
    std::vector<int> pending{target};
    while (!pending.empty()) {
        const int at = pending.back();
        pending.pop_back();
        for (const int used : slot(at).uses)
            if (used >= 0 && !seen[static_cast<std::size_t>(used)]) {
                seen[static_cast<std::size_t>(used)] = 1;
                pending.push_back(used);
            }
    }
    std::vector<int> out;
    for (const int i : m_s->order)
        if (seen[static_cast<std::size_t>(i)] && i != target)
            out.push_back(i);
    return out;
}

std::vector<std::string_view> Computation::axis_symbols(int index, const Change* change) const {
    std::vector<std::string_view> out;
    const Slot& s = slot(index);
    if (!s.entry)
        return out;
    for (const AxisSymbol& axis : s.entry->axes) {
        if (axis.when.empty()) {
            out.push_back(axis.text);
            continue;
        }
        const auto holds = evaluate(index, catalogue_formula(axis.when).get(), nullptr);
        out.push_back(holds && *holds != 0 ? axis.text : axis.otherwise);
    }
    const auto flag = [&](std::string_view name) {
        const int at = find(name);
        const auto v = !available(at) ? std::optional<Number>(1) : change ? value_under(at, *change) : value(at);
        return !v || *v != 0;
    };
    if (s.entry->per_head && !flag("heads_before_seq") && out.size() >= 3)
        std::swap(out[1], out[2]);
    if (!flag("batch_axis") && !out.empty())
        out.erase(out.begin());
    return out;
}

std::optional<Computation::Change> Computation::combine(const Change& a, const Change& b) const {
    // Whether `formula`, a replacement for `slot`, uses a slot `other` changes (other than `slot` itself).
    const auto builds_on = [&](int slot, const formula::Node& formula, const Change& other) {
        const Slot& s = this->slot(slot);
        for (const std::string& name : formula::names(formula)) {
            const int used = s.entry && !s.quantity ? find(name) : find_visible(name);
            for (const auto& [changed, node] : other.formulas)
                if (changed == used && changed != slot)
                    return true;
        }
        return false;
    };
    Change out = a;
    for (const auto& [slot, node] : b.formulas) {
        const auto same = std::find_if(out.formulas.begin(), out.formulas.end(),
                                       [&](const auto& entry) { return entry.first == slot; });
        if (same == out.formulas.end()) {
            out.formulas.emplace_back(slot, node);
            continue;
        }
        if (same->second->source == node->source)
            continue;
        const bool b_builds = builds_on(slot, *node, a);
        const bool a_builds = builds_on(slot, *same->second, b);
        if (b_builds == a_builds)
            return std::nullopt;
        if (b_builds)
            same->second = node;
    }
    return out;
}

bool Computation::reaches(int target, const Change& change) const {
    std::vector<char> down(m_s->slots.size(), 0);
    std::vector<int> pending;
    for (const auto& [slot, node] : change.formulas)
        if (!down[static_cast<std::size_t>(slot)]) {
            down[static_cast<std::size_t>(slot)] = 1;
            pending.push_back(slot);
        }
    while (!pending.empty()) {
        const int at = pending.back();
        pending.pop_back();
        if (at == target)
            return true;
        for (const int user : m_s->users[static_cast<std::size_t>(at)])
            if (!down[static_cast<std::size_t>(user)]) {
                down[static_cast<std::size_t>(user)] = 1;
                pending.push_back(user);
            }
    }
    return false;
}

} // namespace headcount::solve

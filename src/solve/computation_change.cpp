// A mistake's effect: the slots a change gives other formulas, and every slot that uses them, computed anew for
// one target (only those the target depends on, each after those it uses under the change), over the right values.

#include <solve/computation.hpp>

namespace headcount::solve {

Shape Computation::laid_out(int index, Shape shape, const Overlay* overlay) const {
    const auto flag = [&](std::string_view name) {
        const int at = find(name);
        if (!available(at))
            return true;
        if (overlay)
            if (const Number* changed = overlay->find(at))
                return *changed != 0;
        return value(at) != 0;
    };
    if (slot(index).entry && slot(index).entry->per_head && !flag("heads_before_seq") && shape.size() >= 3)
        std::swap(shape[1], shape[2]);
    if (!flag("batch_axis") && !shape.empty())
        shape.erase(shape.begin());
    return shape;
}

namespace {

/// What recompute() works in, kept from one change to the next on a thread (a part's mistakes are some sixty
/// changes): sized to the computation once, and only the entries a change touched cleared after it.
struct Workspace {
    std::vector<char> down;
    std::vector<int> state; // 0 unseen, 1 on the path, 2 done
    std::vector<int> touched, pending, order;
    std::vector<std::pair<int, std::size_t>> stack;
    std::vector<std::pair<int, std::vector<int>>> replaced_uses;
    bool busy = false;
};

/// This thread's workspace for the duration of one recompute(), or a workspace of its own where one is already in
/// use further up the stack.
class Borrowed {
  public:
    explicit Borrowed(std::size_t count) {
        thread_local Workspace shared;
        m_w = shared.busy ? &m_own : &shared;
        m_w->busy = true;
        if (m_w->down.size() < count) {
            m_w->down.assign(count, 0);
            m_w->state.assign(count, 0);
        }
    }
    ~Borrowed() {
        for (const int i : m_w->touched) {
            m_w->down[static_cast<std::size_t>(i)] = 0;
            m_w->state[static_cast<std::size_t>(i)] = 0;
        }
        m_w->touched.clear();
        m_w->pending.clear();
        m_w->order.clear();
        m_w->stack.clear();
        m_w->replaced_uses.clear();
        m_w->busy = false;
    }
    Borrowed(const Borrowed&) = delete;
    Borrowed& operator=(const Borrowed&) = delete;
    Workspace& operator*() const { return *m_w; }

  private:
    Workspace m_own;
    Workspace* m_w;
};

} // namespace

bool Computation::recompute(int target, const Change& change, Overlay& overlay) const {
    const Borrowed borrowed(m_s->slots.size());
    Workspace& w = *borrowed;
    // What the change can alter: the slots it replaces and everything that uses them.
    const auto mark_down = [&](int index) {
        if (!w.down[static_cast<std::size_t>(index)]) {
            w.down[static_cast<std::size_t>(index)] = 1;
            w.touched.push_back(index);
            w.pending.push_back(index);
        }
    };
    for (const auto& [index, node] : change.formulas)
        if (available(index)) // what the problem does not have, no mistake changes
            mark_down(index);
    while (!w.pending.empty()) {
        const int at = w.pending.back();
        w.pending.pop_back();
        for (const int user : m_s->users[static_cast<std::size_t>(at)])
            mark_down(user);
    }
    if (!w.down[static_cast<std::size_t>(target)])
        return true; // the target does not use what changed
    const auto replaced = [&](int index) -> const formula::Node* {
        for (const auto& [at, node] : change.formulas)
            if (at == index && available(at))
                return node.get();
        return nullptr;
    };
    // The slots a replaced formula uses: its own names, in the scope of the slot it replaces.
    for (const auto& [index, node] : change.formulas) {
        if (!available(index))
            continue;
        std::vector<int> uses;
        const Slot& s = slot(index);
        for (const std::string_view name : formula::name_views(*node))
            uses.push_back(s.entry && !s.quantity ? find(name) : find_visible(name));
        w.replaced_uses.emplace_back(index, std::move(uses));
    }
    const auto uses_of = [&](int index) -> const std::vector<int>& {
        for (const auto& [at, uses] : w.replaced_uses)
            if (at == index)
                return uses;
        return slot(index).uses;
    };
    // Those of them the target uses under the change, each after those it uses (a depth-first walk with a stack of
    // its own); a cycle is no mistake. Every slot it marks is down, so touched already.
    std::vector<int>& order = w.order;
    auto& stack = w.stack;
    stack.emplace_back(target, 0);
    w.state[static_cast<std::size_t>(target)] = 1;
    while (!stack.empty()) {
        auto& [at, next] = stack.back();
        const std::vector<int>& uses = uses_of(at);
        if (next == uses.size()) {
            w.state[static_cast<std::size_t>(at)] = 2;
            order.push_back(at);
            stack.pop_back();
            continue;
        }
        const int used = uses[next++];
        if (used < 0)
            return false;
        if (!w.down[static_cast<std::size_t>(used)] || w.state[static_cast<std::size_t>(used)] == 2)
            continue;
        if (w.state[static_cast<std::size_t>(used)] == 1)
            return false;
        w.state[static_cast<std::size_t>(used)] = 1;
        stack.emplace_back(used, 0);
    }
    for (const int i : order) {
        const Slot& s = slot(i);
        if (s.shaped()) {
            Number elements = 1;
            Shape shape;
            for (const auto& axis : s.axes) {
                auto value = evaluate(i, axis.get(), &overlay);
                if (!value || value->get_den() != 1 || !value->get_num().fits_slong_p())
                    return false;
                shape.push_back(value->get_num().get_si());
            }
            for (const Count axis : laid_out(i, std::move(shape), &overlay))
                elements *= formula::to_number(axis);
            overlay.set(i, std::move(elements));
            continue;
        }
        const formula::Node* node = replaced(i);
        auto value = evaluate(i, node, &overlay); // null: the slot's own formula
        if (!value)
            return false;
        overlay.set(i, std::move(*value));
    }
    return true;
}

std::optional<Number> Computation::value_under(int target, const Change& change) const {
    if (!available(target))
        return std::nullopt;
    if (change.empty())
        return value(target);
    Overlay overlay(m_s->slots.size());
    if (!recompute(target, change, overlay))
        return std::nullopt;
    if (const Number* changed = overlay.find(target))
        return *changed;
    return value(target);
}

std::optional<Shape> Computation::shape_under(int target, const Change& change) const {
    if (!available(target) || !slot(target).shaped())
        return std::nullopt;
    if (change.empty())
        return shape(target);
    Overlay overlay(m_s->slots.size());
    if (!recompute(target, change, overlay))
        return std::nullopt;
    Shape shape;
    for (const auto& axis : slot(target).axes) {
        auto value = evaluate(target, axis.get(), &overlay);
        if (!value || value->get_den() != 1 || !value->get_num().fits_slong_p())
            return std::nullopt;
        shape.push_back(value->get_num().get_si());
    }
    return laid_out(target, std::move(shape), &overlay);
}

} // namespace headcount::solve

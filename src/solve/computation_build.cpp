// Building a problem's computation: a slot for every catalogue entry and every quantity of the spec, each formula
// with the conditions the problem's givens settle applied, the names it uses found in its scope, the slots put in
// an order where each comes after those it uses, and every value computed once.

#include <solve/computation.hpp>

#include <solve/choices.hpp>
#include <solve/crossover.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <functional>

namespace headcount::solve {

Result<std::shared_ptr<const Computation>> Computation::build(const spec::Problem& problem,
                                                              std::span<const std::string_view> only,
                                                              const GivenValues* given_override) {
    auto out = std::make_shared<Computation>();
    Computation& c = *out;
    c.m_s = std::make_shared<Structure>();
    c.m_s->quantities = problem.quantities;
    const GivenValues givens = given_override ? *given_override : given_values(problem);
    // Why a given the problem lacks leaves a slot without a value: for the catalogue's, one text per process, which
    // every slot needing it views.
    const auto missing_given = [&](std::size_t given) -> std::string_view {
        if (c.m_s->slots[given].entry)
            return c.m_s->slots[given].entry->missing;
        return c.own(fmt::format("the problem gives no {}", c.m_s->slots[given].name));
    };
    // Every slot is made before any is named: the name maps hold views of the slots' names.
    c.m_s->slots.reserve((problem.kind != "quantities" ? catalogue_entries().size() : 0) + problem.values.size() +
                         (problem.quantities ? problem.quantities->size() : 0));
    const auto add = [&](Slot slot) {
        if (c.m_s->slots.size() == c.m_s->slots.capacity())
            std::abort(); // the reserve above counts every slot added below
        c.m_s->slots.push_back(std::move(slot));
        return static_cast<int>(c.m_s->slots.size() - 1);
    };

    // The catalogue's entries, for a problem with an architecture (a spec of formulas alone has none).
    c.m_s->catalogue = problem.kind != "quantities";
    if (c.m_s->catalogue)
        for (const CatalogueEntry& e : catalogue_entries()) {
            Slot s;
            s.name = e.name;
            s.entry = &e;
            s.given = e.given;
            s.visible = e.given || !e.ask.empty();
            add(std::move(s));
        }
    // The spec's values the catalogue does not name (gpus, tokens of its own formulas).
    for (const auto& [name, value] : problem.values) {
        const int known = c.find_visible(name);
        if (known >= 0 && c.slot(known).given)
            continue;
        Slot s;
        s.name = c.own(name);
        s.given = true;
        s.visible = true;
        const int index = add(std::move(s));
        c.m_s->own_names.insert_or_assign(c.m_s->slots.back().name, index);
    }
    // The spec's quantities: one of an ask's name redefines that built-in, for every formula that uses it.
    if (problem.quantities)
        for (const spec::Quantity& q : *problem.quantities) {
            const int known = c.find_visible(q.name);
            if (known >= 0 && c.slot(known).given) // the reader refuses these; a Problem built by hand may not
                return std::unexpected(
                    Error{problem.file, q.mark.line, q.mark.column,
                          fmt::format("quantity '{}' has the name of a given; choose another name", q.name)});
            if (known >= 0 && c.slot(known).entry) {
                const CatalogueEntry& e = *c.slot(known).entry;
                // A catalogue row answered with a word is made a quantity of its own (spec/training.hpp); a spec's
                // formula cannot take its place.
                if ((!e.shape.empty() || !e.choices.empty()) && !q.builtin)
                    return std::unexpected(Error{
                        problem.file, q.mark.line, q.mark.column,
                        fmt::format("quantity '{}' has the name of a built-in {}, which a formula cannot redefine; "
                                    "choose another name",
                                    q.name, e.shape.empty() ? "choice (its answer is a word)" : "shape")});
                c.m_s->slots[static_cast<std::size_t>(known)].quantity = &q;
                continue;
            }
            Slot s;
            s.name = q.name;
            s.quantity = &q;
            s.visible = true;
            const int index = add(std::move(s));
            c.m_s->own_names.insert_or_assign(c.m_s->slots.back().name, index);
        }
    const std::size_t count = c.m_s->slots.size();
    c.m_values.resize(count);
    c.m_shapes.resize(count);

    // With `only`, the entries it needs under any conditions (their formulas' names, if() branches included, as the
    // catalogue lists them), the spec's quantities and what they use; every given, for the conditions. The others are
    // left without a value, as an entry whose givens the problem lacks is.
    std::vector<char> wanted(count, 1);
    if (!only.empty()) {
        wanted.assign(count, 0);
        std::vector<int> pending;
        const auto want = [&](int i) {
            if (i >= 0 && !wanted[static_cast<std::size_t>(i)]) {
                wanted[static_cast<std::size_t>(i)] = 1;
                pending.push_back(i);
            }
        };
        for (const std::string_view name : only)
            want(c.find(name));
        for (std::size_t i = 0; i < count; ++i)
            if (c.m_s->slots[i].quantity || c.m_s->slots[i].given)
                want(static_cast<int>(i));
        while (!pending.empty()) {
            const Slot& s = c.m_s->slots[static_cast<std::size_t>(pending.back())];
            pending.pop_back();
            if (s.quantity) {
                for (const std::string_view name : formula::name_views(s.quantity->formula))
                    want(c.find_visible(name));
            } else if (s.entry) {
                for (const int used : s.entry->use_slots)
                    want(used);
                if (!s.entry->shape.empty()) {
                    want(c.find("batch_axis"));
                    want(c.find("heads_before_seq"));
                }
            }
        }
        for (std::size_t i = 0; i < count; ++i)
            if (!wanted[i])
                c.m_s->slots[i].unavailable = "not needed for the parts asked";
    }

    // Givens first: a value the problem states, else the default (d_k = d_model / h), which uses givens alone.
    const std::vector<char> known = c.settle_givens(givens, false);
    for (std::size_t i = 0; i < count; ++i)
        if (c.m_s->slots[i].given && !known[i] && c.m_s->slots[i].unavailable.empty())
            c.m_s->slots[i].unavailable = missing_given(i);

    // A catalogue entry that needs a given the problem lacks, whatever its conditions, has no value: known without
    // reading its formula (an attention block has none of a whole model's, or a training run's, many rows). Not
    // where the spec redefines a row, which may need what the catalogue's formula does not.
    const bool redefining =
        std::any_of(c.m_s->slots.begin(), c.m_s->slots.end(), [](const Slot& s) { return s.entry && s.quantity; });
    for (std::size_t i = 0; i < count && !redefining; ++i) {
        Slot& s = c.m_s->slots[i];
        if (s.given || !s.entry || s.quantity || !wanted[i])
            continue;
        for (const int used : s.entry->required_slots) {
            if (!known[static_cast<std::size_t>(used)]) {
                s.unavailable = missing_given(static_cast<std::size_t>(used));
                break;
            }
        }
    }

    // Every formula for this problem: an if() whose condition the givens settle is written as its branch.
    // Each decision is kept, for revalued() to ask again of other values. A condition is read from the build's
    // tables, by where its nodes begin.
    const std::function<std::optional<bool>(int)> decide = [&](int condition) -> std::optional<bool> {
        auto& decisions = c.m_s->decisions;
        for (const auto& [at, outcome] : decisions)
            if (at == condition)
                return outcome;
        return decisions.emplace_back(condition, c.settled(condition, known)).second;
    };
    const auto holds = [&](std::string_view condition) {
        const int first = prebuilt_first(condition); // the build parsed every condition of the catalogue
        return first >= 0 && decide(first).value_or(false);
    };
    for (std::size_t i = 0; i < count; ++i) {
        Slot& s = c.m_s->slots[i];
        if (!wanted[i])
            continue;
        if (s.quantity) {
            s.title = s.quantity->title;
        } else if (s.entry) {
            const bool otherwise = !s.entry->title_when.empty() && !holds(s.entry->title_when);
            s.title = otherwise ? s.entry->title_otherwise : s.entry->title;
        } else {
            s.title = s.name;
        }
        if (s.entry && !s.quantity && s.unavailable.empty() && !s.entry->available_when.empty() &&
            !holds(s.entry->available_when))
            s.unavailable = s.entry->unavailable;
        if (s.given || (s.entry && !s.quantity && !s.unavailable.empty()))
            continue;
        const auto add_names = [&](const formula::Node& node) {
            for (const std::string_view name : formula::name_views(node))
                if (std::find(s.names.begin(), s.names.end(), name) == s.names.end())
                    s.names.push_back(name);
        };
        if (s.quantity) {
            s.formula = std::shared_ptr<const formula::Node>(problem.quantities, &s.quantity->formula);
            s.text = s.quantity->formula_text;
            add_names(*s.formula);
        } else if (s.entry->conditional) {
            // Only a formula with an if() is resolved now, to apply the conditions the givens settle, over the
            // build's tables: its tree is made when (and if) something reads it. Its value comes from the tables,
            // each if() taking the branch it was settled to, as the text does.
            ResolvedRow row = prebuilt_resolved(s.entry->formula_first, s.entry->formula, decide);
            s.text = row.text == s.entry->formula ? s.entry->formula : interned(std::move(row.text));
            s.prebuilt = s.entry->formula_first;
            s.names = std::move(row.names);
        } else {
            for (const std::string_view name : s.entry->uses)
                s.names.emplace_back(name);
            if (!s.entry->shape.empty()) {
                s.names.emplace_back("batch_axis");
                if (s.entry->per_head)
                    s.names.emplace_back("heads_before_seq");
            }
        }
        const bool catalogue_scope = s.entry && !s.quantity;
        // An entry's formula as the catalogue writes it names what its links already found.
        const bool linked = catalogue_scope && !s.entry->conditional;
        const std::span<const short> links = linked ? s.entry->use_slots : std::span<const short>();
        for (std::size_t k = 0; k < s.names.size(); ++k) {
            const std::string_view name = s.names[k];
            const int used = k < links.size() ? links[k] : catalogue_scope ? c.find(name) : c.find_visible(name);
            s.uses.push_back(used);
            if (used < 0 && s.unavailable.empty())
                s.unavailable = c.own(fmt::format("{} is not a quantity of this problem", name));
        }
    }

    // An order where each slot comes after those it uses; a cycle (a spec's quantity redefining a built-in in terms
    // of what uses it) is refused.
    c.m_s->users.assign(count, {});
    std::vector<int> state(count, 0); // 0 unseen, 1 on the path, 2 done
    std::vector<int> path;
    std::optional<Error> cycle;
    std::function<void(int)> visit = [&](int i) {
        state[static_cast<std::size_t>(i)] = 1;
        path.push_back(i);
        Slot& s = c.m_s->slots[static_cast<std::size_t>(i)];
        for (const int used : s.uses) {
            if (used < 0 || cycle)
                continue;
            if (state[static_cast<std::size_t>(used)] == 1) {
                std::string names;
                for (auto at = std::find(path.begin(), path.end(), used); at != path.end(); ++at)
                    names += fmt::format("{} → ", c.slot(*at).name);
                cycle = Error{problem.file, s.quantity ? s.quantity->formula_mark.line : 0,
                              s.quantity ? s.quantity->formula_mark.column : 0,
                              fmt::format("quantities depend on each other in a cycle: {}{}; a formula may use only "
                                          "quantities that do not use it",
                                          names, c.slot(used).name)};
                return;
            }
            if (state[static_cast<std::size_t>(used)] == 0)
                visit(used);
        }
        for (const int used : s.uses)
            if (used >= 0) {
                c.m_s->users[static_cast<std::size_t>(used)].push_back(i);
                if (s.unavailable.empty() && !c.slot(used).unavailable.empty())
                    s.unavailable = c.slot(used).unavailable;
            }
        state[static_cast<std::size_t>(i)] = 2;
        path.pop_back();
        c.m_s->order.push_back(i);
    };
    for (std::size_t i = 0; i < count && !cycle; ++i)
        if (state[i] == 0)
            visit(static_cast<int>(i));
    if (cycle)
        return std::unexpected(*cycle);

    // Each slot's formula, and a shape's axes, read now: the values are then computed from the structure alone.
    for (const int i : c.m_s->order) {
        Slot& s = c.m_s->slots[static_cast<std::size_t>(i)];
        if (s.given || !s.unavailable.empty())
            continue;
        if (s.shaped()) {
            for (std::string_view axis : s.entry->shape)
                s.axes.push_back(catalogue_formula(axis));
        } else if (!s.formula && s.prebuilt < 0) {
            // A catalogue formula as written: its value comes from the build's tables, its tree only when read.
            s.text = s.entry->formula;
            s.prebuilt = s.entry->formula_first;
            if (s.prebuilt < 0)
                s.formula = catalogue_formula(s.text);
        }
    }
    if (auto computed = c.compute_values(problem, false); !computed)
        return std::unexpected(computed.error());

    // A change is followed up through the users of what it changes: only those with a value here (a problem without
    // a workload has no FLOPs or shapes for a parameter slip to reach).
    for (auto& users : c.m_s->users)
        std::erase_if(users, [&](int user) { return !c.slot(user).unavailable.empty(); });
    for (const int i : c.m_s->order)
        if (!c.slot(i).given && c.slot(i).unavailable.empty())
            c.m_s->valued.push_back(i);
    return std::shared_ptr<const Computation>(std::move(out));
}

std::vector<char> Computation::settle_givens(const GivenValues& givens, bool revaluing) {
    const std::vector<Slot>& slots = m_s->slots;
    const std::size_t count = slots.size();
    std::vector<char> known(count, 0);
    // Each value stated, in its slot: the spec's own of that name, else the catalogue's (a spec's value of a
    // catalogue given's name has no slot of its own). Fewer lookups than one per given slot, and by hash.
    for (const auto& [name, value] : givens) {
        const auto own = m_s->own_names.find(name);
        const int i = own != m_s->own_names.end() ? own->second : find(name);
        if (i >= 0 && slots[static_cast<std::size_t>(i)].given) {
            m_values[static_cast<std::size_t>(i)] = value;
            known[static_cast<std::size_t>(i)] = 1;
        }
    }
    const formula::Lookup known_value = [&](std::string_view name) -> const Number* {
        const int used = find(name);
        return used >= 0 && known[static_cast<std::size_t>(used)] ? &this->value(used) : nullptr;
    };
    // A given's default from the build's tables (its tree only where a step is not whole), its names found through
    // the links the build wrote for the entry.
    // One pointer captured, so that the lookup fits std::function's own storage: no allocation per default.
    struct Context {
        const Computation& c;
        const std::vector<char>& known;
        const formula::Lookup& by_name;
        const CatalogueEntry* entry = nullptr;
    } context{*this, known, known_value};
    const formula::Lookup entry_value = [at = &context](std::string_view name) -> const Number* {
        const CatalogueEntry& e = *at->entry;
        for (std::size_t k = 0; k < e.uses.size() && k < e.use_slots.size(); ++k)
            if (e.uses[k] == name) {
                const auto used = static_cast<std::size_t>(e.use_slots[k]);
                return at->known[used] ? &at->c.value(static_cast<int>(used)) : nullptr;
            }
        return at->by_name(name);
    };
    const auto default_of = [&](const CatalogueEntry& e) {
        context.entry = &e;
        return prebuilt_value(e.formula_first, entry_value);
    };
    if (revaluing) {
        // The same givens stated, the same defaults found in the same order: each has the names it had then, and
        // a default that failed then for want of a name fails again.
        if (known != m_s->stated)
            return {};
        for (const int i : m_s->defaults) {
            auto value = default_of(*slots[static_cast<std::size_t>(i)].entry);
            if (!value)
                return {};
            m_values[static_cast<std::size_t>(i)] = std::move(*value);
            known[static_cast<std::size_t>(i)] = 1;
        }
        return known;
    }
    m_s->stated = known;
    for (bool progress = true; progress;) {
        progress = false;
        for (std::size_t i = 0; i < count; ++i) {
            const Slot& s = slots[i];
            if (!s.given || known[i] || !s.entry || s.entry->formula.empty())
                continue;
            if (auto value = default_of(*s.entry)) {
                m_values[i] = std::move(*value);
                known[i] = 1;
                m_s->defaults.push_back(static_cast<int>(i));
                progress = true;
            }
        }
    }
    // A default that failed for want of a name fails again wherever the same givens are stated; one that failed on
    // the numbers (a division by zero), or that chooses with if() what it reads, may not: such a structure is not
    // revalued.
    const std::function<bool(const formula::Node&)> chooses = [&](const formula::Node& node) {
        return (node.op == formula::Node::Op::call && node.text == "if") ||
               std::any_of(node.children.begin(), node.children.end(), chooses);
    };
    for (std::size_t i = 0; i < count; ++i) {
        const Slot& s = slots[i];
        if (!s.given || known[i] || !s.entry || s.entry->formula.empty())
            continue;
        const auto formula = catalogue_formula(s.entry->formula);
        const auto failed = formula::evaluate(*formula, known_value);
        if (failed || !failed.error().message.starts_with("unknown name") || chooses(*formula))
            m_s->numbers_decide = true;
    }
    return known;
}

std::optional<bool> Computation::settled(int first, const std::vector<char>& known) const {
    const formula::Lookup lookup = [&](std::string_view name) -> const Number* {
        const int used = find(name);
        if (used < 0 || !slot(used).given || !known[static_cast<std::size_t>(used)])
            return nullptr;
        return &this->value(used);
    };
    const auto value = prebuilt_value(first, lookup);
    return value ? std::optional<bool>(*value != 0) : std::nullopt;
}

Result<bool> Computation::compute_values(const spec::Problem& problem, bool revaluing) {
    // Building, a slot may be marked without a value; revaluing, the structure is shared and stays as it is.
    const auto lost = [&](int i, std::string text) {
        if (!revaluing) {
            m_s->slots[static_cast<std::size_t>(i)].unavailable = own(std::move(text));
            m_s->numbers_decide = true;
        }
    };
    // Revaluing, only the slots that have a value to compute (the build's, which revaluing does not change).
    const std::vector<int>& in_order = revaluing ? m_s->valued : m_s->order;
    for (const int i : in_order) {
        const Slot& s = slot(i);
        if (s.given || !s.unavailable.empty())
            continue;
        if (s.shaped()) {
            Shape shape;
            for (const auto& axis : s.axes) {
                auto value = evaluate(i, axis.get(), nullptr);
                if (!value || value->get_den() != 1)
                    break;
                shape.push_back(static_cast<Count>(value->get_num().get_si()));
            }
            if (shape.size() != s.axes.size()) {
                if (revaluing)
                    return false;
                lost(i, fmt::format("an axis of {} is not a whole number here", s.name));
                continue;
            }
            m_shapes[static_cast<std::size_t>(i)] = laid_out(i, std::move(shape), nullptr);
            Number elements = 1;
            for (const Count axis : m_shapes[static_cast<std::size_t>(i)])
                elements *= formula::to_number(axis);
            m_values[static_cast<std::size_t>(i)] = elements;
            continue;
        }
        if (s.quantity && s.quantity->crossover) { // its value is the root of its formula, A - B
            if (revaluing)
                return false;
            auto work = solve_crossover(*this, problem, i);
            if (!work)
                return std::unexpected(work.error());
            m_values[static_cast<std::size_t>(i)] = work->value;
            m_crossovers.emplace(i, std::move(*work));
            m_s->numbers_decide = true;
            continue;
        }
        const formula::Lookup lookup = [&](std::string_view name) -> const Number* {
            for (std::size_t k = 0; k < s.names.size(); ++k)
                if (s.names[k] == name)
                    return &this->value(s.uses[k]);
            return nullptr;
        };
        if (!s.formula && s.prebuilt >= 0) {
            // Each name by its entry's slot, the one `lookup` finds for it (a catalogue formula's scope).
            static constexpr auto available_value = [](const void* at, int used) -> const Number* {
                const auto& c = *static_cast<const Computation*>(at);
                return c.available(used) ? &c.value(used) : nullptr;
            };
            if (const auto whole =
                    prebuilt_whole_value(s.prebuilt, SlotValues{this, available_value, &m_s->decisions})) {
                m_values[static_cast<std::size_t>(i)].emplace(*whole);
                continue;
            }
        }
        auto value = formula::evaluate(*formula(i), lookup);
        if (!value) {
            if (s.quantity)
                return std::unexpected(Error{problem.file, s.quantity->formula_mark.line,
                                             s.quantity->formula_mark.column + std::max(value.error().column, 1) - 1,
                                             fmt::format("formula of {}: {}", s.name, value.error().message)});
            if (revaluing)
                return false;
            lost(i, fmt::format("{} cannot be computed here: {}", s.name, value.error().message));
            continue;
        }
        m_values[static_cast<std::size_t>(i)] = std::move(*value);
    }

    // A quantity answered with a word names exactly one here.
    for (const int i : in_order) {
        const Slot& s = slot(i);
        if (s.quantity && !s.quantity->builtin && !s.quantity->choices.empty() && s.unavailable.empty())
            if (auto problem_here = choice_problem(*this, problem, i))
                return std::unexpected(std::move(*problem_here));
    }

    // The second methods agree with the first (a disagreement is a bug in the catalogue, reported, not hidden).
    for (const int i : in_order) {
        const Slot& s = slot(i);
        if (!s.entry || s.quantity || s.entry->check.empty() || !s.unavailable.empty())
            continue;
        const auto holds = evaluate(i, catalogue_formula(s.entry->check).get(), nullptr);
        if (holds && *holds == 0)
            return std::unexpected(
                Error{problem.file, 0, 0,
                      fmt::format("internal check failed: {} ({}, {})", s.entry->check, s.entry->file, s.entry->line)});
    }
    return true;
}

std::shared_ptr<const Computation> Computation::revalued(const spec::Problem& problem,
                                                         const GivenValues& givens) const {
    if (m_s->numbers_decide)
        return nullptr;
    auto out = std::make_shared<Computation>();
    out->m_s = m_s;
    out->m_values.resize(m_s->slots.size());
    out->m_shapes.resize(m_s->slots.size());
    const std::vector<char> known = out->settle_givens(givens, true);
    if (known.empty())
        return nullptr;
    for (const auto& [condition, outcome] : m_s->decisions)
        if (out->settled(condition, known) != outcome)
            return nullptr;
    auto computed = out->compute_values(problem, true);
    if (!computed || !*computed)
        return nullptr;
    return out;
}

} // namespace headcount::solve

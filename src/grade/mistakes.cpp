#include <grade/mistakes.hpp>

#include <grade/formula_mistakes.hpp>
#include <solve/catalogue.hpp>
#include <solve/defined.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>

namespace headcount::grade {

namespace {

using solve::Computation;

/// The catalogue's mistakes, read from its rows (catalogue/mistakes.yaml), in their order.
const std::vector<Mistake>& catalogue() {
    static const std::vector<Mistake> rows = [] {
        std::vector<Mistake> out;
        for (const solve::CatalogueMistake& m : solve::catalogue_mistakes())
            out.push_back(Mistake{.id = m.id,
                                  .title = m.title,
                                  .credit = m.credit,
                                  .whole_block = m.whole_block,
                                  .answers = m.answers,
                                  .row = m.change.empty() ? nullptr : &m});
        return out;
    }();
    return rows;
}

/// Whether the mistake's feedback speaks to this ask's type of answer: a count (parameters, FLOPs, bytes, any unit
/// of a formula over the counts: a slip in a count carries into everything made of it), a shape or a choice.
bool explains(const Mistake& mistake, const solve::Ask& ask) {
    switch (ask.type()) {
    case solve::Ask::Type::shape:
        return mistake.answers.find("shapes") != std::string_view::npos;
    case solve::Ask::Type::choice:
        return mistake.answers.find("choices") != std::string_view::npos;
    case solve::Ask::Type::count:
        break;
    }
    return mistake.answers.find("counts") != std::string_view::npos ||
           mistake.answers.find("bytes") != std::string_view::npos;
}

/// What `part` comes to under `change`, as its answer: a shape for a shape ask.
std::optional<solve::Answer> answer_under(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                                          const Computation::Change& change) {
    const Computation& c = *solved.computation;
    const int target = slot_of(solved, part);
    if (part.ask->type() == solve::Ask::Type::shape) {
        const auto shape = c.shape_under(target, change);
        const auto elements = c.value_under(target, change);
        if (!shape || !elements)
            return std::nullopt;
        return solve::Answer{formula::to_count(*elements).value_or(0), *shape, {}};
    }
    const auto value = c.value_under(target, change);
    if (!value)
        return std::nullopt;
    return answer_of(solved, part, *value);
}

/// The catalogue's mistakes that reach `part`, singles then pairs of mistakes about different aspects of the count.
std::vector<Explanation> catalogue_explanations(const solve::SolvedProblem& solved, const solve::SolvedPart& part) {
    const Computation& c = *solved.computation;
    std::vector<Explanation> singles;
    std::vector<Computation::Change> changes; // singles[i] made this way
    for (const Mistake& mistake : catalogue()) {
        if (!mistake.row || !explains(mistake, *part.ask) || (mistake.whole_block && part.ask->projections.size() < 2))
            continue;
        const std::size_t first = singles.size();
        for (const bool alternative : {false, true}) {
            if (alternative && mistake.row->alternative.empty())
                continue;
            Computation::Change change = change_of(c, mistake, alternative);
            const auto value = answer_under(solved, part, change);
            const bool seen = std::any_of(singles.begin() + static_cast<std::ptrdiff_t>(first), singles.end(),
                                          [&](const Explanation& e) { return value && e.value == *value; });
            if (value && *value != part.answer && !seen) {
                singles.push_back({{&mistake}, *value, {}});
                changes.push_back(std::move(change));
            }
        }
    }
    std::vector<Explanation> out = singles;
    for (std::size_t i = 0; i < singles.size(); ++i) {
        for (std::size_t j = i + 1; j < singles.size(); ++j) {
            const Mistake& a = *singles[i].mistakes[0];
            const Mistake& b = *singles[j].mistakes[0];
            if (&a == &b || a.row->aspect == b.row->aspect)
                continue; // a count cannot be both per head and single-head
            const auto both = c.combine(changes[i], changes[j]);
            if (!both)
                continue;
            const auto value = answer_under(solved, part, *both);
            if (value && *value != part.answer && *value != singles[i].value && *value != singles[j].value &&
                std::none_of(out.begin() + static_cast<std::ptrdiff_t>(singles.size()), out.end(),
                             [&](const Explanation& e) {
                                 return e.value == *value && e.mistakes[0] == &a && e.mistakes[1] == &b;
                             }))
                out.push_back({{&a, &b}, *value, {}});
        }
    }
    return out;
}

} // namespace

std::span<const Mistake> mistake_catalogue() { return catalogue(); }

const Mistake* find_mistake(std::string_view id) {
    const auto& rows = catalogue();
    const auto it = std::find_if(rows.begin(), rows.end(), [&](const Mistake& m) { return m.id == id; });
    return it == rows.end() ? find_defined_mistake(id) : &*it;
}

std::string mistake_template(const Mistake& mistake) {
    return mistake.feedback.empty() ? "mistakes/" + std::string(mistake.id) : std::string("defined/mistake");
}

std::string mistakes_markdown() {
    std::string out = "| mistake | what the student did | answers | credit | template |\n|---|---|---|---|---|\n";
    for (const Mistake& m : catalogue())
        out +=
            fmt::format("| `{}` | {} | {} | {:g} | `{}` |\n", m.id, m.title, m.answers, m.credit, mistake_template(m));
    // The mistakes a catalogue row lists for itself (the training asks' ZeRO, optimizer and recomputation slips),
    // once per row that lists them, named on that row's ask.
    for (const solve::CatalogueEntry& e : solve::catalogue_entries()) {
        std::vector<std::string_view> seen;
        for (const solve::EntryMistake& m : e.mistakes) {
            if (std::find(seen.begin(), seen.end(), m.id) != seen.end())
                continue;
            seen.push_back(m.id);
            out += fmt::format("| `{}` | {} | `{}` | 0 | `defined/mistake` |\n", m.id,
                               spec::mistake_title(m.title, m.feedback, m.id), e.ask);
        }
    }
    return out;
}

std::vector<std::string_view> mistake_ids() {
    std::vector<std::string_view> ids;
    for (const Mistake& m : catalogue())
        ids.push_back(m.id);
    return ids;
}

int slot_of(const solve::SolvedProblem& solved, const solve::SolvedPart& part) {
    const Computation& c = *solved.computation;
    return part.ask->kind == "defined" ? c.find_visible(part.ask->name) : c.find(part.ask->name);
}

solve::Answer answer_of(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                        const formula::Number& value) {
    if (part.answer.exact || value.get_den() != 1 || !formula::to_count(value))
        return solve::exact_answer(value);
    (void)solved;
    return solve::Answer{*formula::to_count(value), {}, {}};
}

Computation::Change change_of(const Computation& computation, const Mistake& mistake, bool alternative) {
    Computation::Change change;
    if (!mistake.row)
        return change;
    for (const solve::Replacement& r : alternative ? mistake.row->alternative : mistake.row->change)
        change.formulas.emplace_back(computation.find(r.name), solve::catalogue_formula(r.formula));
    std::erase_if(change.formulas, [](const auto& entry) { return entry.first < 0; });
    return change;
}

std::optional<solve::Answer> value_under(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                                         const Mistake& mistake) {
    if (!mistake.row)
        return std::nullopt;
    return answer_under(solved, part, change_of(*solved.computation, mistake));
}

std::vector<Explanation> explanations(const solve::SolvedProblem& solved, const solve::SolvedPart& part) {
    if (!solved.computation || !solved.computation->available(slot_of(solved, part)))
        return {};
    std::vector<Explanation> from_catalogue = catalogue_explanations(solved, part);
    std::vector<std::string_view> taken;
    for (const Explanation& e : from_catalogue)
        if (e.mistakes.size() == 1)
            taken.push_back(e.mistakes[0]->id);
    // The part's own formula's mistakes first (an instructor's words for their own quantity), then the catalogue's.
    std::vector<Explanation> out = formula_explanations(solved, part, taken);
    out.insert(out.end(), std::make_move_iterator(from_catalogue.begin()),
               std::make_move_iterator(from_catalogue.end()));
    return out;
}

std::vector<Explanation> other_quantities(const solve::SolvedProblem& solved, const solve::SolvedPart& part) {
    std::vector<Explanation> out;
    const Mistake* other = find_mistake(k_other_quantity);
    const solve::Ask& ask = *part.ask;
    const solve::UnitInfo unit = solve::ask_unit(solved.problem, ask);
    // Another quantity in the part's unit: a count of the same things, bytes, a time (in the part's unit).
    const auto comparable = [&](const solve::Ask& candidate) -> std::optional<formula::Number> {
        if (&candidate == &ask || candidate.type() != ask.type() || solve::cannot_answer(candidate, solved))
            return std::nullopt;
        const solve::UnitInfo its = solve::ask_unit(solved.problem, candidate);
        if (its.dimension != unit.dimension ||
            (unit.dimension == solve::UnitInfo::Dimension::count && candidate.unit != ask.unit))
            return std::nullopt;
        return its.scale / unit.scale;
    };
    const auto add = [&](const solve::Ask& candidate, solve::Answer value) {
        if (value == part.answer)
            return;
        const auto same = std::find_if(out.begin(), out.end(), [&](const Explanation& e) { return e.value == value; });
        if (same != out.end())
            same->others.push_back(&candidate);
        else
            out.push_back({{other}, std::move(value), {&candidate}});
    };
    for (const solve::Ask& candidate : solve::asks())
        if (const auto scale = comparable(candidate)) {
            solve::Answer value = candidate.evaluate(solved);
            if (part.answer.exact || *scale != 1) {
                const formula::Number exact = value.exact ? *value.exact : formula::to_number(value.count);
                value = answer_of(solved, part, exact * *scale);
            }
            add(candidate, std::move(value));
        }
    if (solved.problem.quantities)
        for (const spec::Quantity& q : *solved.problem.quantities) {
            if (solve::find_ask(q.ask)) // a built-in it redefines: counted above
                continue;
            const solve::Ask* candidate = solve::quantity_ask(q);
            if (const auto scale = comparable(*candidate)) {
                const solve::Answer value = candidate->evaluate(solved);
                const formula::Number exact = value.exact ? *value.exact : formula::to_number(value.count);
                add(*candidate, answer_of(solved, part, exact * *scale));
            }
        }
    return out;
}

} // namespace headcount::grade

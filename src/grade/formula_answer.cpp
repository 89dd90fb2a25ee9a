#include <grade/formula_answer.hpp>

#include <answer/formula_text.hpp>
#include <solve/formula_form.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace headcount::grade {

namespace {

using formula::Number;

/// SplitMix64 (Steele, Lea, Flood 2014), as generate/variants.hpp's: the points depend only on the problem's and the
/// part's ids, so every run, thread and machine tries the same ones.
class Draws {
  public:
    explicit Draws(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    /// A whole number in [low, high].
    std::int64_t between(std::int64_t low, std::int64_t high) {
        return low + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(high - low + 1));
    }

  private:
    std::uint64_t m_state;
};

std::uint64_t seed_of(std::string_view a, std::string_view b) {
    std::uint64_t hash = 0xcbf29ce484222325ULL; // FNV-1a
    for (const std::string_view text : {std::string_view("headcount-formula-points-v1"), a, b}) {
        for (const char c : text) {
            hash ^= static_cast<unsigned char>(c);
            hash *= 0x100000001b3ULL;
        }
        hash ^= 0;
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

/// Another value for a given that is `value` in the problem: a whole number stays whole (a count), up to about twice
/// its size and at least a few apart from small ones; any other is scaled by k/16, k in [8, 32]. Never the same.
Number drawn(const Number& value, Draws& draws) {
    for (int attempt = 0; attempt < 8; ++attempt) {
        Number out;
        if (value.get_den() == 1 && value > 0 && value.get_num().fits_slong_p() &&
            value.get_num().get_si() < (1L << 40)) {
            const std::int64_t v = value.get_num().get_si();
            out = Number(static_cast<long>(draws.between(1, std::max<std::int64_t>(2 * v, v + 7))));
        } else {
            out = value * Number(static_cast<long>(draws.between(8, 32)), 16);
        }
        out.canonicalize();
        if (out != value)
            return out;
    }
    return value + 1;
}

Number value_of(const solve::Answer& answer) { return answer.exact ? *answer.exact : formula::to_number(answer.count); }

/// Equal, or within a part in 10^30 when irrational functions (computed to 256 bits) make both approximate.
bool same(const Number& a, const Number& b) {
    if (a == b)
        return true;
    static const Number tiny("1/1000000000000000000000000000000");
    return abs(Number(a - b)) <= abs(b) * tiny;
}

std::string key_of(const Explanation& e) {
    std::string key;
    for (const Mistake* m : e.mistakes)
        key += std::string(m->id) + "+";
    for (const solve::Ask* a : e.others)
        key += std::string(a->id) + "|";
    return key;
}

const solve::SolvedPart* part_named(const solve::SolvedProblem& solved, std::string_view id) {
    for (const solve::SolvedPart& p : solved.parts)
        if (p.part.id == id)
            return &p;
    return nullptr;
}

std::vector<Explanation> every_explanation(const solve::SolvedProblem& solved, const solve::SolvedPart& part) {
    std::vector<Explanation> out = explanations(solved, part);
    std::vector<Explanation> others = other_quantities(solved, part);
    out.insert(out.end(), std::make_move_iterator(others.begin()), std::make_move_iterator(others.end()));
    // Slips in how a number is written (a unit, a rounding) have no formula.
    std::erase_if(out, [](const Explanation& e) {
        return std::any_of(e.mistakes.begin(), e.mistakes.end(),
                           [](const Mistake* m) { return m->id == k_rounded || m->id == k_unit_base; });
    });
    return out;
}

} // namespace

std::shared_ptr<const FormulaTable> formula_table(const solve::SolvedProblem& solved, const solve::SolvedPart& part) {
    auto table = std::make_shared<FormulaTable>();
    const solve::Computation& c = *solved.computation;
    const spec::Problem& problem = solved.problem;
    table->names = solve::formula_answer_names(c, problem);
    table->listed = part.formula_names;
    for (const auto& [name, value] : c.visible_values())
        if (std::find(table->names.begin(), table->names.end(), name) == table->names.end() &&
            !c.slot(c.find_visible(name)).given)
            table->quantity_names.push_back(name);
    const int target = slot_of(solved, part);

    const auto values_at = [&](const solve::Computation& at) {
        std::map<std::string, Number, std::less<>> out;
        for (const std::string& name : table->names)
            if (const int slot = at.find_visible(name); at.available(slot))
                out.emplace(name, at.value(slot));
        return out;
    };
    table->points.push_back(values_at(c));
    table->expected.push_back(value_of(part.answer));
    for (Explanation& e : every_explanation(solved, part)) {
        FormulaTable::Candidate candidate{std::move(e), {}};
        candidate.values.push_back(value_of(candidate.explanation.value));
        table->candidates.push_back(std::move(candidate));
    }

    // A given the spec states equal to its default (d_k = d_model / h) stays tied to what it defaults to: a course
    // writes d_model^2 for h d_k d_model when the heads share the width.
    const solve::GivenValues base = solve::given_values(problem);
    std::vector<std::string> varied, tied;
    for (const std::string& name : table->names) {
        if (solve::fixed_in_formula_answers(name) || !base.contains(name))
            continue;
        const solve::CatalogueEntry* entry = c.slot(c.find_visible(name)).entry;
        if (entry && entry->given && !entry->formula.empty()) {
            auto fallback = formula::evaluate(*solve::catalogue_formula(entry->formula),
                                              [&](std::string_view used) -> const Number* {
                                                  const int slot = c.find(used);
                                                  return c.available(slot) ? &c.value(slot) : nullptr;
                                              });
            if (fallback && *fallback == base.at(name)) {
                tied.push_back(name);
                continue;
            }
        }
        varied.push_back(name);
    }
    if (varied.empty() && tied.empty())
        return table;

    Draws draws(seed_of(problem.id, part.part.id));
    std::vector<int> cone = c.cone(target);
    cone.push_back(target);
    for (int attempt = 0;
         attempt < 6 * static_cast<int>(k_formula_points) && table->points.size() < 1 + k_formula_points; ++attempt) {
        solve::GivenValues point = base;
        for (const std::string& name : varied)
            point[name] = drawn(base.at(name), draws);
        for (const std::string& name : tied)
            point.erase(name);
        auto at = solve::solve_problem(problem, &point);
        if (!at)
            continue;
        const solve::Computation& pc = *at->computation;
        // The same branch of every condition as at the problem's own givens: the spec's setting holds.
        const bool same_branches = std::all_of(cone.begin(), cone.end(), [&](int i) {
            return !c.available(i) || !pc.available(i) || c.slot(i).text == pc.slot(i).text;
        });
        const solve::SolvedPart* there = part_named(*at, part.part.id);
        if (!same_branches || !there || !pc.available(target))
            continue;
        table->points.push_back(values_at(pc));
        table->expected.push_back(value_of(there->answer));
        const std::vector<Explanation> found = every_explanation(*at, *there);
        for (FormulaTable::Candidate& candidate : table->candidates) {
            const std::string key = key_of(candidate.explanation);
            const auto it =
                std::find_if(found.begin(), found.end(), [&](const Explanation& e) { return key_of(e) == key; });
            // Not found: the mistake leaves the value right at this point (or cannot be made there).
            candidate.values.push_back(it != found.end() ? std::optional<Number>(value_of(it->value))
                                                         : std::optional<Number>(table->expected.back()));
        }
    }
    return table;
}

void judge_formula(const FormulaTable& table, Verdict& verdict) {
    verdict.status = Status::unreadable;
    auto text = answer::formula_answer_text(verdict.answer);
    if (!text) {
        verdict.unreadable_reason = text.error();
        return;
    }
    auto parsed = formula::parse(*text);
    if (!parsed) {
        verdict.unreadable_reason = parsed.error().message;
        return;
    }
    const formula::Node& node = *parsed;
    if (node.op == formula::Node::Op::compare) {
        verdict.unreadable_reason = "write the formula alone, without '=' or a comparison";
        return;
    }
    std::vector<std::string_view> accepted(table.names.begin(), table.names.end());
    std::string listed;
    for (const std::string& name : table.listed)
        listed += (listed.empty() ? "" : ", ") + name;
    for (const std::string& name : formula::names(node)) {
        if (std::find(table.names.begin(), table.names.end(), name) != table.names.end())
            continue;
        if (std::find(table.quantity_names.begin(), table.quantity_names.end(), name) != table.quantity_names.end())
            verdict.unreadable_reason = fmt::format("'{}' is a quantity of the problem, not a given: write it out in "
                                                    "the givens ({})",
                                                    name, listed);
        else
            verdict.unreadable_reason =
                fmt::format("'{}' is not a given of this problem{}; a formula here may use {}", name,
                            did_you_mean(name, accepted), listed.empty() ? "numbers alone" : listed);
        return;
    }
    std::vector<std::optional<Number>> values;
    std::string first_problem;
    for (const auto& point : table.points) {
        auto value = formula::evaluate(node, [&](std::string_view name) -> const Number* {
            const auto it = point.find(name);
            return it == point.end() ? nullptr : &it->second;
        });
        if (!value && values.empty())
            first_problem = value.error().message;
        values.push_back(value ? std::optional<Number>(std::move(*value)) : std::nullopt);
    }
    if (!values.front()) {
        verdict.unreadable_reason = fmt::format("it cannot be computed at this problem's givens: {}", first_problem);
        return;
    }
    verdict.status = Status::incorrect;
    const auto agrees = [&](const std::vector<std::optional<Number>>& other) {
        for (std::size_t i = 0; i < values.size() && i < other.size(); ++i)
            if (!values[i] || !other[i] || !same(*values[i], *other[i]))
                return false;
        return true;
    };
    std::vector<std::optional<Number>> expected(table.expected.begin(), table.expected.end());
    if (agrees(expected)) {
        verdict.status = Status::correct;
        verdict.score = verdict.points;
        return;
    }
    for (const FormulaTable::Candidate& candidate : table.candidates)
        if (agrees(candidate.values))
            verdict.matches.push_back(candidate.explanation);
    verdict.right_here_only = verdict.matches.empty() && same(*values.front(), table.expected.front());
}

} // namespace headcount::grade

#include <grade/mistakes.hpp>

#include <grade/defined_mistakes.hpp>
#include <solve/defined.hpp>

#include <util/rows.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

namespace headcount::grade {

namespace {

using solve::BiasRule;
using solve::Recipe;

constexpr Recipe with(bool Recipe::*field) {
    Recipe r;
    r.*field = true;
    return r;
}

constexpr Recipe with_bias_rule(BiasRule rule) {
    Recipe r;
    r.bias_rule = rule;
    return r;
}

constexpr std::optional<Recipe> alternative_bias_rule(BiasRule rule) {
    return rule == BiasRule::per_projection ? std::nullopt : std::optional(with_bias_rule(rule));
}

constexpr auto k_catalogue = std::to_array<Mistake>({
#define HEADCOUNT_FLAG_MISTAKE(id, flag, aspect, answers, title) {#id, title, with(&Recipe::flag), 0, false, answers},
#define HEADCOUNT_BIAS_MISTAKE(id, rule, alternative, whole_block, title)                                              \
    {#id,                                                                                                              \
     title,                                                                                                            \
     with_bias_rule(BiasRule::rule),                                                                                   \
     0,                                                                                                                \
     whole_block,                                                                                                      \
     "counts",                                                                                                         \
     alternative_bias_rule(BiasRule::alternative)},
#define HEADCOUNT_ANSWER_MISTAKE(id, credit, answers, title) {#id, title, Recipe{}, credit, false, answers},
#include <solve/mistakes.def>
});

static_assert(k_catalogue[k_catalogue.size() - 3].id == k_rounded &&
                  k_catalogue[k_catalogue.size() - 2].id == k_unit_base && k_catalogue.back().id == k_other_quantity,
              "mistakes.hpp names the three mistakes that are not recipes, last in the catalogue");

/// Whether a row says what it is: a title, and only the types of answer explains() knows.
constexpr bool complete(const Mistake& m) {
    std::string_view words = m.answers;
    while (!words.empty()) {
        const std::string_view word = words.substr(0, words.find(' '));
        if (word != "counts" && word != "bytes" && word != "shapes" && word != "choices")
            return false;
        words.remove_prefix(std::min(words.size(), word.size() + 1));
    }
    return !m.title.empty() && !m.answers.empty();
}
static_assert(std::all_of(k_catalogue.begin(), k_catalogue.end(), complete),
              "every mistake has a title and names its answers from: counts bytes shapes choices");

static_assert(ids_unique(k_catalogue), "two rows of mistakes.def have the same id");

/// A flag of the recipe and the part of the count it changes (its aspect in mistakes.def). Two mistakes about the
/// same part cannot both be made (a count cannot be both per head and single-head), so only mistakes about
/// different parts pair up. The bias rule's aspect is a missing b_O's: both are about biases.
struct Field {
    bool Recipe::*flag;
    std::string_view aspect;
};

constexpr auto k_fields = std::to_array<Field>({
#define HEADCOUNT_FLAG_MISTAKE(id, flag, aspect, answers, title) {&Recipe::flag, #aspect},
#include <solve/mistakes.def>
});
constexpr std::string_view k_bias_rule_aspect = "output_bias";

// Recipe's flags are declared from mistakes.def; a field declared by hand would have no row here, and combine()
// would silently drop it from every pair.
static_assert(field_count<Recipe>() == k_fields.size() + 1,
              "every Recipe field but bias_rule is a row of mistakes.def");

/// The parts of the count a recipe changes.
std::vector<std::string_view> aspects_of(const Recipe& r) {
    const Recipe none;
    std::vector<std::string_view> out;
    for (const Field& f : k_fields)
        if (r.*(f.flag) != none.*(f.flag))
            out.push_back(f.aspect);
    if (r.bias_rule != none.bias_rule)
        out.push_back(k_bias_rule_aspect);
    return out;
}

/// The two recipes made together, or nullopt when they change a common part of the count.
std::optional<Recipe> combine(const Recipe& a, const Recipe& b) {
    const std::vector<std::string_view> of_a = aspects_of(a);
    for (std::string_view aspect : aspects_of(b))
        if (std::find(of_a.begin(), of_a.end(), aspect) != of_a.end())
            return std::nullopt;
    const Recipe none;
    Recipe out = a;
    for (const Field& f : k_fields)
        if (b.*(f.flag) != none.*(f.flag))
            out.*(f.flag) = b.*(f.flag);
    if (b.bias_rule != none.bias_rule)
        out.bias_rule = b.bias_rule;
    return out;
}

/// Whether the mistake's feedback speaks to this ask's type of answer.
bool explains(const Mistake& mistake, const solve::Ask& ask) {
    if (ask.kind == "defined") // a formula over built-in counts: any slip in them carries into it, in any unit
        return mistake.answers.find("counts") != std::string_view::npos ||
               mistake.answers.find("bytes") != std::string_view::npos;
    std::string_view type = ask.in_bytes() ? "bytes" : "counts";
    if (ask.type() == solve::Ask::Type::shape)
        type = "shapes";
    else if (ask.type() == solve::Ask::Type::choice)
        type = "choices";
    return mistake.answers.find(type) != std::string_view::npos;
}

} // namespace

std::span<const Mistake> mistake_catalogue() { return k_catalogue; }

std::optional<solve::Answer> value_under(const spec::Problem& problem, const solve::Ask& ask, const Recipe& recipe) {
    if (ask.kind == "defined" && problem.kind == "quantities")
        return std::nullopt; // no architecture for a recipe to change
    auto solved = solve::solve_problem(problem, recipe);
    if (!solved)
        return std::nullopt;
    if (ask.kind == "defined") {
        const spec::Quantity* q = solve::find_quantity(problem, ask.id);
        const auto it = q ? solved->values.find(q->name) : solved->values.end();
        if (it == solved->values.end())
            return std::nullopt;
        return solve::exact_answer(it->second);
    }
    if (solve::cannot_answer(ask, *solved)) // a slip whose count overflows is not a value a student could type
        return std::nullopt;
    return ask.evaluate(*solved);
}

const Mistake* find_mistake(std::string_view id) {
    const auto it = std::find_if(k_catalogue.begin(), k_catalogue.end(), [&](const Mistake& m) { return m.id == id; });
    return it == k_catalogue.end() ? find_defined_mistake(id) : &*it;
}

std::string mistake_template(const Mistake& mistake) {
    return mistake.feedback.empty() ? "mistakes/" + std::string(mistake.id) : std::string("defined/mistake");
}

std::string mistakes_markdown() {
    std::string out = "| mistake | what the student did | answers | credit | template |\n|---|---|---|---|---|\n";
    for (const Mistake& m : k_catalogue)
        out +=
            fmt::format("| `{}` | {} | {} | {:g} | `{}` |\n", m.id, m.title, m.answers, m.credit, mistake_template(m));
    return out;
}

std::vector<std::string_view> mistake_ids() {
    std::vector<std::string_view> ids;
    for (const Mistake& m : k_catalogue)
        ids.push_back(m.id);
    return ids;
}

std::vector<Explanation> other_quantities(const solve::SolvedProblem& solved, const solve::Ask& ask) {
    std::vector<Explanation> out;
    const Mistake* other = find_mistake(k_other_quantity);
    const solve::Answer right = ask.evaluate(solved);
    for (const solve::Ask& candidate : solve::asks()) {
        if (&candidate == &ask || candidate.unit != ask.unit || candidate.type() != ask.type() ||
            solve::cannot_answer(candidate, solved))
            continue;
        const solve::Answer value = candidate.evaluate(solved);
        if (value == right)
            continue;
        const auto same = std::find_if(out.begin(), out.end(), [&](const Explanation& e) { return e.value == value; });
        if (same != out.end())
            same->others.push_back(&candidate);
        else
            out.push_back({{other}, value, {&candidate}});
    }
    return out;
}

std::vector<Explanation> explanations(const spec::Problem& problem, const solve::Ask& ask,
                                      const solve::Answer& right_answer) {
    std::vector<Explanation> singles;
    if (ask.kind == "defined" && problem.kind == "quantities")
        return singles;
    std::vector<Recipe> recipes; // singles[i] counted this way
    for (const Mistake& mistake : k_catalogue) {
        if (mistake.recipe == Recipe{} || !explains(mistake, ask) ||
            (mistake.whole_block && ask.projections.size() < 2))
            continue;
        const std::size_t first = singles.size();
        for (const auto& recipe : {std::optional<Recipe>(mistake.recipe), mistake.alternative}) {
            if (!recipe)
                continue;
            const auto value = value_under(problem, ask, *recipe);
            const bool seen = std::any_of(singles.begin() + static_cast<std::ptrdiff_t>(first), singles.end(),
                                          [&](const Explanation& e) { return value && e.value == *value; });
            if (value && *value != right_answer && !seen) {
                singles.push_back({{&mistake}, *value, {}});
                recipes.push_back(*recipe);
            }
        }
    }
    std::vector<Explanation> out = singles;
    for (std::size_t i = 0; i < singles.size(); ++i) {
        for (std::size_t j = i + 1; j < singles.size(); ++j) {
            const Mistake& a = *singles[i].mistakes[0];
            const Mistake& b = *singles[j].mistakes[0];
            if (&a == &b)
                continue;
            const auto recipe = combine(recipes[i], recipes[j]);
            if (!recipe)
                continue;
            const auto value = value_under(problem, ask, *recipe);
            if (value && *value != right_answer && *value != singles[i].value && *value != singles[j].value &&
                std::none_of(out.begin() + static_cast<std::ptrdiff_t>(singles.size()), out.end(),
                             [&](const Explanation& e) {
                                 return e.value == *value && e.mistakes[0] == &a && e.mistakes[1] == &b;
                             }))
                out.push_back({{&a, &b}, *value, {}});
        }
    }
    return out;
}

} // namespace headcount::grade

#include <render/quantity_view.hpp>

#include <render/answers.hpp>
#include <render/mustache.hpp>
#include <render/solution.hpp>
#include <solve/catalogue.hpp>
#include <solve/defined.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <functional>

namespace headcount::render {

namespace {

using formula::Number;

/// The figures a non-whole answer is stated to: the part's sigfigs, and at least four.
int stated_figures(const spec::Part& part) {
    const int figures =
        part.tolerance && part.tolerance->kind == spec::Tolerance::Kind::sigfigs ? part.tolerance->sigfigs : 0;
    return std::max(figures, 4);
}

/// A value put into a formula: a power of ten in parentheses, so that 6 \cdot (1.75 \times 10^{11}) reads as one
/// factor.
std::string substituted_tex(const Number& value) {
    const std::string tex = number_tex(value);
    return tex.find("\\times") != std::string::npos ? "(" + tex + ")" : tex;
}

/// A quantity's explanation: as written, or for one of headcount's own (a catalogue row's) its template rendered
/// over the words of the problem's setup.
std::string explanation_of(const spec::Quantity& q) {
    if (!q.explanation || q.explanation_words.empty())
        return q.explanation.value_or("");
    View words = View::object();
    for (const auto& [name, word] : q.explanation_words)
        words[name] = word.empty() ? View(false) : View(word);
    // The catalogue's templates are checked when the program is built (cmake/catalogue_gen.cpp): neither fails.
    auto parsed = parse_mustache(*q.explanation, "catalogue: " + q.name);
    if (!parsed)
        return *q.explanation;
    auto text = render_mustache(
        *parsed, words, [](std::string_view) { return nullptr; },
        RenderLimits{.steps = 100000, .output_bytes = 1 << 20});
    return text ? *text : *q.explanation;
}

/// `value` rounded to `figures` significant figures, its whole part's digits grouped by `separator` as a count's are
/// (about 69,280,000,000 parameters, not 69280000000); a value written with an exponent is left as it is.
std::string grouped_rounded(const Number& value, int figures, std::string_view separator) {
    const std::string text = formula::rounded(value, figures);
    if (text.find('e') != std::string::npos)
        return text;
    const std::size_t sign = text.starts_with('-') ? 1 : 0;
    const std::size_t point = std::min(text.find('.'), text.size());
    return text.substr(0, sign) + grouped_digits(text.substr(sign, point - sign), separator) + text.substr(point);
}

/// The defined quantities `q` uses, directly or not, in dependency order (the order of problem.quantities).
std::vector<const spec::Quantity*> built_from(const spec::Problem& problem, const spec::Quantity& q) {
    std::set<std::string, std::less<>> needed;
    std::vector<const spec::Quantity*> pending{&q};
    while (!pending.empty()) {
        const spec::Quantity* current = pending.back();
        pending.pop_back();
        for (const std::string& name : formula::names(current->formula))
            if (const spec::Quantity* used = solve::find_quantity(problem, name); used && needed.insert(name).second)
                pending.push_back(used);
    }
    std::vector<const spec::Quantity*> out;
    for (const spec::Quantity& candidate : *problem.quantities)
        if (needed.contains(candidate.name))
            out.push_back(&candidate);
    return out;
}

/// A quantity answered with a word: each word with its condition, as TeX cases, the conditions written by `condition`.
std::string choices_tex(const spec::Quantity& q, const std::function<std::string(const formula::Node&)>& condition) {
    std::string out = "\\begin{cases}";
    for (std::size_t i = 0; i < q.choices.size(); ++i) {
        const spec::WordChoice& c = q.choices[i];
        out += fmt::format("{}\\text{{{}}} & {}", i ? " \\\\ " : "", c.word,
                           c.condition ? "\\text{if } " + condition(*c.condition) : std::string("\\text{otherwise}"));
    }
    return out + "\\end{cases}";
}

/// a x^2 + b x + c in TeX, its terms of 0 left out.
std::string polynomial_tex(const Number& a, const Number& b, const Number& c, const std::string& x) {
    std::string out;
    for (const auto& [coefficient, power] : {std::pair{&a, 2}, {&b, 1}, {&c, 0}}) {
        if (*coefficient == 0)
            continue;
        const Number size = abs(*coefficient);
        const std::string written =
            power > 0 && size == 1 ? std::string() : number_tex(size) + (power > 0 ? " \\, " : "");
        const std::string term = written + (power == 2 ? x + "^2" : power == 1 ? x : std::string());
        out +=
            out.empty() ? (sgn(*coefficient) < 0 ? "-" + term : term) : (sgn(*coefficient) < 0 ? " - " : " + ") + term;
    }
    return out.empty() ? "0" : out;
}

/// What a crossover's worked solution says beyond its equation: the algebra that solves it, or the bisection.
std::string crossover_algebra(const spec::Crossover& x, const solve::CrossoverWork& work, int figures) {
    const std::string given = name_tex(x.given);
    const std::string range = fmt::format("$({}, {}]$", number_tex(x.low), number_tex(x.high));
    const auto root_text = [&](const Number& root) {
        return root.get_den() == 1 || formula::exact_decimal(root, 12) ? number_tex(root)
                                                                       : formula::rounded(root, figures);
    };
    switch (work.method) {
    case solve::CrossoverWork::Method::linear:
        return fmt::format("Moving every term to one side, the difference of the two sides is linear in ${0}$: "
                           "${1} = 0$, so ${0} = {2}$.",
                           given, polynomial_tex(0, work.b, work.c, given), root_text(work.value));
    case solve::CrossoverWork::Method::quadratic: {
        std::string text = fmt::format(
            "Moving every term to one side, the difference of the two sides is quadratic in ${0}$: ${1} = 0$. ", given,
            polynomial_tex(work.a, work.b, work.c, given));
        if (work.roots.size() == 1)
            return text + fmt::format("Its discriminant $b^2 - 4ac$ is 0: one root, ${} = -b / 2a = {}$.", given,
                                      root_text(work.value));
        text += fmt::format("Its discriminant is $b^2 - 4ac = {}$, and its roots "
                            "${} = \\frac{{-b \\pm \\sqrt{{b^2 - 4ac}}}}{{2a}}$ are ${}$ and ${}$",
                            number_tex(work.discriminant), given, root_text(work.roots[0]), root_text(work.roots[1]));
        return text + fmt::format("; the one in {} is ${} = {}$.", range, given, root_text(work.value));
    }
    case solve::CrossoverWork::Method::bisection:
        break;
    }
    return fmt::format("The difference of the two sides is not linear or quadratic in ${0}$, so the root is found "
                       "numerically: the difference changes sign once in {1} (its sign checked at 241 points spread "
                       "across it), and halving the interval around that change narrows the root to ${0} \\approx "
                       "{2}$.",
                       given, range, formula::rounded(work.value, std::max(figures, 6)));
}

View formula_view(const solve::SolvedProblem& solved, const spec::Quantity& q, int figures) {
    const Number& value = solved.values.find(q.name)->second;
    const auto lookup = [&](std::string_view name) -> const Number* {
        const auto it = solved.values.find(name);
        return it == solved.values.end() ? nullptr : &it->second;
    };
    const bool whole = value.get_den() == 1;
    const auto decimal = formula::exact_decimal(value, 12);
    std::string value_tex = whole || decimal ? number_tex(value) : grouped_rounded(value, figures, "{,}");
    const solve::UnitInfo unit = solve::quantity_unit(q);
    std::string unit_text(unit.symbol);
    // A catalogue row answered with a word (bound.decode_step): its formula's value is the word's index.
    const auto choices = q.row ? q.row->choices : std::span<const solve::Choice>{};
    if (const auto index = formula::to_count(value);
        !choices.empty() && index && *index >= 0 && static_cast<std::size_t>(*index) < choices.size()) {
        value_tex = fmt::format("\\text{{{}}}", choices[static_cast<std::size_t>(*index)].word);
        unit_text.clear();
    }
    if (unit.fraction_as_percent) { // the formula's fraction, then the percentage it is: 0.1795 = 17.95 %
        const Number percent = value * 100;
        const bool exact = percent.get_den() == 1 || formula::exact_decimal(percent, 12);
        unit_text = fmt::format("= {} %", exact ? exact_text(percent) : formula::rounded(percent, figures));
    }
    // The kind's built-in quantities the formula uses, said in words with their values.
    View builtins = View::array();
    // (A training ask's row is one too where no part asks it: a part's would be a quantity of the problem.)
    for (const std::string& name : formula::names(q.formula))
        for (const solve::CatalogueEntry& e : solve::catalogue_entries())
            if (!e.ask.empty() && e.name == name && solved.values.contains(name) &&
                !solve::find_quantity(solved.problem, name))
                builtins.push_back(View{{"name_tex", name_tex(name)},
                                        {"noun", std::string(e.noun)},
                                        {"ask", std::string(e.ask)},
                                        {"value", exact_text(solved.values.find(name)->second)},
                                        {"unit", std::string(e.unit)}});
    std::string formula_tex = formula::tex(q.formula, name_tex);
    std::string substituted = formula::tex_substituted(q.formula, lookup, substituted_tex);
    std::optional<std::string> explanation =
        q.explanation ? std::optional<std::string>(explanation_of(q)) : std::nullopt;
    if (!q.choices.empty()) { // the words and their conditions, then the conditions with this problem's numbers
        formula_tex = choices_tex(q, [](const formula::Node& c) { return formula::tex(c, name_tex); });
        substituted = choices_tex(
            q, [&](const formula::Node& c) { return formula::tex_substituted(c, lookup, substituted_tex); });
    }
    const int slot = solved.computation->find_visible(q.name);
    if (const solve::CrossoverWork* work = q.crossover ? solved.computation->crossover(slot) : nullptr) {
        const spec::Crossover& x = *q.crossover;
        formula_tex = fmt::format("\\text{{the }} {} \\text{{ at which }} {} = {}", name_tex(x.given),
                                  formula::tex(x.left, name_tex), formula::tex(x.right, name_tex));
        // The spec's other givens at this problem's numbers; the given solved for, and the quantities that may
        // depend on it, left as names.
        const formula::NameTex others = [&](std::string_view name) -> std::string {
            const Number* value = name == x.given || !solved.problem.values.contains(name) ? nullptr : lookup(name);
            return value ? substituted_tex(*value) : name_tex(name);
        };
        substituted = fmt::format("\\text{{the }} {} \\text{{ at which }} {} = {}", name_tex(x.given),
                                  formula::tex(x.left, others), formula::tex(x.right, others));
        // The quantities the equation uses, as formulas in the given (their values change with it).
        std::string uses;
        for (const spec::Quantity* used : built_from(solved.problem, q))
            uses += fmt::format("{}${} = {}$", uses.empty() ? "" : ", ", name_tex(used->name),
                                formula::tex(used->formula, name_tex));
        const std::string algebra = (uses.empty() ? "" : "Here " + uses + ". ") + crossover_algebra(x, *work, figures);
        explanation = explanation ? algebra + "\n\n" + *explanation : algebra;
    }
    return View{{"name", q.name},
                {"builtins", builtins},
                {"has_builtins", !builtins.empty()},
                {"name_tex", name_tex(q.name)},
                {"title", q.title},
                {"opening", question_words(q.title, unit.symbol)["opening"]},
                {"unit", unit_text},
                {"has_unit", !unit_text.empty()},
                {"formula_tex", formula_tex},
                {"substituted_tex", substituted},
                {"value_tex", value_tex},
                {"exact", whole || decimal.has_value() || !q.choices.empty()},
                {"has_explanation", explanation.has_value()},
                {"explanation", explanation.value_or("")}};
}

} // namespace

std::string name_tex(std::string_view name) {
    // n_params -> n_{\mathrm{params}}, bytes_per_param -> \mathrm{bytes}_{\mathrm{per\ param}}: a subscript, as
    // d_{model} is written, with no backslash before punctuation (Markdown would take \_ for its own escape).
    std::vector<std::string_view> words;
    for (std::size_t start = 0; start <= name.size();) {
        const std::size_t end = std::min(name.find('_', start), name.size());
        if (end > start)
            words.push_back(name.substr(start, end - start));
        start = end + 1;
    }
    if (words.empty())
        return "\\mathrm{x}";
    std::string out = words[0].size() == 1 ? std::string(words[0]) : fmt::format("\\mathrm{{{}}}", words[0]);
    if (words.size() > 1) {
        std::string rest;
        for (std::size_t i = 1; i < words.size(); ++i)
            rest += (i > 1 ? "\\ " : "") + std::string(words[i]);
        out += fmt::format("_{{\\mathrm{{{}}}}}", rest);
    }
    return out;
}

std::string number_tex(const Number& value) {
    if (value.get_den() == 1) {
        std::string digits = value.get_num().get_str();
        const bool negative = digits.front() == '-';
        if (negative)
            digits.erase(0, 1);
        const std::size_t zeros = digits.size() - 1 - digits.find_last_not_of('0');
        std::string out;
        if (digits.size() >= 10 && digits.size() - zeros <= 6) {
            // 315000000000000000000000 = 3.15 \times 10^{23}, exactly.
            const std::size_t exponent = digits.size() - 1;
            std::string mantissa = digits.substr(0, digits.size() - zeros);
            if (mantissa.size() > 1)
                mantissa.insert(1, ".");
            out = fmt::format("{} \\times 10^{{{}}}", mantissa, exponent);
        } else {
            out = grouped_digits(digits, "{,}");
        }
        return (negative ? "-" : "") + out;
    }
    if (const auto decimal = formula::exact_decimal(value, 12))
        return *decimal;
    return formula::rounded(value, 6);
}

std::string quantity_answer_text(const solve::SolvedProblem& solved, const solve::SolvedPart& part) {
    const spec::Quantity* q = solve::defined_quantity(solved.problem, *part.ask);
    if (!q || !part.answer.exact)
        return answer_text(*part.ask, part.answer);
    const solve::UnitInfo info = solve::quantity_unit(*q);
    // A spec's percentage is the formula's fraction times 100.
    const Number value = info.fraction_as_percent ? Number(*part.answer.exact * 100) : *part.answer.exact;
    std::string text = value.get_den() == 1 || formula::exact_decimal(value, 12)
                           ? exact_text(value)
                           : "about " + grouped_rounded(value, stated_figures(part.part), ",");
    const std::string_view unit = info.symbol;
    return unit.empty() ? text : (unit == "%" ? text + "%" : fmt::format("{} {}", text, unit));
}

View quantity_view(const solve::SolvedProblem& solved, const solve::SolvedPart& part, std::set<std::string>& shown) {
    const spec::Quantity* q = solve::defined_quantity(solved.problem, *part.ask);
    if (!q)
        return View::object();
    const int figures = stated_figures(part.part);
    View steps = View::array();
    // A crossover's quantities are worked out anew at every value of its given: not at the spec's value.
    for (const spec::Quantity* used :
         q->crossover ? std::vector<const spec::Quantity*>{} : built_from(solved.problem, *q))
        if (shown.insert(used->name).second)
            steps.push_back(formula_view(solved, *used, figures));
    shown.insert(q->name);
    View view = formula_view(solved, *q, figures);
    view["has_steps"] = !steps.empty();
    view["steps"] = steps;
    view["answer"] = quantity_answer_text(solved, part);
    return view;
}

} // namespace headcount::render

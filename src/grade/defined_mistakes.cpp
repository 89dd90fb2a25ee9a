#include <grade/defined_mistakes.hpp>

#include <formula/formula.hpp>
#include <solve/defined.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <mutex>

namespace headcount::grade {

namespace {

using formula::Number;
using formula::Perturbation;

/// One way to get the part wrong, and how it was made, so that two can be made together.
struct Single {
    const Mistake* mistake = nullptr;
    Number value;
    enum class Source { listed, derived, intermediate, unit, size } source = Source::listed;
    const Perturbation* change = nullptr; ///< derived
    std::string replaced;                 ///< intermediate: the defined quantity it was made in
    Number replaced_value;                ///< intermediate: that quantity's mistaken value
    Number factor = 1;                    ///< unit: the right value times this
};

struct Row {
    std::string id, title, feedback;
    Mistake mistake;
};

/// How feedback names what a perturbation changed: a defined quantity by its title, a name or an expression as code.
std::string subject_words(const spec::Problem& problem, std::string_view subject) {
    if (problem.quantities)
        for (const spec::Quantity& q : *problem.quantities)
            if (q.name == subject)
                return q.title;
    return fmt::format("`{}`", subject);
}

/// The title and feedback of a derived mistake, in the words of the quantity and its formula.
std::pair<std::string, std::string> derived_words(const spec::Problem& problem, const spec::Quantity& q,
                                                  const Perturbation& p) {
    const std::string s = subject_words(problem, p.subject);
    switch (p.kind) {
    case Perturbation::Kind::term_left_out:
        return {fmt::format("The {} term was left out", s),
                fmt::format("The {} term was left out of the sum for the {}.", s, q.title)};
    case Perturbation::Kind::term_twice:
        return {fmt::format("The {} term was counted twice", s),
                fmt::format("The {} term was counted twice in the sum for the {}; it is added once.", s, q.title)};
    case Perturbation::Kind::factor_left_out:
        return {fmt::format("The factor {} was left out", s),
                fmt::format("The factor {} was left out of the {}.", s, q.title)};
    case Perturbation::Kind::factor_inverted:
        return p.divides ? std::pair{fmt::format("{} was multiplied where it divides", s),
                                     fmt::format("{} was multiplied by where it divides: the {} is divided by it.", s,
                                                 q.title)}
                         : std::pair{fmt::format("{} was divided where it multiplies", s),
                                     fmt::format("{} was divided by where it multiplies: the {} is multiplied by it.",
                                                 s, q.title)};
    case Perturbation::Kind::exponent_dropped:
        return {fmt::format("The exponent of {} was dropped", s),
                fmt::format("The exponent in {} was left out of the {}: the base was used as it is.", s, q.title)};
    }
    return {s, s};
}

/// A listed mistake's id as a title: forward_only -> "Forward only" (its feedback says the rest).
std::string id_title(std::string_view id) {
    std::string title(id);
    std::replace(title.begin(), title.end(), '_', ' ');
    std::replace(title.begin(), title.end(), '-', ' ');
    if (!title.empty())
        title.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(title.front())));
    return title;
}

/// The unit slips a quantity's unit invites, as factors on the right value.
void add_unit_slips(const spec::Quantity& q, const Number& right, std::vector<Single>& singles) {
    const solve::UnitInfo unit = solve::unit_info(q.unit);
    const auto add = [&](std::string_view id, std::string title, std::string feedback, Number factor) {
        Single s;
        s.mistake = defined_mistake(id, title, feedback);
        s.source = Single::Source::unit;
        s.factor = factor;
        s.value = right * factor;
        singles.push_back(std::move(s));
    };
    using D = solve::UnitInfo::Dimension;
    if (unit.dimension == D::bytes) {
        add("bits_for_bytes", "The size was counted in bits, not bytes",
            "This is the size in bits; the question asks for bytes (1 byte = 8 bits).", 8);
        // GB for GiB and the other way round: the same bytes written in the other family's unit of that level.
        constexpr std::string_view k_decimal[] = {"KB", "MB", "GB", "TB"};
        constexpr std::string_view k_binary[] = {"KiB", "MiB", "GiB", "TiB"};
        for (int level = 0; level < 4; ++level) {
            Number binary = 1, decimal = 1;
            for (int i = 0; i <= level; ++i) {
                binary *= 1024;
                decimal *= 1000;
            }
            if (unit.scale != binary && unit.scale != decimal)
                continue;
            // The unit asked for, and the other family's unit that was used instead.
            const bool binary_asked = unit.scale == binary;
            const std::string_view asked = binary_asked ? k_binary[level] : k_decimal[level];
            const std::string_view used = binary_asked ? k_decimal[level] : k_binary[level];
            add("decimal_vs_binary_units", fmt::format("{} were used where {} were asked", used, asked),
                fmt::format("This is the size in {} (powers of {}); the question asks for {} (powers of {}).", used,
                            binary_asked ? 1000 : 1024, asked, binary_asked ? 1024 : 1000),
                binary_asked ? binary / decimal : decimal / binary);
        }
    } else if (unit.dimension == D::time) {
        constexpr std::pair<std::string_view, long> k_times[] = {
            {"seconds", 1}, {"minutes", 60}, {"hours", 3600}, {"days", 86400}, {"years", 31557600}};
        for (const auto& [name, seconds] : k_times) {
            if (unit.scale == seconds)
                continue;
            add(fmt::format("time_in_{}", name), fmt::format("The time was given in {}, not {}", name, unit.symbol),
                fmt::format("This is the time in {}; the question asks for {}.", name, unit.symbol),
                unit.scale / Number(seconds));
        }
    } else if (unit.dimension == D::count) {
        std::string lower(q.unit);
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (lower.find("flop") != std::string::npos && lower.find('/') == std::string::npos)
            add("macs_not_flops", "Multiply-adds were counted, not FLOPs",
                "This counts each multiply-add once; a FLOP count counts it as two operations, a multiply and an "
                "add.",
                Number(1, 2));
    } else if (unit.dimension == D::plain && unit.scale == Number(1, 100)) {
        add("fraction_for_percent", "A fraction was given where a percentage was asked",
            "This is the fraction; the question asks for a percentage (the fraction times 100).", Number(1, 100));
    }
}

/// The sizes a model of `count` parameters is advertised at: rounded to 1, 2 or 3 significant figures (7B for
/// 6,738,415,616, 110M for 109,482,240, 175B for 174,604,259,328) or cut to 2 (1.5B for 1,557,611,200). None below
/// a million parameters, where no model is known by a rounded size and a rounded count would only be noise.
std::vector<Number> advertised_sizes(const Number& count) {
    std::vector<Number> out;
    if (count.get_den() != 1 || count < 1'000'000)
        return out;
    const mpz_class n = count.get_num();
    const std::size_t digits = n.get_str().size();
    for (const std::size_t figures : {1, 2, 3}) {
        mpz_class scale;
        mpz_ui_pow_ui(scale.get_mpz_t(), 10, digits - figures);
        std::vector<mpz_class> sizes{(n + scale / 2) / scale * scale};
        if (figures == 2)
            sizes.emplace_back(n / scale * scale);
        for (const mpz_class& size : sizes) {
            const Number value(size);
            if (value != count && std::find(out.begin(), out.end(), value) == out.end())
                out.push_back(value);
        }
    }
    return out;
}

/// The value of `q` had the built-in `name` been `value`: every defined quantity up to it evaluated again, in the
/// order the spec's quantities are solved in.
std::optional<Number> value_with(const solve::SolvedProblem& solved, const spec::Quantity& q, const std::string& name,
                                 const Number& value) {
    auto values = solved.values;
    values.insert_or_assign(name, value);
    for (const spec::Quantity& each : *solved.problem.quantities) {
        auto v = formula::evaluate(each.formula, [&](std::string_view key) -> std::optional<Number> {
            const auto it = values.find(key);
            return it == values.end() ? std::nullopt : std::optional(it->second);
        });
        if (!v)
            return std::nullopt;
        if (&each == &q)
            return *v;
        values.insert_or_assign(each.name, std::move(*v));
    }
    return std::nullopt;
}

/// Whether `value` is `right` rounded to some number of significant figures (1 to 15).
bool is_rounding_of(const Number& value, const Number& right) {
    const double v = formula::to_double(value), r = formula::to_double(right);
    if (r == 0)
        return false;
    for (int figures = 1; figures <= 15; ++figures) {
        const double place = std::pow(10.0, std::floor(std::log10(std::abs(r))) - figures + 1);
        if (std::abs(v - std::round(r / place) * place) <= 1e-9 * place)
            return true;
    }
    return false;
}

/// A model's advertised size (7B) used for its parameter count, wherever `q` depends on model_params.
void add_advertised_sizes(const solve::SolvedProblem& solved, const spec::Quantity& q, const Number& right,
                          std::vector<Single>& singles) {
    const auto count = solved.values.find("model_params");
    if (count == solved.values.end())
        return;
    for (const Number& size : advertised_sizes(count->second)) {
        const auto value = value_with(solved, q, count->first, size);
        if (!value || *value == right)
            continue; // q does not use the parameter count
        if (is_rounding_of(*value, right))
            continue; // 2 x 7B = 14 GB is also 13.48 GB rounded: a right value rounded is not called a mistake
        Single s;
        s.mistake = defined_mistake(
            "advertised_size", "The model's advertised size was used for its parameter count",
            "A model's advertised size (7B, 175B) is its parameter count rounded. The configuration given here has "
            "an exact count (`model_params`): work from that count, not the rounded size.");
        s.value = *value;
        s.source = Single::Source::size;
        singles.push_back(std::move(s));
    }
}

/// The listed and derived mistakes of `q` alone (no intermediates, no unit slips), with their values.
std::vector<Single> own_singles(const solve::SolvedProblem& solved, const spec::Quantity& q, const Number& right,
                                const std::vector<Perturbation>& changes, std::size_t limit) {
    std::vector<Single> out;
    for (const spec::ListedMistake& m : q.mistakes) {
        if (out.size() >= limit)
            return out;
        const auto value = solve::evaluate_in(solved, m.formula);
        if (!value || *value == right)
            continue;
        Single s;
        s.mistake = defined_mistake(m.id, id_title(m.id), m.feedback);
        s.value = *value;
        out.push_back(std::move(s));
    }
    const std::size_t listed = out.size();
    for (const Perturbation& p : changes) {
        if (out.size() >= limit)
            break;
        // Dividing by what multiplies is a slip nobody makes; multiplying by what divides (mfu on top) is common.
        if (p.kind == Perturbation::Kind::factor_inverted && !p.divides)
            continue;
        const auto value = solve::evaluate_in(solved, formula::apply(q.formula, {&p}));
        if (!value || *value == right)
            continue;
        // A listed mistake of the same value says it in the instructor's words.
        if (std::any_of(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(listed),
                        [&](const Single& s) { return s.value == *value; }))
            continue;
        const auto [title, feedback] = derived_words(solved.problem, q, p);
        Single s;
        s.mistake = defined_mistake(p.id, title, feedback);
        s.value = *value;
        s.source = Single::Source::derived;
        s.change = &p;
        out.push_back(std::move(s));
    }
    return out;
}

std::mutex g_rows_mutex;
std::deque<Row> g_rows; // a deque never moves what it holds

} // namespace

const spec::Quantity* exactly_defined(const solve::SolvedProblem& solved, const solve::SolvedPart& part) {
    const spec::Quantity* q = solve::defined_quantity(solved.problem, *part.ask);
    return q && part.answer.exact ? q : nullptr;
}

const Mistake* defined_mistake(std::string_view id, std::string_view title, std::string_view feedback) {
    const std::lock_guard lock(g_rows_mutex);
    for (const Row& row : g_rows)
        if (row.id == id && row.title == title && row.feedback == feedback)
            return &row.mistake;
    Row& row = g_rows.emplace_back(Row{std::string(id), std::string(title), std::string(feedback), Mistake{}});
    row.mistake.id = row.id;
    row.mistake.title = row.title;
    row.mistake.feedback = row.feedback;
    row.mistake.answers = "counts bytes";
    return &row.mistake;
}

const Mistake* find_defined_mistake(std::string_view id) {
    const std::lock_guard lock(g_rows_mutex);
    for (const Row& row : g_rows)
        if (row.id == id)
            return &row.mistake;
    return nullptr;
}

std::vector<Explanation> defined_explanations(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                                              const spec::Quantity& q) {
    std::vector<Explanation> out;
    const Number& right = *part.answer.exact;
    const std::vector<Perturbation> changes = formula::perturbations(q.formula);
    std::vector<Single> singles = own_singles(solved, q, right, changes, k_max_defined_singles);

    // A mistake made in a defined quantity this one uses, carried through this formula.
    std::vector<std::vector<Perturbation>> used_changes; // kept alive: Single::change points into them
    used_changes.reserve(formula::names(q.formula).size());
    for (const std::string& name : formula::names(q.formula)) {
        const spec::Quantity* used = solve::find_quantity(solved.problem, name);
        if (!used || singles.size() >= k_max_defined_singles)
            continue;
        const Number& used_right = solved.values.find(name)->second;
        used_changes.push_back(formula::perturbations(used->formula));
        for (Single& inner : own_singles(solved, *used, used_right, used_changes.back(), k_max_carried)) {
            if (singles.size() >= k_max_defined_singles)
                break;
            const auto value = solve::evaluate_in(solved, q.formula, name, &inner.value);
            if (!value || *value == right)
                continue;
            Single s;
            s.mistake =
                defined_mistake(inner.mistake->id, fmt::format("In the {}: {}", used->title, inner.mistake->title),
                                fmt::format("In the {}: {}", used->title, inner.mistake->feedback));
            s.value = *value;
            s.source = Single::Source::intermediate;
            s.replaced = name;
            s.replaced_value = inner.value;
            singles.push_back(std::move(s));
        }
    }
    add_advertised_sizes(solved, q, right, singles);
    add_unit_slips(q, right, singles);
    if (singles.size() > k_max_defined_singles)
        singles.resize(k_max_defined_singles);
    for (const Single& s : singles)
        out.push_back({{s.mistake}, solve::exact_answer(s.value), {}});

    // Pairs: two changes to the formula's structure, a structural change and a mistaken intermediate, or any
    // mistake and a unit slip.
    const std::size_t paired = std::min(singles.size(), k_max_defined_paired);
    for (std::size_t i = 0; i < paired; ++i) {
        for (std::size_t j = i + 1; j < paired; ++j) {
            const Single* a = &singles[i];
            const Single* b = &singles[j];
            if (a->mistake == b->mistake)
                continue;
            if (b->source == Single::Source::derived && a->source != Single::Source::derived)
                std::swap(a, b);
            std::optional<Number> value;
            using S = Single::Source;
            if (a->source == S::derived && b->source == S::derived && formula::independent(*a->change, *b->change))
                value = solve::evaluate_in(solved, formula::apply(q.formula, {a->change, b->change}));
            else if (a->source == S::derived && b->source == S::intermediate)
                value =
                    solve::evaluate_in(solved, formula::apply(q.formula, {a->change}), b->replaced, &b->replaced_value);
            else if ((a->source == S::unit) != (b->source == S::unit))
                value = a->source == S::unit ? b->value * a->factor : a->value * b->factor;
            if (!value || *value == right || *value == a->value || *value == b->value)
                continue;
            out.push_back({{singles[i].mistake, singles[j].mistake}, solve::exact_answer(*value), {}});
        }
    }
    // Mistakes of the built-in quantities the formula uses (a layer norm forgotten in model_params), as built-in
    // asks find them.
    for (Explanation& e : explanations(solved.problem, *part.ask, part.answer))
        out.push_back(std::move(e));
    return out;
}

std::vector<Explanation> defined_others(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                                        const spec::Quantity& q) {
    std::vector<Explanation> out;
    const Mistake* other = find_mistake(k_other_quantity);
    const solve::UnitInfo unit = solve::unit_info(q.unit);
    for (const spec::Quantity& candidate : *solved.problem.quantities) {
        const solve::UnitInfo its = solve::unit_info(candidate.unit);
        if (&candidate == &q || its.dimension != unit.dimension)
            continue;
        const auto it = solved.values.find(candidate.name);
        if (it == solved.values.end())
            continue;
        const solve::Answer value = solve::exact_answer(it->second * its.scale / unit.scale);
        if (value == part.answer)
            continue;
        const solve::Ask* ask = solve::quantity_ask(candidate);
        const auto same = std::find_if(out.begin(), out.end(), [&](const Explanation& e) { return e.value == value; });
        if (same != out.end())
            same->others.push_back(ask);
        else
            out.push_back({{other}, value, {ask}});
    }
    return out;
}

} // namespace headcount::grade

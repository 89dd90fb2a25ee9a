#include <grade/formula_mistakes.hpp>

#include <grade/byte_units.hpp>

#include <formula/formula.hpp>
#include <solve/defined.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <mutex>

namespace headcount::grade {

namespace {

using formula::Number;
using formula::Perturbation;
using solve::Computation;

/// One way to get the part wrong, and how it was made, so that two can be made together.
struct Single {
    const Mistake* mistake = nullptr;
    Number value;
    enum class Source { listed, derived, carried, unit, size } source = Source::listed;
    Computation::Change change;         ///< all but a unit slip
    const Perturbation* made = nullptr; ///< derived: the change to the part's own formula
    Number factor = 1;                  ///< unit: the right value times this
};

struct Row {
    std::string id, title, feedback;
    Mistake mistake;
};

std::mutex g_rows_mutex;
std::deque<Row> g_rows; // a deque never moves what it holds

/// How feedback names what a perturbation changed: a quantity the problem has a title for (its own, or a
/// catalogue entry that works as one) by its title, a name or an expression as code.
std::string subject_words(const Computation& c, std::string_view subject) {
    const int slot = c.find_visible(subject);
    if (slot >= 0 && (c.slot(slot).quantity || (c.slot(slot).entry && c.slot(slot).entry->derive)))
        return std::string(c.slot(slot).title);
    return fmt::format("`{}`", subject);
}

/// The title and feedback of a derived mistake, in the words of the quantity and its formula.
std::pair<std::string, std::string> derived_words(const Computation& c, std::string_view title, const Perturbation& p) {
    const std::string s = subject_words(c, p.subject);
    switch (p.kind) {
    case Perturbation::Kind::term_left_out:
        if (p.subtracted)
            return {fmt::format("The {} term was not subtracted", s),
                    fmt::format("The {} term was left out of the {}: it is subtracted there.", s, title)};
        return {fmt::format("The {} term was left out", s),
                fmt::format("The {} term was left out of the sum for the {}.", s, title)};
    case Perturbation::Kind::term_twice:
        if (p.subtracted)
            return {fmt::format("The {} term was subtracted twice", s),
                    fmt::format("The {} term was subtracted twice in the {}; it is subtracted once.", s, title)};
        return {fmt::format("The {} term was counted twice", s),
                fmt::format("The {} term was counted twice in the sum for the {}; it is added once.", s, title)};
    case Perturbation::Kind::factor_left_out:
        return {fmt::format("The factor {} was left out", s),
                fmt::format("The factor {} was left out of the {}.", s, title)};
    case Perturbation::Kind::factor_inverted:
        return p.divides
                   ? std::pair{fmt::format("{} was multiplied where it divides", s),
                               fmt::format("{} was multiplied by where it divides: the {} is divided by it.", s, title)}
                   : std::pair{
                         fmt::format("{} was divided where it multiplies", s),
                         fmt::format("{} was divided by where it multiplies: the {} is multiplied by it.", s, title)};
    case Perturbation::Kind::exponent_dropped:
        return {fmt::format("The exponent of {} was dropped", s),
                fmt::format("The exponent in {} was left out of the {}: the base was used as it is.", s, title)};
    case Perturbation::Kind::root_left_out: {
        const std::string_view root = p.subject.starts_with("cbrt") ? "cube root" : "square root";
        return {fmt::format("The {} was left out", root),
                fmt::format("The {} in {} was left out of the {}: its argument was used as it is.", root, s, title)};
    }
    }
    return {s, s};
}

/// The unit slips a part's unit invites, as factors on the right value. A percentage (a spec's or the built-in mfu), a
/// fraction of one, invites no fraction-for-percentage slip: both are right answers there.
void add_unit_slips(std::string_view unit_text, const solve::UnitInfo& unit, const Number& right,
                    std::vector<Single>& singles) {
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
        const std::string_view asked =
            unit.symbol.ends_with("/s") ? unit.symbol.substr(0, unit.symbol.size() - 2) : unit.symbol;
        if (const auto other = other_byte_unit(asked)) {
            const bool binary_asked = asked.find('i') != std::string_view::npos;
            add("decimal_vs_binary_units", fmt::format("{} were used where {} were asked", other->unit, asked),
                fmt::format("This is the size in {} (powers of {}); the question asks for {} (powers of {}).",
                            other->unit, binary_asked ? 1000 : 1024, asked, binary_asked ? 1024 : 1000),
                1 / other->factor);
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
        std::string lower(unit_text);
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (lower.find("flop") != std::string::npos && lower.find('/') == std::string::npos)
            add("macs_not_flops", "Multiply-adds were counted, not FLOPs",
                "This counts each multiply-add once; a FLOP count counts it as two operations, a multiply and an "
                "add.",
                Number(1, 2));
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

/// A number as a formula: the replacement an advertised size makes for model_params.
std::shared_ptr<const formula::Node> literal(const Number& value) {
    auto node = std::make_shared<formula::Node>();
    node->op = formula::Node::Op::number;
    node->value = value;
    node->text = value.get_str();
    node->source = node->text;
    return node;
}

/// Whether a slot has mistakes of its own: a spec's quantity, or a catalogue entry with listed ones or that derives.
bool has_own_mistakes(const Computation::Slot& s) {
    return s.quantity || (s.entry && (s.entry->derive || !s.entry->mistakes.empty()));
}

/// Whether a slot's formula gives derived mistakes: a spec's quantity's, or an entry's that asks for them.
bool derives(const Computation::Slot& s) { return s.quantity || (s.entry && s.entry->derive); }

/// The mistakes of the formula of `slot` (listed, then derived), valued for `target`: `slot` itself, or a quantity
/// that uses it, through which they are carried. At most `limit`.
void add_formula_singles(const solve::SolvedProblem& solved, int slot, int target, const Number& right,
                         std::size_t limit, std::deque<std::vector<Perturbation>>& kept, std::vector<Single>& out) {
    const Computation& c = *solved.computation;
    const Computation::Slot& s = c.slot(slot);
    const bool carried = slot != target;
    const std::size_t first = out.size();
    const auto value_of = [&](const Computation::Change& change) { return c.value_under(target, change); };
    const auto add = [&](std::string_view id, std::string title, std::string feedback, Number value,
                         Computation::Change change, Single::Source source, const Perturbation* made) {
        if (carried) {
            title = fmt::format("In the {}: {}", s.title, title);
            feedback = fmt::format("In the {}: {}", s.title, feedback);
        }
        Single single;
        single.mistake = defined_mistake(id, title, feedback);
        single.value = std::move(value);
        single.source = carried ? Single::Source::carried : source;
        single.change = std::move(change);
        single.made = carried ? nullptr : made;
        out.push_back(std::move(single));
    };
    const auto full = [&] { return out.size() - first >= limit || out.size() >= k_max_defined_singles; };

    // Listed: the instructor's, or the catalogue entry's where its condition holds.
    if (s.quantity) {
        for (const spec::ListedMistake& m : s.quantity->mistakes) {
            if (full())
                return;
            Computation::Change change{
                {{slot, std::shared_ptr<const formula::Node>(solved.problem.quantities, &m.formula)}}};
            const auto value = value_of(change);
            if (value && *value != right)
                add(m.id, spec::mistake_title(m.title, m.feedback, m.id), m.feedback, *value, std::move(change),
                    Single::Source::listed, nullptr);
        }
    } else if (s.entry) {
        for (const solve::EntryMistake& m : s.entry->mistakes) {
            if (full())
                return;
            if (!c.holds(m.when))
                continue;
            Computation::Change change{{{slot, solve::catalogue_formula(m.formula)}}};
            const auto value = value_of(change);
            if (value && *value != right)
                add(m.id, spec::mistake_title(m.title, m.feedback, m.id), std::string(m.feedback), *value,
                    std::move(change), Single::Source::listed, nullptr);
        }
    }
    const std::size_t listed_end = out.size();
    const std::shared_ptr<const formula::Node> own = c.formula(slot);
    if (!derives(s) || !own)
        return;
    kept.push_back(formula::perturbations(*own));
    for (const Perturbation& p : kept.back()) {
        if (full())
            return;
        // Dividing by what multiplies is a slip nobody makes; multiplying by what divides (mfu on top) is common.
        if (p.kind == Perturbation::Kind::factor_inverted && !p.divides)
            continue;
        Computation::Change change{{{slot, std::make_shared<const formula::Node>(formula::apply(*own, {&p}))}}};
        const auto value = value_of(change);
        if (!value || *value == right)
            continue;
        // A listed mistake of the same value says it in the instructor's words.
        if (std::any_of(out.begin() + static_cast<std::ptrdiff_t>(first),
                        out.begin() + static_cast<std::ptrdiff_t>(listed_end),
                        [&](const Single& single) { return single.value == *value; }))
            continue;
        auto [title, feedback] = derived_words(c, s.title, p);
        add(p.id, std::move(title), std::move(feedback), *value, std::move(change), Single::Source::derived, &p);
    }
}

/// A model's advertised size (7B) used for its parameter count, wherever the part depends on model_params.
void add_advertised_sizes(const solve::SolvedProblem& solved, int target, const Number& right,
                          std::vector<Single>& singles) {
    const Computation& c = *solved.computation;
    const int count = c.find("model_params");
    if (!c.available(count) || count == target)
        return;
    const std::vector<int> cone = c.cone(target);
    if (std::find(cone.begin(), cone.end(), count) == cone.end())
        return;
    for (const Number& size : advertised_sizes(c.value(count))) {
        Computation::Change change{{{count, literal(size)}}};
        const auto value = c.value_under(target, change);
        if (!value || *value == right)
            continue;
        if (is_rounding_of(*value, right))
            continue; // 2 x 7B = 14 GB is also 13.48 GB rounded: a right value rounded is not called a mistake
        Single s;
        s.mistake = defined_mistake(
            "advertised_size", "The model's advertised size was used for its parameter count",
            "A model's advertised size (7B, 175B) is its parameter count rounded. The configuration given here has "
            "an exact count (`model_params`): work from that count, not the rounded size.");
        s.value = *value;
        s.source = Single::Source::size;
        s.change = std::move(change);
        singles.push_back(std::move(s));
    }
}

/// A byte given read in the other family's unit (issue 39, rule 5): `memory_budget: 80 GB` taken as 80 GiB, or
/// `hbm_bandwidth: 2 TiB/s` as 2 TB/s, wherever the part depends on it.
void add_other_readings(const solve::SolvedProblem& solved, int target, const Number& right,
                        std::vector<Single>& singles) {
    const Computation& c = *solved.computation;
    std::vector<int> cone;
    for (const auto& [name, given] : solved.problem.values) {
        const auto other = other_byte_unit(given.unit);
        const int slot = c.find_visible(name);
        if (!other || !c.available(slot) || slot == target)
            continue;
        if (cone.empty())
            cone = c.cone(target);
        if (std::find(cone.begin(), cone.end(), slot) == cone.end())
            continue;
        Computation::Change change{{{slot, literal(given.value * other->factor)}}};
        const auto value = c.value_under(target, change);
        if (!value || *value == right)
            continue;
        // The number as the spec writes it (80, 2.5), and which family each unit is of.
        const std::string_view as_written =
            trimmed(std::string_view(given.text).substr(0, given.text.rfind(' ')), " \t");
        const bool read_as_binary = other->unit.find('i') != std::string_view::npos;
        Single s;
        s.mistake = defined_mistake(
            "given_in_other_unit",
            fmt::format("{} {} was read as {} {}", as_written, given.unit, as_written, other->unit),
            fmt::format("The given `{0}` is {1} {2}: {2} counts in powers of {3}. This answer reads it as {1} {4}, "
                        "in powers of {5}.",
                        name, as_written, given.unit, read_as_binary ? 1000 : 1024, other->unit,
                        read_as_binary ? 1024 : 1000));
        s.value = *value;
        s.source = Single::Source::size;
        s.change = std::move(change);
        singles.push_back(std::move(s));
    }
}

} // namespace

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

std::vector<Explanation> formula_explanations(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                                              const std::vector<std::string_view>& taken) {
    std::vector<Explanation> out;
    const Computation& c = *solved.computation;
    const int target = slot_of(solved, part);
    // A word's answer (bound.decode_step) is its formula's index: a mistake that changes it names the other word.
    const bool word = part.ask->type() == solve::Ask::Type::choice;
    if (!c.available(target) || (part.ask->type() != solve::Ask::Type::count && !word))
        return out;
    const Number& right = c.value(target);
    std::deque<std::vector<Perturbation>> kept; // Single::made points into these
    std::vector<Single> singles;
    add_formula_singles(solved, target, target, right, k_max_defined_singles, kept, singles);
    // The same made in any quantity the part uses, however deep, carried through: those its formula names first, in
    // its order, then theirs.
    std::vector<int> nearest;
    std::vector<char> seen(c.size(), 0);
    seen[static_cast<std::size_t>(target)] = 1;
    const auto visit = [&](int slot) {
        for (const int used : c.slot(slot).uses)
            if (used >= 0 && !seen[static_cast<std::size_t>(used)]) {
                seen[static_cast<std::size_t>(used)] = 1;
                nearest.push_back(used);
            }
    };
    visit(target);
    for (std::size_t i = 0; i < nearest.size(); ++i)
        visit(nearest[i]);
    for (const int used : nearest) {
        if (singles.size() >= k_max_defined_singles)
            break;
        if (has_own_mistakes(c.slot(used)))
            add_formula_singles(solved, used, target, right, k_max_carried, kept, singles);
    }
    add_advertised_sizes(solved, target, right, singles);
    add_other_readings(solved, target, right, singles);
    std::vector<Single> slips;
    if (!word)
        add_unit_slips(part.ask->unit, solve::ask_unit(solved.problem, *part.ask), right, slips);
    for (Single& slip : slips)
        if (std::find(taken.begin(), taken.end(), slip.mistake->id) == taken.end())
            singles.push_back(std::move(slip));
    if (singles.size() > k_max_defined_singles)
        singles.resize(k_max_defined_singles);
    for (const Single& s : singles)
        out.push_back({{s.mistake}, answer_of(solved, part, s.value), {}});

    // Pairs: two changes to the part's own formula, one of it and one carried from a quantity it uses, or any
    // mistake and a unit slip.
    using S = Single::Source;
    const std::size_t paired = std::min(singles.size(), k_max_defined_paired);
    const std::shared_ptr<const formula::Node> own_formula = c.formula(target);
    const formula::Node* own = own_formula.get();
    for (std::size_t i = 0; i < paired; ++i) {
        for (std::size_t j = i + 1; j < paired; ++j) {
            const Single* a = &singles[i];
            const Single* b = &singles[j];
            if (a->mistake == b->mistake)
                continue;
            if (b->source == S::derived && a->source != S::derived)
                std::swap(a, b);
            std::optional<Number> value;
            if (a->source == S::derived && b->source == S::derived && own && formula::independent(*a->made, *b->made))
                value = c.value_under(target,
                                      Computation::Change{{{target, std::make_shared<const formula::Node>(
                                                                        formula::apply(*own, {a->made, b->made}))}}});
            else if (a->source == S::derived && b->source == S::carried)
                if (const auto both = c.combine(a->change, b->change))
                    value = c.value_under(target, *both);
            if ((a->source == S::unit) != (b->source == S::unit))
                value = a->source == S::unit ? b->value * a->factor : a->value * b->factor;
            if (!value || *value == right || *value == a->value || *value == b->value)
                continue;
            out.push_back({{singles[i].mistake, singles[j].mistake}, answer_of(solved, part, *value), {}});
        }
    }
    return out;
}

} // namespace headcount::grade

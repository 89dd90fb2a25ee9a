#include <generate/lms_answers.hpp>

#include <grade/feedback.hpp>
#include <grade/grader.hpp>
#include <grade/mistakes.hpp>
#include <render/answers.hpp>
#include <solve/defined.hpp>
#include <util/text.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

namespace headcount::generate {

namespace {

int digits_of(Count value) {
    int digits = 1;
    for (Count v = value; v >= 10; v /= 10)
        ++digits;
    return digits;
}

/// The significant figures of a whole number: its digits less its trailing zeros (315,000: 3).
int figures_of(Count value) {
    int figures = digits_of(value);
    for (Count v = value; v != 0 && v % 10 == 0; v /= 10)
        --figures;
    return figures;
}

/// A value as a whole number, when it is one (a count, or a defined quantity's whole exact value).
std::optional<Count> whole_value(const solve::Answer& value) {
    if (!value.exact)
        return value.count;
    if (value.exact->get_den() != 1)
        return std::nullopt;
    return formula::to_count(*value.exact);
}

/// How a value is typed for grade: digits for a count, (a, b, c) for a shape, the word for a choice.
std::string typed_form(const solve::Ask& ask, const solve::Answer& value) { return render::plain_answer(ask, value); }

/// grade's feedback on `verdict` into `entry`: the notes it names ("**title.** explanation"), under the part's
/// policy, and their text joined.
Result<void> add_notes(PlatformAnswer& entry, const solve::SolvedProblem& variant, const solve::SolvedPart& part,
                       const grade::Verdict& verdict, const render::TemplateSet& templates) {
    auto feedback = grade::explain(variant, part, verdict, templates, variant.problem.reveal_for(part.part));
    if (!feedback)
        return std::unexpected(feedback.error());
    if (!verdict.accepted.empty()) // a reading the part accepts: its sentence
        entry.feedback = verdict.accepted;
    for (const grade::MistakeNote& note : feedback->notes) {
        entry.notes.push_back({note.title, fmt::format("**{}.** {}", note.title, note.feedback)});
        entry.feedback += (entry.feedback.empty() ? "" : "\n\n") + entry.notes.back().text;
    }
    return {};
}

/// The entry for `typed` as grade judges it, when its status is `wanted` (any status when none is given) and, for
/// a wrong answer, it names a mistake; else nothing.
Result<std::optional<PlatformAnswer>> judged(const grade::MistakeTable& table, const std::string& typed,
                                             const solve::Answer& value, std::optional<grade::Status> wanted,
                                             const render::TemplateSet& templates) {
    const grade::Verdict verdict = grade::grade_answer(table, typed);
    if ((wanted && verdict.status != *wanted) || verdict.status == grade::Status::unreadable ||
        (verdict.status == grade::Status::incorrect && verdict.matches.empty() && verdict.accepted.empty()))
        return std::optional<PlatformAnswer>{};
    PlatformAnswer entry;
    entry.value = value;
    entry.status = verdict.status;
    entry.credit = verdict.points > 0 ? verdict.score / verdict.points : 0;
    entry.typed = typed;
    for (const grade::Mistake* m : grade::named_mistakes(verdict))
        entry.mistakes.emplace_back(m->id);
    if (auto ok = add_notes(entry, *table.solved, *table.part, verdict, templates); !ok)
        return std::unexpected(ok.error());
    return std::optional<PlatformAnswer>{std::move(entry)};
}

} // namespace

std::vector<std::string> shape_forms(const solve::Shape& shape) {
    auto joined = [&](std::string_view separator) { return fmt::format("{}", fmt::join(shape, separator)); };
    return {"(" + joined(", ") + ")",
            "(" + joined(",") + ")",
            "[" + joined(", ") + "]",
            "[" + joined(",") + "]",
            joined("x"),
            joined(" x "),
            joined("×"),
            joined(" × "),
            "torch.Size([" + joined(", ") + "])"};
}

std::string e_notation(Count value, int figures) {
    const int digits = digits_of(value);
    const std::string all = fmt::format("{}", value);
    std::string mantissa = all.substr(0, 1);
    if (figures > 1)
        mantissa += "." + all.substr(1, static_cast<std::size_t>(figures - 1));
    return fmt::format("{}e{}", mantissa, digits - 1);
}

Result<std::vector<PlatformAnswer>> platform_answers(const solve::SolvedProblem& variant, const solve::SolvedPart& part,
                                                     const render::TemplateSet& templates) {
    const solve::Ask& ask = *part.ask;
    const bool is_count = ask.type() == solve::Ask::Type::count;
    std::vector<PlatformAnswer> out;
    const auto listed = [&](const solve::Answer& value) {
        return std::any_of(out.begin(), out.end(), [&](const PlatformAnswer& a) { return a.value == value; });
    };
    const auto add = [&](Result<std::optional<PlatformAnswer>> entry) -> Result<void> {
        if (!entry)
            return std::unexpected(entry.error());
        if (*entry && !listed((*entry)->value))
            out.push_back(std::move(**entry));
        return {};
    };

    const grade::MistakeTable table = grade::mistake_table(variant, part);
    if (auto ok = add(judged(table, typed_form(ask, part.answer), part.answer, grade::Status::correct, templates)); !ok)
        return std::unexpected(ok.error());
    if (out.empty())
        return std::unexpected(
            Error{variant.problem.file, 0, 0,
                  fmt::format("internal: grade does not accept part '{}''s own answer", part.part.id)});

    // The readings the part accepts (`accept:`), each at its credit with its sentence, before any mistake.
    for (const solve::AcceptedValue& a : part.accepted) {
        const solve::Answer value = grade::answer_of(variant, part, a.value);
        if (auto ok = add(judged(table, typed_form(ask, value), value, std::nullopt, templates)); !ok)
            return std::unexpected(ok.error());
    }
    std::vector<solve::Answer> wrong;
    for (const grade::Explanation& e : table.explanations)
        wrong.push_back(e.value);
    for (const grade::Explanation& e : table.others)
        wrong.push_back(e.value);
    for (const solve::Answer& value : wrong) {
        const bool negative = value.exact ? *value.exact < 0 : value.count < 0;
        if (listed(value) || (is_count && negative))
            continue;
        if (auto ok = add(judged(table, typed_form(ask, value), value, grade::Status::incorrect, templates)); !ok)
            return std::unexpected(ok.error());
    }

    if (is_count && part.answer.count > 0 && (!part.answer.exact || part.answer.exact->get_den() == 1)) {
        const Count right = part.answer.count;
        const int digits = digits_of(right);
        Count place = 1;
        for (int i = 0; i < digits - 2; ++i)
            place *= 10;
        // From two figures (the coarsest grade calls a rounding) down to one short of every digit.
        for (int figures = 2; figures < digits; ++figures, place /= 10) {
            const Count below = right / place * place;
            for (const Count candidate : {below, below + place}) {
                if (candidate <= 0 || candidate == right || 2 * wide_abs(candidate - right) > place)
                    continue;
                const int written = digits_of(candidate) > digits ? figures + 1 : figures;
                const solve::Answer value{candidate, {}, {}};
                if (listed(value))
                    continue;
                if (auto ok =
                        add(judged(table, e_notation(candidate, written), value, grade::Status::rounded, templates));
                    !ok)
                    return std::unexpected(ok.error());
            }
        }
    }
    return out;
}

Result<std::vector<PlatformAnswer>> text_answers(const solve::SolvedProblem& variant, const solve::SolvedPart& part,
                                                 const std::vector<PlatformAnswer>& answers,
                                                 const render::TemplateSet& templates) {
    const grade::MistakeTable table = grade::mistake_table(variant, part);
    const spec::Tolerance tolerance = solve::tolerance_of(part);
    std::vector<PlatformAnswer> out;
    std::set<std::string> seen;
    const auto add = [&](const std::string& text, const solve::Answer& value) -> Result<void> {
        if (!seen.insert(text).second)
            return {};
        auto entry = judged(table, text, value, std::nullopt, templates);
        if (!entry)
            return std::unexpected(entry.error());
        if (*entry)
            out.push_back(std::move(**entry));
        return {};
    };
    for (const PlatformAnswer& a : answers) {
        const std::optional<Count> whole = whole_value(a.value);
        if (!whole || *whole <= 0) {
            if (auto ok = add(a.typed, a.value); !ok)
                return std::unexpected(ok.error());
            continue;
        }
        // Digits, as the question asks; e-notation when the value ends in zeros (3.15e23); the right value also
        // with commas. Each form is an answer of its own with its feedback, so a value gets no more forms than these.
        std::vector<std::string> texts{a.status == grade::Status::rounded ? a.typed : fmt::format("{}", *whole)};
        if (a.status == grade::Status::rounded)
            texts.push_back(fmt::format("{}", *whole));
        else if (digits_of(*whole) - figures_of(*whole) >= 3)
            texts.push_back(e_notation(*whole, figures_of(*whole)));
        if (a.status == grade::Status::correct) {
            texts.push_back(with_thousands(*whole));
            // Its roundings to every number of figures: check takes those within rule 1's interval as right, and
            // calls the others rounded.
            Count place = 1;
            for (int figures = digits_of(*whole) - 1; figures >= 1; --figures) {
                place *= 10;
                const Count below = *whole / place * place;
                const Count nearest = 2 * (*whole - below) >= place ? below + place : below;
                if (nearest != *whole && nearest > 0) {
                    const int written = digits_of(nearest) > digits_of(*whole) ? figures + 1 : figures;
                    texts.push_back(e_notation(nearest, written));
                    texts.push_back(fmt::format("{}", nearest));
                }
            }
            // The numbers of rule 1's interval written to one figure more than the part asks for (3.145e23 to
            // 3.155e23 for 3.15e23 at three figures), each right in check: a text box lists texts, not an interval,
            // and these are the in-band numbers a student most likely types; more figures get the catch-all.
            const int digits = digits_of(*whole);
            if (tolerance.kind == spec::Tolerance::Kind::sigfigs && digits > tolerance.sigfigs + 1) {
                Count step = 1;
                for (int i = 0; i < digits - tolerance.sigfigs - 1; ++i)
                    step *= 10;
                const Count half = step * 5; // half a unit in the part's last figure
                for (Count c = (*whole - half + step - 1) / step * step; c <= *whole + half; c += step)
                    if (c > 0)
                        texts.push_back(
                            e_notation(c, digits_of(c) > digits ? tolerance.sigfigs + 2 : tolerance.sigfigs + 1));
            }
        } else if (a.status == grade::Status::incorrect && tolerance.kind == spec::Tolerance::Kind::sigfigs &&
                   digits_of(*whole) > tolerance.sigfigs) {
            // A mistake's value as a student rounds it to the part's figures.
            Count place = 1;
            for (int i = tolerance.sigfigs; i < digits_of(*whole); ++i)
                place *= 10;
            const Count below = *whole / place * place;
            const Count nearest = 2 * (*whole - below) >= place ? below + place : below;
            texts.push_back(e_notation(nearest, digits_of(nearest) > digits_of(*whole) ? tolerance.sigfigs + 1
                                                                                       : tolerance.sigfigs));
        }
        for (const std::string& text : texts)
            if (auto ok = add(text, a.value); !ok)
                return std::unexpected(ok.error());
    }
    return out;
}

} // namespace headcount::generate

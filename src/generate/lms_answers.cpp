#include <generate/lms_answers.hpp>

#include <grade/feedback.hpp>
#include <grade/grader.hpp>
#include <grade/mistakes.hpp>
#include <render/answers.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

namespace headcount::generate {

namespace {

int digits_of(Count value) {
    int digits = 1;
    for (Count v = value; v >= 10; v /= 10)
        ++digits;
    return digits;
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
    for (const grade::MistakeNote& note : feedback->notes) {
        entry.notes.push_back({note.title, fmt::format("**{}.** {}", note.title, note.feedback)});
        entry.feedback += (entry.feedback.empty() ? "" : "\n\n") + entry.notes.back().text;
    }
    return {};
}

/// The entry for `typed` when grade's verdict on it has status `wanted`, or nothing.
Result<std::optional<PlatformAnswer>> judged(const solve::SolvedProblem& variant, const solve::SolvedPart& part,
                                             const std::string& typed, const solve::Answer& value, grade::Status wanted,
                                             const render::TemplateSet& templates) {
    const grade::Verdict verdict = grade::grade_answer(variant, part, typed);
    if (verdict.status != wanted || (wanted == grade::Status::incorrect && verdict.matches.empty()))
        return std::optional<PlatformAnswer>{};
    PlatformAnswer entry;
    entry.value = value;
    entry.status = verdict.status;
    entry.credit = verdict.points > 0 ? verdict.score / verdict.points : 0;
    entry.typed = typed;
    for (const grade::Mistake* m : grade::named_mistakes(verdict))
        entry.mistakes.emplace_back(m->id);
    if (auto ok = add_notes(entry, variant, part, verdict, templates); !ok)
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

    if (auto ok =
            add(judged(variant, part, typed_form(ask, part.answer), part.answer, grade::Status::correct, templates));
        !ok)
        return std::unexpected(ok.error());
    if (out.empty())
        return std::unexpected(
            Error{variant.problem.file, 0, 0,
                  fmt::format("internal: grade does not accept part '{}''s own answer", part.part.id)});

    std::vector<solve::Answer> wrong;
    const grade::MistakeTable table = grade::mistake_table(variant, part);
    for (const grade::Explanation& e : table.explanations)
        wrong.push_back(e.value);
    for (const grade::Explanation& e : table.others)
        wrong.push_back(e.value);
    for (const solve::Answer& value : wrong) {
        const bool negative = value.exact ? *value.exact < 0 : value.count < 0;
        if (listed(value) || (is_count && negative))
            continue;
        if (auto ok = add(judged(variant, part, typed_form(ask, value), value, grade::Status::incorrect, templates));
            !ok)
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
                if (auto ok = add(judged(variant, part, e_notation(candidate, written), value, grade::Status::rounded,
                                         templates));
                    !ok)
                    return std::unexpected(ok.error());
            }
        }
    }
    return out;
}

} // namespace headcount::generate

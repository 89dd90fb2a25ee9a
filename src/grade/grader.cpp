#include <grade/grader.hpp>

#include <algorithm>
#include <cmath>

namespace headcount::grade {

namespace {

/// How finely the student wrote the number: the place value of the last digit they meant, 0 when exact.
/// "1.05M" -> 10,000; a plain "1,050,000" -> 10,000 too, since its trailing zeros look like rounding; but the
/// result of arithmetic ("4*1000^2") is exact, whatever its zeros.
double resolution_of(const ParsedAnswer& answer) {
    if (answer.significant_figures > 0)
        return answer.resolution;
    if (!answer.literal || !answer.integer || *answer.integer == 0)
        return 0;
    double place = 1;
    for (Count v = *answer.integer; v % 10 == 0; v /= 10)
        place *= 10;
    return place > 1 ? place : 0;
}

/// Whether `answer` is `value` under the part's tolerance.
bool within_tolerance(const ParsedAnswer& answer, Count value, const spec::Tolerance& tolerance) {
    const double v = static_cast<double>(value);
    switch (tolerance.kind) {
    case spec::Tolerance::Kind::exact:
        return answer.integer && *answer.integer == value;
    case spec::Tolerance::Kind::relative:
        return std::abs(answer.value - v) <= tolerance.relative * std::abs(v);
    case spec::Tolerance::Kind::sigfigs: {
        if (value == 0)
            return answer.value == 0;
        // Both round to the same figures at the expected value's magnitude: 1,054,999 and 1,050,624 are 1.05M.
        const double place = std::pow(10.0, std::floor(std::log10(std::abs(v))) - tolerance.sigfigs + 1);
        return std::round(answer.value / place) == std::round(v / place);
    }
    }
    return false;
}

/// Whether `answer` is `value` written to the student's own precision (1.05M for 1,050,624). Rounding that
/// coarse steps of more than 1% of the value cannot tell (1M for 1,050,624, or 100 for d_k = 128) is not
/// counted: that is three significant figures or more.
bool rounds_to(const ParsedAnswer& answer, Count value) {
    const double resolution = resolution_of(answer);
    const double v = std::abs(static_cast<double>(value));
    return resolution > 0 && resolution <= v / 100 && std::abs(answer.value - static_cast<double>(value)) <= resolution / 2;
}

} // namespace

std::string_view status_name(Status status) {
    switch (status) {
    case Status::correct:
        return "correct";
    case Status::rounded:
        return "rounded";
    case Status::incorrect:
        return "incorrect";
    case Status::unreadable:
        return "unreadable";
    }
    return "unreadable";
}

std::vector<const Mistake*> named_mistakes(const Verdict& verdict) {
    std::vector<const Mistake*> out;
    if (verdict.status == Status::rounded)
        out.push_back(find_mistake(k_rounded));
    for (const Explanation& e : verdict.matches)
        for (const Mistake* m : e.mistakes)
            if (std::find(out.begin(), out.end(), m) == out.end())
                out.push_back(m);
    return out;
}

double credit_for(const spec::Part& part, const Mistake& mistake) {
    const auto it = part.credit.find(std::string(mistake.id));
    return it != part.credit.end() ? it->second : mistake.credit;
}

Verdict grade_answer(const solve::SolvedProblem& solved, const solve::SolvedPart& part, std::string_view answer) {
    Verdict verdict;
    verdict.answer = std::string(answer);
    verdict.expected = part.answer;
    verdict.points = part.part.points;

    auto parsed = parse_answer(answer, AnswerUnit::count);
    if (!parsed) {
        verdict.status = Status::unreadable;
        verdict.unreadable_reason = parsed.error();
        return verdict;
    }
    verdict.parsed = *parsed;
    const spec::Tolerance tolerance = part.part.tolerance.value_or(spec::Tolerance{});

    if (within_tolerance(*parsed, part.answer, tolerance)) {
        verdict.status = Status::correct;
        verdict.score = verdict.points;
        return verdict;
    }
    const auto candidates = explanations(solved.problem, *part.ask, part.answer);
    const bool is_a_mistake = std::any_of(candidates.begin(), candidates.end(), [&](const Explanation& e) {
        return parsed->integer && *parsed->integer == e.value;
    });
    if (tolerance.kind == spec::Tolerance::Kind::exact && !is_a_mistake && rounds_to(*parsed, part.answer)) {
        verdict.status = Status::rounded;
        verdict.score = verdict.points * credit_for(part.part, *find_mistake(k_rounded));
        return verdict;
    }

    verdict.status = Status::incorrect;
    for (const Explanation& e : candidates)
        if (within_tolerance(*parsed, e.value, tolerance) || rounds_to(*parsed, e.value))
            verdict.matches.push_back(e);
    // One mistake explains an answer more simply than two: keep pairs only when no single mistake matches.
    if (std::any_of(verdict.matches.begin(), verdict.matches.end(), [](const Explanation& e) { return e.mistakes.size() == 1; }))
        std::erase_if(verdict.matches, [](const Explanation& e) { return e.mistakes.size() > 1; });

    for (const Explanation& e : verdict.matches) {
        double credit = 1;
        for (const Mistake* m : e.mistakes)
            credit = std::min(credit, credit_for(part.part, *m));
        verdict.score = std::max(verdict.score, verdict.points * credit);
    }
    if (verdict.matches.empty() && part.answer != 0) {
        const double off = (parsed->value - static_cast<double>(part.answer)) / static_cast<double>(part.answer);
        if (std::abs(off) <= 0.05)
            verdict.near_miss = off;
    }
    return verdict;
}

} // namespace headcount::grade

#include <generate/moodle.hpp>

#include <grade/feedback.hpp>
#include <grade/mistakes.hpp>
#include <render/answers.hpp>
#include <render/solution.hpp>
#include <util/text.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <cmath>
#include <map>

namespace headcount::generate {

namespace {

/// Moodle's answer grade options (question/type/edit_question_form.php), in percent.
constexpr std::array<double, 21> k_fractions{100,      90, 83.33333, 80, 75, 70,       66.66667, 60, 50, 40, 33.33333,
                                             30,       25, 20,       16.66667, 14.28571, 12.5,     11.11111, 10, 5, 0};

std::string text_element(std::string_view tag, std::string_view markdown, std::string_view indent) {
    return fmt::format("{0}<{1} format=\"markdown\">\n{0}  <text>{2}</text>\n{0}</{1}>\n", indent, tag,
                       escape_xml(markdown));
}

/// The part's tolerance as Moodle's absolute ± around the answer.
double absolute_tolerance(const solve::SolvedPart& part) {
    const auto tolerance = part.part.tolerance.value_or(spec::Tolerance{});
    const double v = std::abs(static_cast<double>(part.answer.count));
    switch (tolerance.kind) {
    case spec::Tolerance::Kind::relative:
        return tolerance.relative * v;
    case spec::Tolerance::Kind::sigfigs:
        return v == 0 ? 0 : std::pow(10.0, std::floor(std::log10(v)) - tolerance.sigfigs + 1) / 2;
    case spec::Tolerance::Kind::exact:
        break;
    }
    return 0;
}

/// The ways a student may type a shape, for a short-answer question (Moodle matches the text, not the value).
std::vector<std::string> shape_forms(const solve::Shape& shape) {
    auto joined = [&](std::string_view separator) { return fmt::format("{}", fmt::join(shape, separator)); };
    return {"(" + joined(", ") + ")", "(" + joined(",") + ")", "[" + joined(", ") + "]", "[" + joined(",") + "]",
            joined("x"),              joined(" x "),            joined("×"),              joined(" × "),
            "torch.Size([" + joined(", ") + "])"};
}

/// One <answer>: numerical questions carry a tolerance, the others none.
std::string answer_element(solve::Ask::Type type, double fraction, std::string_view text, double tolerance,
                           std::string_view feedback) {
    return fmt::format("    <answer fraction=\"{}\" format=\"moodle_auto_format\">\n      <text>{}</text>\n"
                       "{}{}    </answer>\n",
                       fraction, escape_xml(text), text_element("feedback", feedback, "      "),
                       type == solve::Ask::Type::count ? fmt::format("      <tolerance>{}</tolerance>\n", tolerance)
                                                       : std::string());
}

/// Every <answer> for one value: one for a count or a choice, one per typed form for a shape.
std::string answer_elements(const solve::Ask& ask, double fraction, const solve::Answer& value, double tolerance,
                            std::string_view feedback) {
    if (ask.type() != solve::Ask::Type::shape)
        return answer_element(ask.type(), fraction, render::plain_answer(ask, value), tolerance, feedback);
    std::string out;
    for (const std::string& form : shape_forms(value.shape))
        out += answer_element(ask.type(), fraction, form, tolerance, feedback);
    return out;
}

/// One problem reduced to one part, so a question shows and solves only that part.
solve::SolvedProblem only_part(const solve::SolvedProblem& solved, const solve::SolvedPart& part) {
    solve::SolvedProblem one = solved;
    one.problem.parts = {part.part};
    one.parts = {part};
    return one;
}

/// The question's type and the elements that type needs besides its answers (Moodle's qtype_*/ XML format).
std::pair<std::string_view, std::string_view> question_type(solve::Ask::Type type) {
    switch (type) {
    case solve::Ask::Type::shape:
        return {"shortanswer", "    <usecase>0</usecase>\n"};
    case solve::Ask::Type::choice:
        return {"multichoice", "    <single>true</single>\n    <shuffleanswers>1</shuffleanswers>\n"
                               "    <answernumbering>abc</answernumbering>\n"};
    case solve::Ask::Type::count:
        break;
    }
    return {"numerical", "    <unitgradingtype>0</unitgradingtype>\n    <unitpenalty>0</unitpenalty>\n"
                         "    <showunits>3</showunits>\n    <unitsleft>0</unitsleft>\n"};
}

Result<std::string> question(const StudentVariant& variant, const solve::SolvedPart& part,
                             const render::TemplateSet& templates) {
    const solve::SolvedProblem one = only_part(*variant.solved, part);
    auto text = render::markdown_problem_sheet(one, templates, variant.student);
    if (!text)
        return text;
    auto solution = render::markdown_solution(one, templates);
    if (!solution)
        return solution;
    const solve::Ask& ask = *part.ask;
    const solve::Ask::Type type = ask.type();

    std::string answers = answer_elements(ask, 100, part.answer, absolute_tolerance(part), "Right.");
    // Mistakes that give the same value share one answer: Moodle stops at the first matching answer.
    std::map<solve::Answer, std::vector<const grade::Mistake*>> by_value;
    for (const grade::Explanation& e : grade::explanations(variant.solved->problem, ask, part.answer))
        if (e.mistakes.size() == 1)
            by_value[e.value].push_back(e.mistakes.front());
    for (const auto& [value, mistakes] : by_value) {
        grade::Verdict verdict;
        verdict.answer = render::plain_answer(ask, value);
        verdict.read = value;
        verdict.expected = part.answer;
        verdict.points = part.part.points;
        verdict.status = grade::Status::incorrect;
        double credit = 0;
        for (const grade::Mistake* m : mistakes) {
            verdict.matches.push_back({{m}, value, {}});
            credit = std::max(credit, grade::credit_for(part.part, *m));
        }
        auto feedback = grade::explain(one, one.parts.front(), verdict, templates,
                                       one.problem.reveal_for(one.parts.front().part));
        if (!feedback)
            return std::unexpected(feedback.error());
        std::string text;
        for (const grade::MistakeNote& note : feedback->notes)
            text += fmt::format("**{}.** {}\n\n", note.title, note.feedback);
        answers += answer_elements(ask, moodle_fraction(100 * credit), value, 0, text);
    }
    if (type == solve::Ask::Type::choice) {
        // Every word is offered; those no catalogued mistake leads to get the general feedback.
        for (std::size_t i = 0; i < ask.choices.size(); ++i) {
            const solve::Answer value{static_cast<Count>(i), {}};
            if (value != part.answer && !by_value.contains(value))
                answers += answer_element(type, 0, ask.choices[i].word, 0,
                                          "Not this one. Compare the two counts in the worked solution.");
        }
    } else {
        answers += answer_element(type, 0, "*", 0,
                                  type == solve::Ask::Type::shape
                                      ? "No known mistake gives this shape. Follow the tensor through each step "
                                        "of the block, one axis at a time, and compare with the worked solution."
                                      : "No known mistake gives this number. Recount each part of the count, and "
                                        "compare with the worked solution.");
    }

    const auto [type_name, extra] = question_type(type);
    return fmt::format("  <question type=\"{}\">\n    <name>\n      <text>{} ({}) — {}</text>\n    </name>\n"
                       "{}{}    <defaultgrade>{}</defaultgrade>\n    <penalty>0</penalty>\n    <hidden>0</hidden>\n"
                       "{}{}  </question>\n",
                       type_name, escape_xml(variant.solved->problem.id), escape_xml(part.part.id),
                       escape_xml(variant.student), text_element("questiontext", *text, "    "),
                       text_element("generalfeedback", *solution, "    "), part.part.points, extra, answers);
}

} // namespace

double moodle_fraction(double percent) {
    for (double allowed : k_fractions)
        if (allowed <= percent + 1e-9)
            return allowed;
    return 0;
}

Result<std::string> moodle_question_bank(const std::vector<StudentVariant>& variants,
                                         const render::TemplateSet& templates) {
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n";
    // Group by problem and part, keeping the order problems and parts were given in.
    std::vector<std::pair<std::string, std::string>> categories;
    for (const StudentVariant& v : variants)
        for (const solve::SolvedPart& part : v.solved->parts)
            if (std::find(categories.begin(), categories.end(), std::pair{v.solved->problem.id, part.part.id}) ==
                categories.end())
                categories.emplace_back(v.solved->problem.id, part.part.id);
    for (const auto& [problem, part_id] : categories) {
        xml += fmt::format("  <question type=\"category\">\n    <category>\n      <text>$course$/headcount/{}/{}</text>\n"
                           "    </category>\n  </question>\n",
                           escape_xml(problem), escape_xml(part_id));
        for (const StudentVariant& v : variants) {
            if (v.solved->problem.id != problem)
                continue;
            for (const solve::SolvedPart& part : v.solved->parts) {
                if (part.part.id != part_id)
                    continue;
                auto q = question(v, part, templates);
                if (!q)
                    return q;
                xml += *q;
            }
        }
    }
    return xml + "</quiz>\n";
}

} // namespace headcount::generate

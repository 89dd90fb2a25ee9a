#include <grade/feedback.hpp>

#include <render/solution.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace headcount::grade {

namespace {

using render::View;

/// What the mistake alone does to this part's count: its value and how far that is from the right one.
View mistake_effect(const solve::SolvedProblem& solved, const solve::SolvedPart& part, const Mistake& mistake) {
    const Count value = value_under(solved.problem, *part.ask, mistake.recipe).value_or(part.answer);
    const Count gap = value > part.answer ? value - part.answer : part.answer - value;
    return View{{"value", with_thousands(value)},
                {"effect", with_thousands(gap)},
                {"fewer", value < part.answer},
                {"more", value > part.answer}};
}

/// One line per explanation, "missing_output_projection + missing_biases", for collisions.
View explanation_lines(const Verdict& verdict) {
    View lines = View::array();
    for (const Explanation& e : verdict.matches) {
        std::string ids;
        for (const Mistake* m : e.mistakes)
            ids += (ids.empty() ? "" : " + ") + fmt::format("`{}`", m->id);
        lines.push_back(View{{"ids", ids}});
    }
    return lines;
}

/// The answer as typed, safe inside a Markdown code span: one line, no backticks or control characters, at most
/// 120 bytes cut at a character boundary. Untrusted text must not be able to add lines to a feedback file.
std::string shown_answer(std::string_view answer) {
    if (!is_valid_utf8(answer))
        return "(not valid UTF-8)";
    std::string out;
    for (char c : answer) {
        if (out.size() >= 120 && (static_cast<unsigned char>(c) & 0xC0) != 0x80) {
            out += "…";
            break;
        }
        out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : (c == '`' ? '\'' : c);
    }
    return out;
}

std::string typed_value(const ParsedAnswer& parsed) {
    if (parsed.integer)
        return with_thousands(*parsed.integer);
    return fmt::format("{:.6g}", parsed.value);
}

} // namespace

Result<const Feedback*> FeedbackCache::explain(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                                               const Verdict& verdict, const render::TemplateSet& templates,
                                               bool reveal) {
    auto key = std::make_tuple(&solved, part.part.id, verdict.answer, reveal);
    if (const auto it = m_rendered.find(key); it != m_rendered.end())
        return &it->second;
    auto feedback = grade::explain(solved, part, verdict, templates, reveal);
    if (!feedback)
        return std::unexpected(feedback.error());
    return &m_rendered.emplace(std::move(key), std::move(*feedback)).first->second;
}

std::string points_text(double points) { return fmt::format("{:g}", points); }

Result<Feedback> explain(const solve::SolvedProblem& solved, const solve::SolvedPart& part, const Verdict& verdict,
                         const render::TemplateSet& templates, bool reveal) {
    Feedback feedback;
    View base = render::problem_view(solved);
    base["part"] = View{{"id", part.part.id}, {"ask", std::string(part.ask->id)}, {"unit", std::string(part.ask->unit)}};
    base["student"] = View{{"answer", shown_answer(verdict.answer)}};
    // The projections this part counts, so an explanation lists only what the student was asked about.
    View counted = View::array();
    for (const View& projection : base["projections"])
        if (part.ask->projections.find(projection["name"].get<std::string>()) != std::string_view::npos)
            counted.push_back(projection);
    base["part_projections"] = counted;
    base["part_counts_bias_kv"] = base["add_bias_kv"].get<bool>() && part.ask->projections == "QKVO";

    View mistakes = View::array();
    for (const Mistake* mistake : named_mistakes(verdict)) {
        View view = base;
        view["mistake"] = mistake_effect(solved, part, *mistake);
        auto text = templates.render(fmt::format("mistakes/{}", mistake->id), view);
        if (!text)
            return std::unexpected(text.error());
        std::string line = *text;
        while (!line.empty() && line.back() == '\n')
            line.pop_back();
        feedback.notes.push_back({std::string(mistake->id), std::string(mistake->title), line});
        mistakes.push_back(View{{"id", mistake->id}, {"title", mistake->title}, {"feedback", line}});
    }

    // The gap is always from what the student typed, so it adds up with their own number.
    const double shown = verdict.parsed ? verdict.parsed->value : 0;
    const double gap = std::abs(shown - static_cast<double>(verdict.expected));
    const bool explained = verdict.status == Status::rounded || !verdict.matches.empty();

    View view = base;
    view.erase("student");
    view.update(View{
        {"problem", solved.problem.id},
        {"answer", shown_answer(verdict.answer)},
        {"has_value", verdict.parsed && typed_value(*verdict.parsed) != verdict.answer},
        {"value", verdict.parsed ? typed_value(*verdict.parsed) : std::string()},
        {"status", std::string(status_name(verdict.status))},
        {"correct", verdict.status == Status::correct},
        {"rounded", verdict.status == Status::rounded},
        {"incorrect", verdict.status == Status::incorrect},
        {"unreadable", verdict.status == Status::unreadable},
        {"reason", verdict.unreadable_reason},
        {"score", points_text(verdict.score)},
        {"points", points_text(verdict.points)},
        {"one_point", verdict.points == 1.0},
        {"reveal", reveal},
        {"expected", with_thousands(verdict.expected)},
        {"unit", std::string(part.ask->unit)},
        {"difference", gap == std::floor(gap) ? with_thousands(static_cast<Count>(gap)) : fmt::format("{:.6g}", gap)},
        {"short", shown < static_cast<double>(verdict.expected)},
        {"over", shown > static_cast<double>(verdict.expected)},
        {"explained", explained},
        {"one_explanation", verdict.status == Status::rounded || verdict.matches.size() == 1},
        {"several", verdict.matches.size() > 1},
        {"several_with_pairs", verdict.matches.size() > 1 &&
                                   std::any_of(verdict.matches.begin(), verdict.matches.end(),
                                               [](const Explanation& e) { return e.mistakes.size() > 1; })},
        {"pair", verdict.matches.size() == 1 && verdict.matches.front().mistakes.size() == 2},
        {"unexplained", verdict.status == Status::incorrect && verdict.matches.empty()},
        {"near_miss", verdict.near_miss.has_value()},
        {"near_miss_percent", std::abs(verdict.near_miss.value_or(0)) < 0.001
                                  ? std::string("less than 0.1%")
                                  : fmt::format("{:.1f}%", std::abs(verdict.near_miss.value_or(0)) * 100)},
        {"counts_parameters", part.ask->unit == "parameters"},
        {"mistakes", mistakes},
        {"explanations", explanation_lines(verdict)},
    });
    view["part"]["points"] = points_text(verdict.points);
    auto text = templates.render("verdict", view);
    if (!text)
        return std::unexpected(text.error());
    feedback.text = render::tidy_markdown(*text);
    return feedback;
}

} // namespace headcount::grade

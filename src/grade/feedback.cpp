#include <grade/feedback.hpp>

#include <render/answers.hpp>
#include <render/solution.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace headcount::grade {

namespace {

using render::View;

/// What the mistake alone does to this part's answer: its value and, for a count, how far that is from the
/// right one.
View mistake_effect(const solve::SolvedProblem& solved, const solve::SolvedPart& part, const Mistake& mistake) {
    const solve::Answer value = value_under(solved.problem, *part.ask, mistake.recipe).value_or(part.answer);
    const Count right = part.answer.count;
    const Count gap = value.count > right ? value.count - right : right - value.count;
    const bool count = part.ask->type() == solve::Ask::Type::count;
    return View{{"value", render::answer_text(*part.ask, value)},
                {"effect", count ? with_thousands(gap) : std::string()},
                {"fewer", count && value.count < right},
                {"more", count && value.count > right}};
}

/// The student's shape against the right one, for an unexplained wrong shape: a different number of axes, or
/// the right sizes in another order.
View shape_hints(const Verdict& verdict) {
    if (!verdict.read || verdict.expected.shape.empty())
        return View{{"rank_differs", false}, {"given_rank", 0}, {"right_rank", 0}, {"reordered", false}};
    solve::Shape given = verdict.read->shape, right = verdict.expected.shape;
    const bool rank_differs = given.size() != right.size();
    std::sort(given.begin(), given.end());
    std::sort(right.begin(), right.end());
    return View{{"rank_differs", rank_differs},
                {"given_rank", given.size()},
                {"right_rank", right.size()},
                {"reordered", !rank_differs && given == right}};
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

/// A number for people: exact with separators when whole, else "about" the nearest whole one (16.8 MiB is
/// about 17,616,077 bytes), or six figures for values too small or too large to round that way.
std::string readable(double value) {
    if (value == std::floor(value) && std::abs(value) < 9.0e15)
        return with_thousands(static_cast<Count>(value));
    if (std::abs(value) >= 100 && std::abs(value) < 9.0e15)
        return "about " + with_thousands(static_cast<Count>(std::llround(value)));
    return fmt::format("{:.6g}", value);
}

std::string typed_value(const ParsedAnswer& parsed) {
    if (parsed.integer)
        return with_thousands(*parsed.integer);
    return readable(parsed.value);
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
    const solve::Ask& ask = *part.ask;
    const bool is_count = ask.type() == solve::Ask::Type::count;
    base["part"] = View{{"id", part.part.id},
                        {"ask", std::string(ask.id)},
                        {"unit", std::string(ask.unit)},
                        {"is_count", is_count},
                        {"is_shape", ask.type() == solve::Ask::Type::shape},
                        {"is_choice", ask.type() == solve::Ask::Type::choice},
                        {"is_bytes", ask.in_bytes()},
                        {"answer", render::answer_text(ask, part.answer)},
                        {"units", render::byte_units(part.answer.count)}};
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
    const double expected = static_cast<double>(verdict.expected.count);
    const double gap = std::abs(shown - expected);
    const bool explained = verdict.status == Status::rounded || !verdict.matches.empty();
    std::string value;
    if (verdict.parsed)
        value = typed_value(*verdict.parsed);
    else if (verdict.read)
        value = render::answer_text(ask, *verdict.read);

    View view = base;
    view.erase("student");
    view.update(View{
        {"problem", solved.problem.id},
        {"answer", shown_answer(verdict.answer)},
        {"has_value", !value.empty() && value != verdict.answer},
        {"value", value},
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
        {"expected", render::answer_text(ask, verdict.expected)},
        {"unit", is_count ? std::string(ask.unit) : std::string()},
        {"is_count", is_count},
        {"shape", shape_hints(verdict)},
        // The compute terms a choice between them is about; always present, so the template reads the same keys.
        {"terms", View{{"linear", solved.flops ? with_thousands(solved.flops->linear) : std::string()},
                       {"attention", solved.flops ? with_thousands(solved.flops->attention) : std::string()},
                       {"unit", solved.flops ? base["flops"]["unit"].get<std::string>() : std::string()}}},
        {"difference", readable(gap)},
        {"short", shown < expected},
        {"over", shown > expected},
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
        {"counts_parameters", ask.unit == "parameters"},
        {"counts_dimensions", ask.unit == "dimensions"},
        {"counts_other", ask.unit != "parameters" && ask.unit != "dimensions"},
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

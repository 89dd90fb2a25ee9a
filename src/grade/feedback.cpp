#include <grade/feedback.hpp>

#include <formula/units.hpp>
#include <grade/typing_examples.hpp>
#include <render/answers.hpp>
#include <render/hints.hpp>
#include <render/solution.hpp>
#include <solve/defined.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace headcount::grade {

namespace {

using render::View;
using spec::Reveal;

/// A list holding `item` when the policy allows it, else empty: templates put what the policy may hide inside a
/// section over such a list, which an empty list neither renders nor lets the strict check look into.
View when(bool allowed, View item) {
    View list = View::array();
    if (allowed)
        list.push_back(std::move(item));
    return list;
}

/// What a mistake does to this part's answer, its value and, for a count, how far that is from the right one:
/// from the explanation that names it alone, else from its change.
View mistake_effect(const solve::SolvedProblem& solved, const solve::SolvedPart& part, const Verdict& verdict,
                    const Mistake& mistake) {
    std::optional<solve::Answer> value;
    for (const Explanation& e : verdict.matches)
        if (e.mistakes.size() == 1 && e.mistakes.front() == &mistake)
            value = e.value;
    if (!value)
        value = value_under(solved, part, mistake).value_or(part.answer);
    const bool count = part.ask->type() == solve::Ask::Type::count;
    if (part.answer.exact && value->exact) { // a defined quantity: exact, of any size
        const formula::Number gap = abs(formula::Number(*value->exact - *part.answer.exact));
        return View{{"value", render::answer_text(*part.ask, *value)},
                    {"effect", render::exact_text(gap)},
                    {"is_number", true},
                    {"fewer", *value->exact < *part.answer.exact},
                    {"more", *value->exact > *part.answer.exact}};
    }
    const Count right = part.answer.count;
    const Count gap = value->count > right ? value->count - right : right - value->count;
    return View{{"value", render::answer_text(*part.ask, *value)},
                {"effect", count ? with_thousands(gap) : std::string()},
                {"is_number", count}, // a word or a shape is not more or less than another
                {"fewer", count && value->count < right},
                {"more", count && value->count > right}};
}

/// The other quantities an other_quantity explanation names, as "the answer for ___" nouns. `last` marks the
/// last of all of them: under a tolerance one answer can match several explanations, each naming its own.
View other_asks(const Verdict& verdict) {
    View asks = View::array();
    for (const Explanation& e : verdict.matches)
        for (const solve::Ask* other : e.others)
            asks.push_back(View{{"noun", other->noun}, {"last", false}});
    if (!asks.empty())
        asks.back()["last"] = true;
    return asks;
}

/// The student's shape against the right one, for an unexplained wrong shape: a different number of axes, or
/// the right sizes in another order.
View shape_hints(const Verdict& verdict) {
    if (!verdict.read || verdict.expected.shape.empty())
        return View{{"rank_differs", false}, {"given_rank", 0}, {"reordered", false}};
    solve::Shape given = verdict.read->shape, right = verdict.expected.shape;
    const bool rank_differs = given.size() != right.size();
    std::sort(given.begin(), given.end());
    std::sort(right.begin(), right.end());
    return View{
        {"rank_differs", rank_differs}, {"given_rank", given.size()}, {"reordered", !rank_differs && given == right}};
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

/// What the part's tolerance asks for, for a rounded answer: every digit, a number of figures, or a closeness. Bytes
/// written in a prefixed unit or as a power of ten are judged at three figures on an exact part (issue 39, rule 4),
/// which `byte_figures` says in place of `exact`.
View tolerance_view(const solve::SolvedProblem& solved, const solve::SolvedPart& part, const Verdict& verdict) {
    const spec::Tolerance t = solve::tolerance_of(part);
    const bool byte_figures =
        t.kind == spec::Tolerance::Kind::exact && verdict.parsed &&
        solve::ask_unit(solved.problem, *part.ask).dimension == solve::UnitInfo::Dimension::bytes &&
        ((!verdict.parsed->unit.empty() && verdict.parsed->unit != "B") || verdict.parsed->significant_figures > 0);
    return View{{"exact", t.kind == spec::Tolerance::Kind::exact && !byte_figures},
                {"byte_figures", byte_figures},
                {"sigfigs", t.kind == spec::Tolerance::Kind::sigfigs},
                {"relative", t.kind == spec::Tolerance::Kind::relative},
                {"figures", std::to_string(t.sigfigs)},
                {"percent", fmt::format("{:g}%", t.relative * 100)}};
}

/// For a part asking a spec's quantity answered with a word (`choices:`), its words and their conditions as written
/// (stated under every policy: they hold no number of the problem); with `numbers`, each comparison's two sides with
/// their values here, which gaps and full reveal.
View conditions_view(const solve::SolvedProblem& solved, const solve::SolvedPart& part, bool numbers) {
    View out = View::array();
    const spec::Quantity* q = solve::defined_quantity(solved.problem, *part.ask);
    if (!q)
        return out;
    const auto lookup = [&](std::string_view name) -> const formula::Number* {
        const auto it = solved.values.find(name);
        return it == solved.values.end() ? nullptr : &it->second;
    };
    for (const spec::WordChoice& c : q->choices) {
        if (!c.condition)
            continue;
        std::string sides;
        if (numbers && c.condition->op == formula::Node::Op::compare)
            for (const formula::Node& side : c.condition->children) {
                const auto value = formula::evaluate(side, lookup);
                if (!value) {
                    sides.clear();
                    break;
                }
                sides +=
                    fmt::format("{}`{}` is {}", sides.empty() ? "" : " and ", side.source, render::exact_text(*value));
            }
        out.push_back(View{{"word", c.word},
                           {"condition", c.condition_text},
                           {"sides", sides},
                           {"has_sides", !sides.empty()},
                           {"last", false}});
    }
    if (!out.empty())
        out.back()["last"] = true;
    return out;
}

/// The part as every feedback template sees it. `projections` limits an explanation to what the part counts.

View part_view(const solve::SolvedProblem& solved, const solve::SolvedPart& part, const Verdict& verdict) {
    const solve::Ask& ask = *part.ask;
    const std::size_t figures = verdict.parsed ? static_cast<std::size_t>(written_figures(*verdict.parsed)) : 0;
    return View{{"id", part.part.id},
                {"ask", std::string(ask.id)},
                {"noun", std::string(ask.noun)},
                {"unit", std::string(ask.unit)},
                {"points", points_text(part.part.points)},
                {"is_count", ask.type() == solve::Ask::Type::count && !part.formula},
                {"is_formula", part.formula != nullptr},
                {"formula_names", render::formula_names_text(part)},
                {"is_shape", ask.type() == solve::Ask::Type::shape},
                {"is_choice", ask.type() == solve::Ask::Type::choice},
                {"conditions", conditions_view(solved, part, false)},
                {"has_conditions", !conditions_view(solved, part, false).empty()},
                {"is_bytes", ask.in_bytes()},
                {"is_time",
                 [&] {
                     const auto unit = formula::known_unit(ask.unit);
                     return unit && unit->dimension == formula::UnitInfo::Dimension::time;
                 }()},
                {"counts_o", ask.projections.find('O') != std::string_view::npos},
                {"biases", render::bias_names(solved.mha, ask.projections)},
                {"has_biases", !render::bias_names(solved.mha, ask.projections).empty()},
                {"tolerance", tolerance_view(solved, part, verdict)},
                {"figures_given", std::to_string(figures)},
                {"one_figure_given", figures == 1}};
}

/// The numbers of the problem that `gaps` and `full` add to a mistake's explanation.
View mistake_numbers(const solve::SolvedProblem& solved, const solve::SolvedPart& part, const Verdict& verdict,
                     const Mistake& mistake) {
    View numbers = render::problem_view(solved);
    View counted = View::array();
    for (const View& projection : numbers["projections"])
        if (part.ask->projections.find(projection["name"].get<std::string>()) != std::string_view::npos)
            counted.push_back(projection);
    numbers["part_projections"] = counted;
    numbers["part_counts_bias_kv"] = solved.mha.given.add_bias_kv && part.ask->projections == "QKVO";
    numbers["mistake"] = mistake_effect(solved, part, verdict, mistake);
    return numbers;
}

/// The slips that could each give the number (rule 6), by title and id, a pair as its two joined: names only.
View possible_lines(const Verdict& verdict) {
    View lines = View::array();
    for (const Explanation& e : verdict.possible) {
        std::string line;
        for (const Mistake* m : e.mistakes)
            line += fmt::format("{}**{}** (`{}`)", line.empty() ? "" : ", together with ", m->title, m->id);
        lines.push_back(View{{"line", line}});
    }
    return lines;
}

} // namespace

std::string points_text(double points) { return fmt::format("{:g}", points); }

Result<Feedback> explain(const solve::SolvedProblem& solved, const solve::SolvedPart& part, const Verdict& verdict,
                         const render::TemplateSet& templates, Reveal reveal) {
    Feedback feedback;
    const solve::Ask& ask = *part.ask;
    const bool is_count = ask.type() == solve::Ask::Type::count && !part.formula;
    const bool gaps = reveal >= Reveal::gaps;
    const View expected{{"expected", part.formula ? fmt::format("`{}`", part.formula_text)
                                                  : render::answer_text(ask, verdict.expected)},
                        {"units", render::byte_units(verdict.expected.count)}};

    View base = render::hint_view(solved);
    base["part"] = part_view(solved, part, verdict);
    base["part_counts_bias_kv"] = solved.mha.given.add_bias_kv && ask.projections == "QKVO";
    base["revealed"] = when(reveal == Reveal::full, expected);

    View mistakes = View::array();
    for (const Mistake* mistake : named_mistakes(verdict)) {
        View view = base;
        // The problem's numbers only for a template that reads them: making them is a tenth of a check. One that
        // does not renders the same without them; where its check then fails (it names a key only the numbers
        // hold, outside them), it is rendered with them, as it always was.
        const std::string name = mistake_template(*mistake);
        const bool read = gaps && templates.mentions(name, "numbers");
        view["numbers"] = when(read, read ? mistake_numbers(solved, part, verdict, *mistake) : View());
        view["other"] = View{{"asks", other_asks(verdict)}};
        view["feedback"] = std::string(mistake->feedback);
        auto text = templates.render(name, view);
        if (!text && gaps && !read) {
            view["numbers"] = when(true, mistake_numbers(solved, part, verdict, *mistake));
            text = templates.render(name, view);
        }
        if (!text)
            return std::unexpected(text.error());
        std::string line = *text;
        while (!line.empty() && line.back() == '\n')
            line.pop_back();
        feedback.notes.push_back({std::string(mistake->id), std::string(mistake->title), line});
        // A title made of the feedback's first sentence (spec::mistake_title) is not said twice in a row: "**The
        // square root was left out** (`square_root_forgotten`). $C = 6 N D$ ...".
        std::string shown = line;
        const std::string_view title = mistake->title;
        if (!title.empty() && shown.starts_with(title) && shown.size() > title.size() + 1 &&
            std::string_view(".;:").find(shown[title.size()]) != std::string_view::npos &&
            shown[title.size() + 1] == ' ') {
            shown.erase(0, title.size() + 2);
            if (!shown.empty() && shown[0] >= 'a' && shown[0] <= 'z') // the clause after a ';' or ':', as a sentence
                shown[0] = static_cast<char>(shown[0] - 'a' + 'A');
        }
        mistakes.push_back(View{{"id", mistake->id}, {"title", mistake->title}, {"feedback", shown}});
    }

    // The gap is always from what the student typed, so it adds up with their own number.
    const double shown = verdict.parsed ? verdict.parsed->value : 0;
    const double right = verdict.expected.exact ? formula::to_double(*verdict.expected.exact)
                                                : static_cast<double>(verdict.expected.count);
    std::string value;
    if (verdict.read && verdict.read->exact) // a defined quantity's answer, exactly, in the question's unit
        value = render::exact_text(*verdict.read->exact);
    else if (verdict.parsed)
        value = typed_value(*verdict.parsed);
    else if (verdict.read)
        value = render::answer_text(ask, *verdict.read);
    const View numbers{
        {"difference", readable(std::abs(shown - right))},
        {"short", shown < right},
        {"over", shown > right},
        {"near_miss_percent", std::abs(verdict.near_miss.value_or(0)) < 0.001
                                  ? std::string("less than 0.1%")
                                  : fmt::format("{:.1f}%", std::abs(verdict.near_miss.value_or(0)) * 100)},
        {"right_rank", verdict.expected.shape.size()},
        {"conditions", conditions_view(solved, part, true)},
        // The compute terms a choice between them is about; always present, so the template reads the same keys.
        {"terms", View{{"linear", solved.flops ? with_thousands(solved.flops->linear) : std::string()},
                       {"attention", solved.flops ? with_thousands(solved.flops->attention) : std::string()}}}};

    View view = base;
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
        {"example", writing_examples(part)},
        {"score", points_text(verdict.score)},
        {"points", points_text(verdict.points)},
        {"one_point", verdict.points == 1.0},
        {"unit", is_count ? std::string(ask.unit) : std::string()},
        {"is_count", is_count},
        {"numbers", when(gaps, numbers)},
        {"shape", shape_hints(verdict)},
        {"explained", verdict.status == Status::rounded || !verdict.matches.empty()},
        {"one_explanation", verdict.status == Status::rounded || verdict.matches.size() == 1},
        {"several", verdict.matches.size() > 1},
        {"several_with_pairs",
         verdict.matches.size() > 1 && std::any_of(verdict.matches.begin(), verdict.matches.end(),
                                                   [](const Explanation& e) { return e.mistakes.size() > 1; })},
        {"pair", verdict.matches.size() == 1 && verdict.matches.front().mistakes.size() == 2},
        {"unexplained", verdict.status == Status::incorrect && verdict.matches.empty() && verdict.possible.empty() &&
                            verdict.accepted.empty()},
        {"is_formula", part.formula != nullptr},
        {"right_here_only", verdict.right_here_only},
        // A reading the part accepts (`accept:`): the instructor's sentence, shown at every reveal policy.
        {"has_accepted", !verdict.accepted.empty()},
        {"accepted", verdict.accepted},
        {"ambiguous", !verdict.possible.empty()},
        {"possible", possible_lines(verdict)},
        {"near_miss", verdict.near_miss.has_value()},
        {"counts_parameters", ask.unit == "parameters"},
        {"counts_dimensions", ask.unit == "dimensions"},
        {"counts_other", ask.unit != "parameters" && ask.unit != "dimensions"},
        {"mistakes", mistakes},
        {"explanations", explanation_lines(verdict)},
    });
    auto text = templates.render("verdict", view);
    if (!text)
        return std::unexpected(text.error());
    feedback.text = render::tidy_markdown(*text);
    return feedback;
}

} // namespace headcount::grade

// The documents made of a solved problem: the worked solution (one template per part inside
// templates/solution.mustache), the problem sheet, and the JSON answers. The data the templates see is
// problem_view's (render/problem_view.cpp); this file frames it, part by part.

#include <render/solution.hpp>

#include <render/answers.hpp>
#include <render/diagram.hpp>
#include <render/hints.hpp>
#include <render/quantity_view.hpp>
#include <solve/defined.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace headcount::render {

namespace {

/// An ask id as a template key: "flops.total" -> "flops_total" (a dot would be read as a path).
std::string earlier_key(std::string_view ask_id) {
    std::string key(ask_id);
    std::replace(key.begin(), key.end(), '.', '_');
    return key;
}

std::string points_text(double points) {
    // 2 -> "2", 1.5 -> "1.5": points are small, so %g prints them exactly enough.
    return fmt::format("{:g}", points);
}

/// What the parts before this one asked, so a part can build on them ("from part (a): 787,968"): for every ask
/// (dots as underscores: flops_total) and for every group of asks (solve::k_ask_groups: the first part of the
/// group), {"asked", "part_id", "answer"}.
View no_earlier_parts() {
    const View none{{"asked", false}, {"part_id", ""}, {"answer", ""}};
    View earlier = View::object();
    for (const solve::Ask& ask : solve::asks())
        earlier[earlier_key(ask.id)] = none;
    for (std::string_view group : solve::k_ask_groups)
        earlier[std::string(group)] = none;
    return earlier;
}

/// Records `part` in `earlier` (see no_earlier_parts).
void note_part(View& earlier, const solve::SolvedPart& part, const std::string& answer) {
    const View seen{{"asked", true}, {"part_id", part.part.id}, {"answer", answer}};
    const solve::Ask& ask = *part.ask;
    View& mine = earlier[earlier_key(ask.id)];
    if (!mine["asked"].get<bool>())
        mine = seen;
    const std::string group(ask.group);
    if (!group.empty() && !earlier[group]["asked"].get<bool>())
        earlier[group] = seen;
}

/// The pictures a solution's templates may place: {"shapes": token or ""}.
View figure_view(const solve::SolvedProblem& solved, std::vector<HtmlBlock>* figures) {
    View view{{"shapes", ""}};
    if (!figures)
        return view;
    auto add = [&](const std::string& name, std::string html) {
        // Letters and digits only: CommonMark keeps the token as the paragraph's whole text.
        const std::string token = fmt::format("hcfigure{}x", figures->size());
        figures->push_back({token, std::move(html)});
        view[name] = "\n\n" + token + "\n\n";
    };
    if (solved.shapes)
        add("shapes", shapes_figure(*solved.shapes, solved.mha, solved.problem.workload->seq_len_kv.has_value()));
    return view;
}

} // namespace

std::string solution_template(const solve::Ask& ask) {
    return ask.kind == "defined" ? std::string("defined/quantity") : fmt::format("{}/{}", ask.kind, ask.id);
}

std::string question_template(const solve::Ask& ask) {
    return ask.kind == "defined" ? std::string("partials/question_quantity")
                                 : fmt::format("partials/question_{}", ask.id);
}

std::string tidy_markdown(const std::string& text) {
    std::string out;
    std::size_t blank_run = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        std::string line = text.substr(start, end - start);
        line.erase(line.find_last_not_of(" \t\r") + 1);
        start = end + 1;
        if (line.empty()) {
            ++blank_run;
            continue;
        }
        if (!out.empty() && blank_run > 0)
            out += '\n';
        blank_run = 0;
        out += line;
        out += '\n';
    }
    return out;
}

std::string formula_names_text(const solve::SolvedPart& part) {
    std::vector<std::string> quoted;
    for (const std::string& name : part.formula_names)
        quoted.push_back(fmt::format("`{}`", name));
    return join_words(quoted);
}

View formula_answer_view(const solve::SolvedProblem& solved, const solve::SolvedPart& part) {
    const bool bits = solved.problem.precision.has_value();
    return View{{"tex", part.formula ? formula::tex(*part.formula, name_tex) : std::string()},
                {"text", part.formula_text},
                {"value", part.ask->kind == "defined" ? quantity_answer_text(solved, part)
                                                      : answer_text(*part.ask, part.answer)},
                {"has_fixed", bits},
                {"fixed", bits ? fmt::format("the {} bits of {}", solved.problem.precision->bits,
                                             solved.problem.precision->dtype)
                               : std::string()}};
}

Result<std::string> markdown_solution(const solve::SolvedProblem& solved, const TemplateSet& templates,
                                      std::vector<HtmlBlock>* figures) {
    View view = problem_view(solved);
    view["figures"] = figure_view(solved, figures);
    View parts = View::array();
    View earlier = no_earlier_parts();
    std::set<std::string> shown; // the defined quantities worked out so far
    for (const solve::SolvedPart& part : solved.parts) {
        view["earlier"] = earlier;
        const bool defined = part.ask->kind == "defined";
        if (defined)
            view["quantity"] = quantity_view(solved, part, shown);
        View part_view{{"id", part.part.id},
                       {"points", points_text(part.part.points)},
                       {"one_point", part.part.points == 1.0},
                       {"has_text", part.part.text.has_value()},
                       {"text", part.part.text.value_or("")},
                       {"answer", defined ? quantity_answer_text(solved, part) : answer_text(*part.ask, part.answer)},
                       {"unit", std::string(part.ask->unit)},
                       {"has_unit", !defined && part.ask->type() == solve::Ask::Type::count}};
        view["part"] = part_view;
        auto body = templates.render(solution_template(*part.ask), view);
        if (!body)
            return body;
        if (part.formula) {
            View with_formula = view;
            with_formula["formula"] = formula_answer_view(solved, part);
            auto form = templates.render("partials/formula_answer", with_formula);
            if (!form)
                return form;
            *body += "\n" + *form;
            part_view["answer"] = fmt::format("`{}`", part.formula_text);
            part_view["has_unit"] = false;
        }
        // Which definitions the answer is computed with, where the spec redefines one of headcount's.
        for (const spec::Quantity* q : solve::redefinitions(solved, part))
            *body += fmt::format("\nThis problem defines `{}` as `{}`, in place of headcount's built-in formula "
                                 "(`headcount catalogue formulas` lists those); this answer uses the problem's.\n",
                                 q->name, q->formula_text);
        part_view["body"] = *body;
        parts.push_back(part_view);
        if (!defined)
            note_part(earlier, part, part_view["answer"].get<std::string>());
    }
    view.erase("part");
    view.erase("quantity");
    view["earlier"] = earlier;
    view["several_parts"] = solved.parts.size() > 1;
    view["parts"] = parts;
    auto document = templates.render("solution", view);
    if (!document)
        return document;
    return tidy_markdown(*document);
}

View question_words(std::string_view title, std::string_view unit) {
    const auto lower = [](std::string_view text) {
        std::string out(text);
        for (char& c : out)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return out;
    };
    const std::string t = lower(title);
    const std::string u = lower(unit);
    // A title that says its unit already ("the cost of the run in dollars") is not asked "in dollars" again.
    const bool says_unit =
        !u.empty() && (t.find(" in " + u) != std::string::npos || t.find("(" + u + ")") != std::string::npos);
    // A title that ends in its unit's noun is not asked in it again: "the number of GPUs" as it is, and a count of
    // the noun ("LoRA adapter parameters" in parameters) as "how many".
    const bool ends_in_unit = u.size() > 1 && t.size() > u.size() && t.ends_with(" " + u);
    const bool a_number = t.starts_with("number of ") || t.starts_with("the number of ") ||
                          t.starts_with("total number of ") || t.starts_with("count of ");
    const bool count_of_unit = ends_in_unit && !a_number && !says_unit && u.back() == 's';
    // "the" unless the title has its own article or is a name that takes none.
    const bool own_article = t.starts_with("the ") || t.starts_with("a ") || t.starts_with("an ") ||
                             t.starts_with("how ") || t.starts_with("which ") || t.starts_with("all ") ||
                             t.starts_with("every ") || t.starts_with("each ") || t.starts_with("both ");
    // Said of many: a count of the unit's noun, or "all weights".
    const bool plural = count_of_unit || t.starts_with("all ") || t.starts_with("both ");
    // The worked solution's first words: "The memory left is", "All weights are", "The LoRA adapter parameters are".
    std::string opening = (own_article ? "" : "the ") + std::string(title) + (plural ? " are" : " is");
    if (!opening.empty() && opening[0] >= 'a' && opening[0] <= 'z')
        opening[0] = static_cast<char>(opening[0] - 'a' + 'A');
    return View{{"title", std::string(title)},
                {"unit", std::string(unit)},
                {"has_unit", !unit.empty() && !says_unit && !ends_in_unit},
                {"how_many", count_of_unit},
                {"article", own_article ? "" : "the "},
                {"verb", plural ? "are" : "is"},
                {"opening", opening}};
}

static Result<std::string> part_question_words(const solve::SolvedPart& part, const TemplateSet& templates,
                                               const View& view);

Result<std::string> part_question(const solve::SolvedPart& part, const TemplateSet& templates, const View& view) {
    if (part.part.formula_answer) {
        auto question = part_question_words(part, templates, view);
        if (!question)
            return question;
        const std::string names = formula_names_text(part);
        return fmt::format("{} Answer with a formula in the givens, not a number{}.", *question,
                           names.empty() ? "" : ", naming them " + names);
    }
    return part_question_words(part, templates, view);
}

static Result<std::string> part_question_words(const solve::SolvedPart& part, const TemplateSet& templates,
                                               const View& view) {
    if (part.part.text)
        return *part.part.text;
    std::optional<View> with_quantity;
    if (part.ask->kind == "defined") { // a defined quantity's question needs only its row: title and unit
        const solve::UnitInfo unit = solve::unit_info(part.ask->unit == "number" ? "" : part.ask->unit);
        with_quantity = view;
        // A word's answer (bound.decode_step: memory or compute) is asked for without a unit.
        (*with_quantity)["quantity"] =
            question_words(part.ask->noun, part.ask->type() == solve::Ask::Type::choice ? "" : unit.symbol);
    }
    auto question = templates.render(question_template(*part.ask), with_quantity ? *with_quantity : view);
    if (!question)
        return question;
    while (!question->empty() && question->back() == '\n')
        question->pop_back();
    return question;
}

Result<std::string> markdown_problem_sheet(const solve::SolvedProblem& solved, const TemplateSet& templates,
                                           const std::string& student) {
    View view = problem_view(solved);
    View parts = View::array();
    for (const solve::SolvedPart& part : solved.parts) {
        auto question = part_question(part, templates, view);
        if (!question)
            return question;
        parts.push_back(View{{"id", part.part.id},
                             {"points", points_text(part.part.points)},
                             {"one_point", part.part.points == 1.0},
                             {"question", *question}});
    }
    view["parts"] = parts;
    view["student"] = student;
    view["has_student"] = !student.empty();
    auto sheet = templates.render("problem_sheet", view);
    if (!sheet)
        return sheet;
    return tidy_markdown(*sheet);
}

nlohmann::ordered_json redefinitions_json(const solve::SolvedProblem& solved, const solve::SolvedPart& part) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const spec::Quantity* q : solve::redefinitions(solved, part))
        out.push_back({{"name", q->name}, {"formula", q->formula_text}, {"defined_by", "spec"}});
    return out;
}

nlohmann::ordered_json json_answers(const solve::SolvedProblem& solved) {
    nlohmann::ordered_json parts = nlohmann::ordered_json::array();
    for (const solve::SolvedPart& part : solved.parts) {
        nlohmann::ordered_json entry = {{"id", part.part.id},
                                        {"ask", part.ask->id},
                                        {"answer", json_answer(*part.ask, part.answer)},
                                        {"unit", part.ask->unit}};
        if (auto redefined = redefinitions_json(solved, part); !redefined.empty())
            entry["redefined"] = std::move(redefined);
        if (part.formula) { // the answer asked for is the formula; `answer` its value at the problem's givens
            entry["formula"] = part.formula_text;
            entry["formula_names"] = part.formula_names;
        }
        parts.push_back(std::move(entry));
    }
    return {{"id", solved.problem.id}, {"title", solved.problem.title}, {"parts", parts}};
}

} // namespace headcount::render

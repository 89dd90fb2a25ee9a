#include <serve/pages.hpp>

#include <serve/html.hpp>

#include <generate/variants.hpp>
#include <grade/feedback.hpp>
#include <render/solution.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

namespace headcount::serve {

namespace {

using render::View;

View text(std::string_view s) { return escape_xml(s); }

std::string points_text(double points) { return grade::points_text(points); }

/// The home page's typing example, near no answer the pages can lead to: without a roster the problems as written;
/// with one, the variants handed out, which are among each problem's valid variants, so all of those are taken
/// (the same example whoever is on the roster). None if the variants cannot be listed (the pages then show none).
std::optional<grade::CountExample> home_example(const Classroom& classroom) {
    std::vector<Count> answers;
    for (const solve::SolvedProblem& problem : classroom.problems()) {
        if (!classroom.has_roster() || problem.problem.vary.empty()) {
            grade::append_count_answers(problem, answers);
            continue;
        }
        const auto variants = generate::valid_variants(problem.problem);
        if (!variants)
            return std::nullopt;
        for (const spec::Givens& givens : *variants) { // one at a time: there may be a million
            const auto solved = generate::solve_variants(problem.problem, std::span(&givens, 1));
            if (!solved)
                return std::nullopt;
            grade::append_count_answers(solved->front(), answers);
        }
    }
    return grade::count_example(answers);
}

} // namespace

std::string identity_query(const Visitor& visitor) {
    if (visitor.student.empty())
        return {};
    return "?student=" + percent_encode(visitor.student) + "&token=" + percent_encode(visitor.token);
}

Pages::Pages(const Classroom& classroom, const render::TemplateSet& templates, const AttemptBook* book)
    : m_classroom(classroom), m_templates(templates), m_book(book), m_example(home_example(classroom)) {}

Result<std::string> Pages::page(std::string_view title, const std::string& body, const Visitor& visitor) const {
    const View view{{"title", text(title)},
                    {"body", body},
                    {"home", text("/" + identity_query(visitor))},
                    {"student", text(visitor.student)},
                    {"has_student", !visitor.student.empty()}};
    return m_templates.render("serve/page", view);
}

Result<std::string> Pages::index(const Visitor& visitor) const {
    View problems = View::array();
    for (const solve::SolvedProblem& problem : m_classroom.problems()) {
        double points = 0;
        for (const solve::SolvedPart& part : problem.parts)
            points += part.part.points;
        problems.push_back(View{{"id", text(problem.problem.id)},
                                {"title", text(problem.problem.title)},
                                {"url", text("/p/" + problem.problem.id + identity_query(visitor))},
                                {"parts", std::to_string(problem.parts.size())},
                                {"one_part", problem.parts.size() == 1},
                                {"points", points_text(points)},
                                {"one_point", points == 1.0}});
    }
    View example = View::array(); // a list, so that the template's section over it is empty without one
    if (m_example)
        example.push_back(View{{"digits", text(m_example->digits)},
                               {"grouped", text(m_example->grouped)},
                               {"product", text(m_example->product)},
                               {"tex", text(m_example->tex)}});
    const View view{{"problems", problems},
                    {"example", example},
                    {"student", text(visitor.student)},
                    {"has_student", !visitor.student.empty()}};
    auto body = m_templates.render("serve/index", view);
    if (!body)
        return body;
    return page("Problems", *body, visitor);
}

Result<std::string> Pages::problem(const solve::SolvedProblem& problem, const Visitor& visitor,
                                   const ShownFeedback* shown) const {
    const View full = render::problem_view(problem);
    // Only what a problem sheet shows: the givens the spec states (a default such as d_k would give a part away).
    View givens = View::array();
    for (const View& row : full.at("given"))
        if (row.value("stated", false))
            givens.push_back(View{{"symbol", text(row.at("symbol").get<std::string>())},
                                  {"meaning", text(row.at("meaning").get<std::string>())},
                                  {"value", text(row.at("value").get<std::string>())}});
    View identity = View::array();
    if (!visitor.student.empty())
        identity.push_back(View{{"student", text(visitor.student)}, {"token", text(visitor.token)}});
    View parts = View::array();
    for (const solve::SolvedPart& part : problem.parts) {
        auto question = render::part_question(part, m_templates, full);
        if (!question)
            return std::unexpected(question.error());
        const bool here = shown != nullptr && shown->part == part.part.id;
        const std::optional<int> allowed =
            m_book != nullptr && !visitor.student.empty() ? m_book->limit(problem.problem, part.part) : std::nullopt;
        const AttemptsUsed used =
            allowed ? m_book->used(visitor.student, problem.problem.id, part.part.id, *allowed) : AttemptsUsed{};
        parts.push_back(
            View{{"id", text(part.part.id)},
                 {"limited", allowed.has_value()},
                 {"checks_left", std::to_string(used.left())},
                 {"checks_allowed", std::to_string(used.allowed)},
                 {"question", markdown_html(*question)},
                 {"points", points_text(part.part.points)},
                 {"one_point", part.part.points == 1.0},
                 {"unit", text(part.formula ? std::string_view("a formula in the givens") : part.ask->unit)},
                 {"policy", text(spec::reveal_name(problem.problem.reveal_for(part.part)))},
                 {"action", text("/p/" + problem.problem.id + "/check")},
                 {"identity", identity},
                 {"answer", here ? text(shown->answer) : View("")},
                 {"feedback", here ? View(shown->fragment) : View("")},
                 {"has_feedback", here}});
    }
    const View view{{"id", text(problem.problem.id)},
                    {"title", text(problem.problem.title)},
                    {"givens", givens},
                    {"parts", parts},
                    {"home", text("/" + identity_query(visitor))},
                    {"student", text(visitor.student)},
                    {"has_student", !visitor.student.empty()}};
    auto body = m_templates.render("serve/problem", view);
    if (!body)
        return body;
    return page(problem.problem.title, *body, visitor);
}

Result<std::string> Pages::verdict(const CheckResult& result) const {
    const grade::Verdict& verdict = result.graded->verdict;
    const View view{{"status", text(grade::status_name(verdict.status))},
                    {"correct", verdict.status == grade::Status::correct},
                    {"html", markdown_html(result.graded->feedback.text)},
                    {"limited", result.attempts.has_value()},
                    {"checks_left", std::to_string(result.attempts ? result.attempts->left() : 0)},
                    {"checks_allowed", std::to_string(result.attempts ? result.attempts->allowed : 0)}};
    return m_templates.render("serve/feedback", view);
}

std::string Pages::notice(std::string_view message) const {
    const View view{{"status", "notice"}, {"correct", false},   {"html", "<p>" + escape_xml(message) + "</p>\n"},
                    {"limited", false},   {"checks_left", "0"}, {"checks_allowed", "0"}};
    auto html = m_templates.render("serve/feedback", view);
    return html ? *html : "<div class=\"verdict notice\"><p>" + escape_xml(message) + "</p></div>";
}

std::string Pages::message(std::string_view heading, std::string_view message, const Visitor& visitor) const {
    const View view{{"heading", text(heading)}, {"text", text(message)}};
    if (auto body = m_templates.render("serve/message", view))
        if (auto whole = page(heading, *body, visitor))
            return *whole;
    return fmt::format("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{0}</title></head>"
                       "<body><h1>{0}</h1><p>{1}</p></body></html>\n",
                       escape_xml(heading), escape_xml(message));
}

} // namespace headcount::serve

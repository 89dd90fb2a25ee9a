#include <grade/class_reports.hpp>

#include <grade/feedback.hpp>

#include <render/answers.hpp>
#include <render/charts.hpp>
#include <render/html.hpp>
#include <render/solution.hpp>
#include <util/csv.hpp>
#include <util/ids.hpp>
#include <util/markdown.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace headcount::grade {

namespace {

using render::View;

/// The `n` texts given by most students, from (text, students) pairs in which a text may appear more than once: most
/// students first, equal counts in text order.
std::vector<std::pair<std::string, std::size_t>> most_given(std::vector<std::pair<std::string, std::size_t>> given,
                                                            std::size_t n) {
    std::sort(given.begin(), given.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::pair<std::string, std::size_t>> top;
    for (std::size_t i = 0; i < given.size();) {
        std::size_t count = 0;
        std::size_t j = i;
        for (; j < given.size() && given[j].first == given[i].first; ++j)
            count += given[j].second;
        // After every text before it with as many students (texts come in order), before those with fewer.
        const auto at = std::find_if(top.begin(), top.end(), [&](const auto& t) { return t.second < count; });
        if (static_cast<std::size_t>(at - top.begin()) < n) {
            top.insert(at, {std::move(given[i].first), count});
            if (top.size() > n)
                top.pop_back();
        }
        i = j;
    }
    return top;
}

/// Rows listed in the report's "Rows not graded"; results.jsonl lists every one.
constexpr std::size_t k_report_rejected_rows = 1000;

/// A histogram bar: one mark per student in small classes, scaled to at most 40 marks in large ones.
std::size_t bar_length(std::size_t count, std::size_t students) {
    if (students <= 40)
        return count;
    return (count * 40 + students - 1) / students;
}

std::string percent(std::size_t count, std::size_t of) {
    return of == 0 ? "0.0%" : fmt::format("{:.1f}%", 100.0 * static_cast<double>(count) / static_cast<double>(of));
}

} // namespace

void write_gradebook(const ClassResults& results, std::ostream& out) {
    std::vector<std::string> header{"student"};
    for (std::size_t p : results.scope())
        for (const auto& part : results.problems()[p].parts)
            header.push_back(fmt::format("{}/{}", results.problems()[p].problem.id, part.part.id));
    header.push_back("total");
    header.push_back("max");
    out << csv_row(header);
    const std::string max = points_text(results.max_points());
    std::vector<std::string> row;
    for (std::size_t i = 0; i < results.students(); ++i) {
        row.assign(1, neutralise_cell(results.student(i)));
        for (std::size_t s = 0; s < results.scope().size(); ++s)
            for (std::size_t k = 0; k < results.problems()[results.scope()[s]].parts.size(); ++k) {
                const Answered* a = results.answered(i, s, k);
                row.push_back(points_text(a ? a->summary().score : 0));
            }
        row.push_back(points_text(results.total(i)));
        row.push_back(max);
        out << csv_row(row);
    }
}

Result<ClassReport> class_report(const ClassResults& results, const render::TemplateSet& templates,
                                 const render::KatexLink* katex) {
    ClassReport report;
    std::vector<render::HtmlBlock> figures; // the charts, for the page: a token paragraph each
    const std::size_t students = results.students();
    const double max = results.max_points();

    // Score distribution in tenths of the maximum; the top bucket holds full marks only.
    std::vector<double> totals(students);
    for (std::size_t i = 0; i < students; ++i)
        totals[i] = results.total(i);
    std::sort(totals.begin(), totals.end());
    std::array<std::size_t, 11> in_bucket{};
    for (double t : totals) {
        const int bucket = max > 0 ? static_cast<int>(std::floor(10 * t / max + 1e-9)) : 10;
        ++in_bucket[static_cast<std::size_t>(std::clamp(bucket, 0, 10))];
    }
    View buckets = View::array();
    std::vector<render::ChartBar> bins;
    for (int b = 0; b <= 10; ++b)
        bins.push_back(
            {b == 10 ? "100%" : fmt::format("{}–{}%", 10 * b, 10 * b + 9), in_bucket[static_cast<std::size_t>(b)]});
    const auto add_chart = [&](std::string name, std::string svg) {
        const std::string token = fmt::format("hcchart{}x", report.charts.size());
        figures.push_back({token, "<figure>" + svg + "</figure>"});
        report.charts.emplace_back(name + ".svg", std::move(svg));
        return View{{"file", "charts/" + name + ".svg"}, {"token", token}};
    };
    const View score_chart = add_chart("scores", render::histogram_svg(bins, "Scores", "students"));
    for (int b = 10; b >= 0; --b) {
        const std::size_t count = in_bucket[static_cast<std::size_t>(b)];
        const std::string range = b == 10 ? "100%" : fmt::format("{}–{}%", 10 * b, 10 * b + 9);
        buckets.push_back(View{{"range", range},
                               {"students", std::to_string(count)},
                               {"share", percent(count, students)},
                               {"bar", std::string(bar_length(count, students), '#')}});
    }
    double sum = 0;
    for (double t : totals)
        sum += t;
    const double median = totals.empty()      ? 0
                          : totals.size() % 2 ? totals[totals.size() / 2]
                                              : (totals[totals.size() / 2 - 1] + totals[totals.size() / 2]) / 2;

    View part_views = View::array();
    for (std::size_t s = 0; s < results.scope().size(); ++s) {
        const solve::SolvedProblem& p = results.problems()[results.scope()[s]];
        for (std::size_t k = 0; k < p.parts.size(); ++k) {
            const solve::SolvedPart& part = p.parts[k];
            std::size_t answered = 0, correct = 0, rounded = 0, incorrect = 0, unreadable = 0, unexplained = 0;
            std::map<std::string, std::size_t> by_mistake;
            // Every unexplained answer as (text, students), merged and ranked once the part is done: a vector, not a
            // map, as a class where no answer repeats has one per student (half the memory at 500,000 students). An
            // answer the verdict table kept comes once with its count; one it did not keep comes once per student,
            // so the vector has at most one entry per student, as many as the class with no repeats.
            std::vector<std::pair<std::string, std::size_t>> unexplained_values;
            const auto add = [&](const Verdict& v, std::size_t count) {
                answered += count;
                correct += v.status == Status::correct ? count : 0;
                rounded += v.status == Status::rounded ? count : 0;
                incorrect += v.status == Status::incorrect ? count : 0;
                unreadable += v.status == Status::unreadable ? count : 0;
                for (const Mistake* m : named_mistakes(v))
                    by_mistake[std::string(m->id)] += count;
                if (v.status == Status::incorrect && v.matches.empty()) {
                    unexplained += count;
                    unexplained_values.emplace_back(v.read     ? render::answer_text(*part.ask, *v.read)
                                                    : v.parsed ? fmt::format("{:.6g}", v.parsed->value)
                                                               : v.answer,
                                                    count);
                }
            };
            // How many students gave each answer the table kept, whose verdict is then looked at once; an answer
            // it did not keep (a class where answers rarely repeat) is looked at for each student who gave it.
            std::map<std::pair<const VerdictTable*, std::uint32_t>, std::size_t> given;
            Verdict scratch;
            for (std::size_t i = 0; i < students; ++i)
                if (const Answered* a = results.answered(i, s, k)) {
                    if (a->table->kept(a->answer_id))
                        ++given[{a->table, a->answer_id}];
                    else
                        add(a->verdict(scratch), 1);
                }
            for (const auto& [key, count] : given)
                add(key.first->verdict(key.second, scratch), count);
            std::vector<std::pair<std::string, std::size_t>> ranked(by_mistake.begin(), by_mistake.end());
            std::stable_sort(ranked.begin(), ranked.end(),
                             [](const auto& a, const auto& b) { return a.second > b.second; });
            View mistakes = View::array();
            std::vector<render::ChartBar> bars;
            for (const auto& [id, count] : ranked) {
                mistakes.push_back(View{{"id", id},
                                        {"title", std::string(find_mistake(id)->title)},
                                        {"students", std::to_string(count)},
                                        {"share", percent(count, answered)}});
                bars.push_back({std::string(find_mistake(id)->title), count});
            }
            // Ids are letters, digits, '-', '_' and '.': safe in a file name.
            const View mistake_chart =
                bars.empty() ? View{{"file", ""}, {"token", ""}}
                             : add_chart(fmt::format("{}-{}", p.problem.id, part.part.id),
                                         render::frequency_chart_svg(
                                             bars, answered,
                                             fmt::format("Mistakes in {}, part ({})", p.problem.id, part.part.id)));
            const auto values = most_given(std::move(unexplained_values), 5);
            View common = View::array();
            for (std::size_t i = 0; i < values.size() && i < 5; ++i)
                common.push_back(View{{"value", values[i].first},
                                      {"students", std::to_string(values[i].second)},
                                      {"last", i + 1 == values.size() || i + 1 == 5}});
            part_views.push_back(View{{"problem", p.problem.id},
                                      {"id", part.part.id},
                                      {"ask", std::string(part.ask->id)},
                                      {"per_student", results.per_student_variants()},
                                      {"points", points_text(part.part.points)},
                                      {"one_point", part.part.points == 1.0},
                                      {"expected", part.formula ? fmt::format("`{}`", part.formula_text)
                                                                : render::answer_text(*part.ask, part.answer)},
                                      {"unit", std::string(part.ask->unit)},
                                      {"has_unit", part.ask->type() == solve::Ask::Type::count && !part.formula},
                                      {"answered", std::to_string(answered)},
                                      {"students", std::to_string(students)},
                                      {"correct", std::to_string(correct)},
                                      {"correct_share", percent(correct, answered)},
                                      {"rounded", std::to_string(rounded)},
                                      {"incorrect", std::to_string(incorrect)},
                                      {"unreadable", std::to_string(unreadable)},
                                      {"mistakes", mistakes},
                                      {"has_mistakes", !mistakes.empty()},
                                      {"unexplained", std::to_string(unexplained)},
                                      {"has_unexplained", unexplained > 0},
                                      {"unexplained_share", percent(unexplained, answered)},
                                      {"common_unexplained", common},
                                      {"chart", mistake_chart}});
        }
    }

    View rejected = View::array();
    const auto& all = results.rejected();
    for (std::size_t r = 0; r < all.size() && r < k_report_rejected_rows; ++r)
        rejected.push_back(View{{"line", std::to_string(all[r].line)}, {"reason", table_cell(all[r].reason)}});
    const std::size_t unlisted = all.size() > k_report_rejected_rows ? all.size() - k_report_rejected_rows : 0;

    const View view{{"students", std::to_string(students)},
                    {"rows", std::to_string(results.rows)},
                    {"graded", std::to_string(results.graded)},
                    {"rejected", std::to_string(all.size())},
                    {"superseded", std::to_string(results.superseded)},
                    {"max", points_text(max)},
                    {"mean", fmt::format("{:.2f}", totals.empty() ? 0.0 : sum / static_cast<double>(totals.size()))},
                    {"median", points_text(median)},
                    {"buckets", buckets},
                    {"parts", part_views},
                    {"rejected_rows", rejected},
                    {"has_rejected", !rejected.empty()},
                    {"unlisted_rejected", std::to_string(unlisted)},
                    {"has_unlisted_rejected", unlisted > 0},
                    {"scores_chart", score_chart},
                    {"html", false}};
    auto text = templates.render("report", view);
    if (!text)
        return std::unexpected(text.error());
    report.markdown = render::tidy_markdown(*text);
    if (katex) { // the same report, with each chart's picture where the Markdown links its file
        View page = view;
        page["html"] = true;
        auto markdown = templates.render("report", page);
        if (!markdown)
            return std::unexpected(markdown.error());
        auto html = render::html_page("Class report", {render::tidy_markdown(*markdown)}, *katex, templates, figures);
        if (!html)
            return std::unexpected(html.error());
        report.html = std::move(*html);
    }
    return report;
}

Result<nlohmann::ordered_json> gradescope_results(const ClassResults& results, std::size_t i,
                                                  const render::TemplateSet& templates, bool reveal) {
    nlohmann::ordered_json tests = nlohmann::ordered_json::array();
    for (std::size_t s = 0; s < results.scope().size(); ++s) {
        const solve::SolvedProblem& p = results.problems()[results.scope()[s]];
        for (std::size_t k = 0; k < p.parts.size(); ++k) {
            const spec::Part& part = p.parts[k].part;
            const Answered* a = i < results.students() ? results.answered(i, s, k) : nullptr;
            std::string output = "No answer was submitted for this part.";
            double score = 0;
            Verdict scratch;
            if (a) {
                auto feedback = explain(a->table->solved(), a->table->part(), a->verdict(scratch), templates,
                                        effective_reveal(a->table->solved().problem, part, reveal));
                if (!feedback)
                    return std::unexpected(feedback.error());
                output = feedback->text;
                score = a->summary().score;
            }
            tests.push_back({{"name", fmt::format("{} ({})", p.problem.title, part.id)},
                             {"number", fmt::format("{}.{}", results.scope()[s] + 1, k + 1)},
                             {"score", score},
                             {"max_score", part.points},
                             {"status", a && a->summary().status == Status::correct ? "passed" : "failed"},
                             {"output", output},
                             {"output_format", "md"},
                             {"visibility", "visible"}});
        }
    }
    // A submission whose rows name nobody in the class (an id not on the roster) has no student: its rows are
    // all the file's rejected ones, and the reasons are what the student needs to read.
    std::string output;
    for (const RejectedRow& row : i < results.students() ? results.rejected_of(i) : results.rejected())
        output += fmt::format("- line {}: {}\n", row.line, row.reason);
    if (!output.empty())
        output = "Some rows of your submission could not be graded:\n\n" + output;
    return nlohmann::ordered_json{{"score", i < results.students() ? results.total(i) : 0.0},
                                  {"output", output},
                                  {"output_format", "md"},
                                  {"visibility", "visible"},
                                  {"tests", tests}};
}

} // namespace headcount::grade

#include <grade/class_reports.hpp>

#include <grade/feedback.hpp>
#include <render/answers.hpp>
#include <render/solution.hpp>
#include <util/ids.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace headcount::grade {

namespace {

using render::View;

double max_points(const std::vector<solve::SolvedProblem>& problems) {
    double total = 0;
    for (const auto& p : problems)
        for (const auto& part : p.parts)
            total += part.part.points;
    return total;
}

double student_total(const ClassResults& results, const std::vector<solve::SolvedProblem>& problems,
                     const std::string& student) {
    double total = 0;
    for (const auto& p : problems)
        for (const auto& part : p.parts)
            if (const GradedRow* row = results.find(student, p.problem.id, part.part.id))
                total += row->verdict.score;
    return total;
}

/// Untrusted text in a Markdown table cell: a '|' would end the cell and a newline the row.
std::string table_cell(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '|')
            out += "\\|";
        else
            out += c == '\n' || c == '\r' ? ' ' : c;
    }
    return out;
}

/// A histogram bar: one mark per student in small classes, scaled to at most 40 marks in large ones.
std::size_t bar_length(std::size_t count, std::size_t students) {
    if (students <= 40)
        return count;
    return (count * 40 + students - 1) / students;
}

/// The student's rows that were not graded, with why: shown to them so nothing they sent goes unexplained.
View rejected_rows_of(const ClassResults& results, const std::string& student) {
    View rows = View::array();
    for (const GradedRow& row : results.rows)
        if (row.outcome == RowOutcome::rejected && row.student == student)
            rows.push_back(View{{"line", std::to_string(row.line)}, {"reason", row.reason}});
    return rows;
}

std::string percent(std::size_t count, std::size_t of) {
    return of == 0 ? "0.0%" : fmt::format("{:.1f}%", 100.0 * static_cast<double>(count) / static_cast<double>(of));
}

/// The feedback for one part of one student's work: the verdict explained, or "no answer".
Result<View> part_view(const ClassResults& results, const solve::SolvedProblem& problem,
                       const solve::SolvedPart& part, const std::string& student,
                       const render::TemplateSet& templates, bool reveal, FeedbackCache& cache) {
    View view{{"id", part.part.id},
              {"points", points_text(part.part.points)},
              {"one_point", part.part.points == 1.0},
              {"answered", false},
              {"feedback", ""}};
    if (const GradedRow* row = results.find(student, problem.problem.id, part.part.id)) {
        // The row's own variant: with seeded variants it differs from `problem`.
        auto feedback = cache.explain(*row->solved, *row->solved_part, row->verdict, templates,
                                      effective_reveal(row->solved->problem, row->solved_part->part, reveal));
        if (!feedback)
            return std::unexpected(feedback.error());
        view["answered"] = true;
        view["feedback"] = (*feedback)->text;
    }
    return view;
}

} // namespace

std::string gradebook_csv(const ClassResults& results, const std::vector<solve::SolvedProblem>& problems) {
    std::vector<std::string> header{"student"};
    for (const auto& p : problems)
        for (const auto& part : p.parts)
            header.push_back(fmt::format("{}/{}", p.problem.id, part.part.id));
    header.push_back("total");
    header.push_back("max");
    std::string out = csv_row(header);
    const std::string max = points_text(max_points(problems));
    for (const std::string& student : results.students) {
        std::vector<std::string> row{neutralise_cell(student)};
        for (const auto& p : problems)
            for (const auto& part : p.parts) {
                const GradedRow* graded = results.find(student, p.problem.id, part.part.id);
                row.push_back(points_text(graded ? graded->verdict.score : 0));
            }
        row.push_back(points_text(student_total(results, problems, student)));
        row.push_back(max);
        out += csv_row(row);
    }
    return out;
}

std::string results_jsonl(const ClassResults& results) {
    std::string out;
    for (const GradedRow& row : results.rows) {
        nlohmann::ordered_json line{{"line", row.line},
                                    {"outcome", outcome_name(row.outcome)},
                                    {"student", row.student},
                                    {"problem", row.problem},
                                    {"part", row.part},
                                    {"answer", row.answer}};
        if (row.outcome == RowOutcome::graded) {
            line["status"] = status_name(row.verdict.status);
            line["score"] = row.verdict.score;
            line["points"] = row.verdict.points;
            nlohmann::ordered_json ids = nlohmann::ordered_json::array();
            for (const Mistake* m : named_mistakes(row.verdict))
                ids.push_back(m->id);
            line["mistakes"] = ids;
            if (row.verdict.status == Status::unreadable)
                line["reason"] = row.verdict.unreadable_reason;
        } else {
            line["reason"] = row.reason;
        }
        // Invalid UTF-8 from a malformed row must not make the whole file unreadable as JSON.
        out += line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
    }
    return out;
}

Result<std::string> student_feedback(const ClassResults& results, const std::vector<solve::SolvedProblem>& problems,
                                     const std::string& student, const render::TemplateSet& templates, bool reveal,
                                     FeedbackCache& cache) {
    View problem_views = View::array();
    for (const auto& p : problems) {
        View parts = View::array();
        for (const auto& part : p.parts) {
            auto view = part_view(results, p, part, student, templates, reveal, cache);
            if (!view)
                return std::unexpected(view.error());
            parts.push_back(*view);
        }
        problem_views.push_back(View{{"id", p.problem.id}, {"title", p.problem.title}, {"parts", parts}});
    }
    const View rejected = rejected_rows_of(results, student);
    const View view{{"student", student},
                    {"problems", problem_views},
                    {"rejected", rejected},
                    {"has_rejected", !rejected.empty()},
                    {"total", points_text(student_total(results, problems, student))},
                    {"max", points_text(max_points(problems))}};
    auto text = templates.render("student_feedback", view);
    if (!text)
        return text;
    return render::tidy_markdown(*text);
}

Result<std::string> class_report(const ClassResults& results, const std::vector<solve::SolvedProblem>& problems,
                                 const render::TemplateSet& templates) {
    const std::size_t students = results.students.size();
    const double max = max_points(problems);

    // Score distribution in tenths of the maximum; the top bucket holds full marks only.
    std::vector<double> totals;
    for (const std::string& s : results.students)
        totals.push_back(student_total(results, problems, s));
    std::sort(totals.begin(), totals.end());
    View buckets = View::array();
    for (int b = 10; b >= 0; --b) {
        const auto in_bucket = std::count_if(totals.begin(), totals.end(), [&](double t) {
            const int bucket = max > 0 ? static_cast<int>(std::floor(10 * t / max + 1e-9)) : 10;
            return std::min(bucket, 10) == b;
        });
        const std::string range = b == 10 ? "100%" : fmt::format("{}–{}%", 10 * b, 10 * b + 9);
        buckets.push_back(View{{"range", range},
                               {"students", std::to_string(in_bucket)},
                               {"share", percent(static_cast<std::size_t>(in_bucket), students)},
                               {"bar", std::string(bar_length(static_cast<std::size_t>(in_bucket), students), '#')}});
    }
    double sum = 0;
    for (double t : totals)
        sum += t;
    const double median = totals.empty() ? 0
                          : totals.size() % 2 ? totals[totals.size() / 2]
                                              : (totals[totals.size() / 2 - 1] + totals[totals.size() / 2]) / 2;

    View part_views = View::array();
    for (const auto& p : problems) {
        for (const auto& part : p.parts) {
            std::size_t answered = 0, correct = 0, rounded = 0, incorrect = 0, unreadable = 0, unexplained = 0;
            std::map<std::string, std::size_t> by_mistake;
            std::map<std::string, std::size_t> unexplained_values;
            for (const std::string& s : results.students) {
                const GradedRow* row = results.find(s, p.problem.id, part.part.id);
                if (!row)
                    continue;
                ++answered;
                const Verdict& v = row->verdict;
                correct += v.status == Status::correct;
                rounded += v.status == Status::rounded;
                incorrect += v.status == Status::incorrect;
                unreadable += v.status == Status::unreadable;
                for (const Mistake* m : named_mistakes(v))
                    ++by_mistake[std::string(m->id)];
                if (v.status == Status::incorrect && v.matches.empty()) {
                    ++unexplained;
                    ++unexplained_values[v.read       ? render::answer_text(*part.ask, *v.read)
                                         : v.parsed ? fmt::format("{:.6g}", v.parsed->value)
                                                    : v.answer];
                }
            }
            std::vector<std::pair<std::string, std::size_t>> ranked(by_mistake.begin(), by_mistake.end());
            std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
            View mistakes = View::array();
            for (const auto& [id, count] : ranked)
                mistakes.push_back(View{{"id", id},
                                        {"title", std::string(find_mistake(id)->title)},
                                        {"students", std::to_string(count)},
                                        {"share", percent(count, answered)}});
            std::vector<std::pair<std::string, std::size_t>> values(unexplained_values.begin(), unexplained_values.end());
            std::stable_sort(values.begin(), values.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
            View common = View::array();
            for (std::size_t i = 0; i < values.size() && i < 5; ++i)
                common.push_back(View{{"value", values[i].first},
                                      {"students", std::to_string(values[i].second)},
                                      {"last", i + 1 == values.size() || i + 1 == 5}});
            part_views.push_back(View{
                {"problem", p.problem.id}, {"id", part.part.id}, {"ask", std::string(part.ask->id)},
                {"per_student", results.per_student_variants},
                {"points", points_text(part.part.points)}, {"one_point", part.part.points == 1.0},
                {"expected", render::answer_text(*part.ask, part.answer)},
                {"unit", std::string(part.ask->unit)},
                {"has_unit", part.ask->type() == solve::Ask::Type::count}, {"answered", std::to_string(answered)},
                {"students", std::to_string(students)}, {"correct", std::to_string(correct)},
                {"correct_share", percent(correct, answered)}, {"rounded", std::to_string(rounded)},
                {"incorrect", std::to_string(incorrect)}, {"unreadable", std::to_string(unreadable)},
                {"mistakes", mistakes}, {"has_mistakes", !mistakes.empty()},
                {"unexplained", std::to_string(unexplained)}, {"has_unexplained", unexplained > 0},
                {"unexplained_share", percent(unexplained, answered)}, {"common_unexplained", common}});
        }
    }

    View rejected = View::array();
    for (const GradedRow& row : results.rows)
        if (row.outcome == RowOutcome::rejected)
            rejected.push_back(View{{"line", std::to_string(row.line)}, {"reason", table_cell(row.reason)}});

    const View view{{"students", std::to_string(students)},
                    {"rows", std::to_string(results.rows.size())},
                    {"graded", std::to_string(results.count(RowOutcome::graded))},
                    {"rejected", std::to_string(results.count(RowOutcome::rejected))},
                    {"superseded", std::to_string(results.count(RowOutcome::superseded))},
                    {"max", points_text(max)},
                    {"mean", fmt::format("{:.2f}", totals.empty() ? 0.0 : sum / static_cast<double>(totals.size()))},
                    {"median", points_text(median)},
                    {"buckets", buckets},
                    {"parts", part_views},
                    {"rejected_rows", rejected},
                    {"has_rejected", !rejected.empty()}};
    auto text = templates.render("report", view);
    if (!text)
        return text;
    return render::tidy_markdown(*text);
}

Result<nlohmann::ordered_json> gradescope_results(const ClassResults& results,
                                                  const std::vector<solve::SolvedProblem>& problems,
                                                  const std::string& student, const render::TemplateSet& templates,
                                                  bool reveal, FeedbackCache& cache) {
    nlohmann::ordered_json tests = nlohmann::ordered_json::array();
    int problem_number = 0;
    for (const auto& p : problems) {
        ++problem_number;
        int part_number = 0;
        for (const auto& part : p.parts) {
            ++part_number;
            const GradedRow* row = results.find(student, p.problem.id, part.part.id);
            std::string output = "No answer was submitted for this part.";
            double score = 0;
            if (row) {
                auto feedback = cache.explain(*row->solved, *row->solved_part, row->verdict, templates,
                                      effective_reveal(row->solved->problem, row->solved_part->part, reveal));
                if (!feedback)
                    return std::unexpected(feedback.error());
                output = (*feedback)->text;
                score = row->verdict.score;
            }
            tests.push_back({{"name", fmt::format("{} ({})", p.problem.title, part.part.id)},
                             {"number", fmt::format("{}.{}", problem_number, part_number)},
                             {"score", score},
                             {"max_score", part.part.points},
                             {"status", row && row->verdict.status == Status::correct ? "passed" : "failed"},
                             {"output", output},
                             {"output_format", "md"},
                             {"visibility", "visible"}});
        }
    }
    std::string output;
    for (const auto& row : rejected_rows_of(results, student))
        output += fmt::format("- line {}: {}\n", row["line"].get<std::string>(), row["reason"].get<std::string>());
    if (!output.empty())
        output = "Some rows of your submission could not be graded:\n\n" + output;
    return nlohmann::ordered_json{{"score", student_total(results, problems, student)},
                                  {"output", output},
                                  {"output_format", "md"},
                                  {"visibility", "visible"},
                                  {"tests", tests}};
}

} // namespace headcount::grade

#include <grade/feedback_files.hpp>

#include <render/html.hpp>
#include <render/solution.hpp>
#include <util/new_files.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>

namespace headcount::grade {

namespace {

using render::View;

/// Students' ids stand here in a memoised feedback file until the file is given to a student: ids have no
/// control characters, and nothing else in a feedback file does.
constexpr std::string_view k_student_sentinel = "\x01\x02student\x02\x01";

/// At most this many distinct feedback texts and whole files are kept per renderer; past it they are rendered
/// each time, so an adversarial class of unique answers costs time, not memory.
constexpr std::size_t k_cache_entries = 4096;

void replace_all(std::string& text, std::string_view from, std::string_view to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

} // namespace

FeedbackRenderer::FeedbackRenderer(const ClassResults& results, const render::TemplateSet& templates, bool reveal)
    : m_results(results), m_templates(templates), m_reveal(reveal) {}

Result<const std::string*> FeedbackRenderer::part_feedback(const Answered& answered) {
    const auto key = std::make_pair(answered.table, answered.answer_id);
    if (const auto it = m_parts.find(key); it != m_parts.end())
        return &it->second;
    // The row's own variant: with seeded variants it differs from the spec's.
    const solve::SolvedProblem& solved = answered.table->solved();
    const solve::SolvedPart& part = answered.table->part();
    auto feedback = explain(solved, part, answered.verdict(m_scratch), m_templates,
                            effective_reveal(solved.problem, part.part, m_reveal));
    if (!feedback)
        return std::unexpected(feedback.error());
    // An answer whose verdict the table did not keep is one nobody else gave, most likely: not worth a memo entry.
    if (m_parts.size() >= k_cache_entries || !answered.table->kept(answered.answer_id)) {
        m_overflow = std::move(feedback->text);
        return &m_overflow;
    }
    return &m_parts.emplace(key, std::move(feedback->text)).first->second;
}

Result<std::string> FeedbackRenderer::render_whole(std::size_t i, std::string_view student) {
    View problems = View::array();
    for (std::size_t s = 0; s < m_results.scope().size(); ++s) {
        const solve::SolvedProblem& p = m_results.problems()[m_results.scope()[s]];
        View parts = View::array();
        for (std::size_t k = 0; k < p.parts.size(); ++k) {
            const spec::Part& part = p.parts[k].part;
            View view{{"id", part.id},
                      {"points", points_text(part.points)},
                      {"one_point", part.points == 1.0},
                      {"answered", false},
                      {"feedback", ""}};
            if (const Answered* a = m_results.answered(i, s, k)) {
                auto text = part_feedback(*a);
                if (!text)
                    return std::unexpected(text.error());
                view["answered"] = true;
                view["feedback"] = **text;
            }
            parts.push_back(std::move(view));
        }
        problems.push_back(View{{"id", p.problem.id}, {"title", p.problem.title}, {"parts", std::move(parts)}});
    }
    View rejected = View::array();
    for (const RejectedRow& row : m_results.rejected_of(i))
        rejected.push_back(View{{"line", std::to_string(row.line)}, {"reason", row.reason}});
    const bool has_rejected = !rejected.empty();
    const View view{{"student", std::string(student)},          {"problems", std::move(problems)},
                    {"rejected", std::move(rejected)},          {"has_rejected", has_rejected},
                    {"total", points_text(m_results.total(i))}, {"max", points_text(m_results.max_points())}};
    auto text = m_templates.render("student_feedback", view);
    if (!text)
        return text;
    return render::tidy_markdown(*text);
}

Result<std::string> FeedbackRenderer::render(std::size_t i) {
    const std::string_view student = m_results.student(i);
    if (!m_results.rejected_of(i).empty())
        return render_whole(i, student);
    // Everything in the file but the id follows from the answers that count, so students who gave the same
    // answers share one rendering with a stand-in for the id.
    std::string signature;
    for (std::size_t s = 0; s < m_results.scope().size(); ++s)
        for (std::size_t k = 0; k < m_results.problems()[m_results.scope()[s]].parts.size(); ++k) {
            const Answered* a = m_results.answered(i, s, k);
            signature += fmt::format("{}:{};", static_cast<const void*>(a ? a->table : nullptr), a ? a->answer_id : 0);
        }
    auto it = m_documents.find(signature);
    if (it == m_documents.end()) {
        auto text = render_whole(i, k_student_sentinel);
        if (!text)
            return text;
        if (m_documents.size() >= k_cache_entries) {
            replace_all(*text, k_student_sentinel, student);
            return text;
        }
        it = m_documents.emplace(std::move(signature), std::move(*text)).first;
    }
    std::string out = it->second;
    replace_all(out, k_student_sentinel, student);
    return out;
}

/// Students per step of write_feedback_files: the threads meet after each, so an error stops the run soon.
constexpr std::size_t k_chunk = 4096;

// Each of the workers renders and creates the files of every workers-th student of a chunk. Creating a file takes
// the folder's lock only for the directory entry and the inode; opening, writing and closing run side by side, so
// two threads create files faster than one (the README has the figures). The error reported is the first failing
// student's in id order: a worker stops at its own first failure, and every student before that one in the chunk
// was tried by some worker.
Result<void> write_feedback_files(const ClassResults& results, const render::TemplateSet& templates, bool reveal,
                                  const std::filesystem::path& dir, unsigned threads, bool html) {
    const auto folder = NewFilesFolder::open(dir, "feedback folder");
    if (!folder)
        return std::unexpected(folder.error());
    const std::size_t students = results.students();
    const auto workers = static_cast<unsigned>(
        std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(1, students))); // no idle thread for a small class
    std::vector<FeedbackRenderer> renderer;
    for (unsigned r = 0; r < workers; ++r)
        renderer.emplace_back(results, templates, reveal);
    const render::KatexLink katex{nullptr, "../katex"};
    // Student i's Markdown, and with `html` their page after it (KaTeX in the folder beside feedback/).
    const auto write_student = [&](FeedbackRenderer& render, std::size_t i) -> Result<void> {
        auto markdown = render.render(i);
        if (!markdown)
            return std::unexpected(markdown.error());
        // Ids were checked as rows were read (no '/', '..', NUL, reserved names): this stays in dir.
        const std::string id(results.student(i));
        if (auto ok = folder->write(id + ".md", *markdown); !ok)
            return ok;
        if (!html)
            return {};
        auto page = render::html_page(fmt::format("Feedback for {}", id), {*markdown}, katex, templates);
        if (!page)
            return std::unexpected(page.error());
        return folder->write(id + ".html", *page);
    };
    Result<void> outcome;
    std::vector<std::pair<std::size_t, Error>> failed; // (student, why), at most one per worker per chunk
    std::exception_ptr thrown; // out of memory in a worker: rethrown here, where main reports it, not std::terminate
    std::mutex failed_lock;
    for (std::size_t begin = 0; begin < students && outcome; begin += k_chunk) {
        const std::size_t end = std::min(begin + k_chunk, students);
        const auto work = [&](unsigned r) {
            try {
                for (std::size_t i = begin + r; i < end; i += workers)
                    if (auto ok = write_student(renderer[r], i); !ok) {
                        const std::lock_guard lock(failed_lock);
                        failed.emplace_back(i, std::move(ok.error()));
                        return; // this worker's later students cannot come first
                    }
            } catch (...) {
                const std::lock_guard lock(failed_lock);
                if (!thrown)
                    thrown = std::current_exception();
            }
        };
        {
            std::vector<std::jthread> pool;
            for (unsigned r = 1; r < workers; ++r)
                pool.emplace_back(work, r);
            work(0);
        }
        if (thrown)
            std::rethrow_exception(thrown);
        if (!failed.empty())
            outcome = std::unexpected(std::min_element(failed.begin(), failed.end(), [](const auto& a, const auto& b) {
                                          return a.first < b.first;
                                      })->second);
    }
    return outcome;
}
} // namespace headcount::grade

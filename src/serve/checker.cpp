#include <serve/checker.hpp>

#include <util/ids.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <cstdio>

namespace headcount::serve {

namespace {
constexpr std::size_t k_max_rate_keys = 100'000;

std::unexpected<CheckRefusal> refuse(int status, std::string message, int retry_after = 0) {
    CheckRefusal refusal;
    refusal.status = status;
    refusal.message = std::move(message);
    refusal.retry_after = retry_after;
    return std::unexpected(std::move(refusal));
}

std::string retry_text(int seconds) {
    return fmt::format("Too many checks in a short time: try again in {} second{}.", seconds, seconds == 1 ? "" : "s");
}
} // namespace

Checker::Checker(const Classroom& classroom, const render::TemplateSet& templates, AttemptLog* log, CheckLimits limits,
                 AttemptBook* book)
    : m_classroom(classroom), m_templates(templates), m_log(log), m_book(book),
      m_per_student(limits.per_student, k_max_rate_keys), m_per_address(limits.per_address, k_max_rate_keys) {}

std::shared_ptr<const grade::MistakeTable> Checker::formula_table(const solve::SolvedProblem& problem,
                                                                  const solve::SolvedPart& part) {
    {
        const std::lock_guard lock(m_tables_mutex);
        if (const auto it = m_formula_tables.find(&part); it != m_formula_tables.end())
            return it->second;
    }
    // Made outside the lock: two first checks of one part at once make it twice, and the second is dropped.
    auto table = std::make_shared<const grade::MistakeTable>(grade::mistake_table(problem, part));
    const std::lock_guard lock(m_tables_mutex);
    if (m_formula_tables.size() >= k_formula_tables)
        m_formula_tables.clear();
    return m_formula_tables.emplace(&part, std::move(table)).first->second;
}

std::expected<CheckResult, CheckRefusal> Checker::check(const CheckRequest& request) {
    if (request.answer.size() > k_max_answer_bytes)
        return refuse(413, fmt::format("This answer is {} bytes long; answers are at most {} bytes.",
                                       with_thousands(static_cast<std::int64_t>(request.answer.size())),
                                       with_thousands(k_max_answer_bytes)));
    const auto now = RateLimiter::Clock::now();
    if (const int wait = m_per_address.take(request.address, now))
        return refuse(429, retry_text(wait), wait);
    if (!request.student.empty())
        if (const int wait = m_per_student.take(request.student, now))
            return refuse(429, retry_text(wait), wait);

    CheckResult result;
    result.problem = m_classroom.problem(request.problem, request.student);
    if (result.problem == nullptr)
        return refuse(404, fmt::format("There is no problem '{}' here.", printable(request.problem)));
    std::string parts;
    for (const solve::SolvedPart& part : result.problem->parts) {
        if (part.part.id == request.part)
            result.part = &part;
        parts += (parts.empty() ? "" : ", ") + part.part.id;
    }
    if (result.part == nullptr)
        return refuse(404, fmt::format("Problem '{}' has no part '{}'; its parts are: {}.", result.problem->problem.id,
                                       printable(request.part), parts));

    // An identified student's checks of a part with a limit are counted before the verdict is worked out, so that
    // two checks at once cannot both take the last one.
    // With none left, only an answer that cannot be read is still answered (it says nothing about the right one).
    std::optional<int> allowed;
    bool counted = false;
    bool exhausted = false;
    if (m_book != nullptr && !request.student.empty())
        allowed = m_book->limit(result.problem->problem, result.part->part);
    if (allowed) {
        AttemptsUsed used;
        const auto taken = m_book->take(request.student, result.problem->problem.id, result.part->part.id,
                                        request.answer, *allowed, used);
        exhausted = taken == AttemptBook::Take::exhausted;
        counted = taken == AttemptBook::Take::counted;
        result.attempts = used;
    }
    // A check counted is given back on every way out but a verdict given: a refusal, an unreadable answer, an
    // exception from the grader or the log.
    struct Reservation {
        AttemptBook* book;
        const CheckRequest& request;
        CheckResult& result;
        bool& counted;
        void give_back() {
            if (!counted)
                return;
            book->give_back(request.student, result.problem->problem.id, result.part->part.id, request.answer);
            --result.attempts->used;
            counted = false;
        }
        ~Reservation() { give_back(); }
    } reservation{m_book, request, result, counted};
    const auto give_back = [&] { reservation.give_back(); };

    result.reveal = grade::effective_reveal(result.problem->problem, result.part->part, false);
    result.graded = m_cache.find(result.part, request.answer);
    if (!result.graded) {
        auto graded = std::make_shared<Graded>();
        graded->verdict = result.part->formula
                              ? grade::grade_answer(*formula_table(*result.problem, *result.part), request.answer)
                              : grade::grade_answer(*result.problem, *result.part, request.answer);
        auto feedback = grade::explain(*result.problem, *result.part, graded->verdict, m_templates, result.reveal);
        if (!feedback) {
            give_back();
            // The instructor's templates are broken: say so on the server's console, not to the student.
            std::fprintf(stderr, "headcount serve: %s\n", feedback.error().to_string().c_str());
            return refuse(500, "The feedback for this answer could not be written; please tell your instructor.");
        }
        graded->feedback = std::move(*feedback);
        result.graded = graded;
        m_cache.store(result.part, request.answer, graded);
    }
    const grade::Verdict& verdict = result.graded->verdict;
    // An answer that could not be read tells nothing about the right one: it costs no check.
    if (verdict.status == grade::Status::unreadable)
        give_back();
    else if (exhausted)
        return std::unexpected(CheckRefusal{403,
                                            fmt::format("You have used all {} checks of part ({}); your answers are "
                                                        "recorded. Ask your instructor if you need more.",
                                                        *allowed, result.part->part.id),
                                            0, result.attempts});

    if (m_log != nullptr) {
        Attempt attempt{std::chrono::system_clock::now(),
                        request.student.empty() ? std::nullopt : std::optional(request.student),
                        result.problem->problem.id,
                        result.part->part.id,
                        request.answer,
                        std::string(grade::status_name(verdict.status)),
                        verdict.score,
                        verdict.points,
                        {}};
        for (const grade::MistakeNote& note : result.graded->feedback.notes)
            attempt.mistakes.push_back(note.id);
        if (auto logged = m_log->append(attempt); !logged) {
            give_back();
            std::fprintf(stderr, "headcount serve: %s\n", logged.error().to_string().c_str());
            return refuse(503, "Your answer could not be recorded, so it was not checked; please try again in a "
                               "minute.");
        }
    }
    ++m_count;
    counted = false; // the check stands: the reservation is kept
    return result;
}

} // namespace headcount::serve

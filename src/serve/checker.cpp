#include <serve/checker.hpp>

#include <util/ids.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <cstdio>

namespace headcount::serve {

namespace {
constexpr std::size_t k_max_rate_keys = 100'000;

std::string retry_text(int seconds) {
    return fmt::format("Too many checks in a short time: try again in {} second{}.", seconds, seconds == 1 ? "" : "s");
}
} // namespace

Checker::Checker(const Classroom& classroom, const render::TemplateSet& templates, AttemptLog* log,
                 CheckLimits limits)
    : m_classroom(classroom), m_templates(templates), m_log(log), m_per_student(limits.per_student, k_max_rate_keys),
      m_per_address(limits.per_address, k_max_rate_keys) {}

std::expected<CheckResult, CheckRefusal> Checker::check(const CheckRequest& request) {
    if (request.answer.size() > k_max_answer_bytes)
        return std::unexpected(CheckRefusal{413, fmt::format("This answer is {} bytes long; answers are at most {} "
                                                             "bytes.", with_thousands(static_cast<std::int64_t>(request.answer.size())),
                                                             with_thousands(k_max_answer_bytes))});
    const auto now = RateLimiter::Clock::now();
    if (const int wait = m_per_address.take(request.address, now))
        return std::unexpected(CheckRefusal{429, retry_text(wait), wait});
    if (!request.student.empty())
        if (const int wait = m_per_student.take(request.student, now))
            return std::unexpected(CheckRefusal{429, retry_text(wait), wait});

    CheckResult result;
    result.problem = m_classroom.problem(request.problem, request.student);
    if (result.problem == nullptr)
        return std::unexpected(CheckRefusal{404, fmt::format("There is no problem '{}' here.", printable(request.problem))});
    std::string parts;
    for (const solve::SolvedPart& part : result.problem->parts) {
        if (part.part.id == request.part)
            result.part = &part;
        parts += (parts.empty() ? "" : ", ") + part.part.id;
    }
    if (result.part == nullptr)
        return std::unexpected(CheckRefusal{404, fmt::format("Problem '{}' has no part '{}'; its parts are: {}.",
                                                             result.problem->problem.id, printable(request.part), parts)});

    result.reveal = grade::effective_reveal(result.problem->problem, result.part->part, false);
    result.graded = m_cache.find(result.part, request.answer);
    if (!result.graded) {
        auto graded = std::make_shared<Graded>();
        graded->verdict = grade::grade_answer(*result.problem, *result.part, request.answer);
        auto feedback = grade::explain(*result.problem, *result.part, graded->verdict, m_templates, result.reveal);
        if (!feedback) {
            // The instructor's templates are broken: say so on the server's console, not to the student.
            std::fprintf(stderr, "headcount serve: %s\n", feedback.error().to_string().c_str());
            return std::unexpected(CheckRefusal{500, "The feedback for this answer could not be written; please "
                                                     "tell your instructor."});
        }
        graded->feedback = std::move(*feedback);
        result.graded = graded;
        m_cache.store(result.part, request.answer, graded);
    }
    const grade::Verdict& verdict = result.graded->verdict;

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
            std::fprintf(stderr, "headcount serve: %s\n", logged.error().to_string().c_str());
            return std::unexpected(CheckRefusal{503, "Your answer could not be recorded, so it was not checked; "
                                                     "please try again in a minute."});
        }
    }
    ++m_count;
    return result;
}

} // namespace headcount::serve

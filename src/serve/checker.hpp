#pragma once
// One check as the server makes it, for the JSON API and the page's forms alike: find the student's variant and
// the part, grade the answer, explain it under the spec's reveal policy (never `full` unless the spec says so),
// and log the attempt before anyone sees the verdict.

#include <grade/feedback.hpp>
#include <serve/attempt_book.hpp>
#include <serve/attempt_log.hpp>
#include <serve/classroom.hpp>
#include <serve/rate_limit.hpp>
#include <serve/verdict_cache.hpp>

#include <atomic>
#include <expected>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace headcount::serve {

/// The longest answer the server takes (413 beyond). The answer reader itself reads up to 200 bytes and calls a
/// longer one unreadable, with that reason; this cap only keeps requests and log lines small.
inline constexpr std::size_t k_max_answer_bytes = 1024;

/// A check as asked for. `student` is "" or already authenticated; `address` is the client's, for its limit.
struct CheckRequest {
    std::string problem;
    std::string part;
    std::string answer;
    std::string student;
    std::string address;
};

/// A check made: the verdict and its feedback.
struct CheckResult {
    const solve::SolvedProblem* problem = nullptr;
    const solve::SolvedPart* part = nullptr;
    std::shared_ptr<const Graded> graded; ///< shared with the cache: never null in a result
    spec::Reveal reveal = spec::Reveal::hints;
    std::optional<AttemptsUsed> attempts; ///< set when the part limits a student's checks
};

/// Why a check was not made, as an HTTP status and a sentence for the student; `retry_after` for 429.
struct CheckRefusal {
    int status = 400;
    std::string message;
    int retry_after = 0;
    std::optional<AttemptsUsed> attempts; ///< set when the part's checks are all used
};

/// How often checks may be made, per student and per client address.
struct CheckLimits {
    RateLimit per_student{30, 10};
    RateLimit per_address{600, 60};
};

/// Makes checks. Thread-safe; refers to the classroom, templates and log, which must outlive it.
class Checker {
  public:
    /// `book` counts identified students' checks against each part's limit (null: no limits).
    Checker(const Classroom& classroom, const render::TemplateSet& templates, AttemptLog* log, CheckLimits limits,
            AttemptBook* book = nullptr);

    /// Grades and logs one answer. Refusals: 413 for an answer over k_max_answer_bytes, 429 past a rate limit,
    /// 404 for a problem or part not served, 403 when the student has used all the part's checks, 500 for a
    /// template error (the instructor's templates; the message says no more), 503 when the attempt could not be
    /// logged (then no verdict is given, and no check is counted, either).
    std::expected<CheckResult, CheckRefusal> check(const CheckRequest& request);

    /// Checks made since the start.
    [[nodiscard]] std::uint64_t count() const { return m_count.load(); }

  private:
    const Classroom& m_classroom;
    const render::TemplateSet& m_templates;
    AttemptLog* m_log;
    AttemptBook* m_book;
    RateLimiter m_per_student;
    RateLimiter m_per_address;
    VerdictCache m_cache{4096};
    std::atomic<std::uint64_t> m_count{0};
    /// The tables of the parts answered with a formula (answer: formula), made at a part's first check: each is the
    /// problem solved at nine points (tens of milliseconds), which a student's every new formula would otherwise pay.
    /// Keyed by the part, which the classroom keeps for the server's life; at most k_formula_tables, then begun anew.
    static constexpr std::size_t k_formula_tables = 4096;
    std::mutex m_tables_mutex;
    std::unordered_map<const solve::SolvedPart*, std::shared_ptr<const grade::MistakeTable>> m_formula_tables;
    std::shared_ptr<const grade::MistakeTable> formula_table(const solve::SolvedProblem& problem,
                                                             const solve::SolvedPart& part);
};

} // namespace headcount::serve

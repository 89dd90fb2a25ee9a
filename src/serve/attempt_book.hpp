#pragma once
// How many checks each student has made of each part, against the part's limit (`attempts:` in the spec, else
// serve --attempts). A rounded verdict tells a student when their leading figures are right, so unlimited checks
// let them recover an exact answer a digit at a time; a limit, as WeBWorK and PrairieLearn set one, bounds that.
// The counts live in memory and are replayed from the attempt log at startup, so a restart forgives nothing.
// Only identified students (a roster) are counted; an unreadable answer and a repeat of an answer already counted
// are free.

#include <util/error.hpp>

#include <spec/problem.hpp>

#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace headcount::serve {

/// A part's limit and how much of it a student has used.
struct AttemptsUsed {
    int used = 0;
    int allowed = 0;
    [[nodiscard]] int left() const { return allowed > used ? allowed - used : 0; }
};

/// Checks made, per student and part. Thread-safe.
class AttemptBook {
  public:
    /// `default_limit`: the limit of a part whose spec sets none (nullopt: no limit).
    explicit AttemptBook(std::optional<int> default_limit) : m_default(default_limit) {}

    /// The limit of `part` of `problem`, or nullopt when it has none.
    [[nodiscard]] std::optional<int> limit(const spec::Problem& problem, const spec::Part& part) const {
        const auto own = problem.attempts_for(part);
        return own ? own : m_default;
    }

    /// Counts the checks an attempt log holds of the parts `limited` names (problem id, part id): each line with a
    /// student, a problem, a part, an answer and a status other than "unreadable" (a repeated answer once); other
    /// lines, and lines longer than an attempt line can be, are skipped. Returns how many were counted. Errors: the
    /// file cannot be read (a missing one counts nothing).
    Result<std::size_t> replay(const std::filesystem::path& log,
                               const std::function<bool(std::string_view, std::string_view)>& limited);

    enum class Take { counted, repeat, exhausted };
    /// Counts `answer` as a check of `part` by `student` against `allowed`: counted (one more used), repeat (an
    /// answer already counted: free), or exhausted (none left; nothing counted). `used` receives the state after.
    Take take(const std::string& student, const std::string& problem, const std::string& part,
              const std::string& answer, int allowed, AttemptsUsed& used);
    /// Gives back a check `take` counted (the answer turned out unreadable, or could not be logged).
    void give_back(const std::string& student, const std::string& problem, const std::string& part,
                   const std::string& answer);
    /// What `student` has used of `allowed` for `part`.
    [[nodiscard]] AttemptsUsed used(const std::string& student, const std::string& problem, const std::string& part,
                                    int allowed) const;

  private:
    std::optional<int> m_default;
    mutable std::mutex m_mutex;
    std::unordered_map<std::string, std::vector<std::string>> m_answers; ///< student NUL problem NUL part -> answers

    static std::string key(const std::string& student, const std::string& problem, const std::string& part);
};

} // namespace headcount::serve

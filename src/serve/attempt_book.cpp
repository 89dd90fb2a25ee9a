#include <serve/attempt_book.hpp>

#include <grade/attempt_lines.hpp>
#include <serve/attempt_log.hpp>
#include <util/json_input.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

namespace headcount::serve {

std::string AttemptBook::key(const std::string& student, const std::string& problem, const std::string& part) {
    std::string out = student;
    out += '\0';
    out += problem;
    out += '\0';
    out += part;
    return out;
}

Result<std::size_t> AttemptBook::replay(const std::filesystem::path& log,
                                        const std::function<bool(std::string_view, std::string_view)>& limited) {
    std::error_code ec;
    if (!std::filesystem::exists(log, ec))
        return 0;
    std::ifstream in(log, std::ios::binary);
    if (!in)
        return std::unexpected(Error{log.string(), 0, 0, "cannot read the attempt log to count students' checks"});
    std::size_t counted = 0;
    std::streambuf* bytes = in.rdbuf();
    for (bool more = true; more;) {
        // One line, held only up to the longest an attempt line can be; a longer one is skipped to its end.
        std::string line;
        bool oversized = false;
        for (;;) {
            const int c = bytes->sbumpc();
            if (c == std::char_traits<char>::eof()) {
                more = false;
                break;
            }
            if (c == '\n')
                break;
            if (line.size() < grade::k_max_attempt_line_bytes)
                line.push_back(static_cast<char>(c));
            else
                oversized = true;
        }
        if (oversized || line.empty())
            continue;
        auto object = parse_json_object(line, grade::k_max_attempt_line_bytes);
        if (!object)
            continue;
        std::string fields[5];
        bool whole = true;
        const char* names[5] = {"student", "problem", "part", "answer", "status"};
        for (int i = 0; i < 5 && whole; ++i) {
            auto value = string_member(*object, names[i]);
            whole = value && *value;
            if (whole)
                fields[i] = std::move(**value);
        }
        if (!whole || fields[4] == "unreadable" || !limited(fields[1], fields[2]))
            continue;
        std::vector<std::string>& answers = m_answers[key(fields[0], fields[1], fields[2])];
        if (std::find(answers.begin(), answers.end(), fields[3]) == answers.end()) {
            answers.push_back(std::move(fields[3]));
            ++counted;
        }
    }
    if (in.bad())
        return std::unexpected(Error{log.string(), 0, 0, "cannot read the attempt log to count students' checks"});
    return counted;
}

AttemptBook::Take AttemptBook::take(const std::string& student, const std::string& problem, const std::string& part,
                                    const std::string& answer, int allowed, AttemptsUsed& used) {
    const std::lock_guard lock(m_mutex);
    std::vector<std::string>& answers = m_answers[key(student, problem, part)];
    used.allowed = allowed;
    used.used = static_cast<int>(answers.size());
    if (std::find(answers.begin(), answers.end(), answer) != answers.end())
        return Take::repeat;
    if (used.used >= allowed)
        return Take::exhausted;
    answers.push_back(answer);
    ++used.used;
    return Take::counted;
}

void AttemptBook::give_back(const std::string& student, const std::string& problem, const std::string& part,
                            const std::string& answer) {
    const std::lock_guard lock(m_mutex);
    const auto it = m_answers.find(key(student, problem, part));
    if (it == m_answers.end())
        return;
    const auto at = std::find(it->second.begin(), it->second.end(), answer);
    if (at != it->second.end())
        it->second.erase(at);
}

AttemptsUsed AttemptBook::used(const std::string& student, const std::string& problem, const std::string& part,
                               int allowed) const {
    const std::lock_guard lock(m_mutex);
    const auto it = m_answers.find(key(student, problem, part));
    return AttemptsUsed{it == m_answers.end() ? 0 : static_cast<int>(it->second.size()), allowed};
}

} // namespace headcount::serve

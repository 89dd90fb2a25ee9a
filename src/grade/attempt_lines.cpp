#include <grade/attempt_lines.hpp>

#include <util/json_input.hpp>

#include <fmt/format.h>

namespace headcount::grade {

std::expected<LoggedSubmission, std::string> read_attempt_line(std::string_view line) {
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    auto object = parse_json_object(line, k_max_attempt_line_bytes);
    if (!object)
        return std::unexpected(object.error());
    LoggedSubmission out;
    for (auto [key, field] : {std::pair{"student", &out.student}, std::pair{"problem", &out.problem},
                              std::pair{"part", &out.part}, std::pair{"answer", &out.answer}}) {
        auto value = string_member(*object, key);
        if (!value)
            return std::unexpected(value.error());
        if (!*value) {
            if (std::string_view(key) == "student" && object->contains("student"))
                return std::unexpected("is an anonymous attempt (the server ran without a roster)");
            return std::unexpected(fmt::format("has no '{}'", key));
        }
        *field = std::move(**value);
    }
    return out;
}

Result<std::optional<CsvRecord>> AttemptLogStream::next() {
    for (;;) {
        std::string line;
        bool oversized = false;
        bool ended = false; // a line break or the end of the file was reached
        std::streambuf* buffer = m_in.rdbuf();
        while (!ended) {
            const int c = buffer->sbumpc();
            if (c == std::char_traits<char>::eof()) {
                if (line.empty() && !oversized)
                    return m_in.bad() ? Result<std::optional<CsvRecord>>(
                                            std::unexpected(Error{m_file, m_line, 0, "cannot read the attempt log"}))
                                      : Result<std::optional<CsvRecord>>(std::nullopt);
                break;
            }
            if (++m_bytes_read > m_max_bytes)
                return std::unexpected(
                    Error{m_file, m_line + 1, 0,
                          fmt::format("the file is larger than {} bytes; it is not an attempt log", m_max_bytes)});
            if (c == '\n')
                ended = true;
            else if (line.size() <= k_max_attempt_line_bytes)
                line.push_back(static_cast<char>(c));
            else
                oversized = true;
        }
        ++m_line;
        CsvRecord record;
        record.line = m_line;
        if (oversized || line.size() > k_max_attempt_line_bytes) {
            record.error = fmt::format("line {} is longer than {} KiB", m_line, k_max_attempt_line_bytes / 1024);
            return record;
        }
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        auto submission = read_attempt_line(line);
        if (!submission) {
            record.error = fmt::format("line {} {}", m_line, submission.error());
            return record;
        }
        record.fields = {std::move(submission->student), std::move(submission->problem), std::move(submission->part),
                         std::move(submission->answer)};
        return record;
    }
}

} // namespace headcount::grade

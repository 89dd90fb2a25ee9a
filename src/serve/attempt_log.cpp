#include <serve/attempt_log.hpp>

#include <serve/json_input.hpp>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace headcount::serve {

std::string attempt_line(const Attempt& attempt) {
    using namespace std::chrono;
    const auto millis = time_point_cast<milliseconds>(attempt.time);
    const auto seconds = time_point_cast<std::chrono::seconds>(millis);
    const std::string time = fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03d}Z", seconds, (millis - seconds).count());
    nlohmann::ordered_json line{{"time", time}};
    line["student"] = attempt.student ? nlohmann::ordered_json(*attempt.student) : nlohmann::ordered_json(nullptr);
    line["problem"] = attempt.problem;
    line["part"] = attempt.part;
    line["answer"] = attempt.answer;
    line["status"] = attempt.status;
    line["score"] = attempt.score;
    line["points"] = attempt.points;
    line["mistakes"] = attempt.mistakes;
    return line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

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
                    return m_in.bad() ? Result<std::optional<CsvRecord>>(std::unexpected(
                                            Error{m_file, m_line, 0, "cannot read the attempt log"}))
                                      : Result<std::optional<CsvRecord>>(std::nullopt);
                break;
            }
            if (++m_bytes_read > m_max_bytes)
                return std::unexpected(Error{m_file, m_line + 1, 0,
                                             fmt::format("the file is larger than {} bytes; it is not an attempt log",
                                                         m_max_bytes)});
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

Result<std::unique_ptr<AttemptLog>> AttemptLog::open(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return std::unexpected(Error{path.string(), 0, 0, fmt::format("cannot open the attempt log: {}", std::strerror(errno))});
    std::unique_ptr<AttemptLog> log(new AttemptLog(fd, path.string()));
    struct stat info {};
    if (::fstat(fd, &info) == 0 && info.st_size > 0) {
        char last = '\n';
        if (::pread(fd, &last, 1, info.st_size - 1) == 1 && last != '\n' && ::write(fd, "\n", 1) != 1)
            return std::unexpected(Error{log->m_path, 0, 0, "cannot write to the attempt log"});
    }
    return log;
}

AttemptLog::~AttemptLog() { ::close(m_fd); }

Result<void> AttemptLog::append(const Attempt& attempt) {
    const std::string line = attempt_line(attempt);
    const auto failed = [&](const char* why) {
        return std::unexpected(Error{m_path, 0, 0, fmt::format("cannot write to the attempt log: {}", why)});
    };
    const std::lock_guard lock(m_mutex);
    // A line cut short earlier that could not be taken back then: nothing is appended after it until it is, or
    // the next line would be glued onto it and grade would lose both.
    if (m_cut_from) {
        if (::ftruncate(m_fd, *m_cut_from) != 0)
            return failed(std::strerror(errno));
        m_cut_from.reset();
    }
    // O_APPEND writes land at the end of the file, so the line starts where the file ends now; the mutex keeps
    // every other append of this log from moving that end meanwhile.
    struct stat info {};
    if (::fstat(m_fd, &info) != 0)
        return failed(std::strerror(errno));
    const off_t start = info.st_size;
    std::size_t written = 0;
    while (written < line.size()) {
        const ssize_t n = ::write(m_fd, line.data() + written, line.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const char* why = n < 0 ? std::strerror(errno) : "no space";
            // A full disk (ENOSPC, or EFBIG at a file size limit) usually takes part of the line first: take it
            // back, so the log ends in a whole line and the check that gets 503 leaves no trace in it.
            if (written > 0 && ::ftruncate(m_fd, start) != 0)
                m_cut_from = start;
            return failed(why);
        }
        written += static_cast<std::size_t>(n);
    }
    return {};
}

} // namespace headcount::serve

#include <serve/attempt_log.hpp>

#include <grade/attempt_lines.hpp>
#include <util/json_input.hpp>
#include <util/text.hpp>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
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

namespace {

using grade::k_max_attempt_line_bytes;

/// Where the last line of the log at `fd` (of `size` bytes) starts: just past its last '\n', or 0.
std::optional<std::int64_t> last_line_start(int fd, std::int64_t size) {
    char block[4096];
    for (std::int64_t end = size; end > 0;) {
        const std::int64_t begin = std::max<std::int64_t>(0, end - static_cast<std::int64_t>(sizeof block));
        const auto want = static_cast<std::size_t>(end - begin);
        if (::pread(fd, block, want, begin) != static_cast<ssize_t>(want))
            return std::nullopt;
        for (std::size_t i = want; i > 0; --i)
            if (block[i - 1] == '\n')
                return begin + static_cast<std::int64_t>(i);
        end = begin;
        if (size - end > static_cast<std::int64_t>(k_max_attempt_line_bytes))
            return end; // too long to be a line: no need to find where it starts
    }
    return 0;
}

} // namespace

Result<std::unique_ptr<AttemptLog>> AttemptLog::open(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return std::unexpected(
            Error{path.string(), 0, 0, fmt::format("cannot open the attempt log: {}", std::strerror(errno))});
    std::unique_ptr<AttemptLog> log(new AttemptLog(fd, path.string()));
    const auto cannot = [&](std::string why) { return std::unexpected(Error{log->m_path, 0, 0, std::move(why)}); };
    struct stat info {};
    if (::fstat(fd, &info) != 0 || info.st_size == 0)
        return log;
    const auto start = last_line_start(fd, info.st_size);
    if (!start)
        return cannot("cannot read the attempt log");
    const auto tail = static_cast<std::size_t>(info.st_size - *start);
    if (tail == 0)
        return log;
    if (tail > k_max_attempt_line_bytes)
        return cannot(fmt::format("the attempt log ends in more than {} without a line break, more than a "
                                  "line can be: is this the right file?",
                                  byte_size(k_max_attempt_line_bytes)));
    // An unterminated last line is what a crash or a power cut leaves mid-write (the kernel had part of the line).
    // A whole object that lacks only its line break is kept and ended; anything less is cut away, as a short write
    // is (append), so that grade never meets it and the next line starts on a line of its own.
    std::string last(tail, '\0');
    if (::pread(fd, last.data(), tail, *start) != static_cast<ssize_t>(tail))
        return cannot("cannot read the attempt log");
    if (parse_json_object(last, k_max_attempt_line_bytes)) {
        if (::write(fd, "\n", 1) != 1)
            return cannot("cannot write to the attempt log");
    } else {
        if (::ftruncate(fd, *start) != 0)
            return cannot(
                fmt::format("cannot cut the unfinished last line off the attempt log: {}", std::strerror(errno)));
        log->m_cut_at_open = tail;
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

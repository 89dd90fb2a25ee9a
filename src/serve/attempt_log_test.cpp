// The attempt log's lines, written and read back as grade will read them.
#include <serve/attempt_log.hpp>

#include <grade/attempt_lines.hpp>

#include <util/test_catch.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/resource.h>

using namespace headcount::serve;
using headcount::grade::AttemptLogStream;
using headcount::grade::read_attempt_line;

namespace {
Attempt alice() {
    // 2026-11-22T09:15:02.345Z is 1,795,338,902.345 s after the epoch (date -u -d @1795338902).
    return Attempt{std::chrono::system_clock::time_point(std::chrono::milliseconds(1'795'338'902'345LL)),
                   "alice",
                   "week3-mha-params",
                   "b",
                   "1,048,576 \"params\"",
                   "incorrect",
                   0,
                   3,
                   {"missing_biases"}};
}
std::string read(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Files this process writes cannot grow past `bytes` while it lives: write(2) then writes what fits and returns
/// the short count, and the next write fails with EFBIG, as on a disk that fills mid-line. SIGXFSZ, which would
/// kill the process, is ignored meanwhile. Both are restored on destruction (the soft limit can be raised back up
/// to the hard one).
class FileSizeLimit {
  public:
    explicit FileSizeLimit(rlim_t bytes) {
        REQUIRE(::getrlimit(RLIMIT_FSIZE, &m_saved) == 0);
        m_handler = std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{bytes, m_saved.rlim_max};
        REQUIRE(::setrlimit(RLIMIT_FSIZE, &limit) == 0);
    }
    ~FileSizeLimit() {
        ::setrlimit(RLIMIT_FSIZE, &m_saved);
        std::signal(SIGXFSZ, m_handler);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

  private:
    rlimit m_saved{};
    void (*m_handler)(int) = SIG_DFL;
};

/// Every record grade reads from the log at `path`, or the first line it rejects, as "line N: reason".
std::vector<std::string> grade_rows(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    AttemptLogStream stream(in, path.string());
    std::vector<std::string> rows;
    for (;;) {
        auto record = stream.next();
        REQUIRE(record.has_value());
        if (!*record)
            return rows;
        rows.push_back((*record)->error.empty() ? (*record)->fields.at(3) : "rejected: " + (*record)->error);
    }
}
} // namespace

TEST_CASE("an attempt is one line of JSON with the time in UTC", "[serve]") {
    CHECK(attempt_line(alice()) ==
          R"({"time":"2026-11-22T09:15:02.345Z","student":"alice","problem":"week3-mha-params","part":"b",)"
          R"("answer":"1,048,576 \"params\"","status":"incorrect","score":0.0,"points":3.0,)"
          R"("mistakes":["missing_biases"]})"
          "\n");
    Attempt anonymous = alice();
    anonymous.student.reset();
    CHECK(attempt_line(anonymous).find(R"("student":null)") != std::string::npos);
}

TEST_CASE("read_attempt_line gives grade the submission, or the reason it cannot", "[serve]") {
    std::string line = attempt_line(alice());
    line.pop_back();
    const auto row = read_attempt_line(line);
    REQUIRE(row.has_value());
    CHECK(row->student == "alice");
    CHECK(row->problem == "week3-mha-params");
    CHECK(row->part == "b");
    CHECK(row->answer == "1,048,576 \"params\"");
    CHECK(read_attempt_line(line + "\r").has_value()); // a log copied through Windows

    Attempt anonymous = alice();
    anonymous.student.reset();
    std::string anon = attempt_line(anonymous);
    anon.pop_back();
    CHECK(read_attempt_line(anon).error() == "is an anonymous attempt (the server ran without a roster)");
    CHECK(read_attempt_line(R"({"student":"a","problem":"p","part":"b"})").error() == "has no 'answer'");
    CHECK(read_attempt_line(R"({"student":"a","problem":"p","part":2,"answer":"1"})").error() ==
          "'part' must be a string");
    CHECK(read_attempt_line("{\"student\":").error() == "is not JSON");
    CHECK(read_attempt_line("[1,2]").error() == "is not a JSON object");
    CHECK(read_attempt_line(std::string(100'000, '[')).error() == "is longer than 16 KiB");
    CHECK(read_attempt_line(std::string(50, '[') + std::string(50, ']')).error() == "nests too deeply");
    CHECK(read_attempt_line("{\"student\":\"\xff\"}").error() == "is not UTF-8");
}

TEST_CASE("the log appends whole lines, and cuts away a line a crash left unfinished", "[serve]") {
    const auto dir = std::filesystem::temp_directory_path() / "headcount-attempt-log-test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto path = dir / "attempts.jsonl";
    Attempt before = alice();
    before.answer = "before the power cut";
    // What a power cut leaves: the kernel had written the start of the last line, not its end (16 bytes).
    std::ofstream(path) << attempt_line(before) << R"({"time":"cut off)";
    {
        auto log = AttemptLog::open(path);
        REQUIRE(log.has_value());
        CHECK((*log)->cut_at_open() == 16);
        REQUIRE((*log)->append(alice()).has_value());
        REQUIRE((*log)->append(alice()).has_value());
    }
    CHECK(read(path) == attempt_line(before) + attempt_line(alice()) + attempt_line(alice()));
    // grade reads every line: nothing rejected, where before the cut line was a rejected row.
    CHECK(grade_rows(path) ==
          std::vector<std::string>{"before the power cut", "1,048,576 \"params\"", "1,048,576 \"params\""});
    // A log holding only a cut line is left empty.
    std::ofstream(dir / "only-cut.jsonl") << R"({"time":"2026-11-22T09:15)";
    REQUIRE(AttemptLog::open(dir / "only-cut.jsonl").has_value());
    CHECK(std::filesystem::file_size(dir / "only-cut.jsonl") == 0);
    // A last line that lacks only its line break (the object is whole) is kept, and ended.
    std::string whole = attempt_line(alice());
    whole.pop_back();
    std::ofstream(dir / "unended.jsonl") << attempt_line(before) << whole;
    {
        auto log = AttemptLog::open(dir / "unended.jsonl");
        REQUIRE(log.has_value());
        CHECK((*log)->cut_at_open() == 0);
    }
    CHECK(read(dir / "unended.jsonl") == attempt_line(before) + attempt_line(alice()));
    // More than 16 KiB without a line break is no cut line but the wrong file: refused, and left as it was.
    const std::string other = "line\n" + std::string(20'000, 'x');
    std::ofstream(dir / "other.bin") << other;
    const auto refused = AttemptLog::open(dir / "other.bin");
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message == "the attempt log ends in more than 16 KiB without a line break, more than a line "
                                     "can be: is this the right file?");
    CHECK(read(dir / "other.bin") == other);
    // A new log is the instructor's alone: answers are student records.
    REQUIRE(AttemptLog::open(dir / "new.jsonl").has_value());
    CHECK((std::filesystem::status(dir / "new.jsonl").permissions() & std::filesystem::perms::all) ==
          (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
    CHECK_FALSE(AttemptLog::open(dir / "no-such-dir" / "x.jsonl").has_value());
}

TEST_CASE("a write cut short by a full disk is taken back: the log still ends in a whole line", "[serve]") {
    const auto dir = std::filesystem::temp_directory_path() / "headcount-attempt-log-full";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto path = dir / "attempts.jsonl";
    auto opened = AttemptLog::open(path);
    REQUIRE(opened.has_value());
    AttemptLog& log = **opened;
    Attempt first = alice(), lost = alice(), later = alice();
    first.answer = "first";
    lost.answer = "lost to the full disk";
    later.answer = "after space came back";
    REQUIRE(log.append(first).has_value());
    const auto whole = std::filesystem::file_size(path);
    REQUIRE(whole == attempt_line(first).size());
    {
        // Room for half of the next line: the first write(2) is short, the second fails (EFBIG). Twice, as a
        // server keeps taking checks while the disk is full.
        const FileSizeLimit full(whole + attempt_line(lost).size() / 2);
        const auto refused = log.append(lost);
        REQUIRE_FALSE(refused.has_value());
        CHECK(refused.error().message.starts_with("cannot write to the attempt log: "));
        CHECK(std::filesystem::file_size(path) == whole);
        CHECK_FALSE(log.append(lost).has_value());
        CHECK(std::filesystem::file_size(path) == whole);
    }
    REQUIRE(log.append(later).has_value());
    CHECK(read(path) == attempt_line(first) + attempt_line(later));
    // What grade reads back: every answer the server confirmed, each line whole, nothing rejected.
    CHECK(grade_rows(path) == std::vector<std::string>{"first", "after space came back"});
}

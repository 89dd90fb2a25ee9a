// The attempt log's lines, written and read back as grade will read them.
#include <serve/attempt_log.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace headcount::serve;

namespace {
Attempt alice() {
    // 2026-11-22T09:15:02.345Z is 1,795,338,902.345 s after the epoch (date -u -d @1795338902).
    return Attempt{std::chrono::system_clock::time_point(std::chrono::milliseconds(1'795'338'902'345LL)),
                   "alice", "week3-mha-params", "b", "1,048,576 \"params\"", "incorrect", 0, 3, {"missing_biases"}};
}
std::string read(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
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

TEST_CASE("the log appends whole lines, and mends a line cut off by a crash", "[serve]") {
    const auto dir = std::filesystem::temp_directory_path() / "headcount-attempt-log-test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto path = dir / "attempts.jsonl";
    std::ofstream(path) << R"({"time":"cut off)";
    {
        auto log = AttemptLog::open(path);
        REQUIRE(log.has_value());
        REQUIRE((*log)->append(alice()).has_value());
        REQUIRE((*log)->append(alice()).has_value());
    }
    const std::string text = read(path);
    CHECK(text == std::string(R"({"time":"cut off)") + "\n" + attempt_line(alice()) + attempt_line(alice()));
    // A new log is the instructor's alone: answers are student records.
    REQUIRE(AttemptLog::open(dir / "new.jsonl").has_value());
    CHECK((std::filesystem::status(dir / "new.jsonl").permissions() & std::filesystem::perms::all) ==
          (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
    CHECK_FALSE(AttemptLog::open(dir / "no-such-dir" / "x.jsonl").has_value());
}

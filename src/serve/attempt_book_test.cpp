#include <serve/attempt_book.hpp>

#include <util/test_catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace headcount::serve;

TEST_CASE("a part's checks are counted per student; repeats and unreadable answers are free", "[serve][attempts]") {
    AttemptBook book(std::nullopt);
    AttemptsUsed used;
    CHECK(book.take("alice", "p", "b", "1", 2, used) == AttemptBook::Take::counted);
    CHECK(used.used == 1);
    CHECK(used.left() == 1);
    // The same text again tells the student nothing new.
    CHECK(book.take("alice", "p", "b", "1", 2, used) == AttemptBook::Take::repeat);
    CHECK(used.used == 1);
    CHECK(book.take("alice", "p", "b", "2", 2, used) == AttemptBook::Take::counted);
    CHECK(used.left() == 0);
    CHECK(book.take("alice", "p", "b", "3", 2, used) == AttemptBook::Take::exhausted);
    CHECK(used.used == 2);
    CHECK(book.take("alice", "p", "b", "2", 2, used) == AttemptBook::Take::repeat);
    // Another part, another student: their own counts.
    CHECK(book.take("alice", "p", "a", "3", 2, used) == AttemptBook::Take::counted);
    CHECK(book.take("bob", "p", "b", "3", 2, used) == AttemptBook::Take::counted);
    // A check given back (an unreadable answer) frees its place.
    book.give_back("alice", "p", "b", "2");
    CHECK(book.used("alice", "p", "b", 2).used == 1);
    CHECK(book.take("alice", "p", "b", "3", 2, used) == AttemptBook::Take::counted);
}

TEST_CASE("the counts are replayed from the attempt log, so a restart forgives nothing", "[serve][attempts]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("headcount-attempts-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path log = dir / "attempts.jsonl";
    std::ofstream(log)
        << R"({"time":"t","student":"alice","problem":"p","part":"b","answer":"1","status":"incorrect"})"
           "\n"
        << R"({"time":"t","student":"alice","problem":"p","part":"b","answer":"1","status":"incorrect"})"
           "\n"
        << R"({"time":"t","student":"alice","problem":"p","part":"b","answer":"x","status":"unreadable"})"
           "\n"
        << R"({"time":"t","student":null,"problem":"p","part":"b","answer":"2","status":"incorrect"})"
           "\n"
        << "not json\n"
        << R"({"time":"t","student":"alice","problem":"p","part":"b","answer":"1.05M","status":"rounded"})";
    AttemptBook book(3);
    const auto all = [](std::string_view, std::string_view) { return true; };
    // alice: "1" once (its repeat is free), "1.05M"; the unreadable, the anonymous and the broken lines count nothing.
    CHECK(book.replay(log, all) == 2);
    CHECK(book.used("alice", "p", "b", 3).used == 2);
    AttemptsUsed used;
    CHECK(book.take("alice", "p", "b", "7", 3, used) == AttemptBook::Take::counted);
    CHECK(book.take("alice", "p", "b", "8", 3, used) == AttemptBook::Take::exhausted);
    CHECK(AttemptBook(std::nullopt).replay(dir / "none.jsonl", all) == 0u);
    // Parts without a limit are not remembered at all.
    AttemptBook other(3);
    CHECK(other.replay(log, [](std::string_view, std::string_view part) { return part != "b"; }) == 0u);
    CHECK(other.used("alice", "p", "b", 3).used == 0);
    fs::remove_all(dir);
}

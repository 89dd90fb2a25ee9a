#include <grade/results_log.hpp>
#include <grade/verdict_table.hpp>
#include <solve/asks.hpp>
#include <spec/test_givens.hpp>

#include <util/test_catch.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <random>
#include <sstream>

using namespace headcount;

TEST_CASE("results.jsonl strings are escaped exactly as nlohmann::json writes them", "[grade][results]") {
    // The log is written by hand for speed; the reference is the library that wrote it before.
    std::mt19937 random(7);
    const std::string alphabet = std::string("aZ09 ,\"\\/\b\f\n\r\t\x01\x1f\x7f") + "é€😀";
    for (int i = 0; i < 2000; ++i) {
        std::string text;
        const int length = static_cast<int>(random() % 12);
        for (int k = 0; k < length; ++k)
            text += alphabet[random() % alphabet.size()]; // may cut a UTF-8 character: invalid text too
        INFO("text of " << text.size() << " bytes");
        CHECK(grade::json_string(text) ==
              nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
}

TEST_CASE("superseded rows are rewritten in place, the rest copied", "[grade][results]") {
    std::istringstream in("{\"line\":2,\"outcome\":\"graded\",\"student\":\"a\",\"problem\":\"p\",\"part\":\"b\","
                          "\"answer\":\"1\",\"status\":\"incorrect\",\"score\":0.0,\"points\":3.0,\"mistakes\":[]}\n"
                          "{\"line\":3,\"outcome\":\"rejected\",\"student\":\"\",\"problem\":\"\",\"part\":\"\","
                          "\"answer\":\"\",\"reason\":\"malformed row\"}\n");
    std::ostringstream out;
    REQUIRE(grade::mark_superseded(in, out, {{0, 4}}).has_value());
    CHECK(out.str() == "{\"line\":2,\"outcome\":\"superseded\",\"student\":\"a\",\"problem\":\"p\",\"part\":\"b\","
                       "\"answer\":\"1\",\"reason\":\"superseded by the answer on line 4\"}\n"
                       "{\"line\":3,\"outcome\":\"rejected\",\"student\":\"\",\"problem\":\"\",\"part\":\"\","
                       "\"answer\":\"\",\"reason\":\"malformed row\"}\n");
}

TEST_CASE("results.jsonl lines are the same past the cache of formatted verdicts", "[grade][results]") {
    // The week-3 problem, part b: 4 * 512 * 513 = 1,050,624 parameters (by hand), 3 points.
    auto solved = solve::solve_problem(testing::week3_part_b());
    REQUIRE(solved.has_value());
    grade::VerdictTable table(*solved, solved->parts[0]);
    std::ostringstream out;
    grade::ResultsLog log(out);
    // More distinct answers than the log caches, then the right one and a wrong one once more: every line says
    // what its own answer earned, cached or not.
    const std::size_t wrong = grade::ResultsLog::k_cached_verdicts + 10;
    for (std::size_t i = 0; i <= wrong + 1; ++i) {
        grade::RowResult row;
        row.line = static_cast<int>(i) + 2;
        row.outcome = grade::RowOutcome::graded;
        const std::string answer = i == wrong ? "1050624" : std::to_string(10'000'000 + (i == wrong + 1 ? 3 : i));
        row.student = "s";
        row.problem = "week3";
        row.part = "b";
        row.answer = answer;
        row.table = &table;
        row.answer_id = table.intern(answer);
        log.write(row);
    }
    std::vector<std::string> lines;
    std::istringstream in(out.str());
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    REQUIRE(lines.size() == wrong + 2);
    CHECK(lines[3].ends_with(",\"answer\":\"10000003\",\"status\":\"incorrect\",\"score\":0.0,\"points\":3.0,"
                             "\"mistakes\":[]}"));
    CHECK(lines[wrong].ends_with(",\"answer\":\"1050624\",\"status\":\"correct\",\"score\":3.0,\"points\":3.0,"
                                 "\"mistakes\":[]}"));
    CHECK(lines[wrong + 1].substr(lines[wrong + 1].find(",\"answer\"")) ==
          lines[3].substr(lines[3].find(",\"answer\"")));
    CHECK(lines[wrong - 1].ends_with(fmt::format(",\"answer\":\"{}\",\"status\":\"incorrect\",\"score\":0.0,"
                                                 "\"points\":3.0,\"mistakes\":[]}}",
                                                 10'000'000 + wrong - 1)));
}

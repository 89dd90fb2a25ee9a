#include <grade/verdict_table.hpp>

#include <solve/asks.hpp>
#include <spec/test_givens.hpp>

#include <util/test_catch.hpp>

#include <string>

using namespace headcount;
using namespace headcount::grade;

TEST_CASE("a verdict table keeps k_kept verdicts and grades later answers again, the same way", "[grade][table]") {
    // The week-3 problem, part b: 4 * 512 * 513 = 1,050,624 parameters (by hand), 3 points; leaving out the four
    // biases gives 4 * 512^2 = 1,048,576 (the mistake "missing_biases").
    auto solved = solve::solve_problem(testing::week3_part_b());
    REQUIRE(solved.has_value());
    VerdictTable table(*solved, solved->parts[0]);

    // Distinct wrong answers far from every catalogued value fill the table.
    for (std::size_t i = 0; i < VerdictTable::k_kept; ++i)
        REQUIRE(table.intern(std::to_string(20'000'000 + i)) == i);
    CHECK(table.intern("20000000") == 0); // a kept answer is found again
    const std::uint32_t right = table.intern("4*512*513");
    const std::uint32_t no_bias = table.intern("1,048,576");
    const std::uint32_t again = table.intern("4*512*513");
    CHECK(right == VerdictTable::k_kept);
    CHECK_FALSE(table.kept(right));
    CHECK(again != right); // not kept: a repeat is a new answer

    CHECK(table.summary(right).status == Status::correct);
    CHECK(table.summary(right).score == 3);
    CHECK(table.summary(no_bias).status == Status::incorrect);
    CHECK(table.summary(0).status == Status::incorrect);

    Verdict scratch;
    const Verdict& regraded = table.verdict(right, scratch); // neither kept nor the last interned: graded again
    CHECK(&regraded == &scratch);
    CHECK(regraded.status == Status::correct);
    CHECK(regraded.answer == "4*512*513");
    CHECK(regraded.read->count == 1'050'624);
    const Verdict& mistake = table.verdict(no_bias, scratch);
    REQUIRE(mistake.matches.size() == 1);
    REQUIRE(mistake.matches.front().mistakes.size() == 1);
    CHECK(mistake.matches.front().mistakes.front()->id == std::string_view("missing_biases"));
    const Verdict& last = table.verdict(again, scratch); // the last one interned is kept for the results log
    CHECK(&last != &scratch);
    CHECK(last.status == Status::correct);
}

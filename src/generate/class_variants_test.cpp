#include <generate/class_variants.hpp>

#include <generate/key.hpp>
#include <generate/variants.hpp>

#include <generate/test_problems.hpp>

#include <util/test_catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace headcount;
using namespace headcount::generate;
using testing::varied;

namespace {

/// `problem`, solved, as a class's only problem.
std::vector<solve::SolvedProblem> one_problem(const spec::Problem& problem) {
    auto solved = solve::solve_problem(problem);
    REQUIRE(solved.has_value());
    std::vector<solve::SolvedProblem> out;
    out.push_back(std::move(*solved));
    return out;
}

/// Week 3's vary: 5 widths x 3 head counts x 2 bias flags, every h dividing every width: 30 valid variants.
const std::vector<spec::Variation> k_week3_vary{
    {"d_model", {256, 384, 512, 768, 1024}, {}}, {"h", {4, 8, 16}, {}}, {"bias", {1, 0}, {}}};

} // namespace

TEST_CASE("a student's variant depends only on seed, student and problem", "[generate]") {
    const auto problems = one_problem(varied(k_week3_vary));
    const std::vector<std::string> klass{"alice", "bob", "chen", "dana"};
    const std::vector<std::string> renamed{"alice", "bob", "chen", "dana-smith"};
    auto first = ClassVariants::seeded(problems, klass, "fall-2026");
    auto again = ClassVariants::seeded(problems, klass, "fall-2026");
    auto other = ClassVariants::seeded(problems, renamed, "fall-2026");
    REQUIRE(first.has_value());
    REQUIRE(again.has_value());
    REQUIRE(other.has_value());
    for (const char* s : {"alice", "bob", "chen"}) {
        CHECK(first->index(0, s) == again->index(0, s));
        CHECK(first->index(0, s) == other->index(0, s)); // renaming dana changes nobody else
    }
    // The README's draw, spelled out: SplitMix64 seeded with FNV-1a 64 of "headcount-variant-v1" NUL seed NUL
    // problem id NUL student id, one draw below the number of valid variants.
    using namespace std::string_literals;
    for (const std::string& s : klass) {
        SplitMix64 stream(fnv1a64("headcount-variant-v1\0fall-2026\0week3\0"s + s));
        CHECK(first->index(0, s) == stream.below(30));
    }
    // Another seed gives another set of numbers (for four students over 30 variants, a coincidence of all four
    // would be a one-in-810,000 event).
    auto reseeded = ClassVariants::seeded(problems, klass, "spring-2027");
    REQUIRE(reseeded.has_value());
    int same = 0;
    for (const std::string& s : klass)
        same += first->index(0, s) == reseeded->index(0, s);
    CHECK(same < 4);
    CHECK(first->index(0, "erin").error() == "student 'erin' is not on the roster, so their numbers are unknown");
}

TEST_CASE("students who share a variant share one solved copy", "[generate]") {
    // 200 students over 30 variants: some share one. Each index is solved once, and a student's variant is the
    // one whose givens the index names in valid_variants order.
    const auto problems = one_problem(varied(k_week3_vary));
    std::vector<std::string> klass;
    for (int i = 0; i < 200; ++i)
        klass.push_back("s" + std::to_string(i));
    auto table = ClassVariants::seeded(problems, klass, "fall-2026");
    REQUIRE(table.has_value());
    const auto valid = valid_variants(problems[0].problem);
    REQUIRE(valid.has_value());
    std::set<std::uint32_t> indices;
    std::set<const solve::SolvedProblem*> copies;
    for (const std::string& s : klass) {
        const auto index = table->index(0, s);
        const auto variant = table->find(0, s);
        REQUIRE(index.has_value());
        REQUIRE(variant.has_value());
        indices.insert(*index);
        copies.insert(*variant);
        CHECK(*table->variant(0, *index) == *variant);
        CHECK((*variant)->problem.given.d_model == (*valid)[*index].given.d_model);
        CHECK((*variant)->problem.given.h == (*valid)[*index].given.h);
    }
    CHECK(copies.size() == indices.size());
    CHECK(indices.size() < klass.size());
    const std::vector<std::uint32_t> handed_out = table->handed_out(0);
    CHECK(std::set<std::uint32_t>(handed_out.begin(), handed_out.end()) == indices);
    CHECK(std::is_sorted(handed_out.begin(), handed_out.end()));
}

TEST_CASE("a value a vary: list repeats makes equal variants, which are one", "[generate]") {
    // h: [8, 8, 8, 4] weights h = 8 three to one; the four valid variants are two different ones, 0 and 3.
    const auto problems = one_problem(varied({{"h", {8, 8, 8, 4}, {}}}));
    std::vector<std::string> klass;
    for (int i = 0; i < 50; ++i)
        klass.push_back("s" + std::to_string(i));
    auto table = ClassVariants::seeded(problems, klass, "fall-2026");
    REQUIRE(table.has_value());
    for (const std::string& s : klass) {
        const auto index = table->index(0, s);
        REQUIRE(index.has_value());
        CHECK((*index == 0 || *index == 3));
        CHECK((*table->find(0, s))->problem.given.h == (*index == 0 ? 8 : 4));
    }
    CHECK(table->handed_out(0) == std::vector<std::uint32_t>{0, 3}); // 50 draws of 1 in 4 miss 3 once in 1.8M
}

TEST_CASE("distinct: true gives every student different answers, or says why it cannot", "[generate]") {
    // d_model from 256 to 1,664 in steps of 128: 12 values, and the total 4 d^2 + 4 d grows with d, so 12
    // students get 12 different totals.
    std::vector<std::int64_t> widths;
    for (std::int64_t d = 256; d <= 1664; d += 128)
        widths.push_back(d);
    const auto problems = one_problem(varied({{"d_model", widths, {}}}, true));
    const std::vector<std::string> klass{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"};
    auto variants = ClassVariants::seeded(problems, klass, "s");
    REQUIRE(variants.has_value());
    std::set<Count> totals;
    for (const std::string& s : klass)
        totals.insert((*variants->find(0, s))->parts.front().answer.count);
    CHECK(totals.size() == 12);
    CHECK(variants->handed_out(0).size() == 12);

    // Week 3's vary: 30 variants, but the total does not depend on h: 4 d^2 + 4 d with biases, 4 d^2 without, 10
    // different numbers (4 d^2 < 4 d^2 + 4 d < 4 (d + 1)^2, so no two coincide). Ten students get ten totals; an
    // eleventh cannot.
    const auto week3 = one_problem(varied(k_week3_vary, true));
    const std::vector<std::string> ten{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
    auto assigned = ClassVariants::seeded(week3, ten, "fall-2026");
    REQUIRE(assigned.has_value());
    totals.clear();
    for (const std::string& s : ten)
        totals.insert((*assigned->find(0, s))->parts.front().answer.count);
    CHECK(totals.size() == 10);
    std::vector<std::string> eleven = ten;
    eleven.push_back("k");
    auto error = ClassVariants::seeded(week3, eleven, "fall-2026");
    REQUIRE_FALSE(error.has_value());
    CHECK(error.error().message == "distinct: true gives every student different answers, but part 'b' "
                                   "(total_params) has only 10 different answers across the 30 variants of vary, "
                                   "for 11 students: vary a given this part depends on");
}

TEST_CASE("a key gives back the variants it was written from", "[generate]") {
    // Without h in the key's answer (the total does not depend on it), a key holds d_model and bias only: the
    // first variant with those answers is the one with h = 4, the first h in the list.
    const auto problems = one_problem(varied(k_week3_vary));
    const std::vector<std::string> klass{"alice", "bob", "chen", "dana", "erin", "femi"};
    auto seeded = ClassVariants::seeded(problems, klass, "fall-2026");
    REQUIRE(seeded.has_value());
    auto csv = answer_key_csv(problems, *seeded, klass);
    REQUIRE(csv.has_value());
    std::istringstream key(*csv);
    auto recovered = ClassVariants::from_key(problems, key, "key.csv");
    REQUIRE(recovered.has_value());
    CHECK(recovered->students() == klass.size());
    for (const std::string& s : klass) {
        const spec::MhaGivens& drawn = (*seeded->find(0, s))->problem.given;
        const spec::MhaGivens& read = (*recovered->find(0, s))->problem.given;
        CHECK(read.d_model == drawn.d_model);
        CHECK(read.bias.q == drawn.bias.q);
        CHECK(read.h == 4);
    }
    CHECK(recovered->index(0, "gus").error() == "student 'gus' is not on the roster, so their numbers are unknown");
}

TEST_CASE("one student's table for a check: their own variants, a roster only where the class decides them",
          "[generate]") {
    const auto problems = one_problem(varied(k_week3_vary));
    // Without distinct: true a variant depends on the seed, the student and the problem alone (the first test
    // case), so a class of one gives bob the variant a class of three gives him.
    auto alone = ClassVariants::for_student(problems, "bob", "", "fall-2026");
    auto klass = ClassVariants::seeded(problems, std::vector<std::string>{"alice", "bob", "chen"}, "fall-2026");
    REQUIRE(alone.has_value());
    REQUIRE(klass.has_value());
    CHECK(alone->students() == 1);
    CHECK(alone->index(0, "bob") == klass->index(0, "bob"));
    // An id no roster could hold is refused before anything is drawn.
    CHECK(ClassVariants::for_student(problems, "../bob", "", "fall-2026").error().message ==
          "student id '../bob' contains '/', which cannot be in a file name");

    // With distinct: true the class's variants are assigned together: the roster is needed, and bob must be on it.
    const auto distinct = one_problem(varied(k_week3_vary, true));
    const auto no_roster = ClassVariants::for_student(distinct, "bob", "", "fall-2026");
    REQUIRE_FALSE(no_roster.has_value());
    CHECK(no_roster.error().message == "this problem gives every student distinct numbers, which depend on the "
                                       "whole class: pass --roster too");
    const auto dir = std::filesystem::temp_directory_path() / ("headcount-for-student-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string roster = (dir / "roster.csv").string();
    std::ofstream(roster) << "student\nalice\nbob\nchen\n";
    const std::string others = (dir / "others.csv").string();
    std::ofstream(others) << "student\nalice\nchen\n";
    const auto not_on = ClassVariants::for_student(distinct, "bob", others, "fall-2026");
    REQUIRE_FALSE(not_on.has_value());
    CHECK(not_on.error().file == others);
    CHECK(not_on.error().message == "student 'bob' is not on the roster");
    auto checked = ClassVariants::for_student(distinct, "bob", roster, "fall-2026");
    auto assigned = ClassVariants::seeded(distinct, std::vector<std::string>{"alice", "bob", "chen"}, "fall-2026");
    REQUIRE(checked.has_value());
    REQUIRE(assigned.has_value());
    CHECK(checked->index(0, "bob") == assigned->index(0, "bob"));
    std::filesystem::remove_all(dir);
}

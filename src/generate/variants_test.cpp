#include <generate/variants.hpp>

#include <spec/givens.hpp>

#include <catch2/catch.hpp>

#include <set>

using namespace headcount;
using namespace headcount::generate;

namespace {

spec::Problem varied(std::vector<spec::Variation> vary, bool distinct = false) {
    spec::Problem p;
    p.file = "p.yaml";
    p.id = "week3";
    p.given.d_model = 512;
    p.given.h = 8;
    p.parts = {spec::Part{"b", "total_params", 3, {}, {}, {}, {}}};
    p.vary = std::move(vary);
    p.distinct = distinct;
    return p;
}

} // namespace

TEST_CASE("FNV-1a 64 matches the published test vectors", "[generate]") {
    // Fowler/Noll/Vo's reference test suite (isthe.com/chongo/tech/comp/fnv): offset basis, "a", "foobar".
    CHECK(fnv1a64("") == 0xcbf29ce484222325ULL);
    CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cULL);
    CHECK(fnv1a64("foobar") == 0x85944171f73967e8ULL);
}

TEST_CASE("SplitMix64 matches the reference sequence", "[generate]") {
    // Vigna's splitmix64.c seeded with 0 starts e220a8397b1dcdaf, 6e789e6aa1b965f4, 06c45d188009454f.
    SplitMix64 g(0);
    CHECK(g.next() == 0xe220a8397b1dcdafULL);
    CHECK(g.next() == 0x6e789e6aa1b965f4ULL);
    CHECK(g.next() == 0x06c45d188009454fULL);
}

TEST_CASE("below() stays in range and reaches every value", "[generate]") {
    SplitMix64 g(42);
    std::vector<int> seen(7, 0);
    for (int i = 0; i < 7000; ++i)
        ++seen[g.below(7)];
    for (int count : seen)
        CHECK(count > 800); // each of 7 values about 1000 times; far from 0 whatever the seed
}

TEST_CASE("valid variants pass the hand-written spec's checks", "[generate]") {
    // d_model in {256, 384, 512} x h in {4, 6, 8}: h must divide d_model. 256: 4, 8; 384: 4, 6, 8; 512: 4, 8.
    auto variants = valid_variants(varied({{"d_model", {256, 384, 512}, {}}, {"h", {4, 6, 8}, {}}}));
    REQUIRE(variants.has_value());
    CHECK(variants->size() == 7);
    for (const auto& g : *variants)
        CHECK_FALSE(spec::check_givens(g).has_value());
    CHECK(variants->front().d_model == 256);
    CHECK(variants->front().h == 4);

    auto none = valid_variants(varied({{"d_model", {250, 130}, {}}, {"h", {4, 8}, {}}}));
    REQUIRE_FALSE(none.has_value());
    CHECK(none.error().message == "none of the 4 combinations in vary is a valid problem (for example, h must divide "
                                  "d_model when d_k and d_v are not given)");
}

TEST_CASE("a student's variant depends only on seed, student and problem", "[generate]") {
    const auto problem = varied({{"d_model", {256, 384, 512, 768, 1024}, {}}, {"h", {4, 8, 16}, {}},
                                 {"bias", {1, 0}, {}}});
    const std::vector<std::string> klass{"alice", "bob", "chen", "dana"};
    const std::vector<std::string> renamed{"alice", "bob", "chen", "dana-smith"};
    auto first = assign_variants(problem, klass, "fall-2026");
    auto again = assign_variants(problem, klass, "fall-2026");
    auto other = assign_variants(problem, renamed, "fall-2026");
    REQUIRE(first.has_value());
    REQUIRE(other.has_value());
    for (const std::string& s : {"alice", "bob", "chen"}) {
        CHECK(first->at(s).mha.total == again->at(s).mha.total);
        CHECK(first->at(s).mha.total == other->at(s).mha.total); // renaming dana changes nobody else
    }
    // Another seed gives another set of numbers (for four students over 30 variants, a coincidence of all four
    // would be a one-in-810,000 event).
    auto reseeded = assign_variants(problem, klass, "spring-2027");
    int same = 0;
    for (const std::string& s : klass)
        same += first->at(s).problem.given.d_model == reseeded->at(s).problem.given.d_model &&
                first->at(s).problem.given.h == reseeded->at(s).problem.given.h &&
                first->at(s).problem.given.bias.q == reseeded->at(s).problem.given.bias.q;
    CHECK(same < 4);
}

TEST_CASE("distinct: true gives every student different numbers, or says why it cannot", "[generate]") {
    const auto problem = varied({{"h", {1, 2, 4, 8, 16, 32}, {}}, {"d_model", {512, 1024}, {}}}, true);
    const std::vector<std::string> klass{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"};
    auto variants = assign_variants(problem, klass, "s");
    REQUIRE(variants.has_value());
    std::set<std::pair<Count, Count>> seen;
    for (const auto& [student, solved] : *variants)
        seen.insert({solved.problem.given.d_model, solved.problem.given.h});
    CHECK(seen.size() == 12); // all 6 x 2 variants, one each

    const std::vector<std::string> too_many{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m"};
    auto error = assign_variants(problem, too_many, "s");
    REQUIRE_FALSE(error.has_value());
    CHECK(error.error().message == "distinct: true needs a variant per student, but vary admits only 12 valid "
                                   "variants for 13 students");
}

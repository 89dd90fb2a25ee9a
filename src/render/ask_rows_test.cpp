// Every ask is a row (solve/asks.cpp) plus its templates. These tests fail when a row is incomplete: a template
// missing, or a group that does not match the shared explanation its solution's template includes.

#include <render/solution.hpp>

#include <util/test_catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

using namespace headcount;

namespace {

/// The text of a shipped template, read from the repository (not through the code under test).
std::string template_source(const std::string& relative) {
    std::ifstream in(std::filesystem::path(HEADCOUNT_SOURCE_DIR) / "templates" / relative);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

TEST_CASE("every ask has its solution and its question template", "[asks][catalogue]") {
    const render::TemplateSet builtin = render::TemplateSet::builtin();
    for (const solve::Ask& ask : solve::asks()) {
        INFO(ask.id);
        CHECK(builtin.has(render::solution_template(ask)));
        CHECK(builtin.has(render::question_template(ask)));
    }
    CHECK(render::solution_template(*solve::find_ask("flops.training")) == "transformer/flops.training");
    CHECK(render::question_template(*solve::find_ask("q_params")) == "partials/question_q_params");
}

TEST_CASE("an ask's group is the shared explanation its solution includes", "[asks][catalogue]") {
    // Each group's explanation is a partial that the solutions of the group, and no other, include; templates show
    // it in full only in the group's first part (earlier.<group>).
    const std::map<std::string, std::string> partial_of_group{{"heads", "{{> heads}}"},
                                                              {"flops", "{{> flops_conventions}}"},
                                                              {"shapes", "{{> shape_walk}}"},
                                                              {"memory", "{{> memory_dtype}}"}};
    REQUIRE(partial_of_group.size() == solve::k_ask_groups.size());
    std::map<std::string, int> members;
    for (const solve::Ask& ask : solve::asks()) {
        const std::string source = template_source(std::string(ask.kind) + "/" + std::string(ask.id) + ".mustache");
        REQUIRE_FALSE(source.empty());
        for (const auto& [group, partial] : partial_of_group) {
            INFO(ask.id << " and group " << group);
            CHECK((source.find(partial) != std::string::npos) == (ask.group == group));
        }
        ++members[std::string(ask.group)];
    }
    // Counted from templates/: ten parameter counts explain the heads, eight compute asks, twelve shapes, four
    // memory asks; the rest share nothing.
    CHECK(members["heads"] == 10);
    CHECK(members["flops"] == 8);
    CHECK(members["shapes"] == 12);
    CHECK(members["memory"] == 4);
    CHECK(members[""] == 7);
}

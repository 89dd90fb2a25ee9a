#include <render/solution.hpp>
#include <render/templates.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace headcount;
using render::TemplateSet;
using render::View;

namespace {

/// A templates directory of its own for one test, with the given files (name -> text).
std::filesystem::path make_templates(const std::string& name, const std::map<std::string, std::string>& files) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("headcount-templates-" + std::to_string(::getpid())) / name;
    std::filesystem::remove_all(dir);
    for (const auto& [file, text] : files) {
        std::filesystem::create_directories((dir / file).parent_path());
        std::ofstream(dir / file) << text;
    }
    return dir;
}

const View k_view{{"title", "MHA"}, {"total", "1,050,624"}, {"rows", View::array({View{{"name", "Q"}}})}};

} // namespace

TEST_CASE("templates render with partials and sections", "[render]") {
    const auto dir = make_templates("ok", {{"doc.mustache", "# {{title}}\n{{#rows}}{{> row}}{{/rows}}"},
                                           {"partials/row.mustache", "- {{name}} of {{total}}"}});
    auto set = TemplateSet::load(dir);
    REQUIRE(set.has_value());
    auto out = set->render("doc", k_view);
    REQUIRE(out.has_value());
    CHECK(*out == "# MHA\n- Q of 1,050,624");
}

TEST_CASE("a template naming a value headcount does not provide is an error, not a blank", "[render]") {
    SECTION("a misspelt variable, with its line and column and a suggestion") {
        const auto dir = make_templates("typo", {{"doc.mustache", "# {{title}}\n\nTotal: **{{totl}}**\n"}});
        auto out = TemplateSet::load(dir)->render("doc", k_view);
        REQUIRE_FALSE(out.has_value());
        CHECK(out.error().to_string() == (dir / "doc.mustache").string() +
                                             ":3:10: unknown variable 'totl': headcount provides no such value (did "
                                             "you mean 'total'?)");
    }
    SECTION("even inside a section that is not rendered") {
        const auto dir = make_templates("hidden", {{"doc.mustache", "{{#rows}}\n{{^name}}{{nmae}}{{/name}}\n{{/rows}}\n"}});
        auto out = TemplateSet::load(dir)->render("doc", k_view);
        REQUIRE_FALSE(out.has_value());
        CHECK(out.error().line == 2);
        CHECK(out.error().column == 10);
    }
    SECTION("in a partial, the partial's file is named") {
        const auto dir = make_templates("partial", {{"doc.mustache", "{{> row}}\n"},
                                                    {"partials/row.mustache", "ok\n  {{missing}}\n"}});
        auto out = TemplateSet::load(dir)->render("doc", k_view);
        REQUIRE_FALSE(out.has_value());
        CHECK(out.error().to_string() == (dir / "partials/row.mustache").string() +
                                             ":2:3: unknown variable 'missing': headcount provides no such value");
    }
    SECTION("an unknown partial") {
        const auto dir = make_templates("nopartial", {{"doc.mustache", "{{> rwo}}\n"}, {"partials/row.mustache", "x"}});
        auto out = TemplateSet::load(dir)->render("doc", k_view);
        REQUIRE_FALSE(out.has_value());
        CHECK(out.error().to_string() ==
              (dir / "doc.mustache").string() + ":1:1: unknown partial 'rwo' (did you mean 'row'?)");
    }
    SECTION("a value used outside the section that provides it") {
        const auto dir = make_templates("scope", {{"doc.mustache", "{{title}}\n{{name}}\n"}});
        auto out = TemplateSet::load(dir)->render("doc", k_view);
        REQUIRE_FALSE(out.has_value());
        CHECK(out.error().to_string() == (dir / "doc.mustache").string() +
                                             ":2:1: variable 'name' is not available at this point of the template "
                                             "(it belongs to another section)");
    }
    SECTION("names inside a section over an empty list are not required") {
        const View empty{{"title", "MHA"}, {"notes", View::array()}};
        const auto dir = make_templates("empty-list", {{"doc.mustache", "{{title}}{{#notes}}- {{feedback}}{{/notes}}"}});
        CHECK(TemplateSet::load(dir)->render("doc", empty).value() == "MHA");
        // ... but a name that no list item could provide is still caught outside such a section.
        const auto typo = make_templates("empty-list-typo", {{"doc.mustache", "{{#notes}}{{/notes}}{{feedback}}"}});
        CHECK_FALSE(TemplateSet::load(typo)->render("doc", empty).has_value());
    }
    SECTION("a Mustache syntax error names the template") {
        const auto dir = make_templates("syntax", {{"doc.mustache", "{{#rows}}unclosed\n"}});
        auto out = TemplateSet::load(dir)->render("doc", k_view);
        REQUIRE_FALSE(out.has_value());
        CHECK(out.error().file == (dir / "doc.mustache").string());
        CHECK(out.error().message.starts_with("Mustache syntax error: "));
    }
    SECTION("a missing directory or template") {
        CHECK(TemplateSet::load("/nonexistent/templates").error().to_string() ==
              "/nonexistent/templates: templates directory not found");
        const auto dir = make_templates("empty", {{"doc.mustache", "x"}});
        CHECK(TemplateSet::load(dir)->render("mha/q_params", k_view).error().message ==
              "no template 'mha/q_params.mustache' in the templates directory");
    }
}

TEST_CASE("the shipped templates cover every ask", "[render]") {
    auto set = TemplateSet::load(TemplateSet::default_dir());
    REQUIRE(set.has_value());
    CHECK(set->has("solution"));
    for (const solve::Ask& ask : solve::asks()) {
        INFO(ask.id);
        CHECK(set->has(std::string(ask.kind) + "/" + std::string(ask.id)));
    }
}

TEST_CASE("a section over an always-empty list hides what it holds, and only that", "[render]") {
    // The reveal policy hides numbers this way: under hints `numbers` is an empty list, so the names inside exist
    // nowhere, and the check must neither demand them nor lose track of the sections nested inside.
    const View hints{{"title", "MHA"}, {"numbers", View::array()}, {"short", true}};
    const auto dir = make_templates(
        "empty", {{"doc.mustache", "{{#numbers}}{{#short}}{{gap}} short{{/short}} of {{expected}}{{/numbers}}"
                                   "{{^numbers}}no numbers{{/numbers}} for {{title}}{{#numbers}}{{total}}{{/numbers}}"}});
    auto out = TemplateSet::load(dir)->render("doc", hints);
    REQUIRE(out.has_value());
    CHECK(*out == "no numbers for MHA");
    // After the hidden section closes, names are checked again: a typo there is still an error.
    const auto typo = make_templates("empty-typo", {{"doc.mustache", "{{#numbers}}{{#short}}x{{/short}}{{/numbers}}{{titel}}"}});
    auto bad = TemplateSet::load(typo)->render("doc", hints);
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().column == 46);
}

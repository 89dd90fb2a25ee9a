#include <render/builtin_templates.hpp>
#include <render/solution.hpp>
#include <render/templates.hpp>

#include <util/test_catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace headcount;
using render::TemplateSet;
using render::View;

namespace {

/// A templates directory of its own for one test, with the given files (name -> text).
std::filesystem::path make_templates(const std::string& name, const std::map<std::string, std::string>& files) {
    const auto dir =
        std::filesystem::temp_directory_path() / ("headcount-templates-" + std::to_string(::getpid())) / name;
    std::filesystem::remove_all(dir);
    for (const auto& [file, text] : files) {
        std::filesystem::create_directories((dir / file).parent_path());
        std::ofstream(dir / file) << text;
    }
    return dir;
}

const View k_view{{"title", "MHA"}, {"total", "1,050,624"}, {"rows", View::array({View{{"name", "Q"}}})}};

/// The error rendering "doc" from the templates in `dir` with k_view stops with (the test fails if it renders).
Error render_error(const std::filesystem::path& dir) {
    auto set = TemplateSet::load(dir);
    REQUIRE(set.has_value());
    auto out = set->render("doc", k_view);
    REQUIRE_FALSE(out.has_value());
    return out.error();
}

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
        CHECK(render_error(dir).to_string() ==
              (dir / "doc.mustache").string() + ":3:10: unknown variable 'totl': headcount provides no such value (did "
                                                "you mean 'total'?)");
    }
    SECTION("even inside a section that is not rendered") {
        const auto dir =
            make_templates("hidden", {{"doc.mustache", "{{#rows}}\n{{^name}}{{nmae}}{{/name}}\n{{/rows}}\n"}});
        const Error error = render_error(dir);
        CHECK(error.line == 2);
        CHECK(error.column == 10);
    }
    SECTION("in a partial, the partial's file is named") {
        const auto dir = make_templates(
            "partial", {{"doc.mustache", "{{> row}}\n"}, {"partials/row.mustache", "ok\n  {{missing}}\n"}});
        CHECK(render_error(dir).to_string() ==
              (dir / "partials/row.mustache").string() +
                  ":2:3: unknown variable 'missing': headcount provides no such value");
    }
    SECTION("an unknown partial") {
        const auto dir = make_templates("nopartial", {{"doc.mustache", "{{> rwo}}\n"}, {"partials/row.mustache", "x"}});
        CHECK(render_error(dir).to_string() ==
              (dir / "doc.mustache").string() + ":1:1: unknown partial 'rwo' (did you mean 'row'?)");
    }
    SECTION("a value used outside the section that provides it") {
        const auto dir = make_templates("scope", {{"doc.mustache", "{{title}}\n{{name}}\n"}});
        CHECK(render_error(dir).to_string() ==
              (dir / "doc.mustache").string() + ":2:1: variable 'name' is not available at this point of the template "
                                                "(it belongs to another section)");
    }
    SECTION("names inside a section over an empty list are not required") {
        const View empty{{"title", "MHA"}, {"notes", View::array()}};
        const auto dir =
            make_templates("empty-list", {{"doc.mustache", "{{title}}{{#notes}}- {{feedback}}{{/notes}}"}});
        CHECK(TemplateSet::load(dir)->render("doc", empty).value() == "MHA");
        // ... but a name that no list item could provide is still caught outside such a section.
        const auto typo = make_templates("empty-list-typo", {{"doc.mustache", "{{#notes}}{{/notes}}{{feedback}}"}});
        CHECK_FALSE(TemplateSet::load(typo)->render("doc", empty).has_value());
    }
    SECTION("a Mustache syntax error names the template") {
        const auto dir = make_templates("syntax", {{"doc.mustache", "{{#rows}}unclosed\n"}});
        const Error error = render_error(dir);
        CHECK(error.file == (dir / "doc.mustache").string());
        CHECK(error.message.starts_with("Mustache syntax error: "));
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
    const TemplateSet set = TemplateSet::builtin();
    CHECK(set.has("solution"));
    for (const solve::Ask& ask : solve::asks()) {
        INFO(ask.id);
        CHECK(set.has(std::string(ask.kind) + "/" + std::string(ask.id)));
    }
}

TEST_CASE("a partial that changes delimiters is still a partial: recursion is bounded (defect 1)",
          "[render][hostile]") {
    // Before: the tag check skipped '=' tags and kept looking for '{{', so '<%> self%>' escaped the partial depth
    // limit and the render recursed until the stack overflowed (SIGSEGV).
    const auto dir =
        make_templates("self", {{"doc.mustache", "{{> self}}"}, {"partials/self.mustache", "{{=<% %>=}}<%> self%>"}});
    CHECK(render_error(dir).to_string() == (dir / "partials/self.mustache").string() +
                                               ":1:12: partials nest more than 16 deep (a partial includes itself?)");
    // Behind changed delimiters a misspelt name is found where it stands, and every delimiter form is read.
    const auto typo =
        make_templates("delimiters", {{"doc.mustache", "{{title}} {{=<% %>=}}<%title%>\n<%={{ }}=%>{{{title}}} "
                                                       "{{=| |=}}|#rows||name||/rows| |totl|"}});
    const Error typo_error = render_error(typo);
    CHECK(typo_error.to_string() == (typo / "doc.mustache").string() +
                                        ":2:54: unknown variable 'totl': headcount provides no such value (did "
                                        "you mean 'total'?)");
    const auto fixed = make_templates("delimiters-ok", {{"doc.mustache", "{{title}} {{=<% %>=}}<%title%>\n<%={{ }}=%>"
                                                                         "{{{title}}} {{=| |=}}|#rows||name||/rows| "
                                                                         "|total|"}});
    CHECK(TemplateSet::load(fixed)->render("doc", k_view).value() == "MHA MHA\nMHA Q 1,050,624");
}

TEST_CASE("partials that include each other many times are checked once each, and rendering is bounded (defect 2)",
          "[render][hostile]") {
    // p0 includes p1 ten times, p1 includes p2 ten times, ... p10: 10^10 inclusions. Before: the check re-read every
    // inclusion with no memo (and rebuilt the key set each time) and never finished.
    std::map<std::string, std::string> files{{"doc.mustache", "{{> p0}}"}, {"partials/p10.mustache", "{{title}}"}};
    for (int i = 0; i < 10; ++i) {
        std::string text;
        for (int k = 0; k < 10; ++k)
            text += "{{> p" + std::to_string(i + 1) + "}}";
        files["partials/p" + std::to_string(i) + ".mustache"] = text;
    }
    const Error error = render_error(make_templates("fanout", files));
    CHECK(error.message.starts_with("rendering stopped after "));
    CHECK(error.message.ends_with(" steps: sections and partials repeat each other too often for this data"));
    // The check alone is quick: a typo at the bottom is found without rendering anything.
    files["partials/p10.mustache"] = "{{titel}}";
    const Error typo_error = render_error(make_templates("fanout-typo", files));
    CHECK(typo_error.message == "unknown variable 'titel': headcount provides no such value (did you mean 'title'?)");
}

TEST_CASE("template files are bounded in size and must be printable UTF-8", "[render][hostile]") {
    const auto big = make_templates("big", {{"doc.mustache", std::string(render::k_max_template_bytes + 1, 'x')}});
    CHECK(TemplateSet::load(big).error().to_string() ==
          (big / "doc.mustache").string() + ": the template is larger than 1 MiB, the most headcount reads");
    const auto bad = make_templates("utf8", {{"doc.mustache", "# {{title}}\nca\xE9"}});
    CHECK(render_error(bad).to_string() ==
          (bad / "doc.mustache").string() + ":2:3: this template is not valid UTF-8 here");
    const auto esc = make_templates("esc", {{"doc.mustache", "# {{title}}\x1b[2J"}});
    CHECK(render_error(esc).to_string() ==
          (esc / "doc.mustache").string() +
              ":1:12: this template contains a control character (U+001B); templates hold printable text");
}

TEST_CASE("the built-in templates are the repository's templates/, byte for byte", "[render]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(HEADCOUNT_SOURCE_DIR) / "templates";
    std::size_t files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        files += entry.path().extension() == ".mustache" ? 1 : 0;
    CHECK(render::builtin_templates().size() == files);
    for (const render::BuiltinTemplate& t : render::builtin_templates()) {
        INFO(t.name);
        std::ifstream in(dir / (std::string(t.name) + ".mustache"), std::ios::binary);
        const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        CHECK(text == t.text);
    }
}

TEST_CASE("the built-in templates are looked up in the binary's table by name", "[render]") {
    // The table is searched by bisection: it must be in strictly increasing byte order of names.
    const auto table = render::builtin_templates();
    REQUIRE(table.size() > 100);
    for (std::size_t i = 1; i < table.size(); ++i) {
        INFO(table[i - 1].name << " before " << table[i].name);
        CHECK(table[i - 1].name < table[i].name);
    }
    const TemplateSet set = TemplateSet::builtin();
    for (const render::BuiltinTemplate& t : table) {
        INFO(t.name);
        CHECK(set.has(t.name));
    }
    // Names around real ones are not templates.
    CHECK_FALSE(set.has("solutio"));
    CHECK_FALSE(set.has("solution "));
    CHECK_FALSE(set.has("partials"));
    CHECK_FALSE(set.has(""));
    // A partial is found under partials/ only by its own name, and a misspelt one is named with the built-in ones.
    auto added = set.with_files({{"doc", "doc.mustache", "{{> head}}"}, {"sub", "sub.mustache", "{{> heads/x}}"}});
    CHECK(added.render("doc", k_view).error().to_string() == "doc.mustache:1:1: unknown partial 'head' (did you mean "
                                                             "'heads'?)");
    CHECK(added.render("sub", k_view).error().message.starts_with("unknown partial 'heads/x'"));
}

TEST_CASE("a templates directory replaces only the templates it holds", "[render]") {
    const auto dir = make_templates(
        "override", {{"mha/d_k.mustache", "d_k is {{answer}} (mine)\n"}, {"extra.mustache", "{{title}}"}});
    auto set = TemplateSet::builtin().overridden_by(dir);
    REQUIRE(set.has_value());
    CHECK(set->has("solution"));
    CHECK(set->has("extra"));
    CHECK(set->render("mha/d_k", View{{"answer", "64"}}).value() == "d_k is 64 (mine)\n");
    CHECK(set->render("extra", k_view).value() == "MHA");
    // A partial of the directory replaces the built-in one of that name for every template that includes it.
    const auto partial = make_templates(
        "override-partial", {{"partials/answer.mustache", "[{{title}}]"}, {"uses.mustache", "{{> answer}}"}});
    CHECK(TemplateSet::builtin().overridden_by(partial)->render("uses", k_view).value() == "[MHA]");
    // The built-in set itself is unchanged.
    CHECK_FALSE(TemplateSet::builtin().has("extra"));
    CHECK(TemplateSet::builtin().overridden_by("/nonexistent").error().to_string() ==
          "/nonexistent: templates directory not found");
}

TEST_CASE("a template renders the same every time from one parse", "[render]") {
    const auto dir = make_templates(
        "again", {{"doc.mustache", "{{#rows}}{{> row}}{{/rows}}"}, {"partials/row.mustache", "{{name}}/{{total}};"}});
    const auto set = TemplateSet::load(dir);
    for (int i = 0; i < 3; ++i)
        CHECK(set->render("doc", k_view).value() == "Q/1,050,624;");
    // A view of another shape is checked anew: here 'total' is missing.
    const View other{{"rows", View::array({View{{"name", "K"}}})}};
    CHECK(set->render("doc", other).error().message == "unknown variable 'total': headcount provides no such value");
}

TEST_CASE("a section over an always-empty list hides what it holds, and only that", "[render]") {
    // The reveal policy hides numbers this way: under hints `numbers` is an empty list, so the names inside exist
    // nowhere, and the check must neither demand them nor lose track of the sections nested inside.
    const View hints{{"title", "MHA"}, {"numbers", View::array()}, {"short", true}};
    const auto dir = make_templates(
        "empty",
        {{"doc.mustache", "{{#numbers}}{{#short}}{{gap}} short{{/short}} of {{expected}}{{/numbers}}"
                          "{{^numbers}}no numbers{{/numbers}} for {{title}}{{#numbers}}{{total}}{{/numbers}}"}});
    auto out = TemplateSet::load(dir)->render("doc", hints);
    REQUIRE(out.has_value());
    CHECK(*out == "no numbers for MHA");
    // After the hidden section closes, names are checked again: a typo there is still an error.
    const auto typo =
        make_templates("empty-typo", {{"doc.mustache", "{{#numbers}}{{#short}}x{{/short}}{{/numbers}}{{titel}}"}});
    auto bad = TemplateSet::load(typo)->render("doc", hints);
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().column == 46);
}

TEST_CASE("whether a template reads a key: its tags, its sections' and its partials'", "[render]") {
    // Each case written by hand: where `numbers` is read, and where a view without it renders the same.
    const auto dir =
        make_templates("mentions", {{"direct.mustache", "{{#numbers}}{{total}}{{/numbers}}"},
                                    {"dotted.mustache", "A {{numbers.total}} B"},
                                    {"nested.mustache", "{{#rows}}{{^done}}{{numbers}}{{/done}}{{/rows}}"},
                                    {"by_partial.mustache", "{{#rows}}{{> uses}}{{/rows}}"},
                                    {"partials/uses.mustache", "{{> deeper}}"},
                                    {"partials/deeper.mustache", "{{#numbers}}x{{/numbers}}"},
                                    {"whole.mustache", "{{#rows}}{{.}}{{/rows}}"},
                                    {"other.mustache", "{{numbers_total}} {{number}} {{#rows}}{{> plain}}{{/rows}}"},
                                    {"partials/plain.mustache", "{{name}}"},
                                    {"broken.mustache", "{{#numbers"}});
    auto set = TemplateSet::load(dir);
    REQUIRE(set.has_value());
    CHECK(set->mentions("direct", "numbers"));
    CHECK(set->mentions("dotted", "numbers"));
    CHECK(set->mentions("nested", "numbers"));
    CHECK(set->mentions("by_partial", "numbers"));
    CHECK(set->mentions("whole", "numbers")); // {{.}} reads whatever the context holds
    CHECK_FALSE(set->mentions("other", "numbers"));
    CHECK(set->mentions("broken", "numbers")); // cannot be told: the caller provides the key
    CHECK(set->mentions("missing", "numbers"));
}

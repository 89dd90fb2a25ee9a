#include <render/mustache.hpp>

#include <util/test_catch.hpp>

using namespace headcount;
using render::View;

namespace {

const render::RenderLimits k_limits{16, 100'000, 1'000'000};

/// Parses and renders `text` with no partials (or the one given), returning the output or the error's text.
std::string rendered(const std::string& text, const View& view, const std::string& partial_text = "") {
    auto tmpl = render::parse_mustache(text, "t.mustache");
    if (!tmpl)
        return tmpl.error().to_string();
    auto partial = render::parse_mustache(partial_text, "p.mustache");
    REQUIRE(partial.has_value());
    const render::PartialLookup lookup = [&](std::string_view name) -> const render::ParsedTemplate* {
        return name == "p" ? &*partial : nullptr;
    };
    auto out = render::render_mustache(*tmpl, view, lookup, k_limits);
    return out ? *out : out.error().to_string();
}

const View k_view{{"name", "Ada"},
                  {"n", 3},
                  {"yes", true},
                  {"no", false},
                  {"none", nullptr},
                  {"empty", View::array()},
                  {"items", View::array({"a", "b"})},
                  {"obj", View{{"x", "1"}}}};

} // namespace

// Expected outputs follow the Mustache spec (github.com/mustache/spec, interpolation/sections/inverted/
// delimiters) where kainjow 4.1 follows it, and kainjow where it does not (partials are not indented).
TEST_CASE("variables, sections and inverted sections render as Mustache says", "[mustache]") {
    CHECK(rendered("Hi {{name}}, {{{name}}}, {{& name}}, {{ name }}!", k_view) == "Hi Ada, Ada, Ada, Ada!");
    CHECK(rendered("{{n}} {{yes}}|{{none}}|{{obj}}", k_view) == "3 ||"); // numbers as JSON, others as nothing
    CHECK(rendered("{{#items}}<{{.}}>{{/items}}", k_view) == "<a><b>");
    CHECK(rendered("{{#obj}}{{x}}{{name}}{{/obj}}", k_view) == "1Ada"); // inner first, then outwards
    CHECK(rendered("{{obj.x}} {{#yes}}y{{/yes}}{{#no}}n{{/no}}{{#none}}z{{/none}}{{#empty}}e{{/empty}}", k_view) ==
          "1 y");
    CHECK(rendered("{{^no}}1{{/no}}{{^none}}2{{/none}}{{^empty}}3{{/empty}}{{^yes}}4{{/yes}}{{^items}}5{{/items}}",
                   k_view) == "123");
    CHECK(rendered("{{! a comment\nover lines }}x", k_view) == "x");
}

TEST_CASE("a line holding only section tags and blanks is dropped", "[mustache]") {
    CHECK(rendered("a\n{{#yes}}\nb\n{{/yes}}\nc\n", k_view) == "a\nb\nc\n");
    CHECK(rendered("a\n  {{#items}}  \n- {{.}}\n  {{/items}}\nc", k_view) == "a\n- a\n- b\nc");
    CHECK(rendered("a\r\n{{#yes}}\r\nb\r\n{{/yes}}\r\n", k_view) == "a\r\nb\r\n");
    // A variable's line stays even when it renders empty.
    CHECK(rendered("a\n{{none}}\nb", k_view) == "a\n\nb");
    // kainjow: a section that does not render leaves its line (the spec would drop it).
    CHECK(rendered("a\n{{#no}}\nb\n{{/no}}\nc", k_view) == "a\n\nc");
}

TEST_CASE("set-delimiter tags change how tags are found until the next change", "[mustache]") {
    CHECK(rendered("{{=<% %>=}}<% name %> {{name}} <%={{ }}=%>{{name}}", k_view) == "Ada {{name}} Ada");
    CHECK(rendered("{{=[ ]=}}[#items][.][/items]", k_view) == "ab");
    // Triple braces mean unescaped only with the default delimiters.
    CHECK(rendered("{{=<% %>=}}<%{name}%>", k_view).starts_with("t.mustache:1:12: variable '{name}'"));
    // A partial starts with {{ }} again; the includer's delimiters hold after it.
    CHECK(rendered("{{=<% %>=}}<%> p%> <%name%>", k_view, "{{name}}") == "Ada Ada");
}

TEST_CASE("syntax errors say what and where", "[mustache]") {
    CHECK(rendered("ab\n  {{name", k_view) ==
          "t.mustache:2:3: Mustache syntax error: unclosed tag (no '}}' after '{{')");
    CHECK(rendered("{{#a}}x{{/b}}", k_view) ==
          "t.mustache:1:8: Mustache syntax error: '{{/b}}' closes section 'a', opened at line 1; close that one first");
    CHECK(rendered("x{{/a}}", k_view) == "t.mustache:1:2: Mustache syntax error: '{{/a}}' closes no open section");
    CHECK(rendered("\n {{#a}}", k_view) ==
          "t.mustache:2:2: Mustache syntax error: section 'a' is never closed (no {{/a}})");
    CHECK(rendered("{{=<%%>=}}", k_view) ==
          "t.mustache:1:1: Mustache syntax error: invalid set-delimiter tag '{{=<%%>=}}'; write e.g. {{=<% %>=}}");
    std::string deep;
    for (int i = 0; i < 65; ++i)
        deep += "{{#yes}}";
    CHECK(rendered(deep, k_view) == "t.mustache:1:513: Mustache syntax error: sections nest more than 64 deep");
}

TEST_CASE("a render is bounded in work, output and partial depth", "[mustache][hostile]") {
    // 4 nested sections over 2 items: 2^4 = 16 repeats of the inner text; 30 nested would be 2^30.
    std::string nested, closing;
    for (int i = 0; i < 30; ++i)
        nested += "{{#items}}", closing += "{{/items}}";
    CHECK(rendered(nested + "x" + closing, k_view) ==
          "t.mustache: rendering stopped after 100000 steps: sections and partials repeat each other too often for "
          "this data");
    const View big{{"s", std::string(600'000, 'x')}};
    CHECK(rendered("{{s}}{{s}}.", big) == "t.mustache: rendering stopped: the text would be larger than 1000000 bytes");
    CHECK(rendered("{{> p}}", k_view, "{{> p}}") ==
          "p.mustache:1:1: partials nest more than 16 deep (a partial includes itself?)");
    CHECK(rendered("{{> q}}", k_view) == "t.mustache:1:1: unknown partial 'q'");
}

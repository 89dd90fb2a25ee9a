#include <render/math.hpp>

#include <util/test_catch.hpp>

using headcount::render::find_math;
using headcount::render::MathSpan;

namespace {

std::vector<std::string> tex_of(std::string_view text) {
    std::vector<std::string> out;
    for (const MathSpan& span : find_math(text))
        out.push_back(span.tex);
    return out;
}

} // namespace

TEST_CASE("math spans follow Pandoc's dollar rules", "[math]") {
    // Each expectation is Pandoc 2.17's reading of the same text (tex_math_dollars).
    CHECK(tex_of("so $W_Q \\in \\mathbb{R}^{512 \\times 512}$ holds") ==
          std::vector<std::string>{"W_Q \\in \\mathbb{R}^{512 \\times 512}"});
    CHECK(tex_of("$d_k$ and $d_v$") == std::vector<std::string>{"d_k", "d_v"});
    CHECK(tex_of("costs $5 and $6 today").empty());                   // "$5 and $" is closed before a digit: no math
    CHECK(tex_of("a $ b$ c").empty());                                // a space after the opening $
    CHECK(tex_of("a $b $ c").empty());                                // a space before the closing $
    CHECK(tex_of("\\$x$ then $y$") == std::vector<std::string>{"y"}); // \$ is a dollar sign
    CHECK(tex_of("$a\\$b$") == std::vector<std::string>{"a\\$b"});    // and inside math it does not close
    CHECK(tex_of("$$\\sum_i x_i$$") == std::vector<std::string>{"\\sum_i x_i"});
    CHECK(find_math("$$x$$").front().display);
    CHECK_FALSE(find_math("$x$").front().display);
}

TEST_CASE("code and paragraph breaks hold no math", "[math]") {
    CHECK(tex_of("`$x$` and $y$") == std::vector<std::string>{"y"});
    CHECK(tex_of("``a ` $x$`` $y$") == std::vector<std::string>{"y"});
    CHECK(tex_of("`unclosed $x$") == std::vector<std::string>{"x"}); // a lone backtick is text
    CHECK(tex_of("```\n$x$\n```\n$y$") == std::vector<std::string>{"y"});
    CHECK(tex_of("$a\nb$") == std::vector<std::string>{"a\nb"}); // a soft line break is inside a paragraph
    CHECK(tex_of("$a\n\nb$").empty());                           // a blank line ends it
}

TEST_CASE("spans give their exact position", "[math]") {
    const std::string text = "x $a$ y $$b$$";
    const auto spans = find_math(text);
    REQUIRE(spans.size() == 2);
    CHECK(text.substr(spans[0].begin, spans[0].end - spans[0].begin) == "$a$");
    CHECK(text.substr(spans[1].begin, spans[1].end - spans[1].begin) == "$$b$$");
    CHECK(headcount::render::replace_math(text, spans, [](const MathSpan& s) { return "<" + s.tex + ">"; }) ==
          "x <a> y <b>");
}

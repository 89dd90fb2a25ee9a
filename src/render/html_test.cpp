#include <render/html.hpp>
#include <render/katex.hpp>
#include <util/text.hpp>

#include <util/test_catch.hpp>

#include <array>
#include <string>
#include <string_view>

using namespace headcount;
using render::markdown_to_html;

TEST_CASE("Markdown becomes HTML through cmark-gfm, tables included", "[html]") {
    CHECK(markdown_to_html("# Title\n\nSome **bold** text.\n") ==
          "<h1>Title</h1>\n<p>Some <strong>bold</strong> text.</p>\n");
    CHECK(markdown_to_html("**Common mistakes.**\n\n- one\n- two\n") ==
          "<p><strong>Common mistakes.</strong></p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n");
    const std::string table = markdown_to_html("| a | b |\n|---|---:|\n| 1 | 2 |\n");
    CHECK(table.find("<table>") != std::string::npos);
    CHECK(table.find("<td align=\"right\">2</td>") != std::string::npos);
}

TEST_CASE("math survives CommonMark untouched and escaped", "[html]") {
    // Plain CommonMark would read "_{model} … d_" as emphasis and "\\," as an escaped comma.
    const std::string html = markdown_to_html("So $d_{model} \\cdot\\, d_k$ and $a < b$.\n");
    CHECK(html ==
          "<p>So <span class=\"math\">d_{model} \\cdot\\, d_k</span> and <span class=\"math\">a &lt; b</span>.</p>\n");
    // In a table cell, and as display math.
    CHECK(markdown_to_html("| x |\n|---|\n| $W_Q$ |\n").find("<td><span class=\"math\">W_Q</span></td>") !=
          std::string::npos);
    CHECK(markdown_to_html("$$\\sum_i x_i$$\n") == "<p><span class=\"math display\">\\sum_i x_i</span></p>\n");
    // A placeholder-like word in the text does not confuse the replacement.
    CHECK(markdown_to_html("hcmathx0x $y$\n") == "<p>hcmathx0x <span class=\"math\">y</span></p>\n");
}

TEST_CASE("raw HTML from a spec is not passed through; figures are", "[html]") {
    const std::string html = markdown_to_html("<script>alert(1)</script>\n\nhi <b>x</b>\n");
    CHECK(html.find("<script>") == std::string::npos);
    CHECK(html.find("<b>") == std::string::npos);
    CHECK(markdown_to_html("a\n\nfig1\n\nb\n", {{"fig1", "<figure>F</figure>\n"}}) ==
          "<p>a</p>\n<figure>F</figure>\n<p>b</p>\n");
    // Only a paragraph of its own is a figure's place.
    CHECK(markdown_to_html("see fig1 here\n", {{"fig1", "<figure>F</figure>\n"}}) == "<p>see fig1 here</p>\n");
}

TEST_CASE("escape_xml escapes the four characters that could end text or an attribute", "[html]") {
    CHECK(escape_xml("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c'");
}

TEST_CASE("base64 encodes as RFC 4648 says", "[text]") {
    // The test vectors of RFC 4648, section 10: the encodings of "", "f", "fo", ... "foobar".
    const auto rfc = std::to_array<std::string_view>({"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"});
    for (std::size_t n = 0; n < rfc.size(); ++n)
        CHECK(base64(std::string_view("foobar").substr(0, n)) == rfc[n]);
    CHECK(base64(std::string("\xff\x00\x10", 3)) == "/wAQ");
}

TEST_CASE("KaTeX is read from Debian's libjs-katex", "[html][katex]") {
    auto katex = render::load_katex();
    REQUIRE(katex.has_value());
    CHECK(katex->css.find("KaTeX_Main") != std::string::npos);
    CHECK(katex->script.find("renderToString") != std::string::npos);
    CHECK(katex->fonts.size() == 20); // KaTeX 0.16 declares 20 @font-face rules, one woff2 each

    const std::string css = render::embedded_css(*katex);
    CHECK(css.find("url(fonts/") == std::string::npos);
    CHECK(css.find("data:font/woff2;base64,") != std::string::npos);
    CHECK(css.find(".ttf") == std::string::npos);

    const auto files = render::katex_folder(*katex, "out/katex");
    REQUIRE(files.size() == 22);
    CHECK(files[0].first == "out/katex/katex.min.css");
    CHECK(files[0].second.find("url(fonts/KaTeX_Main-Regular.woff2)") != std::string::npos);
    CHECK(files[0].second.find(".woff)") == std::string::npos);
    CHECK(files[2].first.parent_path() == "out/katex/fonts");
}

TEST_CASE("a missing KaTeX says which package to install", "[html][katex]") {
    auto katex = render::load_katex("/nonexistent/katex");
    REQUIRE_FALSE(katex.has_value());
    CHECK(katex.error().to_string() == "/nonexistent/katex/katex.min.css: cannot read KaTeX, which HTML output needs "
                                       "(install Debian's libjs-katex)");
}

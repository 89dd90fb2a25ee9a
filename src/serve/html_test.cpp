// The Markdown and escaping that put feedback and questions on the pages: expected HTML written by hand from the
// CommonMark and GFM specs (spec.commonmark.org 0.29, github.github.com/gfm), whose examples are cited.
#include <serve/html.hpp>

#include <util/test_catch.hpp>

using namespace headcount::serve;

TEST_CASE("percent_encode keeps only unreserved characters", "[serve]") {
    CHECK(percent_encode("alice") == "alice");
    CHECK(percent_encode("o'brien & co+1#") == "o%27brien%20%26%20co%2B1%23");
    CHECK(percent_encode("Zoë") == "Zo%C3%AB"); // U+00EB is C3 AB in UTF-8
    CHECK(percent_encode("a.b-c_d~") == "a.b-c_d~");
}

TEST_CASE("feedback Markdown becomes paragraphs, code, strong text and lists", "[serve]") {
    const std::string verdict = "Part (b) of week3: not right yet — 0 of 3 points.\n\n"
                                "Your answer: `1048576` (read as 1,048,576)\n\n"
                                "It matches a known mistake:\n\n"
                                "- **The bias vectors were left out** (`missing_biases`). Each adds $b_Q$.\n";
    CHECK(markdown_html(verdict) == "<p>Part (b) of week3: not right yet — 0 of 3 points.</p>\n"
                                    "<p>Your answer: <code>1048576</code> (read as 1,048,576)</p>\n"
                                    "<p>It matches a known mistake:</p>\n"
                                    "<ul>\n<li><strong>The bias vectors were left out</strong> "
                                    "(<code>missing_biases</code>). Each adds $b_Q$.</li>\n</ul>\n");
}

TEST_CASE("math is left for KaTeX: nothing inside $...$ is read as Markdown", "[serve]") {
    CHECK(markdown_html("$W_Q * W_K * x$ and *a*") == "<p>$W_Q * W_K * x$ and <em>a</em></p>\n");
    CHECK(markdown_html("$a<b$") == "<p>$a&lt;b$</p>\n");
    // A lone dollar is text.
    CHECK(markdown_html("costs $5") == "<p>costs $5</p>\n");
}

TEST_CASE("arithmetic with * is not emphasis, and code binds tighter than emphasis", "[serve]") {
    // From the unreadable-answer advice: the * of 12*(34 is multiplication, and the `*` is code.
    CHECK(markdown_html("such as 12*(34^2+56): `*` or × for times, `^` for powers") ==
          "<p>such as 12*(34^2+56): <code>*</code> or × for times, <code>^</code> for powers</p>\n");
    CHECK(markdown_html("4*512*513") == "<p>4<em>512</em>513</p>\n"); // as CommonMark reads it outside code
    CHECK(markdown_html("a * b * c") == "<p>a * b * c</p>\n");
}

TEST_CASE("raw HTML in Markdown is shown, never run", "[serve]") {
    CHECK(markdown_html("<img src=x onerror=alert(1)>") == "<p>&lt;img src=x onerror=alert(1)&gt;</p>\n");
    CHECK(markdown_html("`<b>` **<i>x</i>**") ==
          "<p><code>&lt;b&gt;</code> <strong>&lt;i&gt;x&lt;/i&gt;</strong></p>\n");
}

TEST_CASE("tables, headings, numbered lists and fences", "[serve]") {
    // GFM example 198's layout (a line per row and per cell); a right-aligned column gets the pages' class "num".
    CHECK(markdown_html("| Symbol | Value |\n|---|---:|\n| $h$ | 8 |\n") ==
          "<div class=\"table-box\"><table>\n<thead>\n<tr>\n<th>Symbol</th>\n<th "
          "class=\"num\">Value</th>\n</tr>\n</thead>\n<tbody>\n"
          "<tr>\n<td>$h$</td>\n<td class=\"num\">8</td>\n</tr>\n</tbody>\n</table></div>\n");
    CHECK(markdown_html("# Title\ntext") == "<h3>Title</h3>\n<p>text</p>\n");
    CHECK(markdown_html("1. one\n2. two\n   more") == "<ol>\n<li>one</li>\n<li>two\nmore</li>\n</ol>\n");
    CHECK(markdown_html("```\n<x> *y*\n```") == "<pre><code>&lt;x&gt; *y*\n</code></pre>\n");
}

TEST_CASE("feedback Markdown is CommonMark: nesting, quotes, escapes, entities and links", "[serve]") {
    // What the hand-written subset read as text: a nested list (CommonMark example 264's shape), a block quote
    // (example 206), backslash escapes (example 308), an entity (example 311) and a link (example 481).
    CHECK(markdown_html("- a\n  - b\n") == "<ul>\n<li>a\n<ul>\n<li>b</li>\n</ul>\n</li>\n</ul>\n");
    CHECK(markdown_html("> quoted") == "<blockquote>\n<p>quoted</p>\n</blockquote>\n");
    CHECK(markdown_html("\\*not emphasis\\*") == "<p>*not emphasis*</p>\n");
    CHECK(markdown_html("a &amp; b") == "<p>a &amp; b</p>\n");
    CHECK(markdown_html("[the docs](https://example.edu/docs)") ==
          "<p><a href=\"https://example.edu/docs\">the docs</a></p>\n");
    // A link that would run script keeps its text and loses its address (cmark-gfm's safe default).
    CHECK(markdown_html("[x](javascript:alert(1))") == "<p><a href=\"\">x</a></p>\n");
    // Headings two levels down, but never past h6.
    CHECK(markdown_html("##### five\n\n###### six") == "<h6>five</h6>\n<h6>six</h6>\n");
}

TEST_CASE("a list stays tight across a blank line, as feedback lists collisions then mistakes", "[serve]") {
    // CommonMark makes this list loose (example 286: a blank line between items) and wraps each item in <p>; the
    // pages have always shown it as one tight list, which the verdict template relies on.
    CHECK(
        markdown_html("- `a` + `b`\n\n- **A** (`a`). Why.\n") ==
        "<ul>\n<li><code>a</code> + <code>b</code></li>\n<li><strong>A</strong> (<code>a</code>). Why.</li>\n</ul>\n");
}

TEST_CASE("raw HTML blocks are shown as text, whole, on any line", "[serve]") {
    // An HTML block (CommonMark 4.6, type 6) runs to the blank line: it becomes one paragraph of its text.
    CHECK(markdown_html("<div>\n<script>alert(1)</script>\n</div>\n\nafter") ==
          "<p>&lt;div&gt;\n&lt;script&gt;alert(1)&lt;/script&gt;\n&lt;/div&gt;</p>\n<p>after</p>\n");
    CHECK(markdown_html("- <b onclick=\"x()\">item</b>") ==
          "<ul>\n<li>&lt;b onclick=&quot;x()&quot;&gt;item&lt;/b&gt;</li>\n</ul>\n");
}

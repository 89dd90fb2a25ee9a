// The Markdown subset and escaping that put feedback and questions on the pages: expected HTML written by hand.
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
    CHECK(markdown_html("| Symbol | Value |\n|---|---:|\n| $h$ | 8 |\n") ==
          "<div class=\"table-box\"><table>\n<thead><tr><th>Symbol</th><th class=\"num\">Value</th></tr>\n</thead>\n"
          "<tbody>\n<tr><td>$h$</td><td class=\"num\">8</td></tr>\n</tbody>\n</table></div>\n");
    CHECK(markdown_html("# Title\ntext") == "<h3>Title</h3>\n<p>text</p>\n");
    CHECK(markdown_html("1. one\n2. two\n   more") == "<ol>\n<li>one</li>\n<li>two\nmore</li>\n</ol>\n");
    CHECK(markdown_html("```\n<x> *y*\n```") == "<pre><code>&lt;x&gt; *y*\n</code></pre>\n");
}

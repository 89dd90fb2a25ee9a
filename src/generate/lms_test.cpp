// Unit tests for what the learning-platform exports build on: HTML for platforms, Cloze escaping, e-notation,
// zip archives.
#include <generate/lms_answers.hpp>
#include <generate/lms_html.hpp>
#include <generate/moodle.hpp>
#include <generate/qti_text.hpp>
#include <generate/sheet_header.hpp>
#include <util/zip.hpp>

#include <util/test_catch.hpp>

using namespace headcount;
using namespace headcount::generate;

TEST_CASE("lms_html keeps TeX away from CommonMark and writes MathJax's delimiters", "[lms]") {
    // Without the placeholders CommonMark would read the underscores of d_{model} ... d_{k} as emphasis.
    CHECK(lms_html("Width $d_{model}$ over $h$ heads is $d_{k}$.") ==
          "<p>Width \\(d_{model}\\) over \\(h\\) heads is \\(d_{k}\\).</p>\n");
    CHECK(lms_html("$$a < b$$") == "<p>\\[a &lt; b\\]</p>\n");
    CHECK(lms_html("a code span `$x$` and $y$") == "<p>a code span <code>$x$</code> and \\(y\\)</p>\n");
    CHECK(lms_html("costs $5 and $ 6") == "<p>costs $5 and $ 6</p>\n");
    CHECK(lms_html("# Title\n\n<script>alert(1)</script>\n") == "<h3>Title</h3>\n<!-- raw HTML omitted -->\n");
    CHECK(lms_html("| a | b |\n|---|--:|\n| 1 | 2 |\n").find("<td align=\"right\">2</td>") != std::string::npos);
}

TEST_CASE("cloze_escape leaves no character Moodle's Cloze parser reads as a delimiter", "[lms]") {
    // '&' first, so that the references it adds are not escaped again; Moodle decodes one level when it stores.
    CHECK(cloze_escape("\\(d_{model}\\) ~ #1 & more") == "&#92;(d_&#123;model&#125;&#92;) &#126; &#35;1 &amp; more");
    CHECK(cloze_percent(1.0 / 3) == "33.33333");
    CHECK(cloze_percent(0.5) == "50");
    CHECK(cloze_percent(0) == "0");
    CHECK(cloze_percent(0.125) == "12.5");
}

TEST_CASE("cloze_text keeps a spec's braces from opening or standing for a subquestion", "[lms]") {
    // Moodle's extractor opens a subquestion at {digits:TYPE: and its renderer puts subquestion n where {#n} is;
    // with both braces as references neither can happen, and MathJax reads the TeX from the decoded page.
    CHECK(cloze_text("<h3>Braces {1:SHORTANSWER:=x} {#1}</h3> \\(d_{k}\\)") ==
          "<h3>Braces &#123;1:SHORTANSWER:=x&#125; &#123;#1&#125;</h3> \\(d_&#123;k&#125;\\)");
}

TEST_CASE("canvas_text breaks up every bracket Canvas could take for a blank, and only those", "[lms]") {
    // Canvas puts a blank's box at the first "[name]" and its importer turns &#91; back into '[': markup is what
    // survives. In math, where markup would stop MathJax, an empty TeX group does the same.
    CHECK(canvas_text("<h3>Counting [part_b] parameters</h3>") == "<h3>Counting <span>[</span>part_b] parameters</h3>");
    CHECK(canvas_text("<p>\\([part_b] + [x]\\) and \\[part_b]\\]</p>") ==
          "<p>\\([{}part_b] + [{}x]\\) and \\[{}part_b]\\]</p>");
    CHECK(canvas_text("<p><code>[a.b-c_1]</code> <img alt=\"see [part_a]\" src=\"x.png\" /></p>") ==
          "<p><code><span>[</span>a.b-c_1]</code> <img alt=\"see [\u200Bpart_a]\" src=\"x.png\" /></p>");
    // A shape or a bracket that closes nothing is no blank.
    CHECK(canvas_text("<p>(32, 8) is [32, 8] or [] or [a b] or [open</p>") ==
          "<p>(32, 8) is [32, 8] or [] or [a b] or [open</p>");
}

TEST_CASE("e_notation says how many figures were meant", "[lms]") {
    CHECK(e_notation(1050000, 3) == "1.05e6");
    CHECK(e_notation(1100000, 2) == "1.1e6");
    CHECK(e_notation(1000000, 3) == "1.00e6");
    CHECK(e_notation(3100, 2) == "3.1e3");
}

TEST_CASE("serve links and their URL checks", "[lms]") {
    CHECK(percent_encode("zo\u00eb o'brien&x") == "zo%C3%AB%20o%27brien%26x");
    CHECK(serve_url_problem("https://hc.example.edu/course/") == std::nullopt);
    CHECK(serve_url_problem("ftp://hc.example.edu") == "does not start with http:// or https://");
    CHECK(serve_url_problem("https:///x") == "has no host name");
    CHECK(serve_url_problem("https://hc.example.edu/?x=1") ==
          "has a query or fragment ('?'); give the server's address only");
    CHECK(serve_url_problem("https://hc.example.edu/a b") == "contains a space or a control character");
}

TEST_CASE("zip archives are reproducible and refuse names that escape", "[lms]") {
    const std::vector<ZipEntry> entries{{"run", "#!/bin/sh\n", true}, {"a/b.txt", std::string(1000, 'x'), false}};
    auto one = zip_archive(entries);
    auto two = zip_archive(entries);
    REQUIRE(one);
    REQUIRE(two);
    CHECK(*one == *two);
    CHECK(one->starts_with("PK\x03\x04"));
    CHECK(one->size() < 1000); // deflated
    // APPNOTE.TXT 4.3.16: the archive ends with the 22-byte end of central directory record, whose bytes 8-11 count
    // the entries (2 here, twice), and 4.3.7: a local header's bytes 12-13 are the DOS date, 1980-01-01 = 0x0021.
    const std::string_view end = std::string_view(*one).substr(one->size() - 22);
    CHECK(end.substr(0, 4) == "PK\x05\x06");
    CHECK(end.substr(8, 4) == std::string_view("\x02\x00\x02\x00", 4));
    CHECK(one->substr(12, 2) == std::string("\x21\x00", 2));
    CHECK(zip_archive({{"empty", "", false}}).has_value());
    CHECK(zip_archive({{"../x", "", false}}).error().message == "zip entry '../x' has a '..' component");
    CHECK(zip_archive({{"/x", "", false}}).error().message == "zip entry '/x' is empty or absolute");
    CHECK(zip_archive({{"x", "", false}, {"x", "", false}}).error().message == "zip entry 'x' is added twice");
}

// End-to-end tests of HTML output (`solve --format html`, `generate --format html`) through the built binary.
#include "run_binary.hpp"

#include <util/test_catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

using headcount::testing::fresh_temp_dir;
using headcount::testing::read_text;
using headcount::testing::run_headcount;
using headcount::testing::source_dir;
namespace fs = std::filesystem;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
        ++n;
    return n;
}

/// Lines of a Markdown text that start a GFM table: a header row followed by a |---| delimiter row.
std::size_t markdown_tables(const std::string& markdown) { return count(markdown, "\n|---"); }

/// Whether the page asks for anything from the network: every src= and href= must be a relative path or data.
bool fetches_remotely(const std::string& html) {
    static const std::regex remote(R"((src|href)\s*=\s*["']?\s*(https?:)?//)", std::regex::icase);
    return std::regex_search(html, remote);
}

} // namespace

TEST_CASE("solve --format html prints one standalone page", "[e2e][html]") {
    const auto run = run_headcount({"solve", "problems/week3-mha-params.yaml", "--format", "html"});
    REQUIRE(run.exit_code == 0);
    CHECK(run.err.empty());
    const std::string& page = run.out;
    CHECK(page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    CHECK(page.find("<title>Parameters of a multi-head attention block</title>") != std::string::npos);
    CHECK(page.find("@media print") != std::string::npos);
    // KaTeX is inside: its script, its stylesheet with the fonts as data, nothing fetched.
    CHECK(page.find("data:font/woff2;base64,") != std::string::npos);
    CHECK(page.find("katex.render(") != std::string::npos);
    CHECK_FALSE(fetches_remotely(page));
    // The Markdown's tables are tables, its formulas math spans (the browser test checks they are typeset).
    const std::string markdown = run_headcount({"solve", "problems/week3-mha-params.yaml"}).out;
    CHECK(count(page, "<table>") == markdown_tables(markdown));
    // Each in a box that scrolls on a narrow screen (tests/pages_fit_browser.py measures the pages in chromium).
    CHECK(count(page, "<div class=\"table-box\"><table>") == count(page, "<table>"));
    CHECK(count(page, "</table></div>") == count(page, "<table>"));
    CHECK(count(page, "<span class=\"math\">") == count(markdown, "$") / 2); // no literal $ in the solution
    CHECK(page.find("<h2>Part (b) — 3 points</h2>") != std::string::npos);
}

TEST_CASE("solve --format html --out writes pages that share KaTeX", "[e2e][html]") {
    const std::string out = fresh_temp_dir("solve-html") + "/pages";
    const auto run = run_headcount(
        {"solve", "problems/week3-mha-params.yaml", "problems/mha-gqa.yaml", "--format", "html", "--out", out});
    REQUIRE(run.exit_code == 0);
    CHECK(run.err == "headcount: wrote 2 files to " + out + " (and KaTeX, which the pages use, in katex/)\n");
    const std::string page = read_text(out + "/week3-mha-params.html");
    CHECK(page.find("<link rel=\"stylesheet\" href=\"katex/katex.min.css\">") != std::string::npos);
    CHECK(page.find("<script src=\"katex/katex.min.js\" charset=\"utf-8\"></script>") != std::string::npos);
    CHECK(page.find("data:font") == std::string::npos);
    CHECK(fs::exists(out + "/mha-gqa.html"));
    CHECK(fs::exists(out + "/katex/katex.min.js"));
    CHECK(fs::exists(out + "/katex/fonts/KaTeX_Main-Regular.woff2"));
    // Every font the copied stylesheet names is there.
    const std::string css = read_text(out + "/katex/katex.min.css");
    static const std::regex font(R"(url\((fonts/[^)]+)\))");
    std::size_t fonts = 0;
    for (auto it = std::sregex_iterator(css.begin(), css.end(), font); it != std::sregex_iterator(); ++it, ++fonts)
        CHECK(fs::exists(out + "/katex/" + (*it)[1].str()));
    CHECK(fonts == 20);
}

TEST_CASE("several problems on stdout are one page, an article each", "[e2e][html]") {
    const auto run = run_headcount({"solve", "problems/mha-gqa.yaml", "problems/mha-no-bias.yaml", "--format", "html"});
    REQUIRE(run.exit_code == 0);
    CHECK(count(run.out, "<article>") == 2);
    CHECK(count(run.out, "<!DOCTYPE html>") == 1);
    CHECK(run.out.find("<title>Worked solutions</title>") != std::string::npos);
}

TEST_CASE("a title with markup is text in the page", "[e2e][html]") {
    const std::string dir = fresh_temp_dir("html-title");
    std::string spec = read_text(source_dir() + "/problems/week3-mha-params.yaml");
    spec.replace(spec.find("title: Parameters of a multi-head attention block"),
                 std::string("title: Parameters of a multi-head attention block").size(),
                 "title: \"<script>alert(1)</script> & more\"");
    { std::ofstream(dir + "/evil.yaml") << spec; }
    const auto run = run_headcount({"solve", dir + "/evil.yaml", "--format", "html"});
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.find("<title>&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</title>") != std::string::npos);
    CHECK(run.out.find("<script>alert(1)") == std::string::npos);
}

TEST_CASE("generate --format html writes the markdown set as pages", "[e2e][html][generate]") {
    const std::string out = fresh_temp_dir("generate-html") + "/set";
    const auto run = run_headcount({"generate", "problems/week3-mha-params.yaml", "--roster", "tests/class/roster.csv",
                                    "--seed", "fall-2026", "--out", out, "--format", "html"});
    REQUIRE(run.exit_code == 0);
    // 5 students x (problems, solutions) + the preview + key.csv, as for markdown.
    CHECK(run.err == "headcount: 1 problem for 5 students; wrote 12 files to " + out +
                         " (and KaTeX, which the pages use, in katex/)\n");
    const std::string sheet = read_text(out + "/alice/problems.html");
    CHECK(sheet.find("href=\"../katex/katex.min.css\"") != std::string::npos);
    CHECK(sheet.find("with the numbers for alice") != std::string::npos);
    CHECK(sheet.find("Answer:") == std::string::npos);
    const std::string solutions = read_text(out + "/alice/solutions.html");
    CHECK(solutions.find("Answer:") != std::string::npos);
    CHECK(read_text(out + "/problems.html").find("href=\"katex/katex.min.css\"") != std::string::npos);
    CHECK(fs::exists(out + "/katex/katex.min.js"));
    // The key is the same as the markdown format's.
    const std::string md = fresh_temp_dir("generate-html-md") + "/set";
    REQUIRE(run_headcount({"generate", "problems/week3-mha-params.yaml", "--roster", "tests/class/roster.csv", "--seed",
                           "fall-2026", "--out", md})
                .exit_code == 0);
    CHECK(read_text(out + "/key.csv") == read_text(md + "/key.csv"));
}

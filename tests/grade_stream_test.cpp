// End-to-end tests of grading a class as a stream (issue 10): the same bytes for any number of threads, the
// problems graded, and results that appear whole or not at all.
#include "run_binary.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using headcount::testing::fresh_temp_dir;
using headcount::testing::read_text;
using headcount::testing::run_headcount;
namespace fs = std::filesystem;

namespace {

/// Every file under `dir`, by relative path, with its bytes.
std::map<std::string, std::string> tree(const std::string& dir) {
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        if (entry.is_regular_file())
            files[fs::relative(entry.path(), dir).string()] = read_text(entry.path().string());
    return files;
}

/// A class of `students` with right, mistaken, rounded and unreadable answers, resubmissions and rejected rows.
std::string make_class(const std::string& path, int students) {
    const char* answers[] = {"1050624", "\"1,048,576\"", "787968", "1.05M", "4*512*513", "12345", "banana", "262656"};
    std::ofstream out(path);
    out << "student,problem,part,answer\n";
    for (int i = 0; i < students; ++i) {
        out << "s" << i << ",week3-mha-params,a," << answers[(i * 7) % 8] << "\n";
        out << "s" << i << ",week3-mha-params,b," << answers[(i * 3 + 1) % 8] << "\n";
        if (i % 13 == 0) // a resubmission: the later row counts
            out << "s" << i << ",week3-mha-params,b,1050624\n";
        if (i % 17 == 0) // a misspelt problem: rejected, and shown in the student's own feedback
            out << "s" << i << ",week3-mha-param,a,1\n";
    }
    out << "../x,week3-mha-params,a,1\n";
    return path;
}

} // namespace

TEST_CASE("grading gives the same bytes whatever the number of threads", "[e2e][grade][stream]") {
    const std::string dir = fresh_temp_dir("threads");
    const std::string csv = make_class(dir + "/class.csv", 5000); // a chunk of 4,096 students and a remainder
    std::map<std::string, std::string> first;
    for (const char* threads : {"1", "2", "5"}) {
        INFO("threads " << threads);
        const std::string out = dir + "/out-" + threads;
        REQUIRE(run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", csv, "--out", out,
                               "--threads", threads})
                    .exit_code == 0);
        const auto files = tree(out);
        // 5,000 students' feedback, the gradebook, results.jsonl, the report and its charts: the scores and each
        // part's mistakes (both parts have some); feedback/ and charts/ each hold headcount's marker.
        CHECK(files.size() == 5008);
        if (first.empty())
            first = files;
        else
            CHECK(files == first);
    }
    // s0 answered a with 1050624 (the whole block, not Q+K+V's 787,968: 0 of 2), then b with 1,048,576 and again
    // with 1050624 on line 4, which counts (3 of 3); line 5 misspells the problem id.
    const std::string s0 = first.at("feedback/s0.md");
    CHECK(s0.find("- line 5: unknown problem 'week3-mha-param' (did you mean 'week3-mha-params'?)") !=
          std::string::npos);
    CHECK(s0.find("**Total: 3 of 5 points.**") != std::string::npos);
}

TEST_CASE("grade covers the problems that were submitted, or those --problems names", "[e2e][grade][stream]") {
    const std::string dir = fresh_temp_dir("scope");
    // problems/ has 23 specs; the sample class answers only week3-mha-params.
    REQUIRE(run_headcount(
                {"grade", "problems", "--submissions", "tests/class/submissions.csv", "--out", dir + "/submitted"})
                .exit_code == 0);
    const std::string gradebook = read_text(dir + "/submitted/gradebook.csv");
    CHECK(gradebook.substr(0, gradebook.find('\n')) == "student,week3-mha-params/a,week3-mha-params/b,total,max");
    CHECK(read_text(dir + "/submitted/feedback/alice.md").find("of 5 points") != std::string::npos);

    const auto bad = run_headcount({"grade", "problems", "--submissions", "tests/class/submissions.csv", "--out",
                                    dir + "/named", "--problems", "week3-mha-params,mha-gqaa"});
    CHECK(bad.exit_code == 2);
    CHECK(bad.err == "headcount: --problems names 'mha-gqaa', which none of the specs has (did you mean 'mha-gqa'?)\n");
    CHECK_FALSE(fs::exists(dir + "/named"));

    // mha-gqa is named but nobody answered it: it is in the gradebook with 0s.
    REQUIRE(run_headcount({"grade", "problems", "--submissions", "tests/class/submissions.csv", "--out", dir + "/named",
                           "--problems", "week3-mha-params,mha-gqa"})
                .exit_code == 0);
    const std::string named = read_text(dir + "/named/gradebook.csv");
    CHECK(named.substr(0, named.find('\n')) ==
          "student,mha-gqa/a,mha-gqa/b,mha-gqa/c,week3-mha-params/a,week3-mha-params/b,total,max");
    CHECK(named.find("\nalice,0,0,0,2,3,5,10\n") != std::string::npos); // mha-gqa's parts are 1 + 2 + 2 points
}

TEST_CASE("results appear whole or not at all", "[e2e][grade][stream]") {
    const std::string dir = fresh_temp_dir("atomic");
    const std::string out = dir + "/out";
    const std::string csv = make_class(dir + "/class.csv", 300);
    REQUIRE(run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", csv, "--out", out}).exit_code ==
            0);
    const auto before = tree(out);

    SECTION("an error halfway through leaves the previous results as they were") {
        // A template that fails only when a student's answer left out the biases: the gradebook, results and
        // report are already written (in staging) when the first such student's feedback is rendered.
        const std::string templates = dir + "/templates";
        fs::copy(headcount::testing::source_dir() + "/templates", templates, fs::copy_options::recursive);
        std::ofstream(templates + "/mistakes/missing_biases.mustache") << "{{no_such_value}}";
        // One worker, and more workers than cores: each stops at its own first failure, and the run as a whole.
        for (const char* threads : {"1", "5"}) {
            INFO("threads " << threads);
            const auto failed = run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", csv, "--out",
                                               out, "--templates", templates, "--reveal", "--threads", threads});
            CHECK(failed.exit_code == 2);
            CHECK(failed.err.find("unknown variable 'no_such_value'") != std::string::npos);
            CHECK(tree(out) == before);
            for (const auto& entry : fs::directory_iterator(out))
                CHECK_FALSE(entry.path().filename().string().starts_with(".headcount-staging"));
        }
    }
    SECTION("a new run replaces the whole set, stale students' files included") {
        std::ofstream(dir + "/two.csv") << "student,problem,part,answer\nzoe,week3-mha-params,a,787968\n";
        REQUIRE(
            run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", dir + "/two.csv", "--out", out})
                .exit_code == 0);
        const auto after = tree(out);
        // zoe's feedback, gradebook, results, report and the score chart (no mistakes), and two folders' markers.
        CHECK(after.size() == 7);
        CHECK(after.contains("feedback/zoe.md"));
        // --feedback none removes the old feedback, which would no longer match the results.
        REQUIRE(run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", dir + "/two.csv", "--out",
                               out, "--feedback", "none"})
                    .exit_code == 0);
        CHECK_FALSE(fs::exists(out + "/feedback"));
        CHECK(fs::exists(out + "/gradebook.csv"));
    }
    SECTION("an output that may not be replaced is refused before anything moves") {
        // A different class, so that a half-done commit would show in the gradebook.
        std::ofstream(dir + "/other.csv") << "student,problem,part,answer\nzoe,week3-mha-params,a,787968\n";
        fs::remove_all(out + "/feedback");
        std::ofstream(out + "/feedback") << "mine";
        const auto refused = run_headcount(
            {"grade", "problems/week3-mha-params.yaml", "--submissions", dir + "/other.csv", "--out", out});
        CHECK(refused.exit_code == 2);
        CHECK(refused.err == out + "/feedback: exists and is not a folder; move it away\n");
        CHECK(read_text(out + "/feedback") == "mine");
        CHECK(read_text(out + "/gradebook.csv") == before.at("gradebook.csv"));
        CHECK(read_text(out + "/results.jsonl") == before.at("results.jsonl"));
    }
    SECTION("an instructor's own folder is never replaced or removed") {
        fs::create_directories(dir + "/course/charts");
        std::ofstream(dir + "/course/charts/my-plot.svg") << "<svg/>";
        const auto refused = run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", csv, "--out",
                                            dir + "/course", "--feedback", "none"});
        CHECK(refused.exit_code == 2);
        CHECK(refused.err == dir + "/course/charts: is a folder headcount did not write; move it away (headcount "
                                   "replaces only its own folders)\n");
        CHECK(read_text(dir + "/course/charts/my-plot.svg") == "<svg/>");
        CHECK_FALSE(fs::exists(dir + "/course/gradebook.csv"));
    }
}

TEST_CASE("results.jsonl marks a resubmitted answer superseded, in input order", "[e2e][grade][stream]") {
    const std::string dir = fresh_temp_dir("superseded");
    // Three answers to one part: the first two are superseded, each by the next one's line.
    std::ofstream(dir + "/c.csv") << "student,problem,part,answer\nann,week3-mha-params,b,1\n"
                                     "ann,week3-mha-params,a,787968\nann,week3-mha-params,b,2\n"
                                     "ann,week3-mha-params,b,1050624\n";
    REQUIRE(run_headcount(
                {"grade", "problems/week3-mha-params.yaml", "--submissions", dir + "/c.csv", "--out", dir + "/out"})
                .exit_code == 0);
    std::istringstream lines(read_text(dir + "/out/results.jsonl"));
    std::vector<nlohmann::json> rows;
    for (std::string line; std::getline(lines, line);)
        rows.push_back(nlohmann::json::parse(line));
    REQUIRE(rows.size() == 4);
    CHECK(rows[0]["outcome"] == "superseded");
    CHECK(rows[0]["reason"] == "superseded by the answer on line 4");
    CHECK(rows[1]["outcome"] == "graded");
    CHECK(rows[2]["outcome"] == "superseded");
    CHECK(rows[2]["reason"] == "superseded by the answer on line 5");
    CHECK(rows[3]["outcome"] == "graded");
    CHECK(rows[3]["status"] == "correct");
    CHECK(read_text(dir + "/out/gradebook.csv") == "student,week3-mha-params/a,week3-mha-params/b,total,max\n"
                                                   "ann,2,3,5,5\n");
}

TEST_CASE("grade --html writes the report and feedback as pages, with the charts drawn inside", "[e2e][grade][html]") {
    const std::string out = fresh_temp_dir("grade-html") + "/out";
    REQUIRE(run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", "tests/class/submissions.csv",
                           "--out", out, "--html"})
                .exit_code == 0);
    // report.md links the score histogram and, for each part with a named mistake (both parts of the sample
    // class have one), that part's chart; report.html carries the same three pictures inline.
    const std::string markdown = read_text(out + "/report.md");
    for (const char* chart : {"charts/scores.svg", "charts/week3-mha-params-a.svg", "charts/week3-mha-params-b.svg"}) {
        INFO(chart);
        CHECK(markdown.find(std::string("](") + chart + ")") != std::string::npos);
        CHECK(fs::exists(out + "/" + chart));
    }
    const std::string html = read_text(out + "/report.html");
    std::size_t svgs = 0;
    for (std::size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1))
        ++svgs;
    CHECK(svgs == 3);
    CHECK(html.find("charts/") == std::string::npos); // drawn in the page, not linked
    CHECK(fs::exists(out + "/katex/katex.min.js"));
    CHECK(read_text(out + "/feedback/bob.html").find("<title>Feedback for bob</title>") != std::string::npos);
    CHECK(fs::exists(out + "/feedback/bob.md"));

    // Without --html the pages of the earlier run go: they would describe other results.
    REQUIRE(run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", "tests/class/submissions.csv",
                           "--out", out})
                .exit_code == 0);
    CHECK_FALSE(fs::exists(out + "/report.html"));
    CHECK_FALSE(fs::exists(out + "/katex"));
    CHECK_FALSE(fs::exists(out + "/feedback/bob.html"));
    CHECK(fs::exists(out + "/charts/scores.svg"));
}

TEST_CASE("a class whose answers do not repeat grades past the verdict table's bound", "[e2e][grade][stream]") {
    // More distinct answers to part b than a verdict table keeps whole (4,096): the later answers are graded again
    // when their feedback is written, and must come out as they would have been graded first.
    const std::string dir = fresh_temp_dir("unique");
    const std::string csv = dir + "/class.csv";
    {
        std::ofstream out(csv);
        out << "student,problem,part,answer\n";
        for (int i = 0; i < 5000; ++i)
            out << "s" << i << ",week3-mha-params,b," << 30'000'000 + i << "\n";
        // Part b is 4 * 512 * 513 = 1,050,624 (by hand), 3 points; 4 * 512^2 = 1,048,576 leaves out the biases.
        out << "late-right,week3-mha-params,b,4*512*513\n";
        out << "late-mistake,week3-mha-params,b,\"1,048,576\"\n";
        out << "late-typo,week3-mha-params,b,12o\n";
    }
    std::map<std::string, std::string> first;
    for (const char* threads : {"1", "2"}) {
        const std::string out = dir + "/out-" + threads;
        REQUIRE(run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", csv, "--out", out,
                               "--threads", threads})
                    .exit_code == 0);
        const auto files = tree(out);
        if (first.empty())
            first = files;
        CHECK(files == first);
    }
    const std::string gradebook = first.at("gradebook.csv");
    CHECK(gradebook.find("\nlate-right,0,3,3,5\n") != std::string::npos); // part a unanswered, b right
    CHECK(gradebook.find("\nlate-mistake,0,0,0,5\n") != std::string::npos);
    CHECK(gradebook.find("\ns4999,0,0,0,5\n") != std::string::npos);
    const std::string results = first.at("results.jsonl");
    CHECK(results.find("\"student\":\"late-mistake\",\"problem\":\"week3-mha-params\",\"part\":\"b\","
                       "\"answer\":\"1,048,576\",\"status\":\"incorrect\",\"score\":0.0,\"points\":3.0,"
                       "\"mistakes\":[\"missing_biases\"]}") != std::string::npos);
    CHECK(first.at("feedback/late-right.md").find("Part (b) of week3-mha-params: correct — 3 of 3 points.") !=
          std::string::npos);
    CHECK(first.at("feedback/late-mistake.md").find("**The bias vectors were left out** (`missing_biases`)") !=
          std::string::npos);
    CHECK(first.at("feedback/late-typo.md").find("Your answer: `12o`") != std::string::npos);
}

TEST_CASE("the report ranks the unexplained answers by students, equal counts in text order", "[e2e][grade][stream]") {
    // Part b of week 3 is 1,050,624 (4 * 512 * 513, by hand); none of these small numbers is a catalogued mistake.
    // "7" and "7.0" are different answers of the same value, so 7 counts 3 students, as 11 does; 13, 2 and 9 count 2
    // and 5 counts 1. Most common five, ties in text order ("13" < "2" < "9"): 11, 7, 13, 2, 9 (by hand).
    const std::string dir = fresh_temp_dir("unexplained");
    const std::string csv = dir + "/class.csv";
    {
        std::ofstream out(csv);
        out << "student,problem,part,answer\n";
        int student = 0;
        for (const char* answer : {"5", "9", "7", "13", "11", "2", "7.0", "11", "9", "2", "13", "7", "11"})
            out << "s" << student++ << ",week3-mha-params,b," << answer << "\n";
    }
    REQUIRE(run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", csv, "--out", dir + "/out",
                           "--feedback", "none"})
                .exit_code == 0);
    const std::string report = read_text(dir + "/out/report.md");
    CHECK(report.find("13 wrong answer(s) (") != std::string::npos);
    CHECK(report.find("Most common: 11 (3); 7 (3); 13 (2); 2 (2); 9 (2).") != std::string::npos);
}

TEST_CASE("the report merges unexplained answers the verdict table did not keep", "[e2e][grade][stream]") {
    // 4,200 different answers to part b, more than a verdict table keeps whole (4,096), then 11 from three students
    // and 13 from two: those come once per student to the report's ranking and must be counted together. Part b is
    // 1,050,624 (4 * 512 * 513, by hand); 30,000,000 + i, 11 and 13 are none of its catalogued mistakes. So
    // 4,200 + 5 unexplained answers, and the most common are 11 (3) and 13 (2), then three of the singletons.
    const std::string dir = fresh_temp_dir("unexplained-late");
    const std::string csv = dir + "/class.csv";
    {
        std::ofstream out(csv);
        out << "student,problem,part,answer\n";
        for (int i = 0; i < 4200; ++i)
            out << "s" << i << ",week3-mha-params,b," << 30'000'000 + i << "\n";
        int late = 0;
        for (const char* answer : {"11", "13", "11", "13", "11"})
            out << "late" << late++ << ",week3-mha-params,b," << answer << "\n";
    }
    REQUIRE(run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", csv, "--out", dir + "/out",
                           "--feedback", "none"})
                .exit_code == 0);
    const std::string report = read_text(dir + "/out/report.md");
    CHECK(report.find("4205 wrong answer(s) (") != std::string::npos);
    CHECK(report.find("Most common: 11 (3); 13 (2); ") != std::string::npos);
}

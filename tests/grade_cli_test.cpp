// End-to-end tests of `headcount grade` on the sample class in tests/class/submissions.csv, which mixes right
// answers, known mistakes, a resubmission and rows that must be rejected.
#include "run_binary.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using headcount::testing::fresh_temp_dir;
using headcount::testing::read_text;
using headcount::testing::run_headcount;
namespace fs = std::filesystem;

namespace {

std::vector<nlohmann::json> jsonl(const std::string& text) {
    std::vector<nlohmann::json> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(nlohmann::json::parse(line));
    return lines;
}

} // namespace

TEST_CASE("grade accounts for every row and writes the class's files", "[e2e][grade]") {
    const std::string out = fresh_temp_dir("grade") + "/out";
    const auto run = run_headcount(
        {"grade", "problems/week3-mha-params.yaml", "--submissions", "tests/class/submissions.csv", "--out", out});
    REQUIRE(run.exit_code == 0);
    // The file has 24 records after its header (one spans two lines): 14 graded, 1 superseded (eve's first
    // answer), 8 rejected: two unsafe ids, a Windows device name, an unknown problem, an unknown part, a stray
    // quote, a short row and invalid UTF-8.
    // 13 students: the 9 with graded answers, hana, whose two rows name an unknown problem and part, and ivan, jo
    // and mo, whose rows are malformed but whose ids can be read: their feedback tells them why.
    CHECK(run.err == "headcount: 23 rows in: 14 graded, 8 rejected, 1 superseded; 13 students; wrote " + out + "\n");

    const auto rows = jsonl(read_text(out + "/results.jsonl"));
    REQUIRE(rows.size() == 23);
    std::set<int> lines;
    for (const auto& row : rows)
        lines.insert(row["line"].get<int>());
    CHECK(lines.size() == 23); // each input row exactly once
    CHECK(rows[8]["outcome"] == "superseded");
    CHECK(rows[8]["reason"] == "superseded by the answer on line 11");
    CHECK(rows[14]["reason"] == "student id '../../etc/passwd' contains '/', which cannot be in a file name");
    // Line 7: chen answered 787,968 for the total, which leaving out W_O or W_V both give.
    CHECK(rows[5]["mistakes"] == nlohmann::json{"missing_output_projection", "missing_value_projection"});

    // Scores by hand: part a is 2 points, part b 3. alice both right (5); dana a right, b 1.05M rounded at half
    // credit (2 + 1.5); eve's resubmission 4 x 512 x 513 is right (3); bob no biases twice (0).
    const std::string gradebook = read_text(out + "/gradebook.csv");
    CHECK(
        gradebook.starts_with("student,week3-mha-params/a,week3-mha-params/b,total,max\nalice,2,3,5,5\nbob,0,0,0,5\n"));
    CHECK(gradebook.find("\ndana,2,1.5,3.5,5\n") != std::string::npos);
    CHECK(gradebook.find("\neve,0,3,3,5\n") != std::string::npos);
    CHECK(gradebook.find("passwd") == std::string::npos);

    // Ids that would escape the folder never became files.
    CHECK(fs::exists(out + "/feedback/alice.md"));
    // 13 students' files and headcount's marker, which lets the next run replace the folder.
    CHECK(std::distance(fs::directory_iterator(out + "/feedback"), fs::directory_iterator()) == 14);
    CHECK(read_text(out + "/feedback/jo.md").find("- line 20: malformed row: 2 fields, the header has 5") !=
          std::string::npos);
    // The id ../../etc/passwd would have written OUT/feedback/../../etc/passwd.md, i.e. beside OUT.
    CHECK_FALSE(fs::exists(fs::path(out).parent_path() / "etc"));

    const std::string report = read_text(out + "/report.md");
    CHECK(report.find("| `missing_biases`: The bias vectors were left out | 1 | 20.0% |") != std::string::npos);
    CHECK(report.find("Answered by 9 of 13 students: 2 correct (22.2%), 1 rounded, 5 wrong, 1 unreadable.") !=
          std::string::npos);
    CHECK(report.find("| 25 | student id 'CON' is the Windows device name CON |") != std::string::npos);

    CHECK(gradebook.find("\nhana,0,0,0,5\n") != std::string::npos);
    CHECK(read_text(out + "/feedback/hana.md")
              .find("- line 17: unknown problem 'week3-mha-param' (did you mean "
                    "'week3-mha-params'?)") != std::string::npos);
    // kim's answer spans two lines in the CSV; in her feedback it stays one line inside a code span, so typed
    // text cannot add lines (a fake verdict or total) to the file.
    CHECK(read_text(out + "/feedback/kim.md").find("Your answer: `1,050,624 with a newline`\n") != std::string::npos);
    // No feedback policy in the spec: bob's missing biases are named, but not the 2,048 he is short.
    const std::string bob = read_text(out + "/feedback/bob.md");
    CHECK(bob.find("It matches a known mistake:") != std::string::npos);
    CHECK(bob.find("(`missing_biases`)") != std::string::npos);
    CHECK(bob.find("2,048") == std::string::npos);
}

TEST_CASE("grade neutralises spreadsheet formulas in ids", "[e2e][grade]") {
    const std::string dir = fresh_temp_dir("grade-formula");
    std::ofstream(dir + "/class.csv") << "student,problem,part,answer\n@SUM(A1),week3-mha-params,a,787968\n"
                                         "+alice,week3-mha-params,a,787968\n";
    const auto run = run_headcount(
        {"grade", "problems/week3-mha-params.yaml", "--submissions", dir + "/class.csv", "--out", dir + "/out"});
    REQUIRE(run.exit_code == 0);
    const std::string gradebook = read_text(dir + "/out/gradebook.csv");
    CHECK(gradebook.find("\n'+alice,2,0,2,5\n") != std::string::npos);
    CHECK(gradebook.find("\n'@SUM(A1),2,0,2,5\n") != std::string::npos);
}

TEST_CASE("grade rejects a file without the required columns, and writes nothing", "[e2e][grade]") {
    const std::string dir = fresh_temp_dir("grade-header");
    std::ofstream(dir + "/class.csv") << "name,problem,part,answer\nalice,week3-mha-params,a,1\n";
    const auto run = run_headcount(
        {"grade", "problems/week3-mha-params.yaml", "--submissions", dir + "/class.csv", "--out", dir + "/out"});
    CHECK(run.exit_code == 2);
    CHECK(run.err == dir + "/class.csv:1: the header has no 'student' column; it needs student, problem, part and "
                           "answer\n");
    CHECK_FALSE(fs::exists(dir + "/out"));
    CHECK(
        run_headcount({"grade", "problems", "--submissions", dir + "/missing.csv", "--out", dir + "/out"}).exit_code ==
        2);
}

TEST_CASE("grade says an empty submissions file has nothing to grade yet, and writes nothing", "[e2e][grade]") {
    // An attempt log serve has not written to yet, and a blank CSV: neither has a header to complain about.
    const std::string dir = fresh_temp_dir("grade-empty");
    for (const char* name : {"attempts.jsonl", "class.csv"}) {
        INFO(name);
        std::ofstream(dir + "/" + name) << (name[0] == 'a' ? "" : "\n  \n");
        const auto run = run_headcount(
            {"grade", "problems/week3-mha-params.yaml", "--submissions", dir + "/" + name, "--out", dir + "/out"});
        CHECK(run.exit_code == 2);
        CHECK(run.err == dir + "/" + name +
                             ": the file is empty: there is nothing to grade yet (serve's attempt log "
                             "stays empty until a student checks an answer)\n");
        CHECK_FALSE(fs::exists(dir + "/out"));
    }
}

TEST_CASE("grade --format gradescope writes one student's results.json", "[e2e][grade]") {
    const std::string dir = fresh_temp_dir("gradescope");
    std::ofstream(dir + "/submission.csv") << "student,problem,part,answer\nalice,week3-mha-params,b,1048576\n";
    const auto run = run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", dir + "/submission.csv",
                                    "--out", dir + "/results", "--format", "gradescope"});
    REQUIRE(run.exit_code == 0);
    const auto json = nlohmann::json::parse(read_text(dir + "/results/results.json"));
    CHECK(json["score"] == 0.0);
    REQUIRE(json["tests"].size() == 2);
    CHECK(json["tests"][0]["number"] == "1.1");
    CHECK(json["tests"][0]["max_score"] == 2.0);
    CHECK(json["tests"][0]["output"] == "No answer was submitted for this part.");
    CHECK(json["tests"][1]["status"] == "failed");
    CHECK(json["tests"][1]["output_format"] == "md");
    CHECK(json["tests"][1]["visibility"] == "visible");
    CHECK(json["tests"][1]["output"].get<std::string>().find("missing_biases") != std::string::npos);

    std::ofstream(dir + "/two.csv") << "student,problem,part,answer\na,week3-mha-params,b,1\nb,week3-mha-params,b,1\n";
    const auto two = run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", dir + "/two.csv",
                                    "--out", dir + "/r2", "--format", "gradescope"});
    CHECK(two.exit_code == 2);
    CHECK(two.err == dir + "/two.csv: --format gradescope grades one student's submission; this file has 2 students\n");
}

TEST_CASE("grade leaves out of the gradebook and report an id that is not on the roster", "[e2e][grade]") {
    // Issue 40, item 13: zed, not on tests/class/roster.csv, had a gradebook row of zeros and counted among the
    // report's students and in its 0-9% bucket. mha-no-bias has no vary:, so every student's numbers are its own:
    // four 512 x 512 matrices, 4 x 262,144 = 1,048,576 weights, no biases (by hand). ALICE comes first and is not on
    // the roster either (alice is): before, she became a student and alice's rows were refused as her spelling.
    const std::string dir = fresh_temp_dir("grade-roster");
    std::ofstream(dir + "/class.csv") << "student,problem,part,answer\n"
                                         "ALICE,mha-no-bias,a,1\n"             // line 2
                                         "alice,mha-no-bias,a,1048576\n"       // 3
                                         "alice,mha-no-bias,b,0\n"             // 4
                                         "alice,mha-no-bias,c,\"1,048,576\"\n" // 5
                                         "zed,mha-no-bias,a,1048576\n"         // 6: right, but zed has no numbers
                                         "zed,mha-no-bis,c,5\n"                // 7
                                         "zed,mha-no-bias\n"                   // 8: malformed
                                         "bob,mha-no-bias,c,1\n";              // 9
    const std::vector<std::string> roster{"--seed", "fall-2026", "--roster", "tests/class/roster.csv"};
    std::vector<std::string> args{
        "grade", "problems/mha-no-bias.yaml", "--submissions", dir + "/class.csv", "--out", dir + "/out"};
    args.insert(args.end(), roster.begin(), roster.end());
    const auto run = run_headcount(args);
    REQUIRE(run.exit_code == 0);
    // 8 rows: alice's three and bob's one graded; ALICE's, zed's three rejected. Two students: alice and bob.
    CHECK(run.err == "headcount: 8 rows in: 4 graded, 4 rejected, 0 superseded; 2 students; wrote " + dir + "/out\n");
    // Points 1, 1 and 2 (the spec): alice all right, bob's 1 for part c wrong.
    CHECK(read_text(dir + "/out/gradebook.csv") ==
          "student,mha-no-bias/a,mha-no-bias/b,mha-no-bias/c,total,max\nalice,1,1,2,4,4\nbob,0,0,0,0,4\n");
    CHECK(fs::exists(dir + "/out/feedback/alice.md"));
    CHECK_FALSE(fs::exists(dir + "/out/feedback/zed.md"));
    CHECK_FALSE(fs::exists(dir + "/out/feedback/ALICE.md"));

    const std::string report = read_text(dir + "/out/report.md");
    CHECK(report.starts_with("# Class report\n\n2 students, 4 answers graded."));
    CHECK(report.find("| 100% | 1 | 50.0% |") != std::string::npos);
    CHECK(report.find("| 0–9% | 1 | 50.0% |") != std::string::npos); // bob alone
    // Their rows are still listed, each with its reason.
    const std::string not_on = "is not on the roster, so their numbers are unknown |";
    CHECK(report.find("| 2 | student 'ALICE' " + not_on) != std::string::npos);
    CHECK(report.find("| 6 | student 'zed' " + not_on) != std::string::npos);
    CHECK(report.find("| 7 | student 'zed' " + not_on) != std::string::npos);
    CHECK(report.find("| 8 | malformed row: 2 fields, the header has 4 |") != std::string::npos);

    // Graded for Gradescope, zed's file has no student: the results say why nothing was graded.
    std::ofstream(dir + "/zed.csv") << "student,problem,part,answer\nzed,mha-no-bias,c,1048576\n";
    args = {
        "grade",     "problems/mha-no-bias.yaml", "--submissions", dir + "/zed.csv", "--out", dir + "/gs", "--format",
        "gradescope"};
    args.insert(args.end(), roster.begin(), roster.end());
    REQUIRE(run_headcount(args).exit_code == 0);
    const auto json = nlohmann::json::parse(read_text(dir + "/gs/results.json"));
    CHECK(json["score"] == 0.0);
    CHECK(json["output"] == "Some rows of your submission could not be graded:\n\n- line 2: student 'zed' is not on "
                            "the roster, so their numbers are unknown\n");
}

TEST_CASE("grade names the field a malformed row is malformed in", "[e2e][grade]") {
    // Issue 40, item 14: a 10 MB answer (the fourth field) was reported as "field 1". Each row below breaks one
    // rule in a field other than the first; fields and columns counted by hand.
    const std::string dir = fresh_temp_dir("grade-fields");
    std::ofstream(dir + "/class.csv", std::ios::binary)
        << "student,problem,part,answer\n"
        << "alice,week3-mha-params,a," << std::string(10 << 20, '7') << "\n"    // line 2: 10 MiB
        << "bob,week3-mha-params,a,\"" << std::string(100 << 10, '8') << "\"\n" // 3: 100 KiB, quoted
        << "chen,week3-mha-params,\xff,1\n"                                     // 4
        << "dana,week3\"x,a,1\n"                                                // 5: quote at column 11
        << "eve,\"week3\"x,a,1\n"                                               // 6: x at column 12
        << "fay,week3-mha-params,a,\"open\n"                                    // 7
        << "gus,week3-mha-params,a,787968\n";                                   // 8
    const auto run = run_headcount(
        {"grade", "problems/week3-mha-params.yaml", "--submissions", dir + "/class.csv", "--out", dir + "/out"});
    REQUIRE(run.exit_code == 0);
    std::map<int, std::string> reasons;
    for (const auto& row : jsonl(read_text(dir + "/out/results.jsonl")))
        if (row["outcome"] == "rejected")
            reasons[row["line"].get<int>()] = row["reason"].get<std::string>();
    CHECK(reasons == std::map<int, std::string>{
                         {2, "malformed row: field 4: the row is longer than 1 MiB; its first part was read"},
                         {3, "malformed row: field 4: larger than 64 KiB"},
                         {4, "malformed row: field 3: not valid UTF-8"},
                         {5, "malformed row: field 2: quote inside an unquoted field (line 5, column 11)"},
                         {6, "malformed row: field 2: text after the closing quote (line 6, column 12)"},
                         {7, "malformed row: field 4: unterminated quoted field starting on line 7; the row was read "
                             "up to the end of that line"}});
    // The row after the 10 MiB one is read as usual: nothing of the long line is taken for rows of its own.
    CHECK(run.err == "headcount: 7 rows in: 1 graded, 6 rejected, 0 superseded; 7 students; wrote " + dir + "/out\n");
}

// End-to-end regression tests for the hostile-input defects of issue 14: each ran the binary into a crash, a
// hang, a corrupt file or a misleading message before it was fixed. The template defects (1, 2) are in
// src/render/templates_test.cpp.
#include "run_binary.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <filesystem>
#include <fstream>

using headcount::testing::fresh_temp_dir;
using headcount::testing::read_text;
using headcount::testing::run_headcount;
namespace fs = std::filesystem;

namespace {

std::string write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

/// A valid one-part spec whose title is `title`.
std::string spec_titled(const std::string& dir, const std::string& title) {
    return write(dir + "/p.yaml", "id: p\ntitle: \"" + title +
                                      "\"\ngiven: {d_model: 512, h: 8}\n"
                                      "parts: [{id: a, ask: total_params}]\n");
}

} // namespace

TEST_CASE("invalid UTF-8 in a spec is a located error, not a JSON library's exception (defect 3)", "[e2e][hostile]") {
    const std::string dir = fresh_temp_dir("hostile-utf8");
    const std::string spec = write(dir + "/p.yaml", "id: p\ntitle: MHA \xFF\ngiven: {d_model: 512, h: 8}\n"
                                                    "parts: [{id: a, ask: total_params}]\n");
    const std::string expected = spec + ":2:8: this text is not valid UTF-8; a spec holds printable UTF-8 text (tabs "
                                        "and line breaks allowed)\n"
                                        "    2 | title: MHA ?\n" // the byte that is not UTF-8 shown as '?'
                                        "      |        ^\n";
    // Before: "internal error: [json.exception.type_error.316] invalid UTF-8 byte at index 4: 0xFF".
    const auto json = run_headcount({"solve", spec, "--format", "json"});
    CHECK(json.exit_code == 2);
    CHECK(json.err == expected);
    const std::string submissions = write(dir + "/class.csv", "student,problem,part,answer\nalice,p,a,1050624\n");
    const auto gradescope =
        run_headcount({"grade", spec, "--submissions", submissions, "--out", dir + "/out", "--format", "gradescope"});
    CHECK(gradescope.exit_code == 2);
    CHECK(gradescope.err == expected);
    CHECK_FALSE(fs::exists(dir + "/out/results.json"));
}

TEST_CASE("a control character in a spec never reaches Markdown or Moodle XML (defect 4)", "[e2e][hostile]") {
    const std::string dir = fresh_temp_dir("hostile-control");
    const std::string spec = spec_titled(dir, "MHA\\e[2J");
    const std::string roster = write(dir + "/roster.csv", "student\nalice\n");
    // Before: exit 0 and a questions.xml that no XML parser reads; Markdown carried the raw ESC sequence.
    const auto moodle =
        run_headcount({"export", "moodle", spec, "--roster", roster, "--seed", "s", "--out", dir + "/bank"});
    CHECK(moodle.exit_code == 2);
    CHECK(moodle.err == spec + ":2:8: this text contains a control character (U+001B); a spec holds printable UTF-8 "
                               "text (tabs and line breaks allowed)\n"
                               "    2 | title: \"MHA\\e[2J\"\n"
                               "      |        ^\n");
    CHECK_FALSE(fs::exists(dir + "/bank/questions.xml"));
    const auto markdown = run_headcount({"solve", spec});
    CHECK(markdown.exit_code == 2);
    CHECK(markdown.out.empty());
}

TEST_CASE("endless inputs are read up to a cap that the message names (defects 5 and 7)", "[e2e][hostile]") {
    // Before: `solve /dev/zero` and `generate --roster /dev/zero` ate memory until killed, and `--key
    // /dev/zero` said "cannot read the submissions file".
    const auto solve = run_headcount({"solve", "/dev/zero"});
    CHECK(solve.exit_code == 2);
    CHECK(solve.err == "/dev/zero: the spec file is larger than 1 MiB, the most headcount reads\n");
    const std::string dir = fresh_temp_dir("hostile-caps");
    const auto roster = run_headcount({"generate", "problems/week3-mha-params.yaml", "--roster", "/dev/zero", "--seed",
                                       "s", "--out", dir + "/sheets"});
    CHECK(roster.exit_code == 2);
    CHECK(roster.err == "/dev/zero: the roster is larger than 64 MiB, the most headcount reads\n");
    // The key names itself (it said "cannot read the submissions file"). Submissions and keys are read as streams
    // capped at 4 GiB (CsvStream); reading that much of /dev/zero takes a minute, so it is not done here.
    const auto key =
        run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", "tests/class/submissions.csv",
                       "--key", "/nonexistent/key.csv", "--out", dir + "/graded"});
    CHECK(key.exit_code == 2);
    CHECK(key.err == "/nonexistent/key.csv: cannot read the key\n");
}

TEST_CASE("ids that differ only in case or Unicode form are one student or refused, naming both (defect 6)",
          "[e2e][hostile]") {
    const std::string dir = fresh_temp_dir("hostile-ids");
    // alice; Alice; ALICE; á as U+00E1 (NFC) and as a + U+0301 (NFD); alice padded with a no-break space
    // (U+00A0).
    const std::string submissions = write(dir + "/class.csv", "student,problem,part,answer\n"
                                                              "alice,week3-mha-params,a,787968\n"
                                                              "Alice,week3-mha-params,b,1050624\n"
                                                              "ALICE,week3-mha-params,b,1050624\n"
                                                              "\xC3\xA1lice,week3-mha-params,a,787968\n"
                                                              "a\xCC\x81lice,week3-mha-params,b,1050624\n"
                                                              "alice\xC2\xA0,week3-mha-params,b,1050624\n");
    const auto run =
        run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", submissions, "--out", dir + "/out"});
    REQUIRE(run.exit_code == 0);
    // Before: six students and six feedback files. Now: the padded alice is alice (her second answer), and
    // álice typed precomposed is a student of her own; the others are refused.
    CHECK(run.err == "headcount: 6 rows in: 3 graded, 3 rejected, 0 superseded; 2 students; wrote " + dir + "/out\n");
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir + "/out/feedback"))
        files.push_back(entry.path().filename().string());
    std::sort(files.begin(), files.end());
    // .headcount-output is grade's marker that the folder is its own, to replace on the next run.
    CHECK(files == std::vector<std::string>{".headcount-output", "alice.md", "\xC3\xA1lice.md"});
    std::vector<nlohmann::json> rows;
    std::istringstream lines(read_text(dir + "/out/results.jsonl"));
    for (std::string line; std::getline(lines, line);)
        rows.push_back(nlohmann::json::parse(line));
    REQUIRE(rows.size() == 6);
    CHECK(rows[1]["reason"] == "student id 'Alice' and 'alice' (line 2) differ only in case or Unicode form; they "
                               "would share one feedback file on macOS and Windows, so they must not name two "
                               "students");
    CHECK(rows[2]["reason"].get<std::string>().starts_with("student id 'ALICE' and 'alice' (line 2) differ"));
    CHECK(rows[4]["reason"].get<std::string>().starts_with("student id 'a\xCC\x81lice' and '\xC3\xA1lice' (line 5) "
                                                           "differ"));
    CHECK(rows[5]["outcome"] == "graded");
    CHECK(rows[5]["student"] == "alice");
}

TEST_CASE("a roster with two spellings of one id is refused, naming both (defect 6)", "[e2e][hostile]") {
    const std::string dir = fresh_temp_dir("hostile-roster");
    const std::string roster = write(dir + "/roster.csv", "student\nalice\nbob\nALICE\n");
    const auto run = run_headcount(
        {"generate", "problems/week3-mha-params.yaml", "--roster", roster, "--seed", "s", "--out", dir + "/sheets"});
    CHECK(run.exit_code == 2);
    CHECK(run.err == roster + ":4: student id 'ALICE' and 'alice' (line 2) differ only in case or Unicode form; they "
                              "would share one feedback file on macOS and Windows, so they must not name two "
                              "students\n");
}

TEST_CASE("a misspelt command is named, with the command meant", "[e2e][hostile]") {
    const auto typo = run_headcount({"chek", "problems/week3-mha-params.yaml"});
    CHECK(typo.exit_code == 2);
    CHECK(typo.err == "headcount: unknown command 'chek' (did you mean 'check'?) (see 'headcount --help')\n");
    const auto control = run_headcount({"x\x1b[2J"}); // a terminal escape is shown, not sent to the terminal
    CHECK(control.exit_code == 2);
    CHECK(control.err.find('\x1b') == std::string::npos);
    CHECK(run_headcount({"--version"}).exit_code == 0);
}

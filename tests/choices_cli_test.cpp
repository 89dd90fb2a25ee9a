// End-to-end tests of answers that are words (issue 41, item 7): a spec's quantity with `choices:`, each word with
// its condition over other quantities. The expected words and numbers are worked out by hand in the comments.
#include "cli_json.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <fstream>
#include <string>

using headcount::testing::check_json;
using headcount::testing::has;
using headcount::testing::run_headcount;
using headcount::testing::solved_json;

namespace {

/// A spec file `name`.yaml holding `text`, in a folder of its own.
std::string spec_file(const std::string& name, const std::string& text) {
    const std::string path = headcount::testing::fresh_temp_dir("choices-" + name) + "/" + name + ".yaml";
    std::ofstream(path) << text;
    return path;
}

// One decoding step of 10^12 FLOPs reading 2 x 10^10 bytes on an accelerator of 312 TFLOP/s and 2 TB/s:
//   compute_time = 10^12 / (312 x 10^12) = 1/312 s = 0.00320513 s;
//   memory_time = 2 x 10^10 / (2 x 10^12) = 0.01 s,
// so memory_time > compute_time: the step is memory-bound.
std::string roofline(const std::string& name, const std::string& choices, const std::string& extra = "") {
    return spec_file(name, "id: " + name + "\ntitle: Memory- or compute-bound?\n" + extra +
                               "given:\n"
                               "  flops: 1000000000000\n"
                               "  bytes: 20000000000\n"
                               "  peak_flops: 312000000000000\n"
                               "  hbm_bandwidth: 2000000000000\n"
                               "quantities:\n"
                               "  compute_time: {formula: flops / peak_flops, unit: seconds}\n"
                               "  memory_time: {formula: bytes / hbm_bandwidth, unit: seconds}\n"
                               "  bound:\n"
                               "    title: regime of the step\n"
                               "    choices: " +
                               choices +
                               "\n"
                               "parts:\n"
                               "  - {id: a, ask: bound}\n"
                               "  - {id: b, ask: memory_time}\n");
}

const char* const k_memory_or_compute = "{memory: \"memory_time > compute_time\", compute: otherwise}";

} // namespace

TEST_CASE("a quantity answered with a word names the word and shows the comparison", "[e2e][choices]") {
    const std::string spec = roofline("bound", k_memory_or_compute);
    const auto json = solved_json(spec);
    CHECK(json["parts"][0]["answer"] == "memory");
    CHECK(json["parts"][1]["answer"] == "0.01");

    const auto solved = run_headcount({"solve", spec});
    REQUIRE(solved.exit_code == 0);
    // The words with their conditions, then the conditions at this problem's numbers (0.01 > 1/312), and the word.
    CHECK(has(solved.out, "\\begin{cases}\\text{memory} & \\text{if } "));
    CHECK(has(solved.out, "\\text{compute} & \\text{otherwise}\\end{cases}"));
    CHECK(has(solved.out, "0.01 >"));
    CHECK(has(solved.out, "= \\text{memory}$"));
    CHECK(has(solved.out, "**Answer: memory.**"));

    // The word, in any case and with spaces around it; the other word is wrong; a third is not read.
    CHECK(check_json(spec, "a", "memory")["status"] == "correct");
    CHECK(check_json(spec, "a", "  MEMORY ")["status"] == "correct");
    CHECK(check_json(spec, "a", "Memory")["status"] == "correct");
    const auto wrong = check_json(spec, "a", "compute");
    CHECK(wrong["status"] == "incorrect");
    CHECK(wrong["score"] == 0);
    const auto neither = check_json(spec, "a", "banana");
    CHECK(neither["status"] == "unreadable");
}

TEST_CASE("feedback on a word gives the comparison's numbers only as the reveal policy allows", "[e2e][choices]") {
    // hints (the default): the condition, no number derived from the givens.
    const std::string hints = roofline("hints", k_memory_or_compute);
    auto run = run_headcount({"check", hints, "--part", "a", "--answer", "compute"});
    INFO(run.out);
    CHECK(has(run.out, "not right yet"));
    CHECK(has(run.out, "The word follows from `memory_time > compute_time` (memory)"));
    CHECK(!has(run.out, "0.01"));
    CHECK(!has(run.out, "0.0032"));
    CHECK(!has(run.out, "Expected"));
    // gaps: the two sides, memory_time = 0.01 and compute_time = 1/312 = about 0.00320513.
    const std::string gaps = roofline("gaps", k_memory_or_compute, "feedback: gaps\n");
    run = run_headcount({"check", gaps, "--part", "a", "--answer", "compute"});
    INFO(run.out);
    CHECK(has(run.out, "For memory: `memory_time` is 0.01 and `compute_time` is about 0.00320513."));
    CHECK(!has(run.out, "Expected"));
    // full: the word too.
    run = run_headcount({"check", hints, "--part", "a", "--answer", "compute", "--reveal"});
    INFO(run.out);
    CHECK(has(run.out, "Expected: memory"));
    CHECK(has(run.out, "`memory_time` is 0.01"));
}

// A class graded from a CSV: the word, the word with "-bound" after it, the other word and a word that is neither.
// Each part is a point, so the gradebook's rows are: a's points, b's, the total and the most, 2.
TEST_CASE("a class's words are graded", "[e2e][choices]") {
    const std::string spec = roofline("class", k_memory_or_compute);
    const std::string dir = headcount::testing::fresh_temp_dir("choices-class-out");
    std::ofstream(dir + "/answers.csv") << "student,problem,part,answer\n"
                                           "s1,class,a,memory\n"
                                           "s2,class,a,Memory-bound\n"
                                           "s3,class,a,compute\n"
                                           "s4,class,a,neither\n";
    const auto run = run_headcount({"grade", spec, "--submissions", dir + "/answers.csv", "--out", dir + "/graded"});
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const std::string gradebook = headcount::testing::read_text(dir + "/graded/gradebook.csv");
    INFO(gradebook);
    CHECK(has(gradebook, "\ns1,1,0,1,2\n"));
    CHECK(has(gradebook, "\ns2,1,0,1,2\n"));
    CHECK(has(gradebook, "\ns3,0,0,0,2\n"));
    CHECK(has(gradebook, "\ns4,0,0,0,2\n"));
    CHECK(has(headcount::testing::read_text(dir + "/graded/feedback/s3.md"), "`memory_time > compute_time`"));
    CHECK(has(headcount::testing::read_text(dir + "/graded/feedback/s4.md"), "answer with one of: memory, compute"));
}

TEST_CASE("choices whose conditions overlap, leave a gap or name what is not there are refused where they stand",
          "[e2e][choices]") {
    // Both hold: memory_time = 0.01 > 1/312, and 0.01 > 0. `choices:` is line 13 of the file, its '{' at column 14
    // (after "    choices: "), so the second condition's text starts at column 63 (its quote at 62).
    auto run = run_headcount(
        {"solve", roofline("overlap", "{memory: \"memory_time > compute_time\", compute: \"memory_time > 0\"}")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "overlap.yaml:13:63: choices of bound: the conditions of memory and compute both hold here"));
    CHECK(has(run.err, "the conditions must not overlap"));
    // Neither holds (0.01 and 1/312 are both below 1), and no otherwise: at `choices:`'s value, 13:14.
    run = run_headcount({"solve", roofline("gap", "{memory: \"memory_time > 1\", compute: \"compute_time > 1\"}")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "gap.yaml:13:14: choices of bound: no condition holds here"));
    // An unknown name, at its own column: the first condition's quote is at column 23 (`{memory: ` from 14), its text
    // and memory_tme at 24.
    run = run_headcount({"solve", roofline("unknown", "{memory: \"memory_tme > compute_time\", compute: otherwise}")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "unknown.yaml:13:24: condition of memory in bound: unknown name 'memory_tme'"));
    // otherwise before another word, or twice: at the first otherwise: `{compute: ` puts it at column 24, `{memory: `
    // at 23.
    run = run_headcount({"solve", roofline("early", "{compute: otherwise, memory: \"memory_time > compute_time\"}")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "early.yaml:13:24: choices of bound: otherwise must be the last word's condition"));
    run = run_headcount({"solve", roofline("twice", "{memory: otherwise, compute: otherwise}")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "twice.yaml:13:23: choices of bound: otherwise must be the last word's condition"));
    // A formula and choices together.
    run = run_headcount({"solve", spec_file("both", "id: both\ntitle: t\ngiven: {x: 1}\nquantities:\n"
                                                    "  q: {formula: x, choices: {a: \"x > 0\", b: otherwise}}\n"
                                                    "parts:\n  - {id: a, ask: q}\n")});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "both.yaml:5:3: quantity 'q' has more than one of formula, choices and solve_for"));
}

// Conditions checked at every variant: memory_time > compute_time and memory_time < compute_time leave out the
// case where the two are equal, which the spec's own values (0.01 against 1/312) do not reach, but its second
// variant does: 2 x 10^10 bytes at 6.24 x 10^12 B/s take 1/312 s, as 10^12 FLOPs at 312 x 10^12 FLOP/s do.
// `vary:` adds a line before `given:`, so `choices:` stands at 14:14.
TEST_CASE("choices that leave a gap in one variant are refused where variants are drawn", "[e2e][choices]") {
    const std::string spec = roofline("varied",
                                      "{memory: \"memory_time > compute_time\", compute: \"memory_time < "
                                      "compute_time\"}",
                                      "vary: {hbm_bandwidth: [2000000000000, 6240000000000]}\n");
    CHECK(solved_json(spec)["parts"][0]["answer"] == "memory");
    const std::string out = headcount::testing::fresh_temp_dir("choices-varied-out");
    const auto run =
        run_headcount({"generate", spec, "--roster", "tests/class/roster.csv", "--seed", "s1", "--out", out});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "varied.yaml:14:14: choices of bound: no condition holds here"));
}

// End-to-end tests of `headcount generate` and of checking and grading against seeded variants.
#include "run_binary.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <util/token.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using headcount::testing::fresh_temp_dir;
using headcount::testing::read_text;
using headcount::testing::run_headcount;
using headcount::testing::source_dir;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> k_class{"alice", "bob", "chen", "dana", "eve"}; // tests/class/roster.csv

std::vector<std::string> generate_args(const std::string& out, const std::string& seed = "fall-2026") {
    return {"generate", "problems/week3-mha-params.yaml", "--roster", "tests/class/roster.csv", "--seed", seed, "--out",
            out};
}

/// The value in a problem sheet's givens table for the row whose symbol is `symbol`.
std::string sheet_value(const std::string& sheet, const std::string& symbol) {
    std::smatch m;
    REQUIRE(std::regex_search(sheet, m, std::regex("\\| " + symbol + " \\| [^|]+ \\| ([^|]+) \\|")));
    return m[1].str();
}

} // namespace

TEST_CASE("generate writes a sheet, solutions and key for every student", "[e2e][generate]") {
    const std::string out = fresh_temp_dir("generate") + "/set";
    const auto run = run_headcount(generate_args(out));
    REQUIRE(run.exit_code == 0);
    CHECK(run.err == "headcount: 1 problem for 5 students; wrote 12 files to " + out + "\n");
    for (const std::string& student : k_class) {
        const std::string sheet = read_text(out + "/" + student + "/problems.md");
        CHECK(sheet.find("with the numbers for " + student) != std::string::npos);
        CHECK(sheet.find("Answer") == std::string::npos); // questions only
        CHECK(read_text(out + "/" + student + "/solutions.md").find("**Answer: ") != std::string::npos);
    }
    CHECK(read_text(out + "/problems.md").find("| 512 |") != std::string::npos); // the unvaried preview
}

TEST_CASE("generate is deterministic, and a key answer is what solve gives for the same numbers", "[e2e][generate]") {
    const std::string dir = fresh_temp_dir("generate-twice");
    REQUIRE(run_headcount(generate_args(dir + "/one")).exit_code == 0);
    REQUIRE(run_headcount(generate_args(dir + "/two")).exit_code == 0);
    const std::string key = read_text(dir + "/one/key.csv");
    CHECK(key == read_text(dir + "/two/key.csv"));
    CHECK(read_text(dir + "/one/bob/solutions.md") == read_text(dir + "/two/bob/solutions.md"));
    // The key's reviewed golden copy pins the variants (tests/reproduce_variants.py derives them independently).
    CHECK(key == read_text(source_dir() + "/tests/golden/generate-key.csv"));

    for (const std::string& student : k_class) {
        INFO(student);
        const std::string sheet = read_text(dir + "/one/" + student + "/problems.md");
        std::string d_model = sheet_value(sheet, "\\$d_\\{model\\}\\$");
        d_model.erase(std::remove(d_model.begin(), d_model.end(), ','), d_model.end());
        const std::string h = sheet_value(sheet, "\\$h\\$");
        const bool bias = sheet_value(sheet, "biases") != "none";
        const std::string spec = dir + "/" + student + ".yaml";
        std::ofstream(spec) << "id: week3-mha-params\ntitle: t\ngiven: {d_model: " << d_model << ", h: " << h
                            << ", bias: " << (bias ? "true" : "false")
                            << "}\nparts: [{id: a, ask: qkv_params}, {id: b, ask: total_params}]\n";
        const auto solved = run_headcount({"solve", spec, "--format", "json"});
        REQUIRE(solved.exit_code == 0);
        const auto json = nlohmann::json::parse(solved.out);
        for (const auto& part : json["parts"]) {
            const std::string row = student + ",week3-mha-params," + part["id"].get<std::string>() + "," +
                                    std::to_string(part["answer"].get<long long>()) + ",parameters," + d_model + "," +
                                    h + "," + (bias ? "true" : "false") + "\n";
            CHECK(key.find(row) != std::string::npos); // the key's givens are the sheet's numbers
        }
    }
}

TEST_CASE("a student's sheet says whose numbers they are and how to check them", "[e2e][generate]") {
    const std::string dir = fresh_temp_dir("sheet-header");
    std::ofstream(dir + "/roster.csv") << "student\nalice\nzo\u00eb_ng\n";
    REQUIRE(run_headcount({"generate", "problems/week3-mha-params.yaml", "--roster", dir + "/roster.csv", "--seed",
                           "fall 2026", "--out", dir + "/plain"})
                .exit_code == 0);
    CHECK(read_text(dir + "/plain/alice/problems.md")
              .starts_with("**Student:** `alice` \u00b7 **Seed:** `fall 2026`\n\nCheck an answer yourself with "
                           "headcount and the problem's file from your instructor: `headcount check PROBLEM.yaml "
                           "--seed 'fall 2026' --student alice --part a --answer \"...\"`\n\n# "));

    const std::string secret = headcount::testing::write_secret(dir);
    REQUIRE(run_headcount({"generate", "problems/week3-mha-params.yaml", "--roster", dir + "/roster.csv", "--seed",
                           "fall 2026", "--out", dir + "/served", "--serve-url", "https://hc.example.edu/week3/",
                           "--secret", secret})
                .exit_code == 0);
    // The token, computed here with OpenSSL's one-shot HMAC from the documented recipe: HMAC-SHA-256 keyed by the
    // instructor's secret over "headcount-token-v2" NUL seed NUL id, first 32 hex digits. The id is
    // percent-encoded as UTF-8 bytes.
    const std::string id = "zo\u00eb_ng";
    const std::string token = headcount::testing::openssl_token(headcount::testing::k_test_secret, "fall 2026", id);
    const std::string sheet = read_text(dir + "/served/" + id + "/problems.md");
    CHECK(sheet.find("<https://hc.example.edu/week3/?student=zo%C3%AB_ng&token=" + token + ">") != std::string::npos);
    CHECK(sheet.find("headcount check") == std::string::npos);

    const auto bad = run_headcount({"generate", "problems/week3-mha-params.yaml", "--roster", dir + "/roster.csv",
                                    "--seed", "s", "--out", dir + "/bad", "--serve-url", "hc.example.edu"});
    CHECK(bad.exit_code == 2);
    CHECK(bad.err == "headcount: --serve-url 'hc.example.edu' does not start with http:// or https://\n");
}

TEST_CASE("a token secret may be 32 to 4,096 bytes, as the docs and the manual say", "[e2e][generate]") {
    // The bounds as docs/operations.md and the manual state them: at least 32 bytes of key (the line break that
    // ends the file is not key), a file of at most 4,096 bytes (its line break included). An instructor's 5,000-byte
    // secret was refused while the docs said any 32 bytes or more would do.
    for (const std::string path : {"docs/operations.md", "doc/headcount.1"}) {
        INFO(path);
        const std::string text = read_text(source_dir() + "/" + path);
        CHECK(text.find("shorter than 32 bytes") != std::string::npos);
        CHECK(text.find("longer than 4,096") != std::string::npos);
        CHECK(text.find("32 bytes or more") == std::string::npos);
    }
    const std::string dir = fresh_temp_dir("secret-sizes");
    const auto generate_with = [&](const std::string& name, const std::string& content) {
        std::ofstream(dir + "/" + name) << content;
        fs::permissions(dir + "/" + name, fs::perms::owner_read | fs::perms::owner_write);
        return run_headcount({"generate", "problems/week3-mha-params.yaml", "--roster", "tests/class/roster.csv",
                              "--seed", "s", "--out", dir + "/out-" + name, "--serve-url", "https://hc.example.edu",
                              "--secret", dir + "/" + name});
    };
    CHECK(generate_with("k31", std::string(31, 'k') + "\n").exit_code == 2);
    CHECK(generate_with("k32", std::string(32, 'k') + "\n").exit_code == 0);
    CHECK(generate_with("k4095", std::string(4095, 'k') + "\n").exit_code == 0); // a file of 4,096 bytes
    CHECK(generate_with("k4096", std::string(4096, 'k')).exit_code == 0);        // 4,096 without a line break
    const auto over = generate_with("k4096-lf", std::string(4096, 'k') + "\n");  // a file of 4,097 bytes
    CHECK(over.exit_code == 2);
    CHECK(over.err == dir + "/k4096-lf: the token secret file is larger than 4,096 bytes: is this the right file?\n");
    CHECK(generate_with("k5000", std::string(5000, 'k') + "\n").exit_code == 2);
}

TEST_CASE("a sheet's link cannot be made from what any sheet shows: tokens are keyed by a secret", "[e2e][generate]") {
    const std::string dir = fresh_temp_dir("sheet-secret");
    // No --secret: the default file (under XDG_CONFIG_HOME, which the tests point at a folder of their own) is made.
    const char* config = std::getenv("XDG_CONFIG_HOME");
    REQUIRE(config != nullptr);
    const fs::path default_secret = fs::path(config) / "headcount" / "token-secret";
    const auto run =
        run_headcount({"generate", "problems/week3-mha-params.yaml", "--roster", "tests/class/roster.csv", "--seed",
                       "fall-2026", "--out", dir + "/out", "--serve-url", "https://hc.example.edu"});
    REQUIRE(run.exit_code == 0);
    REQUIRE(fs::exists(default_secret));
    CHECK((fs::status(default_secret).permissions() & (fs::perms::group_all | fs::perms::others_all)) ==
          fs::perms::none);
    const std::string secret_text = read_text(default_secret.string());
    const std::string secret = secret_text.substr(0, secret_text.find('\n'));
    REQUIRE(secret.size() == 64);
    CHECK(run.err.find(secret) == std::string::npos);
    CHECK(run.out.find(secret) == std::string::npos);

    const std::string sheet = read_text(dir + "/out/alice/problems.md");
    const auto at = sheet.find("token=");
    REQUIRE(at != std::string::npos);
    const std::string token = sheet.substr(at + 6, 32);
    CHECK(token == headcount::testing::openssl_token(secret, "fall-2026", "alice"));
    // The attack of issue 24: the sheet prints the seed, which used to be the HMAC key; the token made from it (the
    // old recipe, or the new one keyed by the seed) is not alice's.
    CHECK(sheet.find("**Seed:** `fall-2026`") != std::string::npos);
    const std::string v1 = std::string("headcount-token-v1") + '\0' + "alice";
    CHECK(token != headcount::hmac_sha256_hex("fall-2026", v1).substr(0, 32));
    CHECK(token != headcount::testing::openssl_token("fall-2026", "fall-2026", "alice"));
    // No file students receive holds the secret.
    for (const auto& entry : fs::recursive_directory_iterator(dir + "/out"))
        if (entry.is_regular_file())
            CHECK(read_text(entry.path().string()).find(secret) == std::string::npos);

    // A secret kept in the folder students receive, a short one and a shared one are refused.
    fs::create_directories(dir + "/out2");
    const std::string inside = headcount::testing::write_secret(dir + "/out2");
    const auto refused =
        run_headcount({"generate", "problems/week3-mha-params.yaml", "--roster", "tests/class/roster.csv", "--seed",
                       "s", "--out", dir + "/out2", "--serve-url", "https://hc.example.edu", "--secret", inside});
    CHECK(refused.exit_code == 2);
    CHECK(refused.err == inside + ": the token secret must not be inside the output folder " + dir +
                             "/out2, which students receive: keep it elsewhere\n");
    // The same with relative paths, as an instructor types them in the course folder (cwd): the folder need not
    // exist yet, and "." is a folder too.
    const std::string course = dir + "/course";
    fs::create_directories(course);
    std::filesystem::copy_file(source_dir() + "/problems/week3-mha-params.yaml", course + "/week3.yaml");
    std::filesystem::copy_file(source_dir() + "/tests/class/roster.csv", course + "/roster.csv");
    for (const auto& [out, secret] :
         std::vector<std::pair<std::string, std::string>>{{".", "secret7"},
                                                          {"o11", "o11/secret"},
                                                          {course + "/o12", "o12/secret"},
                                                          {"out2", "./out2//secret"},
                                                          {"out3/", "out3/sub/../secret"}}) {
        INFO(out << " " << secret);
        const auto relative = run_headcount({"generate", "week3.yaml", "--roster", "roster.csv", "--seed", "s", "--out",
                                             out, "--serve-url", "https://hc.example.edu", "--secret", secret},
                                            "", course);
        CHECK(relative.exit_code == 2);
        CHECK(relative.err.find("the token secret must not be inside the output folder") != std::string::npos);
        CHECK_FALSE(fs::exists(fs::path(course) / secret));
    }
    std::ofstream(dir + "/short") << "fall-2026\n";
    fs::permissions(dir + "/short", fs::perms::owner_read | fs::perms::owner_write);
    const auto too_short = run_headcount({"generate", "problems/week3-mha-params.yaml", "--roster",
                                          "tests/class/roster.csv", "--seed", "s", "--out", dir + "/out3",
                                          "--serve-url", "https://hc.example.edu", "--secret", dir + "/short"});
    CHECK(too_short.exit_code == 2);
    CHECK(too_short.err == dir + "/short: the token secret is 9 bytes; it must be at least 32 (delete the file to have "
                                 "a new one made, which changes every student's link)\n");
    CHECK_FALSE(fs::exists(dir + "/out3"));
}

TEST_CASE("answers reads a student's answers file into the grader's submissions", "[e2e][answers]") {
    const std::string dir = fresh_temp_dir("answers");
    std::ofstream(dir + "/answers.yaml") << "a: 786,432   # my answer\nb: 1.05e6\n";
    auto one = run_headcount({"answers", "problems/week3-mha-params.yaml", "--submission", dir, "--student", "bob",
                              "--out", dir + "/sub.csv"});
    REQUIRE(one.exit_code == 0);
    CHECK(read_text(dir + "/sub.csv") == "student,problem,part,answer\nbob,week3-mha-params,a,\"786,432\"\n"
                                         "bob,week3-mha-params,b,1.05e6\n");
    // Two problems: a part must say which problem it answers.
    auto two = run_headcount({"answers", "problems/week3-mha-params.yaml", "problems/mha-no-bias.yaml", "--submission",
                              dir + "/answers.yaml", "--student", "bob", "--out", dir + "/x.csv"});
    CHECK(two.exit_code == 2);
    CHECK(two.err == "answers.yaml:1: this assignment has 2 problems: name the problem of part 'a' (a problem "
                     "column, or the problem id as a key)\n");
    fs::create_directories(dir + "/twice");
    std::ofstream(dir + "/twice/answers.csv") << "part,answer\na,1\nA,2\na,3\n";
    auto twice =
        run_headcount({"answers", "problems/week3-mha-params.yaml", "--submission", dir + "/twice", "--student", "bob",
                       "--out", dir + "/x.csv", "--gradescope-results", dir + "/results.json"});
    CHECK(twice.exit_code == 2);
    CHECK(twice.err == "answers.csv:4: part 'a' is answered twice\n");
    const auto results = nlohmann::json::parse(read_text(dir + "/results.json"));
    CHECK(results["score"] == 0);
    CHECK(results["output"].get<std::string>().starts_with(
        "Your submission could not be graded: answers.csv:4: part 'a' is answered twice"));
    fs::create_directories(dir + "/empty");
    auto none = run_headcount({"answers", "problems/week3-mha-params.yaml", "--submission", dir + "/empty", "--student",
                               "bob", "--out", dir + "/x.csv"});
    CHECK(none.err == dir + "/empty: the submission has no answers.csv or answers.yaml (it is empty)\n");
}

TEST_CASE("generate says why a roster or a vary cannot be used", "[e2e][generate]") {
    const std::string dir = fresh_temp_dir("generate-errors");
    std::ofstream(dir + "/roster.csv") << "student\nalice\n../bob\n";
    auto bad_roster = run_headcount({"generate", "problems/week3-mha-params.yaml", "--roster", dir + "/roster.csv",
                                     "--seed", "s", "--out", dir + "/out"});
    CHECK(bad_roster.exit_code == 2);
    CHECK(bad_roster.err == dir + "/roster.csv:3: student id '../bob' contains '/', which cannot be in a file name\n");
    CHECK_FALSE(fs::exists(dir + "/out"));

    std::ofstream(dir + "/none.yaml") << "id: p\ntitle: t\ngiven: {d_model: 512, h: 8}\nvary: {h: [3, 5, 7]}\n"
                                         "parts: [{id: a, ask: d_k}]\n";
    auto none = run_headcount(
        {"generate", dir + "/none.yaml", "--roster", "tests/class/roster.csv", "--seed", "s", "--out", dir + "/out"});
    CHECK(none.exit_code == 2);
    // 512 / 3 is not whole: the first combination is named, at h in vary (line 4, column 8).
    CHECK(none.err == dir + "/none.yaml:4:8: none of the 3 combinations in vary is a valid problem; the first, h = 3: "
                            "h = 3 does not divide d_model = 512, so the default d_k = d_v = d_model / h is not a "
                            "whole number; give d_k and d_v explicitly or choose an h that divides d_model\n"
                            "    4 | vary: {h: [3, 5, 7]}\n"
                            "      |        ^\n");

    std::ofstream(dir + "/few.yaml") << "id: p\ntitle: t\ngiven: {d_model: 512, h: 8}\nvary: {h: [4, 8]}\n"
                                        "distinct: true\nparts: [{id: a, ask: d_k}]\n";
    auto few = run_headcount(
        {"generate", dir + "/few.yaml", "--roster", "tests/class/roster.csv", "--seed", "s", "--out", dir + "/out"});
    CHECK(few.exit_code == 2);
    // h 4 or 8 at d_model 512: d_k is 128 or 64, two answers for the roster's five students.
    CHECK(few.err == dir + "/few.yaml:6:22: distinct: true gives every student different answers, but part 'a' "
                           "(d_k) has only 2 different answers across the 2 variants of vary, for 5 students: vary "
                           "a given this part depends on\n"
                           "    6 | parts: [{id: a, ask: d_k}]\n"
                           "      |                      ^\n");
}

TEST_CASE("check and grade use each student's own numbers", "[e2e][generate]") {
    const std::string dir = fresh_temp_dir("seeded");
    REQUIRE(run_headcount(generate_args(dir + "/set")).exit_code == 0);
    const std::string key = read_text(dir + "/set/key.csv");
    // Every key row, answered right, plus a student who is not on the roster.
    std::string submissions = "student,problem,part,answer\n";
    std::istringstream rows(key);
    std::string line;
    std::getline(rows, line);
    std::string bob_b;
    while (std::getline(rows, line)) {
        // student,problem,part,answer of the key's student,problem,part,answer,unit,d_model,h,bias
        const std::size_t unit = line.find(",parameters,");
        submissions += line.substr(0, unit) + "\n";
        if (line.starts_with("bob,week3-mha-params,b,"))
            bob_b = line.substr(23, unit - 23);
    }
    submissions += "zed,week3-mha-params,a,1\n";
    // dana resubmits part b without biases. Her variant is d_model 1024, h 16 with biases (key: 4 x 1024 x 1025 =
    // 4,198,400), so her feedback must speak of her 4 vectors of 1,024, not the week-3 sheet's 512.
    submissions += "dana,week3-mha-params,b,4*1024^2\n";
    std::ofstream(dir + "/answers.csv") << submissions;

    CHECK(run_headcount({"check", "problems/week3-mha-params.yaml", "--seed", "fall-2026", "--student", "bob", "--part",
                         "b", "--answer", bob_b})
              .exit_code == 0);
    CHECK(run_headcount({"check", "problems/week3-mha-params.yaml", "--seed", "fall-2027", "--student", "bob", "--part",
                         "b", "--answer", bob_b})
              .exit_code != 2);

    const auto graded =
        run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", dir + "/answers.csv", "--out",
                       dir + "/graded", "--seed", "fall-2026", "--roster", "tests/class/roster.csv"});
    REQUIRE(graded.exit_code == 0);
    const std::string gradebook = read_text(dir + "/graded/gradebook.csv");
    for (const std::string_view student : {"alice", "bob", "chen", "eve"})
        CHECK(gradebook.find("\n" + std::string(student) + ",2,3,5,5\n") != std::string::npos);
    CHECK(gradebook.find("\ndana,2,0,2,5\n") != std::string::npos);
    // The spec sets no feedback policy, so dana is told the mistake in words, without the 4,096 she is short.
    const std::string dana = read_text(dir + "/graded/feedback/dana.md");
    CHECK(dana.find("It matches a known mistake:") != std::string::npos);
    CHECK(dana.find("(`missing_biases`)") != std::string::npos);
    CHECK(dana.find("4,096") == std::string::npos);
    CHECK(dana.find("4,198,400") == std::string::npos);
    // The instructor's --reveal shows everything, in her own numbers.
    REQUIRE(run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", dir + "/answers.csv", "--out",
                           dir + "/revealed", "--seed", "fall-2026", "--roster", "tests/class/roster.csv", "--reveal"})
                .exit_code == 0);
    const std::string revealed = read_text(dir + "/revealed/feedback/dana.md");
    CHECK(revealed.find("Your answer is 4,096 short. It matches a known mistake:") != std::string::npos);
    CHECK(revealed.find("$b_Q$ 1,024; $b_K$ 1,024; $b_V$ 1,024; $b_O$ 1,024; 4,096 in all.") != std::string::npos);
    CHECK(revealed.find("Expected: 4,198,400 parameters") != std::string::npos);
    CHECK(read_text(dir + "/graded/results.jsonl")
              .find("\"reason\":\"student 'zed' is not on the roster, so their numbers are unknown\"") !=
          std::string::npos);
    CHECK(run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", dir + "/answers.csv", "--out",
                         dir + "/x", "--seed", "fall-2026"})
              .exit_code == 2); // --seed needs --roster

    // The same grading from the key alone: each student's numbers are recovered from their key answers.
    const auto from_key =
        run_headcount({"grade", "problems/week3-mha-params.yaml", "--submissions", dir + "/answers.csv", "--out",
                       dir + "/by-key", "--key", dir + "/set/key.csv"});
    REQUIRE(from_key.exit_code == 0);
    CHECK(read_text(dir + "/by-key/gradebook.csv") == gradebook);
    CHECK(read_text(dir + "/by-key/feedback/dana.md") == dana);
}

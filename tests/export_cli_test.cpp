// End-to-end tests of `headcount export FORMAT` (one subcommand per row of the export formats' table), and of
// generate's old spellings of it (`generate --format moodle-xml|qti`), which still work for a release.
#include "run_binary.hpp"

#include <util/test_catch.hpp>

#include <fmt/format.h>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

using headcount::testing::fresh_temp_dir;
using headcount::testing::read_text;
using headcount::testing::run_headcount;

namespace {

const std::vector<std::string> k_class{"alice", "bob", "chen", "dana", "eve"}; // tests/class/roster.csv

const std::string k_spec = "problems/week3-mha-params.yaml";

std::string moved_note(const std::string& old_format, const std::string& format) {
    return fmt::format("headcount: `generate --format {}` is now `headcount export {}`, with the same options; the old "
                       "spelling goes in the next release\n",
                       old_format, format);
}

} // namespace

TEST_CASE("export moodle writes one bank of the class's variants, without their names", "[e2e][export]") {
    const std::string dir = fresh_temp_dir("export-moodle");
    REQUIRE(run_headcount({"generate", k_spec, "--roster", "tests/class/roster.csv", "--seed", "fall-2026", "--out",
                           dir + "/set"})
                .exit_code == 0);
    const auto run = run_headcount({"export", "moodle", k_spec, "--roster", "tests/class/roster.csv", "--seed",
                                    "fall-2026", "--out", dir + "/bank"});
    REQUIRE(run.exit_code == 0);
    const std::string xml = read_text(dir + "/bank/questions.xml");
    CHECK(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n"));
    // One Cloze question per different variant the class was handed: the key's (d_model, h, bias) triples.
    std::set<std::string> variants;
    std::istringstream rows(read_text(dir + "/set/key.csv"));
    std::string line;
    std::getline(rows, line);
    CHECK(line == "student,problem,part,answer,unit,d_model,h,bias");
    while (std::getline(rows, line))
        variants.insert(line.substr(line.find(",parameters,") + 12));
    std::size_t questions = 0;
    for (std::size_t at = xml.find("<question type=\"cloze\">"); at != std::string::npos;
         at = xml.find("<question type=\"cloze\">", at + 1))
        ++questions;
    CHECK(questions == variants.size());
    CHECK(run.err == fmt::format("headcount: 1 problem, {} questions (one per variant); wrote {}/bank/questions.xml\n",
                                 variants.size(), dir));
    for (const std::string& student : k_class) // as a word: "eve" is in "every"
        CHECK_FALSE(std::regex_search(xml, std::regex("\\b" + student + "\\b")));
}

TEST_CASE("export says which options cannot go together, before reading anything", "[e2e][export]") {
    const std::string dir = fresh_temp_dir("export-usage");
    // A bank is drawn (--variants) or the class's (--roster): one or the other.
    for (const std::string format : {"moodle", "canvas"}) {
        const auto neither = run_headcount({"export", format, k_spec, "--seed", "s", "--out", dir + "/x"});
        CHECK(neither.exit_code == 2);
        CHECK(neither.err == "headcount: a question bank needs either --variants N (a bank of N variants per problem) "
                             "or --roster (the variants a class was handed), not both\n");
        CHECK(run_headcount({"export", format, k_spec, "--seed", "s", "--variants", "2", "--roster",
                             "tests/class/roster.csv", "--out", dir + "/x"})
                  .err == neither.err);
        CHECK(run_headcount({"export", format, k_spec, "--variants", "2", "--out", dir + "/x"}).err ==
              "headcount: --seed is required (see 'headcount --help')\n");
    }
    // Only Canvas is asked for the solutions: a Moodle bank always holds them, shown as the quiz's options say.
    CHECK(run_headcount({"export", "moodle", k_spec, "--variants", "1", "--seed", "s", "--out", dir + "/x",
                         "--solutions-in-bank"})
              .err == "headcount: The following argument was not expected: --solutions-in-bank (see 'headcount "
                      "--help')\n");
    CHECK(run_headcount({"export", "gradescope", k_spec, "--seed", "s", "--out", dir + "/x"}).err ==
          "headcount: --seed and --roster go together: the roster's students are graded against their variants under "
          "the seed\n");
    CHECK(run_headcount({"export", "pdf", k_spec, "--out", dir + "/x"}).exit_code == 2);
    CHECK_FALSE(std::filesystem::exists(dir + "/x"));
}

TEST_CASE("export gradescope ships only a static x86-64 program", "[e2e][export]") {
    const std::string dir = fresh_temp_dir("export-binary");
    const std::string suffix = ", so it would not run on Gradescope's Ubuntu image: export with a static headcount "
                               "(the .deb's, or a build with HEADCOUNT_STATIC=ON), or name one with --binary\n";
    // /bin/sh is Debian's dash, linked dynamically like nearly every program of the system.
    const auto dynamic = run_headcount({"export", "gradescope", k_spec, "--out", dir, "--binary", "/bin/sh"});
    CHECK(dynamic.exit_code == 2);
    CHECK(dynamic.err ==
          "/bin/sh: is linked dynamically: it needs /lib64/ld-linux-x86-64.so.2 and shared libraries" + suffix);
    const auto script = run_headcount({"export", "gradescope", k_spec, "--out", dir, "--binary", "scripts/test"});
    CHECK(script.err == "scripts/test: is not a program (no ELF header)" + suffix);
    CHECK_FALSE(std::filesystem::exists(dir + "/autograder.zip"));
}

TEST_CASE("generate's old spellings write what export writes, after a note that they moved", "[e2e][export]") {
    const std::string dir = fresh_temp_dir("export-moved");
    for (const auto& [old_format, format, file] :
         {std::tuple{"moodle-xml", "moodle", "questions.xml"}, std::tuple{"qti", "canvas", "qti.zip"}}) {
        const auto now =
            run_headcount({"export", format, k_spec, "--variants", "5", "--seed", "s", "--out", dir + "/" + format});
        const auto before = run_headcount({"generate", k_spec, "--variants", "5", "--seed", "s", "--out",
                                           dir + "/" + old_format, "--format", old_format});
        REQUIRE(now.exit_code == 0);
        REQUIRE(before.exit_code == 0);
        CHECK(read_text(dir + "/" + old_format + "/" + file) == read_text(dir + "/" + format + "/" + file));
        CHECK(before.err == moved_note(old_format, format) +
                                fmt::format("headcount: 1 problem, 5 questions (one per variant); wrote {}/{}/{}\n",
                                            dir, old_format, file));
        CHECK(now.err ==
              fmt::format("headcount: 1 problem, 5 questions (one per variant); wrote {}/{}/{}\n", dir, format, file));
    }
    // generate's own checks of its old options still apply, after the note.
    CHECK(run_headcount({"generate", k_spec, "--variants", "1", "--seed", "s", "--out", dir + "/x", "--format",
                         "moodle-xml", "--solutions-in-bank"})
              .err == moved_note("moodle-xml", "moodle") +
                          "headcount: --solutions-in-bank goes with --format qti: a Moodle bank always holds the "
                          "worked solutions, as general feedback that the quiz's review options show or hide\n");
    CHECK(run_headcount({"generate", k_spec, "--seed", "s", "--out", dir + "/x", "--format", "qti"}).err ==
          moved_note("qti", "canvas") +
              "headcount: a question bank needs either --variants N (a bank of N variants per problem) or --roster "
              "(the variants a class was handed), not both\n");
    CHECK(run_headcount({"generate", k_spec, "--seed", "s", "--out", dir + "/x"}).err ==
          "headcount: the markdown format writes a sheet per student: give --roster\n");
}

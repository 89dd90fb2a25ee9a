// End-to-end tests of `headcount catalogue asks|mistakes|exports`, the reference tables the docs are generated from
// (training-asks is tested in training_cli_test.cpp). The rows expected are found independently of the code: an ask
// or a mistake is shipped with its template, so templates/ lists them.
#include "run_binary.hpp"

#include <util/test_catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>

using headcount::testing::run_headcount;
using headcount::testing::source_dir;

namespace {

/// The names of the *.mustache files in templates/FOLDER, without the extension.
std::set<std::string> template_names(const std::string& folder) {
    std::set<std::string> names;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::filesystem::path(source_dir()) / "templates" / folder))
        if (entry.path().extension() == ".mustache")
            names.insert(entry.path().stem().string());
    return names;
}

/// The first cells of a Markdown table's rows (header and rule left out), as the ids between backquotes.
std::set<std::string> first_cells(const std::string& table, std::size_t& rows) {
    std::set<std::string> ids;
    std::istringstream lines(table);
    std::string line;
    rows = 0;
    int n = 0;
    while (std::getline(lines, line)) {
        if (++n <= 2)
            continue;
        ++rows;
        REQUIRE(line.starts_with("| `"));
        ids.insert(line.substr(3, line.find('`', 3) - 3));
    }
    return ids;
}

} // namespace

TEST_CASE("catalogue asks prints a row for every ask the templates solve", "[e2e][catalogue]") {
    const auto run = run_headcount({"catalogue", "asks"});
    REQUIRE(run.exit_code == 0);
    CHECK(run.err.empty());
    CHECK(run.out.starts_with("| ask | what it asks for | unit | kind | needs | group | templates |\n|---|"));
    std::set<std::string> expected = template_names("mha");
    expected.merge(template_names("transformer"));
    std::size_t rows = 0;
    CHECK(first_cells(run.out, rows) == expected);
    CHECK(rows == expected.size());
    CHECK(run.out.find("| `flops.training` | one training step of the whole model, forward and backward | FLOPs | "
                       "transformer | seq_len, one stack of layers, no seq_len_kv | flops | "
                       "`transformer/flops.training`, `partials/question_flops.training` |\n") != std::string::npos);
}

TEST_CASE("catalogue mistakes prints a row for every mistake with feedback", "[e2e][catalogue]") {
    const auto run = run_headcount({"catalogue", "mistakes", "--format", "markdown"});
    REQUIRE(run.exit_code == 0);
    const std::set<std::string> expected = template_names("mistakes");
    std::size_t rows = 0;
    CHECK(first_cells(run.out, rows) == expected);
    CHECK(rows == expected.size());
    CHECK(run.out.find("| `rounded` | The right value, rounded | counts | 0.5 | `mistakes/rounded` |\n") !=
          std::string::npos);
}

TEST_CASE("catalogue exports lists every export command", "[e2e][catalogue]") {
    const auto run = run_headcount({"catalogue", "exports"});
    REQUIRE(run.exit_code == 0);
    for (const char* format : {"moodle", "canvas", "gradescope"})
        CHECK(run.out.find(std::string("- `headcount export ") + format + " SPEC... --out DIR") != std::string::npos);
}

// catalogue is listed in --help like every command (issue 40, item 11): solve_cli_test.cpp checks the list.
TEST_CASE("catalogue refuses other formats, and needs a table to print", "[e2e][catalogue]") {
    const auto run = run_headcount({"catalogue", "asks", "--format", "json"});
    CHECK(run.exit_code == 2);
    CHECK(run.out.empty());
    CHECK(run_headcount({"catalogue"}).exit_code == 2);
}

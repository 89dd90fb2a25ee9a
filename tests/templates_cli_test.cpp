// End-to-end tests of `headcount templates export` and of --templates overriding part of the built-in set.
#include "run_binary.hpp"

#include <util/test_catch.hpp>

#include <filesystem>
#include <fstream>

using headcount::testing::fresh_temp_dir;
using headcount::testing::read_text;
using headcount::testing::run_headcount;
using headcount::testing::source_dir;
namespace fs = std::filesystem;

TEST_CASE("templates export writes the built-in templates, the same bytes as the repository's", "[e2e][templates]") {
    const std::string dir = fresh_temp_dir("export") + "/mine";
    const auto run = run_headcount({"templates", "export", dir});
    REQUIRE(run.exit_code == 0);
    std::size_t shipped = 0;
    // Every template, and serve's style sheet and script (templates/serve/static/), which a folder given to
    // serve --templates may replace too.
    for (const auto& entry : fs::recursive_directory_iterator(source_dir() + "/templates")) {
        if (!entry.is_regular_file())
            continue;
        ++shipped;
        const fs::path relative = fs::relative(entry.path(), source_dir() + "/templates");
        INFO(relative.string());
        CHECK(read_text(dir + "/" + relative.string()) == read_text(entry.path().string()));
    }
    CHECK(run.err == "headcount: wrote " + std::to_string(shipped) + " templates to " + dir +
                         "; edit any of them and pass --templates " + dir +
                         " (the folder may keep only the ones you change)\n");
    // An instructor's edits are not overwritten by accident.
    const auto again = run_headcount({"templates", "export", dir});
    CHECK(again.exit_code == 2);
    CHECK(again.err.ends_with("already exists; pass --force to overwrite the templates in " + dir + "\n"));
    CHECK(run_headcount({"templates", "export", dir, "--force"}).exit_code == 0);
}

TEST_CASE("a folder given to --templates with one edited template changes only that part of the output",
          "[e2e][templates]") {
    const std::string dir = fresh_temp_dir("override");
    fs::create_directories(dir + "/mha");
    std::ofstream(dir + "/mha/total_params.mustache") << "Total: **{{part.answer}}** parameters, by my template.\n";
    const auto mine = run_headcount({"solve", "problems/week3-mha-params.yaml", "--templates", dir});
    REQUIRE(mine.exit_code == 0);
    CHECK(mine.out.find("Total: **1,050,624** parameters, by my template.\n") != std::string::npos);
    // The rest is the built-in solution: its first line and part (a) are unchanged.
    const std::string golden = read_text(source_dir() + "/tests/golden/week3-mha-params.md");
    CHECK(mine.out.substr(0, mine.out.find('\n')) == golden.substr(0, golden.find('\n')));
    CHECK(mine.out != golden);
}

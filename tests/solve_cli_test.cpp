// End-to-end tests of `headcount solve` through the built binary, as a user runs it.
#include "run_binary.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using headcount::testing::fresh_temp_dir;
using headcount::testing::read_text;
using headcount::testing::run_headcount;
using headcount::testing::source_dir;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> shipped_problem_ids() {
    std::vector<std::string> ids;
    for (const auto& entry : fs::directory_iterator(source_dir() + "/problems"))
        if (entry.path().extension() == ".yaml")
            ids.push_back(entry.path().stem().string());
    std::sort(ids.begin(), ids.end());
    return ids;
}

} // namespace

TEST_CASE("every shipped problem solves to its reviewed golden solution", "[e2e][golden]") {
    const auto ids = shipped_problem_ids();
    REQUIRE(ids.size() >= 10);
    for (const std::string& id : ids) {
        INFO("problems/" << id << ".yaml vs tests/golden/" << id
                         << ".md (if the change is on purpose: scripts/update-golden, then read the diff)");
        const auto run = run_headcount({"solve", "problems/" + id + ".yaml"});
        CHECK(run.exit_code == 0);
        CHECK(run.err.empty());
        CHECK(run.out == read_text(source_dir() + "/tests/golden/" + id + ".md"));
    }
}

TEST_CASE("the week-3 solution states the answers of the reference solution", "[e2e]") {
    // ../shared/seeds/000: part (a) 3 x 262,656 = 787,968; part (b) 4 x 512 x 513 = 1,050,624.
    const auto run = run_headcount({"solve", "problems/week3-mha-params.yaml"});
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.find("**Answer: 787,968 parameters.**") != std::string::npos);
    CHECK(run.out.find("**Answer: 1,050,624 parameters.**") != std::string::npos);
    CHECK(run.out.find("| **Total** | | **1,048,576** | **2,048** | **1,050,624** |") != std::string::npos);
}

TEST_CASE("the week-3 solution offers what the hand-written one does", "[e2e]") {
    // ../shared/seeds/000, read side by side with the generated solution.
    const auto run = run_headcount({"solve", "problems/week3-mha-params.yaml"});
    REQUIRE(run.exit_code == 0);
    const std::string& text = run.out;
    auto has = [&](const std::string& what) {
        INFO(what);
        CHECK(text.find(what) != std::string::npos);
    };
    // Part (b) builds on part (a) instead of repeating it: 3 x 262,656 = 787,968.
    has("**Step 1: Q, K and V, from part (a).** Part (a) counted the query, key and value projections: 262,656 + "
        "262,656 + 262,656 = 787,968 parameters.");
    CHECK(text.find("**Q (query projection).**") == text.rfind("**Q (query projection).**")); // derived once
    // Why W_O exists, and the forward formula with the shapes along the way: 8 heads of n x 64, concatenated to
    // n x 512 (8 x 64), projected by 512 x 512 back to n x 512.
    has("**What $W_O$ is for.**");
    has(R"(an $n \times 64$ matrix)");
    has(R"($\text{Concat} = [\text{head}_1, \dots, \text{head}_{ 8 }]$: $n \times h d_v$ = $n \times 512$)");
    has(R"($\text{Concat} \cdot W_O + b_O$: $(n \times 512)$ times $(512 \times 512)$ gives $n \times 512$)");
    has("residual connection");
    // Weights against biases: 1,048,576 / 1,050,624 = 99.805% and 2,048 / 1,050,624 = 0.195%.
    has("the matrices hold 1,048,576 of the 1,050,624 parameters (99.8%), the biases only 2,048 (0.2%)");
    // Scaling: at d_model = 1,024, 4 x 1,024 x 1,025 = 4,198,400 = 3.996 x 1,050,624.
    has("$d_{model}$ = 1,024, the same block holds 4,198,400 parameters, 3.996 times as many");
    // What it does not depend on.
    has("What it does not depend on: the number of heads (as long as $d_k = d_v = d_{model} / h$), the sequence "
        "length and the batch size.");
    // A prominent final answer, and the answers together at the end.
    has("> **Answer: 1,050,624 parameters.**");
    has("## Answers\n\n| Part | Answer |\n|---|---|\n| (a) | 787,968 parameters |\n| (b) | 1,050,624 parameters |\n");
    // The closed form of the seed's appendix: 4 x 512 x 513.
    has("$4 d_{model}(d_{model} + 1)$ = 4 × 512 × (512 + 1) = 1,050,624");
}

TEST_CASE("solve --format json gives integer answers", "[e2e]") {
    SECTION("one spec: one object") {
        const auto run = run_headcount({"solve", "problems/week3-mha-params.yaml", "--format", "json"});
        REQUIRE(run.exit_code == 0);
        const auto json = nlohmann::json::parse(run.out);
        CHECK(json["id"] == "week3-mha-params");
        CHECK(json["title"] == "Parameters of a multi-head attention block");
        REQUIRE(json["parts"].size() == 2);
        CHECK(json["parts"][0] ==
              nlohmann::json{{"id", "a"}, {"ask", "qkv_params"}, {"answer", 787968}, {"unit", "parameters"}});
        CHECK(json["parts"][1]["answer"].is_number_integer());
        CHECK(json["parts"][1]["answer"] == 1050624);
    }
    SECTION("a directory: an array, in file-name order") {
        const auto run = run_headcount({"solve", "problems", "--format", "json"});
        REQUIRE(run.exit_code == 0);
        const auto json = nlohmann::json::parse(run.out);
        REQUIRE(json.is_array());
        CHECK(json.size() == shipped_problem_ids().size());
        CHECK(json.front()["id"] == "mha-add-bias-kv");
        CHECK(json.front()["parts"][1]["answer"] == 1051648); // PyTorch, add_bias_kv=True: 1,050,624 + 2 x 512
    }
}

TEST_CASE("solve --out writes one file per problem", "[e2e]") {
    const std::string out = fresh_temp_dir("solve-out") + "/solutions";
    const auto run = run_headcount({"solve", "problems/week3-mha-params.yaml", "problems/mha-gqa.yaml", "--out", out});
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.empty());
    CHECK(read_text(out + "/week3-mha-params.md") == read_text(source_dir() + "/tests/golden/week3-mha-params.md"));
    CHECK(read_text(out + "/mha-gqa.md") == read_text(source_dir() + "/tests/golden/mha-gqa.md"));
    CHECK(std::distance(fs::directory_iterator(out), fs::directory_iterator()) == 2);
}

TEST_CASE("bad input exits 2 with one line saying why (and the source line under it) and no output", "[e2e]") {
    const std::string dir = fresh_temp_dir("bad-input");
    std::ofstream(dir + "/typo.yaml")
        << "id: p\ntitle: t\ngiven:\n  d_model: 512\n  hh: 8\nparts: [{id: a, ask: d_k}]\n";

    SECTION("a misspelt key") {
        const auto run = run_headcount({"solve", dir + "/typo.yaml"});
        CHECK(run.exit_code == 2);
        CHECK(run.out.empty());
        // The one line that says why, then the line of the spec with a caret under the column, as compilers do.
        CHECK(run.err == dir + "/typo.yaml:5:3: unknown key 'hh' in given (did you mean 'h'?)\n"
                               "    5 |   hh: 8\n"
                               "      |   ^\n");
    }
    SECTION("one bad spec among good ones writes nothing") {
        const std::string out = dir + "/out";
        const auto run = run_headcount({"solve", "problems/week3-mha-params.yaml", dir + "/typo.yaml", "--out", out});
        CHECK(run.exit_code == 2);
        CHECK_FALSE(fs::exists(out));
    }
    SECTION("a missing file") {
        const auto run = run_headcount({"solve", "problems/nope.yaml"});
        CHECK(run.exit_code == 2);
        CHECK(run.err == "problems/nope.yaml: no such file or directory\n");
    }
    SECTION("a usage error") {
        const auto run = run_headcount({"solve", "problems/week3-mha-params.yaml", "--format", "pdf"});
        CHECK(run.exit_code == 2);
        CHECK(run.out.empty());
        CHECK(run.err.starts_with("headcount: --format: pdf not in {markdown,html,json}"));
        CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
    }
    SECTION("no subcommand") {
        const auto run = run_headcount({});
        CHECK(run.exit_code == 2);
    }
}

TEST_CASE("--help works on every subcommand and exits 0", "[e2e]") {
    const auto top = run_headcount({"--help"});
    CHECK(top.exit_code == 0);
    CHECK(top.out.find("solve") != std::string::npos);
    const auto solve = run_headcount({"solve", "--help"});
    CHECK(solve.exit_code == 0);
    CHECK(solve.out.find("--templates") != std::string::npos);
    CHECK(solve.out.find("--format") != std::string::npos);
}

TEST_CASE("--help lists every command headcount runs, catalogue included (issue 40, item 11)", "[e2e]") {
    // The commands the docs document (README.md, docs/, doc/headcount.1); catalogue was hidden from --help before.
    const std::vector<std::string> commands{"solve",  "check", "grade",     "generate", "answers",
                                            "export", "serve", "templates", "catalogue"};
    const auto top = run_headcount({"--help"});
    REQUIRE(top.exit_code == 0);
    const auto listed = top.out.find("\nSubcommands:\n");
    REQUIRE(listed != std::string::npos);
    std::vector<std::string> names;
    std::istringstream lines(top.out.substr(listed + 14));
    for (std::string line; std::getline(lines, line) && line.starts_with("  ");)
        names.push_back(line.substr(2, line.find(' ', 2) - 2));
    CHECK(names == commands);
    for (const std::string& command : commands) {
        INFO(command);
        CHECK(run_headcount({command, "--help"}).exit_code == 0);
    }
}

TEST_CASE("solve --templates uses the instructor's templates and rejects unknown variables", "[e2e]") {
    const std::string dir = fresh_temp_dir("custom-templates");
    fs::copy(source_dir() + "/templates", dir, fs::copy_options::recursive);
    SECTION("an edited template is used") {
        std::ofstream(dir + "/solution.mustache") << "Solutions for {{title}}\n{{#parts}}{{id}}: {{{body}}}{{/parts}}";
        std::ofstream(dir + "/mha/total_params.mustache") << "{{part.answer}}\n";
        const auto run = run_headcount({"solve", "problems/mha-no-bias.yaml", "--templates", dir});
        CHECK(run.exit_code == 0);
        CHECK(run.out.find("Solutions for Parameters of a multi-head attention block without biases\n") == 0);
        CHECK(run.out.find("c: 1,048,576\n") != std::string::npos); // 4 x 512^2, no biases
    }
    SECTION("an unknown variable names the template, line and variable") {
        std::ofstream(dir + "/mha/total_params.mustache") << "Total:\n  {{totl_params}}\n";
        const auto run = run_headcount({"solve", "problems/week3-mha-params.yaml", "--templates", dir});
        CHECK(run.exit_code == 2);
        CHECK(run.out.empty());
        // earlier.total_params (what an earlier part asked) is the closest name the view has.
        CHECK(run.err == dir + "/mha/total_params.mustache:2:3: unknown variable 'totl_params': headcount provides no "
                               "such value (did you mean 'total_params'?)\n"
                               "    2 |   {{totl_params}}\n"
                               "      |   ^\n");
    }
}

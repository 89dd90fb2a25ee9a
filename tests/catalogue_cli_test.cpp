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
    // The catalogue's own mistakes, each with its template; then those the rows list for themselves, with the
    // defined/mistake template (issue 40, item 11: the training mistakes were missing from docs/grading.md).
    std::string own;
    std::istringstream lines(run.out);
    for (std::string line; std::getline(lines, line);)
        if (line.find("`defined/mistake`") == std::string::npos)
            own += line + "\n";
    std::size_t rows = 0;
    CHECK(first_cells(own, rows) == expected);
    CHECK(rows == expected.size());
    CHECK(run.out.find("| `zero_not_applied` | The weights were counted whole | `memory.weights` | 0 | "
                       "`defined/mistake` |\n") != std::string::npos);
    CHECK(run.out.find("| `forgot_mfu` | The GPUs were taken to run at their peak | `time.training` | 0 | "
                       "`defined/mistake` |\n") != std::string::npos);
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

TEST_CASE("catalogue formulas gives a formula for every ask catalogue asks lists, shapes and choices included",
          "[e2e][catalogue]") {
    const auto asks = run_headcount({"catalogue", "asks"});
    const auto formulas = run_headcount({"catalogue", "formulas"});
    REQUIRE(asks.exit_code == 0);
    REQUIRE(formulas.exit_code == 0);
    CHECK(formulas.out.starts_with("| name | ask | formula |\n|---|---|---|\n"));
    std::size_t rows = 0;
    const std::set<std::string> listed = first_cells(asks.out, rows);
    CHECK(rows > 30); // catalogue asks lists every built-in ask: 41 when this was written
    for (const std::string& ask : listed) {
        INFO(ask);
        // The row of the ask: its ask cell, then a formula cell that is not empty.
        const auto at = formulas.out.find(" | `" + ask + "` | `");
        CHECK(at != std::string::npos);
    }
    // A shape is the tuple of its axes, a choice says what its values stand for (catalogue/shapes.yaml,
    // catalogue/flops.yaml).
    CHECK(formulas.out.find("| `shape_input` | `shape.input` | `(batch, seq_len, d_model)` |") != std::string::npos);
    CHECK(formulas.out.find("; 0 = projections, 1 = attention, 2 = equal |") != std::string::npos);
}

TEST_CASE("catalogue formulas --spec applies the spec's conditions and says whose definition each row uses",
          "[e2e][catalogue]") {
    // Llama 2's FFN is gated (SwiGLU): three matrices, so ffn_up counts two of them and the conditional settles to 2
    // (catalogue/model.yaml: if(gated, 2, 1)).
    const auto llama =
        run_headcount({"catalogue", "formulas", "--spec", source_dir() + "/problems/model-llama-2-7b.yaml"});
    REQUIRE(llama.exit_code == 0);
    CHECK(llama.out.starts_with("| name | ask | formula | defined by |\n"));
    CHECK(llama.out.find("| `ffn_up_matrices` |  | `2` | the catalogue |") != std::string::npos);
    // GPT-2's is not.
    const auto gpt2 =
        run_headcount({"catalogue", "formulas", "--spec", source_dir() + "/problems/model-gpt2-small.yaml"});
    REQUIRE(gpt2.exit_code == 0);
    CHECK(gpt2.out.find("| `ffn_up_matrices` |  | `1` | the catalogue |") != std::string::npos);
    const auto missing = run_headcount({"catalogue", "formulas", "--spec", "no-such-file.yaml"});
    CHECK(missing.exit_code != 0);
}

// docs/variants.md's list of what vary: takes is printed from the reader's rows (issue 40, item 11: it missed top_k,
// lora_rank, tokens and gpus). Each row named is one a spec may vary: the table and the reader agree.
TEST_CASE("catalogue vary lists every given vary: takes", "[e2e][catalogue]") {
    const auto run = run_headcount({"catalogue", "vary"});
    REQUIRE(run.exit_code == 0);
    for (const char* row : {"| `top_k` | a whole transformer (kind: transformer) | whole numbers |",
                            "| `experts` | a whole transformer (kind: transformer) | whole numbers |",
                            "| `lora_rank` | a training run (kind: transformer) | whole numbers |",
                            "| `tokens` | a training run (kind: transformer) | whole numbers |",
                            "| `gpus` | a training run (kind: transformer) | whole numbers |",
                            "| `bias` | the attention block (any problem) | true, false |"}) {
        INFO(row);
        CHECK(run.out.find(row) != std::string::npos);
    }
    CHECK(run.out.find("`mfu`") == std::string::npos); // a fraction, which vary's whole numbers cannot give
}

// End-to-end tests of `model:` (issue 41, item 2): a spec names a published model and gets its architecture as
// givens, with what it writes beside the name its own. The expected counts are the published ones (cited at each)
// or worked out by hand from them, never read from headcount's output.
#include "cli_json.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <fstream>
#include <string>

using headcount::testing::has;
using headcount::testing::run_headcount;
using headcount::testing::solved_json;

namespace {

std::string spec_file(std::string_view name, std::string_view text) {
    const std::string path = headcount::testing::fresh_temp_dir(std::string("model-") + std::string(name)) + "/" +
                             std::string(name) + ".yaml";
    std::ofstream(path) << text;
    return path;
}

} // namespace

// LLaMA-2-7B has 6,738,415,616 parameters (Hugging Face's meta-llama/Llama-2-7b-hf, the count docs/spec.md cites).
// At half its depth, 16 layers fewer of one layer each: 4 attention projections of 4096 x 4096 without biases
// (67,108,864), a gated FFN of 3 x 4096 x 11008 (135,266,304) and two RMSNorm scales of 4096 (8,192), together
// 202,383,360; 6,738,415,616 - 16 x 202,383,360 = 3,500,281,856.
TEST_CASE("model: fills a published model's architecture, and a given beside it is the spec's own", "[e2e][model]") {
    const std::string whole = spec_file("whole", "id: whole\ntitle: LLaMA-2-7B\ngiven:\n  model: llama-2-7b\n"
                                                 "parts:\n  - {id: a, ask: model_params}\n");
    CHECK(solved_json(whole)["parts"][0]["answer"] == 6738415616);
    const std::string half = spec_file("half", "id: half\ntitle: Half a LLaMA\ngiven:\n  model: llama-2-7b\n"
                                               "  layers: 16\nparts:\n  - {id: a, ask: model_params}\n");
    CHECK(solved_json(half)["parts"][0]["answer"] == 3500281856);
    // GPT-3 175B as its paper's Table 2.1 builds it: 174,604,259,328 (docs/spec.md).
    const std::string gpt3 = spec_file("gpt3", "id: gpt3\ntitle: GPT-3\ngiven:\n  model: gpt3-175b\n"
                                               "parts:\n  - {id: a, ask: model_params}\n");
    CHECK(solved_json(gpt3)["parts"][0]["answer"] == 174604259328);
    // The sheet and the solution list the numbers, and say whose they are.
    const auto solved = run_headcount({"solve", half});
    REQUIRE(solved.exit_code == 0);
    CHECK(has(solved.out, "The architecture is that of LLaMA-2-7B (`model: llama-2-7b`)"));
    CHECK(has(solved.out, "| $d_{ff}$ | feed-forward width | 11,008 | given |"));
    CHECK(has(solved.out, "| layers | layers in the stack | 16 | given |"));
}

// GPT-2 XL's own spec reads 1,024 tokens (problems/model-gpt2-xl.yaml): a problem using the preset chooses its own
// workload, so without seq_len it has none, and a compute ask says it needs one.
TEST_CASE("model: fills the architecture, not the preset's workload", "[e2e][model]") {
    const std::string spec = spec_file("xl", "id: xl\ntitle: GPT-2 XL\ngiven:\n  model: gpt2-xl\n"
                                             "parts:\n  - {id: a, ask: flops.model_forward}\n");
    const auto run = run_headcount({"solve", spec});
    CHECK(run.exit_code == 2);
    CHECK(has(run.err, "seq_len"));
    // With a workload of its own, 128 tokens, it is answered.
    const std::string own = spec_file("xl128", "id: xl128\ntitle: GPT-2 XL\ngiven:\n  model: gpt2-xl\n  seq_len: 128\n"
                                               "parts:\n  - {id: a, ask: flops.model_forward}\n");
    CHECK(run_headcount({"solve", own}).exit_code == 0);
}

TEST_CASE("model: names an unknown preset, or a block that cannot take one, at its line and column", "[e2e][model]") {
    const std::string typo = spec_file("typo", "id: typo\ntitle: T\ngiven:\n  model: llama-2-7\n"
                                               "parts:\n  - {id: a, ask: model_params}\n");
    const auto unknown = run_headcount({"solve", typo});
    CHECK(unknown.exit_code == 2);
    CHECK(has(unknown.err, "typo.yaml:4:10: unknown model 'llama-2-7'; headcount knows: bert-base, gpt2-small,"));
    CHECK(has(unknown.err, "(did you mean 'llama-2-7b'?)"));
    const std::string block = spec_file("block", "id: block\ntitle: B\nkind: mha\ngiven:\n  model: gpt2-small\n"
                                                 "parts:\n  - {id: a, ask: total_params}\n");
    const auto mha = run_headcount({"solve", block});
    CHECK(mha.exit_code == 2);
    CHECK(has(mha.err, "block.yaml:5:10: model: gpt2-small gives a whole transformer's architecture, and this "
                       "problem is kind: mha"));
    // Nor is a spec of formulas alone one: its d_model would be a number like its other givens.
    const std::string formulas = spec_file("formulas", "id: formulas\ntitle: F\nkind: quantities\ngiven:\n"
                                                       "  model: gpt2-small\nquantities:\n  x: {formula: d_model}\n"
                                                       "parts:\n  - {id: a, ask: x}\n");
    const auto quantities = run_headcount({"solve", formulas});
    CHECK(quantities.exit_code == 2);
    CHECK(has(quantities.err, "formulas.yaml:5:10: model: gpt2-small gives a whole transformer's architecture, and "
                              "this problem is kind: quantities"));
}

// Every preset docs/spec.md names solves, and gives the count the docs cite for it (each a published figure:
// Hugging Face's models, nn.Transformer(), the GPT-3 paper's Table 2.1).
TEST_CASE("every model preset gives its published parameter count", "[e2e][model]") {
    const std::pair<const char*, long long> published[] = {
        {"bert-base", 109482240},          {"gpt2-small", 124439808},  {"gpt2-xl", 1557611200},
        {"gpt3-175b", 174604259328},       {"llama-2-7b", 6738415616}, {"llama-2-70b", 68976648192},
        {"llama-3-8b", 8030261248},        {"mistral-7b", 7241732096}, {"mixtral-8x7b", 46702792704},
        {"pytorch-transformer", 44140544}, {"roberta-base", 124697433}};
    for (const auto& [name, count] : published) {
        INFO(name);
        const std::string spec = spec_file(name, std::string("id: p\ntitle: P\ngiven:\n  model: ") + name +
                                                     "\nparts:\n  - {id: a, ask: model_params}\n");
        CHECK(solved_json(spec)["parts"][0]["answer"] == count);
    }
}

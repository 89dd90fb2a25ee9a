// End-to-end tests of whole-model compute (flops.model_forward, flops.training): checking answers names the
// mistakes, and a spec that cannot have these asks says why.
#include "run_binary.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <fstream>

using headcount::testing::fresh_temp_dir;
using headcount::testing::read_text;
using headcount::testing::run_headcount;
using headcount::testing::source_dir;

namespace {

// LLaMA-2-7B over one 4,096-token sequence. By hand, per token: 32 layers x (2 x 202,375,168 weights + attention
// 2 x 32 heads x 4,096 x (128 + 128)) + the head 2 x 4,096 x 32,000 = 15,361,638,400; x 4,096 tokens =
// 62,921,270,886,400. Attention alone: 32 x 4,096 x 67,108,864 = 8,796,093,022,208. The rule: 2N with LLaMA-2-7B's
// published N = 6,738,415,616, x 4,096 tokens = 55,201,100,726,272.
const std::string k_llama = "problems/model-llama-2-7b-compute.yaml";

std::vector<std::string> mistake_ids(const std::string& part, const std::string& answer) {
    const auto run = run_headcount({"check", k_llama, "--part", part, "--answer", answer, "--format", "json"});
    REQUIRE(run.exit_code == 1);
    std::vector<std::string> ids;
    const auto doc = nlohmann::json::parse(run.out);
    for (const auto& m : doc["mistakes"])
        ids.push_back(m["id"]);
    return ids;
}

} // namespace

TEST_CASE("the exact forward and training counts of LLaMA-2-7B are right", "[e2e][model_flops]") {
    CHECK(run_headcount({"check", k_llama, "--part", "b", "--answer", "62,921,270,886,400"}).exit_code == 0);
    // Training: three forward passes, 188,763,812,659,200.
    CHECK(run_headcount({"check", k_llama, "--part", "c", "--answer", "3 * 62921270886400"}).exit_code == 0);
}

TEST_CASE("whole-model compute mistakes are named", "[e2e][model_flops]") {
    using V = std::vector<std::string>;
    // The 2N rule where the exact count is asked.
    CHECK(mistake_ids("b", "55201100726272") == V{"parameter_rule_not_exact"});
    // Attention's n^2 term forgotten: 62,921,270,886,400 - 8,796,093,022,208. Here n = d_model = 4,096, so
    // attention's 4 n^2 d per layer equals the K and V projections' 2 x 2 n d^2: counting one projection of the
    // three gives the same number, and both are named.
    CHECK(mistake_ids("b", "54125177864192") == V{"one_projection_only", "attention_n_squared_forgotten"});
    // 6N where 2N: a training step for the forward pass.
    CHECK(mistake_ids("b", "188763812659200") == V{"training_for_forward"});
    // 2N where 6N: the forward pass for a training step.
    CHECK(mistake_ids("c", "62921270886400") == V{"backward_pass_forgotten"});
    // The 6N rule for the training step: 3 x 55,201,100,726,272.
    CHECK(mistake_ids("c", "165603302178816") == V{"parameter_rule_not_exact"});
    // Both at once: the 2N rule for a training step.
    const auto both = mistake_ids("c", "55201100726272");
    CHECK(std::find(both.begin(), both.end(), "parameter_rule_not_exact") != both.end());
    CHECK(std::find(both.begin(), both.end(), "backward_pass_forgotten") != both.end());
}

TEST_CASE("whole-model compute needs a one-stack transformer over its own sequence", "[e2e][model_flops]") {
    const std::string dir = fresh_temp_dir("model-flops-specs");
    const std::string llama = read_text(source_dir() + "/" + k_llama);
    {
        std::string cross = llama;
        cross.replace(cross.find("  seq_len: 4096\n"), 16, "  seq_len: 4096\n  seq_len_kv: 128\n");
        std::ofstream(dir + "/cross.yaml") << cross;
    }
    const auto run = run_headcount({"solve", dir + "/cross.yaml"});
    CHECK(run.exit_code == 2);
    CHECK(run.err == dir + "/cross.yaml:26:18: ask 'flops.model_forward' is about a forward pass over the sequence "
                           "itself; seq_len_kv (cross-attention, or a cache) is not modelled for it\n"
                           "   26 |   - {id: b, ask: flops.model_forward, points: 3}\n"
                           "      |                  ^\n");
    {
        std::ofstream(dir + "/block.yaml") << "id: block\ntitle: A block\ngiven: {d_model: 512, h: 8, seq_len: 16}\n"
                                              "parts:\n  - {id: a, ask: flops.training}\n";
    }
    const auto block = run_headcount({"solve", dir + "/block.yaml"});
    CHECK(block.exit_code == 2);
    CHECK(block.err == dir + "/block.yaml:5:18: ask 'flops.training' is about a whole transformer; this problem is "
                             "kind: mha\n"
                             "    5 |   - {id: a, ask: flops.training}\n"
                             "      |                  ^\n");
}

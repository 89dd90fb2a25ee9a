// End-to-end tests of answers that are not plain counts: shapes, bytes with units and a word, through check,
// solve --format json, generate (key.csv) and grade (from a class CSV and from the key).
#include "run_binary.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <fstream>

using headcount::testing::fresh_temp_dir;
using headcount::testing::read_text;
using headcount::testing::run_headcount;

namespace {
// d_model 512, h 8 (d_k = 64), b = 32, n = 128, fp32: the lesson's worked example.
const std::string k_shapes = "problems/mha-shapes-memory.yaml";
} // namespace

TEST_CASE("check reads shapes in the forms students type and names shape mistakes", "[e2e][check][shapes]") {
    // Part a: per-head Q is (b, h, n, d_k) = (32, 8, 128, 64) by hand.
    for (const char* answer : {"(32, 8, 128, 64)", "[32,8,128,64]", "32x8x128x64", "torch.Size([32, 8, 128, 64])"})
        CHECK(run_headcount({"check", k_shapes, "--part", "a", "--answer", answer}).exit_code == 0);
    const auto swapped = run_headcount({"check", k_shapes, "--part", "a", "--answer", "(32, 128, 8, 64)"});
    CHECK(swapped.exit_code == 1);
    CHECK(swapped.out.find("(`heads_seq_axes_swapped`)") != std::string::npos);
    const auto no_batch = run_headcount({"check", k_shapes, "--part", "a", "--answer", "(8, 128, 64)"});
    CHECK(no_batch.out.find("(`batch_axis_dropped`)") != std::string::npos);
    const auto symbols = run_headcount({"check", k_shapes, "--part", "a", "--answer", "(b, h, n, d_k)"});
    CHECK(symbols.exit_code == 1);
    CHECK(symbols.out.find("Why: axis 1 is the symbol 'b'; write the shape with one whole number per axis, e.g. "
                           "(2, 4, 16, 8).") != std::string::npos);

    const auto json =
        run_headcount({"check", k_shapes, "--part", "b", "--answer", "32x8x128x128", "--format", "json", "--reveal"});
    REQUIRE(json.exit_code == 0);
    const auto doc = nlohmann::json::parse(json.out);
    CHECK(doc["value"] == nlohmann::json{32, 8, 128, 128}); // scores (b, h, n, n)
    CHECK(doc["expected"] == nlohmann::json{32, 8, 128, 128});
}

TEST_CASE("check accepts bytes in decimal and binary units and names unit mix-ups", "[e2e][check][memory]") {
    // Part d: 32 x 8 x 128 x 128 x 4 bytes = 16,777,216 = 16 x 2^20 (16 MiB), 16.777216 x 10^6 (about 16.8 MB).
    for (const char* answer : {"16777216", "16 MiB", "16.8 MB", "16.78 MB", "2^24 bytes"})
        CHECK(run_headcount({"check", k_shapes, "--part", "d", "--answer", answer}).exit_code == 0);
    const auto mixed = run_headcount({"check", k_shapes, "--part", "d", "--answer", "16 MB"});
    CHECK(mixed.exit_code == 1);
    CHECK(mixed.out.find("1 of 2 points") != std::string::npos); // half credit by default
    CHECK(mixed.out.find("(`decimal_vs_binary_units`)") != std::string::npos);
    // The default policy (hints) names the mix-up without the right value; --reveal adds it.
    CHECK(mixed.out.find("16,777,216") == std::string::npos);
    CHECK(mixed.out.find("Check which one your number is in") != std::string::npos);
    const auto revealed = run_headcount({"check", k_shapes, "--part", "d", "--answer", "16 MB", "--reveal"});
    CHECK(revealed.out.find("The right value is 16,777,216 bytes (exactly 16 MiB, about 16.78 MB)") !=
          std::string::npos);
    // 8 x 16,777,216 = 134,217,728 = 128 MiB: bits per value used as bytes.
    CHECK(run_headcount({"check", k_shapes, "--part", "d", "--answer", "128 MiB"}).out.find("(`bits_for_bytes`)") !=
          std::string::npos);
    const auto bits = run_headcount({"check", k_shapes, "--part", "d", "--answer", "16 Mb"});
    CHECK(bits.out.find("is bits; this answer is in bytes") != std::string::npos);
}

TEST_CASE("the dominant term is a word, answered from the counts", "[e2e][check][flops]") {
    // n = 2048, d = 4096: projections 8nd^2 = 274,877,906,944 > attention 4n^2d = 68,719,476,736.
    const std::string spec = "problems/mha-flops-long-context.yaml";
    CHECK(run_headcount({"check", spec, "--part", "d", "--answer", "The projections dominate."}).exit_code == 0);
    const auto wrong = run_headcount({"check", spec, "--part", "d", "--answer", "attention"});
    CHECK(wrong.exit_code == 1);
    CHECK(wrong.out.find("Count the two terms") != std::string::npos);
    CHECK(wrong.out.find("274,877,906,944") == std::string::npos); // the counts would settle it: hints hide them
    const auto revealed = run_headcount({"check", spec, "--part", "d", "--answer", "attention", "--reveal"});
    CHECK(revealed.out.find("The linear layers take 274,877,906,944 FLOPs and attention 68,719,476,736") !=
          std::string::npos);
    const auto solved = run_headcount({"solve", spec, "--format", "json"});
    CHECK(nlohmann::json::parse(solved.out)["parts"][3]["answer"] == "projections");
}

TEST_CASE("key.csv holds shapes and words, and grade --key recovers each student's numbers from them",
          "[e2e][generate][shapes]") {
    const std::string dir = fresh_temp_dir("answer-types");
    const auto made = run_headcount(
        {"generate", k_shapes, "--roster", "tests/class/roster.csv", "--seed", "s1", "--out", dir + "/set"});
    REQUIRE(made.exit_code == 0);
    const std::string key = read_text(dir + "/set/key.csv");
    // The spec has no vary:, so everyone's per-head Q is (32, 8, 128, 64), quoted for its commas.
    CHECK(key.find("alice,mha-shapes-memory,a,\"(32, 8, 128, 64)\",shape\n") != std::string::npos);
    CHECK(key.find("alice,mha-shapes-memory,d,16777216,bytes\n") != std::string::npos);

    std::ofstream(dir + "/answers.csv") << "student,problem,part,answer\n"
                                        << "alice,mha-shapes-memory,a,\"(32, 8, 128, 64)\"\n"
                                        << "bob,mha-shapes-memory,a,\"(32, 128, 8, 64)\"\n"
                                        << "chen,mha-shapes-memory,d,16 MiB\n";
    const auto graded = run_headcount({"grade", k_shapes, "--submissions", dir + "/answers.csv", "--out",
                                       dir + "/graded", "--key", dir + "/set/key.csv"});
    REQUIRE(graded.exit_code == 0);
    const std::string gradebook = read_text(dir + "/graded/gradebook.csv");
    // Parts a, b, c are 1 point, d 2, e 1: max 6.
    CHECK(gradebook.find("\nalice,1,0,0,0,0,1,6\n") != std::string::npos); // unanswered parts score 0
    CHECK(gradebook.find("\nbob,0,0,0,0,0,0,6\n") != std::string::npos);
    CHECK(gradebook.find("\nchen,0,0,0,2,0,2,6\n") != std::string::npos);
    CHECK(read_text(dir + "/graded/feedback/bob.md").find("heads_seq_axes_swapped") != std::string::npos);
}

TEST_CASE("memory of a block's parameters renders, and bytes mistakes speak in bytes", "[e2e][solve][memory]") {
    // mha-gqa-shapes part f: 2 x 4096^2 + 2 x 4096 x 1024 = 41,943,040 parameters x 2 bytes (bf16) = 83,886,080.
    const auto solved = run_headcount({"solve", "problems/mha-gqa-shapes.yaml"});
    REQUIRE(solved.exit_code == 0);
    CHECK(solved.out.find("**Answer: 83,886,080 bytes.**") != std::string::npos);
    // GQA is not plain self-attention: the n / 2d crossover is not claimed for it.
    CHECK(solved.out.find("n / 2d") == std::string::npos);
    // 41,943,040 x 16 = 671,088,640: bits used as bytes.
    const auto bits = run_headcount({"check", "problems/mha-gqa-shapes.yaml", "--part", "f", "--answer", "671088640"});
    CHECK(bits.out.find("(`bits_for_bytes`)") != std::string::npos);
}

TEST_CASE("an answer that is not UTF-8 gets a JSON verdict, not a crash", "[e2e][check]") {
    const auto run = run_headcount(
        {"check", k_shapes, "--part", "a", "--answer", std::string("(32,\xff") + "8)", "--format", "json"});
    CHECK(run.exit_code == 1);
    const auto doc = nlohmann::json::parse(run.out);
    CHECK(doc["status"] == "unreadable");
    CHECK(doc["answer"] == "\xEF\xBF\xBD"); // U+FFFD
}

TEST_CASE("a word answer that turns itself around is refused, not guessed", "[e2e][check][flops]") {
    const auto run = run_headcount(
        {"check", "problems/mha-flops-long-context.yaml", "--part", "d", "--answer", "attention does not dominate"});
    CHECK(run.exit_code == 1);
    CHECK(run.out.find("could not read this answer") != std::string::npos);
    CHECK(run.out.find("'not' makes the answer hard to read for sure") != std::string::npos);
}

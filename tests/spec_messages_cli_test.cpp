// End-to-end tests of what a user reads when a spec has one of the slips of issue 40: a spec of formulas taken for
// an attention block (item 6) and a key without its ':' (item 7). Each message is asserted whole, with the source
// line and the caret `solve` prints under it; the lines and columns are counted by hand from the specs below.
#include "run_binary.hpp"

#include <util/test_catch.hpp>

#include <fstream>

using headcount::testing::fresh_temp_dir;
using headcount::testing::run_headcount;

namespace {

/// What `headcount solve spec.yaml` prints on stderr for `text`, run in a folder of its own (so the message names
/// spec.yaml alone); it must fail with exit code 2 and print nothing on stdout.
std::string solve_error(const std::string& name, const std::string& text) {
    const std::string dir = fresh_temp_dir("spec-messages-" + name);
    std::ofstream(dir + "/spec.yaml", std::ios::binary) << text;
    const auto run = run_headcount({"solve", "spec.yaml"}, "", dir);
    CHECK(run.exit_code == 2);
    CHECK(run.out.empty());
    return run.err;
}

/// The caret line under column `column` (1-based), as the CLI prints it.
std::string caret(int column) { return "      | " + std::string(static_cast<std::size_t>(column - 1), ' ') + "^\n"; }

} // namespace

TEST_CASE("a spec of formulas with a d_model is told it was read as an attention block (issue 40, item 6)",
          "[e2e][spec]") {
    // Before: "spec.yaml:4:3: missing required key 'h' in given", at the first given (c), with no word of why h is
    // needed in a spec that asks for its own formula alone.
    const std::string formulas = "id: attention-cost\n"
                                 "title: Cost of attention per token\n"
                                 "given:\n"
                                 "  c: 3\n"
                                 "  d_model: 512\n"
                                 "quantities:\n"
                                 "  cost:\n"
                                 "    formula: c * d_model\n"
                                 "parts:\n"
                                 "  - {id: a, ask: cost}\n";
    CHECK(solve_error("d-model", formulas) ==
          "spec.yaml:5:3: missing required key 'h' in given: the spec has no 'kind:', and its given d_model made it "
          "an attention block (kind: mha), which needs h too; add 'kind: quantities' for a spec of its own formulas "
          "alone\n"
          "    5 |   d_model: 512\n" +
              caret(3));
    // The same with an h and no d_model (line 5 is h's).
    std::string with_h = formulas;
    with_h.replace(with_h.find("d_model: 512"), 12, "h: 8");
    with_h.replace(with_h.find("c * d_model"), 11, "c * h");
    CHECK(solve_error("h", with_h) ==
          "spec.yaml:5:3: missing required key 'd_model' in given: the spec has no 'kind:', and its given h made it "
          "an attention block (kind: mha), which needs d_model too; add 'kind: quantities' for a spec of its own "
          "formulas alone\n"
          "    5 |   h: 8\n" +
              caret(3));
    // With kind: quantities the same spec is solved: c * d_model = 3 * 512 = 1,536.
    const std::string dir = fresh_temp_dir("spec-messages-kind");
    std::ofstream(dir + "/spec.yaml") << "kind: quantities\n" + formulas;
    const auto solved = run_headcount({"solve", "spec.yaml", "--format", "json"}, "", dir);
    CHECK(solved.exit_code == 0);
    CHECK(solved.out.find("\"answer\": 1536") != std::string::npos);
    // An explicit kind: mha keeps the plain message: nothing was guessed.
    CHECK(solve_error("explicit-mha", "kind: mha\n" + formulas) == "spec.yaml:5:3: missing required key 'h' in given\n"
                                                                   "    5 |   c: 3\n" +
                                                                       caret(3));
}

TEST_CASE("a spec of formulas varies only its own givens, and is not offered an attention block's (issue 40, item 6)",
          "[e2e][spec]") {
    // Before: "unknown key 'c' in vary (did you mean 'h'?)": h, an attention block's key, in a spec that has none.
    const std::string spec = "id: attention-cost\n"
                             "title: Cost of attention per token\n"
                             "kind: quantities\n"
                             "given:\n"
                             "  d_model: 512\n"
                             "  d: 3\n"
                             "vary:\n"
                             "  c: [2, 3]\n"
                             "quantities:\n"
                             "  cost:\n"
                             "    formula: d * d_model\n"
                             "parts:\n"
                             "  - {id: a, ask: cost}\n";
    CHECK(solve_error("vary-c", spec) ==
          "spec.yaml:8:3: cannot vary c: given has no c to change; a spec of formulas alone (kind: quantities) "
          "varies only the numbers in its given (did you mean 'd'?)\n"
          "    8 |   c: [2, 3]\n" +
              caret(3));
    // Before: accepted, and every student got the same numbers (h is no given of this spec, and changes nothing).
    // d is one letter from h.
    std::string vary_h = spec;
    vary_h.replace(vary_h.find("  c: [2, 3]"), 11, "  h: [4, 8]");
    CHECK(solve_error("vary-h", vary_h) ==
          "spec.yaml:8:3: cannot vary h: given has no h to change; a spec of formulas alone (kind: quantities) "
          "varies only the numbers in its given (did you mean 'd'?)\n"
          "    8 |   h: [4, 8]\n" +
              caret(3));
}

TEST_CASE("a key without its ':' is reported on its own line, not the next (issue 40, item 7)", "[e2e][spec]") {
    // Before, each was "YAML syntax error: illegal map value" at the ':' of the line below the slip.
    SECTION("in given") {
        CHECK(solve_error("given", "id: week3\n"
                                   "title: MHA\n"
                                   "given:\n"
                                   "  d_model 512\n"
                                   "  h: 8\n"
                                   "parts:\n"
                                   "  - {id: a, ask: qkv_params}\n") ==
              "spec.yaml:4:10: YAML syntax error: missing ':' after 'd_model' (write 'd_model: 512'); YAML read on to "
              "line 5 and reported: illegal map value\n"
              "    4 |   d_model 512\n" +
                  caret(10));
    }
    SECTION("in given, the last key before the next top-level one") {
        CHECK(solve_error("given-last", "id: week3\n"
                                        "title: MHA\n"
                                        "given:\n"
                                        "  d_model: 512\n"
                                        "  h 8\n"
                                        "parts:\n"
                                        "  - {id: a, ask: qkv_params}\n") ==
              "spec.yaml:5:4: YAML syntax error: missing ':' after 'h' (write 'h: 8'); YAML read on to line 6 and "
              "reported: illegal map value\n"
              "    5 |   h 8\n" +
                  caret(4));
    }
    SECTION("two in a row: the first") {
        CHECK(solve_error("two", "id: week3\n"
                                 "title: MHA\n"
                                 "given:\n"
                                 "  d_model 512\n"
                                 "  h 8\n"
                                 "  bias: true\n"
                                 "parts:\n"
                                 "  - {id: a, ask: qkv_params}\n") ==
              "spec.yaml:4:10: YAML syntax error: missing ':' after 'd_model' (write 'd_model: 512'); YAML read on to "
              "line 6 and reported: illegal map value\n"
              "    4 |   d_model 512\n" +
                  caret(10));
    }
    SECTION("with a comment between it and the next key") {
        // Before: "end of map not found" at line 7.
        CHECK(solve_error("comment", "id: week3\n"
                                     "title: MHA\n"
                                     "given:\n"
                                     "  d_model 512\n"
                                     "\n"
                                     "  # the number of heads\n"
                                     "  h: 8\n"
                                     "parts:\n"
                                     "  - {id: a, ask: qkv_params}\n") ==
              "spec.yaml:4:10: YAML syntax error: missing ':' after 'd_model' (write 'd_model: 512'); YAML read on to "
              "line 7 and reported: end of map not found\n"
              "    4 |   d_model 512\n" +
                  caret(10));
    }
    SECTION("a ':' without the space after it") {
        CHECK(solve_error("no-space", "id: week3\n"
                                      "title: MHA\n"
                                      "given:\n"
                                      "  d_model:512\n"
                                      "  h: 8\n"
                                      "parts:\n"
                                      "  - {id: a, ask: qkv_params}\n") ==
              "spec.yaml:4:10: YAML syntax error: no space after the ':' of 'd_model:512' (write 'd_model: 512'); "
              "YAML read on to line 5 and reported: illegal map value\n"
              "    4 |   d_model:512\n" +
                  caret(10));
    }
    SECTION("in a part") {
        CHECK(solve_error("part", "id: week3\n"
                                  "title: MHA\n"
                                  "given: {d_model: 512, h: 8}\n"
                                  "parts:\n"
                                  "  - id: a\n"
                                  "    ask qkv_params\n"
                                  "  - id: b\n"
                                  "    ask: total_params\n") ==
              "spec.yaml:6:8: YAML syntax error: missing ':' after 'ask' (write 'ask: qkv_params'); YAML read on to "
              "line 7 and reported: illegal map value\n"
              "    6 |     ask qkv_params\n" +
                  caret(8));
    }
    SECTION("a part's first key") {
        // Before: "each part must be a mapping with at least 'id' and 'ask'" at 5:5 (the part is the text "id a").
        CHECK(solve_error("part-id", "id: week3\n"
                                     "title: MHA\n"
                                     "given: {d_model: 512, h: 8}\n"
                                     "parts:\n"
                                     "  - id a\n") ==
              "spec.yaml:5:7: each part must be a mapping with at least 'id' and 'ask': missing ':' after 'id' (write "
              "'id: a')\n"
              "    5 |   - id a\n" +
                  caret(7));
    }
    SECTION("at the top level") {
        CHECK(
            solve_error("top", "id: week3\n"
                               "title MHA\n"
                               "given: {d_model: 512, h: 8}\n"
                               "parts: [{id: a, ask: qkv_params}]\n") ==
            "spec.yaml:2:6: YAML syntax error: missing ':' after 'title' (write 'title: MHA'); YAML read on to line 3 "
            "and reported: illegal map value\n"
            "    2 | title MHA\n" +
                caret(6));
        // A key with nothing after it: the value that follows on the next lines is read into the key.
        CHECK(solve_error("top-parts", "id: week3\n"
                                       "title: MHA\n"
                                       "given: {d_model: 512, h: 8}\n"
                                       "parts\n"
                                       "  - id: a\n"
                                       "    ask: qkv_params\n") ==
              "spec.yaml:4:6: YAML syntax error: missing ':' after 'parts'; YAML read on to line 5 and reported: "
              "illegal map value\n"
              "    4 | parts\n" +
                  caret(6));
    }
    SECTION("the only key of given") {
        // Before: "given must be a mapping of sizes, e.g. {d_model: 512, h: 8}" at 4:3 (given is the text
        // "d_model 512").
        CHECK(solve_error("given-only", "id: week3\n"
                                        "title: MHA\n"
                                        "given:\n"
                                        "  d_model 512\n"
                                        "parts: [{id: a, ask: qkv_params}]\n") ==
              "spec.yaml:4:10: given must be a mapping of sizes, e.g. {d_model: 512, h: 8}: missing ':' after "
              "'d_model' (write 'd_model: 512')\n"
              "    4 |   d_model 512\n" +
                  caret(10));
    }
    SECTION("on the last line of the file") {
        // Before: "unknown key 'ask qkv_params' in part": yaml-cpp takes a mapping's last line without ':' as a key
        // with no value. No line break at the end.
        CHECK(solve_error("last-part", "id: week3\n"
                                       "title: MHA\n"
                                       "given: {d_model: 512, h: 8}\n"
                                       "parts:\n"
                                       "  - id: a\n"
                                       "    ask qkv_params") == "spec.yaml:6:8: missing ':' after 'ask' (write 'ask: "
                                                                "qkv_params')\n"
                                                                "    6 |     ask qkv_params\n" +
                                                                    caret(8));
        // Before: "unknown key 'h 8' in given".
        CHECK(solve_error("last-given", "id: week3\n"
                                        "title: MHA\n"
                                        "parts: [{id: a, ask: qkv_params}]\n"
                                        "given:\n"
                                        "  d_model: 512\n"
                                        "  h 8\n") == "spec.yaml:6:4: missing ':' after 'h' (write 'h: 8')\n"
                                                      "    6 |   h 8\n" +
                                                          caret(4));
        // Before: "vary must map givens to their values, e.g. {h: [4, 8, 16]}" at the word vary.
        CHECK(solve_error("last-top", "id: week3\n"
                                      "title: MHA\n"
                                      "given: {d_model: 512, h: 8}\n"
                                      "parts: [{id: a, ask: qkv_params}]\n"
                                      "vary\n") == "spec.yaml:5:5: missing ':' after 'vary'\n"
                                                   "    5 | vary\n" +
                                                       caret(5));
    }
    SECTION("on a mapping's last line, with its value on the next") {
        // Before: "unknown key 'feedback hints' in the problem": yaml-cpp ran the line on into the next.
        CHECK(solve_error("last-folded", "id: week3\n"
                                         "title: MHA\n"
                                         "given: {d_model: 512, h: 8}\n"
                                         "parts: [{id: a, ask: qkv_params}]\n"
                                         "feedback\n"
                                         "  hints\n") == "spec.yaml:5:9: missing ':' after 'feedback'\n"
                                                         "    5 | feedback\n" +
                                                             caret(9));
    }
    SECTION("in a flow mapping") {
        // Before: "unknown key 'd_model 512' in given (did you mean 'd_model'?)".
        CHECK(solve_error("flow", "id: week3\n"
                                  "title: MHA\n"
                                  "given: {d_model 512, h: 8}\n"
                                  "parts: [{id: a, ask: qkv_params}]\n") ==
              "spec.yaml:3:16: missing ':' after 'd_model' (write 'd_model: 512')\n"
              "    3 | given: {d_model 512, h: 8}\n" +
                  caret(16));
    }
    SECTION("an illegal map value that is no missing ':' keeps YAML's words, with what usually causes it") {
        CHECK(solve_error("quote", "id: week3\n"
                                   "title: Heads: how many?\n"
                                   "given: {d_model: 512, h: 8}\n"
                                   "parts: [{id: a, ask: qkv_params}]\n") ==
              "spec.yaml:2:13: YAML syntax error: illegal map value (a value that holds ': ' must be quoted: write "
              "'title: \"Heads: how many?\"')\n"
              "    2 | title: Heads: how many?\n" +
                  caret(13));
        // The same in a value continued on the next line.
        CHECK(solve_error("quote-continued", "id: week3\n"
                                             "title: MHA\n"
                                             "given: {d_model: 512, h: 8}\n"
                                             "parts:\n"
                                             "  - id: a\n"
                                             "    ask: qkv_params\n"
                                             "    text: How many parameters\n"
                                             "      does the block hold: Q, K and V?\n") ==
              "spec.yaml:8:26: YAML syntax error: illegal map value (a value that holds ': ' must be quoted)\n"
              "    8 |       does the block hold: Q, K and V?\n" +
                  caret(26));
        // A key above that YAML reads on, though it is no key's plain word (here a quoted one): it may be the line
        // above.
        CHECK(solve_error("quoted-key", "id: week3\n"
                                        "title: MHA\n"
                                        "given:\n"
                                        "  \"d_model\" 512\n"
                                        "  h: 8\n"
                                        "parts: [{id: a, ask: qkv_params}]\n") ==
              "spec.yaml:5:4: YAML syntax error: illegal map value (the line above may be a key without its ':')\n"
              "    5 |   h: 8\n" +
                  caret(4));
    }
}

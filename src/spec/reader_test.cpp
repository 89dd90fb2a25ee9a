// Reading a spec: every key, every default, and every error with its position. Over ~400 lines: one file per
// unit under test, as everywhere in src/.
#include <spec/reader.hpp>

#include <util/test_catch.hpp>

#include <array>

using namespace headcount;

namespace {

constexpr std::array<std::string_view, 3> k_asks{"qkv_params", "total_params", "d_k"};
constexpr std::array<std::string_view, 2> k_mistakes{"missing_biases", "rounded"};
const spec::Vocabulary k_words{k_asks, k_mistakes};

std::string error_of(const std::string& yaml) {
    auto problem = spec::parse_problem(yaml, "p.yaml", k_words);
    REQUIRE_FALSE(problem.has_value());
    return problem.error().to_string();
}

const std::string k_good = R"(id: week3
title: MHA
given:
  d_model: 512
  h: 8
parts:
  - id: a
    ask: total_params
)";

} // namespace

TEST_CASE("a minimal spec reads with PyTorch's defaults", "[spec]") {
    auto problem = spec::parse_problem(k_good, "p.yaml", k_words);
    REQUIRE(problem.has_value());
    CHECK(problem->id == "week3");
    CHECK(problem->kind == "mha");
    CHECK(problem->given.d_model == 512);
    CHECK(problem->given.h == 8);
    CHECK_FALSE(problem->given.d_k.has_value());
    CHECK(problem->given.bias.q);
    CHECK(problem->given.bias.o);
    CHECK_FALSE(problem->given.add_bias_kv);
    REQUIRE(problem->parts.size() == 1);
    CHECK(problem->parts[0].points == 1.0);
    CHECK(problem->parts[0].ask_mark.line == 8);
    CHECK(problem->parts[0].ask_mark.column == 10);
}

TEST_CASE("bias may be given per projection; missing ones keep a bias", "[spec]") {
    auto problem = spec::parse_problem(R"(id: p
title: t
given: {d_model: 512, h: 8, bias: {o: false}, n_kv_heads: 2, add_bias_kv: true}
parts: [{id: a, ask: d_k, points: 1.5, text: "What is d_k?"}]
)",
                                       "p.yaml", k_words);
    REQUIRE(problem.has_value());
    CHECK(problem->given.bias.q);
    CHECK(problem->given.bias.k);
    CHECK_FALSE(problem->given.bias.o);
    CHECK(problem->given.bias_given_per_projection);
    CHECK(problem->given.n_kv_heads == 2);
    CHECK(problem->given.add_bias_kv);
    CHECK(problem->parts[0].points == 1.5);
    CHECK(problem->parts[0].text == "What is d_k?");
}

TEST_CASE("spec errors name the file, line and column", "[spec]") {
    SECTION("unknown key with a suggestion") {
        CHECK(error_of("id: p\ntitle: t\ngiven:\n  d_model: 512\n  hh: 8\nparts: [{id: a, ask: d_k}]\n") ==
              "p.yaml:5:3: unknown key 'hh' in given (did you mean 'h'?)");
    }
    SECTION("unknown top-level key") {
        CHECK(error_of("id: p\ntitel: t\n") ==
              "p.yaml:2:1: unknown key 'titel' in the problem (did you mean 'title'?)");
    }
    SECTION("duplicate key") {
        CHECK(error_of("id: p\ntitle: t\ngiven:\n  d_model: 512\n  h: 8\n  h: 4\nparts: [{id: a, ask: d_k}]\n") ==
              "p.yaml:6:3: duplicate key 'h' in given");
    }
    SECTION("missing key") {
        CHECK(error_of("id: p\ntitle: t\nparts: [{id: a, ask: d_k}]\n") ==
              "p.yaml:1:1: missing required key 'given' in the problem");
    }
    SECTION("non-positive size") {
        CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: -512, h: 8}\nparts: [{id: a, ask: d_k}]\n") ==
              "p.yaml:3:18: d_model must be a positive integer, got '-512'");
        CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 512, h: 0}\nparts: [{id: a, ask: d_k}]\n") ==
              "p.yaml:3:26: h must be a positive integer, got '0'");
    }
    SECTION("non-integer size") {
        CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 512.5, h: 8}\nparts: [{id: a, ask: d_k}]\n") ==
              "p.yaml:3:18: d_model must be a positive integer, got '512.5'");
        CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: \"512\", h: 8}\nparts: [{id: a, ask: d_k}]\n") ==
              "p.yaml:3:18: d_model must be a positive integer, got the quoted string \"512\"");
        CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 512, h: [8]}\nparts: [{id: a, ask: d_k}]\n") ==
              "p.yaml:3:26: h must be a positive integer, got a list");
    }
    SECTION("h must divide d_model when d_k and d_v default") {
        CHECK(error_of("id: p\ntitle: t\ngiven:\n  d_model: 512\n  h: 6\nparts: [{id: a, ask: d_k}]\n") ==
              "p.yaml:5:6: h = 6 does not divide d_model = 512, so the default d_k = d_v = d_model / h is not a "
              "whole number; give d_k and d_v explicitly or choose an h that divides d_model");
        CHECK(error_of("id: p\ntitle: t\ngiven:\n  d_model: 512\n  h: 6\n  d_k: 64\nparts: [{id: a, ask: d_k}]\n") ==
              "p.yaml:5:6: h = 6 does not divide d_model = 512, so the default d_v = d_model / h is not a "
              "whole number; give d_v explicitly or choose an h that divides d_model");
    }
    SECTION("explicit d_k and d_v lift the divisibility rule") {
        auto ok = spec::parse_problem("id: p\ntitle: t\ngiven: {d_model: 512, h: 6, d_k: 64, d_v: 64}\n"
                                      "parts: [{id: a, ask: d_k}]\n",
                                      "p.yaml", k_words);
        CHECK(ok.has_value());
    }
    SECTION("n_kv_heads must divide h") {
        CHECK(error_of(
                  "id: p\ntitle: t\ngiven:\n  d_model: 512\n  h: 8\n  n_kv_heads: 3\nparts: [{id: a, ask: d_k}]\n") ==
              "p.yaml:6:15: n_kv_heads = 3 does not divide h = 8: in grouped-query attention each key/value head "
              "serves the same number of query heads");
        CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 512, h: 8, n_kv_heads: 16}\nparts: [{id: a, ask: d_k}]\n")
                  .starts_with("p.yaml:3:41: n_kv_heads = 16 does not divide h = 8"));
    }
    SECTION("unknown ask") {
        CHECK(error_of(k_good + "  - id: b\n    ask: total_param\n") ==
              "p.yaml:10:10: unknown ask 'total_param' in part 'b' (did you mean 'total_params'?)");
    }
    SECTION("duplicate part id") {
        CHECK(error_of(k_good + "  - id: a\n    ask: d_k\n") == "p.yaml:9:9: duplicate part id 'a'");
    }
    SECTION("bias flags") {
        CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 512, h: 8, bias: maybe}\nparts: [{id: a, ask: d_k}]\n") ==
              "p.yaml:3:35: bias must be true or false, got 'maybe'");
        CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 512, h: 8, bias: {q: true, oo: false}}\n"
                       "parts: [{id: a, ask: d_k}]\n") == "p.yaml:3:45: unknown key 'oo' in bias (did you mean 'o'?)");
    }
    SECTION("ids must be safe file names") {
        CHECK(error_of("id: ../etc\ntitle: t\n") ==
              "p.yaml:1:5: problem id '../etc' must be 1-64 letters, digits, '-', '_' or '.' (not starting with '.')");
    }
    SECTION("YAML syntax errors keep yaml-cpp's position") {
        CHECK(error_of("id: p\ntitle: [unclosed\n") == "p.yaml:3:1: YAML syntax error: end of sequence flow not found");
    }
    SECTION("empty and non-mapping documents") {
        CHECK(error_of("") == "p.yaml: a problem spec must be a mapping with id, title, given and parts");
        CHECK(error_of("- 1\n- 2\n") == "p.yaml:1:1: a problem spec must be a mapping with id, title, given and parts");
    }
    SECTION("unknown kind") {
        CHECK(error_of("id: p\ntitle: t\nkind: mhaa\n") ==
              "p.yaml:3:7: unknown kind 'mhaa'; headcount knows: mha, transformer, quantities (did you mean 'mha'?)");
    }
}

TEST_CASE("parts may set a tolerance and partial credit per mistake", "[spec]") {
    auto problem = spec::parse_problem(R"(id: p
title: t
given: {d_model: 512, h: 8}
parts:
  - {id: a, ask: d_k, tolerance: exact}
  - {id: b, ask: d_k, tolerance: {rel: 0.01}, credit: {missing_biases: 0.5, rounded: 0.25}}
  - {id: c, ask: d_k, tolerance: {sigfigs: 3}}
)",
                                       "p.yaml", k_words);
    REQUIRE(problem.has_value());
    CHECK(problem->parts[0].tolerance->kind == spec::Tolerance::Kind::exact);
    CHECK(problem->parts[1].tolerance->relative == 0.01);
    CHECK(problem->parts[1].credit.at("missing_biases") == 0.5);
    CHECK(problem->parts[1].credit.at("rounded") == 0.25);
    CHECK(problem->parts[2].tolerance->sigfigs == 3);
    CHECK_FALSE(problem->parts[2].tolerance->relative > 0);

    CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 512, h: 8}\nparts: [{id: a, ask: d_k, tolerance: loose}]\n") ==
          "p.yaml:4:38: tolerance must be exact, {rel: 0.01} or {sigfigs: 3}");
    CHECK(
        error_of(
            "id: p\ntitle: t\ngiven: {d_model: 512, h: 8}\nparts: [{id: a, ask: d_k, credit: {missing_bias: 1}}]\n") ==
        "p.yaml:4:36: unknown key 'missing_bias' in credit (mistake ids) (did you mean 'missing_biases'?)");
    CHECK(
        error_of("id: p\ntitle: t\ngiven: {d_model: 512, h: 8}\nparts: [{id: a, ask: d_k, credit: {rounded: 2}}]\n") ==
        "p.yaml:4:45: credit for rounded must be a number from 0 to 1, got '2'");
}

TEST_CASE("load_problem reports an unreadable file by name", "[spec]") {
    auto problem = spec::load_problem("/nonexistent/p.yaml", k_words);
    REQUIRE_FALSE(problem.has_value());
    CHECK(problem.error().to_string() == "/nonexistent/p.yaml: cannot read the spec file: No such file or directory");
}

TEST_CASE("transformer specs read the model's givens and reject impossible ones", "[spec]") {
    const std::string head = "id: p\ntitle: t\nkind: transformer\ngiven:\n  d_model: 768\n  h: 12\n  d_ff: 3072\n";
    const std::string parts = "parts: [{id: a, ask: d_k}]\n";
    auto gpt = spec::parse_problem(head +
                                       "  layers: 12\n  vocab: 50257\n  norm: rmsnorm\n  ffn: gated\n"
                                       "  lm_head: linear\n  tied_embeddings: false\n" +
                                       parts,
                                   "p.yaml", k_words);
    REQUIRE(gpt.has_value());
    REQUIRE(gpt->model.has_value());
    CHECK(gpt->model->layers == 12);
    CHECK(gpt->model->vocab == 50257);
    CHECK(gpt->model->norm == spec::ModelGivens::Norm::rmsnorm);
    CHECK(gpt->model->ffn == spec::ModelGivens::Ffn::gated);
    CHECK(gpt->model->lm_head == spec::ModelGivens::Head::linear);
    CHECK_FALSE(gpt->model->tied_embeddings);

    CHECK(error_of(head + "  layers: 12\n  norm: layernrom\n" + parts) ==
          "p.yaml:9:9: norm must be one of layernorm, rmsnorm, none, got 'layernrom' (did you mean 'layernorm'?)");
    CHECK(error_of(head + "  layers: 12\n  encoder_layers: 6\n  decoder_layers: 6\n" + parts) ==
          "p.yaml:5:3: give either layers (one stack) or encoder_layers and decoder_layers, not both");
    CHECK(error_of(head + "  encoder_layers: 6\n" + parts) ==
          "p.yaml:5:3: an encoder-decoder needs both encoder_layers and decoder_layers");
    CHECK(error_of(head + "  layers: 2\n  lm_head: linear\n" + parts) ==
          "p.yaml:9:12: an lm_head needs a vocab to predict");
    CHECK(error_of(head + "  layers: 2\n  kdim: 256\n" + parts) == "p.yaml:9:3: unknown key 'kdim' in given");
    // model: is read before the keys are checked; a misspelt one still hears of it.
    CHECK(error_of(head + "  layers: 2\n  modle: gpt2-small\n" + parts) ==
          "p.yaml:9:3: unknown key 'modle' in given (did you mean 'model'?)");
    // A training ask reads numbers from given (tokens, gpus) for its formulas; without formulas of the spec's own,
    // a number under any other name is a misspelt key, not a value, and is named before the MoE check misleads.
    const std::string moe = "  layers: 2\n  expertz: 8\n  top_k: 2\n  tokens: 1000\n";
    CHECK(error_of(head + moe + "parts: [{id: a, ask: params.active}]\n") ==
          "p.yaml:9:3: unknown key 'expertz' in given (did you mean 'experts'?)");
    // With quantities of its own, the spec's formulas may use such a number.
    CHECK(error_of(head + moe + "quantities: {q: {formula: expertz * tokens}}\nparts: [{id: a, ask: q}]\n")
              .starts_with("p.yaml:10:10: a mixture of experts needs both experts"));
    // d_ff belongs to a transformer, not to an attention block.
    CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 512, h: 8, d_ff: 2048}\n" + parts) ==
          "p.yaml:3:29: 'd_ff' describes a whole transformer; add 'kind: transformer' to the spec");
}

TEST_CASE("vary may name a transformer's sizes and the workload the spec gives", "[spec]") {
    const std::string head = "id: p\ntitle: t\nkind: transformer\ngiven:\n  d_model: 768\n  h: 12\n  d_ff: 3072\n";
    const std::string parts = "parts: [{id: a, ask: d_k}]\n";
    auto bert = spec::parse_problem(head +
                                        "  layers: 12\n  vocab: 30522\n  max_positions: 512\n  type_vocab: 2\n"
                                        "  seq_len: 128\n"
                                        "vary:\n"
                                        "  d_ff: {from: 1024, to: 4096, step: 1024}\n"
                                        "  layers: [6, 12, 24]\n"
                                        "  vocab: [30522, 50257]\n"
                                        "  max_positions: [512, 1024]\n"
                                        "  type_vocab: [1, 2]\n"
                                        "  h: [8, 12]\n"
                                        "  batch: [1, 8]\n" // not given, but it defaults to 1 beside a seq_len
                                        "  seq_len: [128, 512]\n" +
                                        parts,
                                    "p.yaml", k_words);
    REQUIRE(bert.has_value());
    REQUIRE(bert->vary.size() == 8);
    CHECK(bert->vary[0].key == "d_ff");
    CHECK(bert->vary[0].values == std::vector<std::int64_t>{1024, 2048, 3072, 4096});
    CHECK(bert->vary[1].key == "layers");
    CHECK(bert->vary[1].values == std::vector<std::int64_t>{6, 12, 24});
    CHECK(bert->vary[1].mark.line == 15);
    CHECK(bert->vary[1].mark.column == 3);
    CHECK(bert->vary[6].key == "batch");
    CHECK(bert->vary[7].key == "seq_len");

    auto enc_dec = spec::parse_problem(head +
                                           "  encoder_layers: 6\n  decoder_layers: 6\n"
                                           "vary: {encoder_layers: [2, 6], decoder_layers: [2, 6]}\n" +
                                           parts,
                                       "p.yaml", k_words);
    REQUIRE(enc_dec.has_value());
    CHECK(enc_dec->vary.size() == 2);

    auto cross = spec::parse_problem("id: p\ntitle: t\ngiven: {d_model: 512, h: 8, seq_len: 1024, seq_len_kv: 4096}\n"
                                     "vary: {seq_len_kv: [1024, 4096], batch: [1, 2]}\n" +
                                         parts,
                                     "p.yaml", k_words);
    REQUIRE(cross.has_value());
    CHECK(cross->vary[0].key == "seq_len_kv");
    CHECK(cross->vary[1].values == std::vector<std::int64_t>{1, 2});
}

TEST_CASE("vary may not add a given, nor name one the spec's kind cannot give", "[spec]") {
    const std::string head = "id: p\ntitle: t\nkind: transformer\ngiven:\n  d_model: 768\n  h: 12\n  d_ff: 3072\n";
    const std::string mha = "id: p\ntitle: t\ngiven: {d_model: 512, h: 8}\n";
    const std::string parts = "parts: [{id: a, ask: d_k}]\n";
    // An encoder-decoder has no one stack of layers to vary (line 11: the vary key).
    CHECK(error_of(head + "  encoder_layers: 6\n  decoder_layers: 6\nvary:\n  layers: [6, 12]\n" + parts) ==
          "p.yaml:11:3: cannot vary layers: given has no layers to change (vary changes the sizes a spec gives; it "
          "does not add them)");
    // No learned positions (the key stands after "vary: {", column 8); vocab: 0 is "no token embedding".
    CHECK(error_of(head + "  layers: 12\nvary: {max_positions: [512, 1024]}\n" + parts) ==
          "p.yaml:9:8: cannot vary max_positions: given has no max_positions to change (vary changes the sizes a spec "
          "gives; it does not add them)");
    CHECK(error_of(head + "  layers: 12\n  vocab: 0\nvary:\n  vocab: [1000]\n" + parts) ==
          "p.yaml:11:3: cannot vary vocab: given has no vocab to change (vary changes the sizes a spec gives; it does "
          "not add them)");
    // A transformer's attention block has no kdim to vary, as its given has none.
    CHECK(error_of(head + "  layers: 12\nvary:\n  kdim: [256]\n" + parts) ==
          "p.yaml:10:3: cannot vary kdim: a transformer's given has no kdim (its attention block takes d_model, h, "
          "n_kv_heads and bias)");
    CHECK(error_of(head + "  layers: 12\nvary: {layer: [6]}\n" + parts) ==
          "p.yaml:9:8: unknown key 'layer' in vary (did you mean 'layers'?)");
    // A model key in an MHA spec's vary: the same words as in its given ("vary: {h: [4, 8], " is 18 characters).
    CHECK(error_of(mha + "vary: {h: [4, 8], d_ff: [1024, 2048]}\n" + parts) ==
          "p.yaml:4:19: 'd_ff' describes a whole transformer; add 'kind: transformer' to the spec");
    // Workload keys need a workload; seq_len_kv needs one of its own.
    CHECK(error_of(mha + "vary:\n  batch: [1, 2]\n" + parts) ==
          "p.yaml:5:3: batch describes a workload; give seq_len too");
    CHECK(error_of(mha + "vary:\n  seq_len: [512, 1024]\n" + parts) ==
          "p.yaml:5:3: cannot vary seq_len: given has no seq_len to change (vary changes the sizes a spec gives; it "
          "does not add them)");
    CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 512, h: 8, seq_len: 1024}\nvary:\n  seq_len_kv: [512]\n" +
                   parts) == "p.yaml:5:3: cannot vary seq_len_kv: given has no seq_len_kv to change (vary changes the "
                             "sizes a spec gives; it does not add them)");
}

TEST_CASE("every string of a spec is printable UTF-8, checked where it stands (defects 3 and 4)", "[spec][hostile]") {
    // Before: a title with invalid UTF-8 reached nlohmann-json ("internal error:
    // [json.exception.type_error.316]") and one with ESC went raw into Markdown and into Moodle XML no parser
    // accepts.
    CHECK(error_of("id: p\ntitle: \"T\\e[31mred\"\ngiven: {d_model: 512, h: 8}\nparts: [{id: a, ask: d_k}]\n") ==
          "p.yaml:2:8: this text contains a control character (U+001B); a spec holds printable UTF-8 text "
          "(tabs and "
          "line breaks allowed)");
    CHECK(error_of("id: p\ntitle: MHA \xFF\ngiven: {d_model: 512, h: 8}\nparts: [{id: a, ask: d_k}]\n") ==
          "p.yaml:2:8: this text is not valid UTF-8; a spec holds printable UTF-8 text (tabs and line breaks "
          "allowed)");
    // Keys and text in a part are strings too; so is a value no reader looks at (it would be echoed in a
    // message).
    CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 512, h: 8}\nparts: [{id: a, ask: d_k, text: \"a\\x07\"}]\n") ==
          "p.yaml:4:33: this text contains a control character (U+0007); a spec holds printable UTF-8 text "
          "(tabs "
          "and line breaks allowed)");
    CHECK(error_of("id: p\ntitle: t\n\"x\\u0085\": 1\n")
              .starts_with("p.yaml:3:1: this text contains a control "
                           "character (U+0085)"));
    // Line breaks and tabs are text; a block scalar keeps them.
    auto ok = spec::parse_problem("id: p\ntitle: \"a\\tb\"\ngiven: {d_model: 512, h: 8}\nparts:\n  - id: a\n    ask: "
                                  "d_k\n    text: |\n      one\n      two\n",
                                  "p.yaml", k_words);
    REQUIRE(ok.has_value());
    CHECK(ok->title == "a\tb");
}

TEST_CASE("aliases do not make the text check walk a shared node twice", "[spec][hostile]") {
    // Ten levels of ten aliases each: a tree walk would visit 10^10 nodes; the document has 11 mappings.
    std::string yaml = "a0: &a0 {x: y}\n";
    for (int level = 1; level <= 10; ++level) {
        yaml += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
        for (int i = 0; i < 10; ++i)
            yaml += (i ? ", *a" : "*a") + std::to_string(level - 1);
        yaml += "]\n";
    }
    // Read to the end (the first unknown key is reported), not stuck walking.
    CHECK(error_of(yaml) == "p.yaml:1:1: unknown key 'a0' in the problem");
}

TEST_CASE("hostile sizes get exact messages (defect 7)", "[spec][hostile]") {
    // 2^62 is a positive integer, just too large; a 5,000-digit one is not echoed.
    CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 4611686018427387904, h: 8}\nparts: [{id: a, ask: d_k}]\n") ==
          "p.yaml:3:18: d_model is too large: 4611686018427387904 is over 10^18, the largest size headcount "
          "reads");
    CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: " + std::string(5000, '9') +
                   ", h: 8}\nparts: [{id: a, ask: d_k}]\n") ==
          "p.yaml:3:18: d_model is too large: a 5,000-digit number is over 10^18, the largest size headcount "
          "reads");
    // The largest accepted size has 18 digits; leading zeros do not count.
    CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 000999999999999999999999, h: 8}\nparts: [{id: a, ask: d_k}]\n")
              .starts_with("p.yaml:3:18: d_model is too large: 999999999999999999999 is over 10^18"));
    CHECK_FALSE(error_of("id: p\ntitle: t\ngiven: {d_model: 999999999999999999, h: 8}\nparts: [{id: a, ask: d_k}]\n")
                    .contains("too large"));
    // A long non-number is quoted cut short (60 bytes and "…"), not in full.
    CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: " + std::string(5000, 'x') +
                   ", h: 8}\nparts: [{id: a, ask: d_k}]\n") ==
          "p.yaml:3:18: d_model must be a positive integer, got '" + std::string(60, 'x') + "…'");
}

TEST_CASE("YAML nested 100,000 deep is refused with a reason, not 'bad file' (defect 7)", "[spec][hostile]") {
    const std::string message = error_of(std::string(100000, '['));
    CHECK(message.contains("lists and mappings nest more than"));
    CHECK(message.contains("levels deep here; a spec needs a handful"));
    std::string block = "a:\n";
    for (int i = 0; i < 100000; ++i)
        block += "- ";
    CHECK(error_of(block + "1\n").contains("levels deep"));
}

TEST_CASE("a spec file is read up to its cap, never further (defect 5)", "[spec][hostile]") {
    // Before: `solve /dev/zero` ate memory until killed.
    auto problem = spec::load_problem("/dev/zero", k_words);
    REQUIRE_FALSE(problem.has_value());
    CHECK(problem.error().to_string() == "/dev/zero: the spec file is larger than 1 MiB, the most headcount reads");
}

TEST_CASE("feedback: sets the reveal policy of the problem, and a part may override it", "[spec]") {
    auto problem = spec::parse_problem("id: p\ntitle: t\nfeedback: gaps\ngiven: {d_model: 512, h: 8}\nparts:\n"
                                       "  - {id: a, ask: qkv_params}\n  - {id: b, ask: total_params, feedback: full}\n",
                                       "p.yaml", k_words);
    REQUIRE(problem.has_value());
    CHECK(problem->reveal_for(problem->parts[0]) == spec::Reveal::gaps);
    CHECK(problem->reveal_for(problem->parts[1]) == spec::Reveal::full);
    // Without it, hints: the safe default, which shows no number derived from the answer.
    auto plain = spec::parse_problem("id: p\ntitle: t\ngiven: {d_model: 512, h: 8}\nparts: [{id: a, ask: d_k}]\n",
                                     "p.yaml", k_words);
    REQUIRE(plain.has_value());
    CHECK(plain->reveal_for(plain->parts[0]) == spec::Reveal::hints);
    CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 512, h: 8}\nparts: [{id: a, ask: d_k, feedback: all}]\n") ==
          "p.yaml:4:37: feedback must be one of hints, gaps, full, got 'all'");
}

TEST_CASE("attempts: limits a part's checks in serve, for the problem or one part", "[spec]") {
    auto problem = spec::parse_problem("id: p\ntitle: t\nattempts: 20\ngiven: {d_model: 512, h: 8}\nparts:\n"
                                       "  - {id: a, ask: qkv_params}\n  - {id: b, ask: total_params, attempts: 3}\n",
                                       "p.yaml", k_words);
    REQUIRE(problem.has_value());
    CHECK(problem->attempts_for(problem->parts[0]) == 20);
    CHECK(problem->attempts_for(problem->parts[1]) == 3);
    auto plain = spec::parse_problem(k_good, "p.yaml", k_words);
    REQUIRE(plain.has_value());
    CHECK_FALSE(plain->attempts_for(plain->parts[0]));
    CHECK(error_of("id: p\ntitle: t\nattempts: 0\ngiven: {d_model: 512, h: 8}\nparts: [{id: a, ask: d_k}]\n") ==
          "p.yaml:3:11: attempts must be a positive integer, got '0'");
    CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 512, h: 8}\nparts: [{id: a, ask: d_k, attempts: 10001}]\n") ==
          "p.yaml:4:37: attempts must be at most 10,000, got 10,001");
    CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 512, h: 8}\nparts: [{id: a, ask: d_k, attempts: many}]\n") ==
          "p.yaml:4:37: attempts must be a positive integer, got 'many'");
}

TEST_CASE("a key written in the wrong place is told where it belongs", "[spec]") {
    CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 512, h: 8}\nvary: {h: [4, 8], distinct: true}\n"
                   "parts: [{id: a, ask: d_k}]\n") ==
          "p.yaml:4:19: unknown key 'distinct' in vary: 'distinct' belongs at the top level of the spec, beside "
          "'vary:' and 'parts:'");
    CHECK(error_of("id: p\ntitle: t\npoints: 3\ngiven: {d_model: 512, h: 8}\nparts: [{id: a, ask: d_k}]\n") ==
          "p.yaml:3:1: unknown key 'points' in the problem: 'points' belongs in a part, under 'parts:'");
    CHECK(error_of("id: p\ntitle: t\nd_model: 512\ngiven: {h: 8}\nparts: [{id: a, ask: d_k}]\n") ==
          "p.yaml:3:1: unknown key 'd_model' in the problem: 'd_model' belongs under 'given:'");
    // A plain typo still gets its did-you-mean.
    CHECK(error_of("id: p\ntitle: t\ngiven: {d_model: 512, h: 8}\nvary: {hh: [4, 8]}\nparts: [{id: a, ask: d_k}]\n") ==
          "p.yaml:4:8: unknown key 'hh' in vary (did you mean 'h'?)");
}

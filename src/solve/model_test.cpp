#include <solve/asks.hpp>

#include <solve/test_solve.hpp>
#include <spec/test_givens.hpp>

#include <util/test_catch.hpp>

using namespace headcount;
using M = spec::ModelGivens;

namespace {

/// The model of these givens, as `headcount solve` counts it (catalogue/model.yaml).
std::optional<solve::ModelSolution> solve_model(const spec::MhaGivens& a, const M& m) {
    return testing::solved_of(a, m).model;
}

spec::MhaGivens attention(Count d_model, Count h, bool bias = true) {
    spec::MhaGivens g;
    g.d_model = d_model;
    g.h = h;
    g.bias = {bias, bias, bias, bias};
    return g;
}

/// A default-config Hugging Face BERT-style encoder: vocab 30,522, 512 positions, 2 token types, d 768, 12
/// layers, d_ff 3072, LayerNorm after the embeddings.
M bert_like() {
    M m = testing::bert_base();
    m.pooler = false;
    return m;
}

Count total(const spec::MhaGivens& a, const M& m) {
    auto s = solve_model(a, m);
    REQUIRE(s.has_value());
    Count sum = 0;
    for (const auto& c : s->breakdown)
        sum += c.total;
    CHECK(sum == s->total); // the breakdown table adds up
    return s->total;
}

} // namespace

TEST_CASE("PyTorch's nn.Transformer modules", "[model]") {
    // nn.TransformerEncoderLayer(512, 8, 2048): self_attn 4 x 512 x 513 = 1,050,624; linear1 512 x 2048 + 2048 =
    // 1,050,624; linear2 2048 x 512 + 512 = 1,049,088; norm1, norm2 2 x 1,024 = 2,048. Total 3,152,384.
    M layer;
    layer.d_ff = 2048;
    layer.layers = 1;
    CHECK(total(attention(512, 8), layer) == 3'152'384);

    // nn.Transformer(): 6 encoder layers, 6 decoder layers (self_attn, multihead_attn, FFN, 3 norms: 1,050,624 x 2
    // + 2,099,712 + 3,072 = 4,204,032), and a final LayerNorm on each stack: 6 x 3,152,384 + 6 x 4,204,032 +
    // 2 x 1,024 = 44,140,544.
    M transformer;
    transformer.d_ff = 2048;
    transformer.encoder_layers = 6;
    transformer.decoder_layers = 6;
    transformer.final_norm = true;
    auto s = solve_model(attention(512, 8), transformer);
    REQUIRE(s.has_value());
    CHECK(s->layer == 3'152'384);
    CHECK(s->decoder_layer == 4'204'032);
    CHECK(total(attention(512, 8), transformer) == 44'140'544);
}

TEST_CASE("Hugging Face models at their published sizes", "[model]") {
    // BertModel (bert-base-uncased): embeddings 30,522 x 768 + 512 x 768 + 2 x 768 + LayerNorm 1,536 = 23,837,184;
    // 12 layers of 2,362,368 (attention) + 2,362,368 + 2,360,064 (FFN) + 2 x 1,536 = 7,087,872; pooler 768 x 768
    // + 768 = 590,592. Total 109,482,240.
    M bert = bert_like();
    bert.pooler = true;
    CHECK(total(attention(768, 12), bert) == 109'482'240);

    // RobertaForMaskedLM(RobertaConfig()), from ../shared/seeds/002: BERT's default sizes, no pooler, an MLM head
    // of dense 590,592 + LayerNorm 1,536 + decoder bias 30,522 (decoder weight tied): 23,837,184 + 85,054,464 +
    // 622,650 = 109,514,298, the same with 4 and with 12 heads.
    M roberta = bert_like();
    roberta.lm_head = M::Head::mlm;
    CHECK(total(attention(768, 12), roberta) == 109'514'298);
    CHECK(total(attention(768, 4), roberta) == 109'514'298);

    // GPT-2 small: wte 50,257 x 768 = 38,597,376, wpe 1,024 x 768 = 786,432, 12 x 7,087,872, ln_f 1,536, tied head:
    // 124,439,808.
    const M gpt2 = testing::gpt2_small();
    CHECK(total(attention(768, 12), gpt2) == 124'439'808);
}

TEST_CASE("LLaMA-style models: RMSNorm, gated FFN, no biases, untied head, GQA", "[model]") {
    // LLaMA-2-7B: embed 32,000 x 4,096 = 131,072,000; per layer attention 4 x 4,096^2 = 67,108,864, FFN
    // 3 x 4,096 x 11,008 = 135,266,304, 2 RMSNorms 8,192: 202,383,360 x 32 = 6,476,267,520; final norm 4,096;
    // lm_head 131,072,000. Total 6,738,415,616.
    M llama;
    llama.d_ff = 11008;
    llama.layers = 32;
    llama.vocab = 32000;
    llama.norm = M::Norm::rmsnorm;
    llama.ffn = M::Ffn::gated;
    llama.ffn_bias = false;
    llama.final_norm = true;
    llama.lm_head = M::Head::linear;
    llama.tied_embeddings = false;
    CHECK(total(attention(4096, 32, false), llama) == 6'738'415'616);

    // Mistral-7B: 8 kv heads of 128, d_ff 14,336. Attention 2 x 16,777,216 + 2 x 4,096 x 1,024 = 41,943,040;
    // FFN 3 x 4,096 x 14,336 = 176,160,768; + 8,192 = 218,112,000 x 32 = 6,979,584,000; + 4,096 + 2 x 131,072,000
    // = 7,241,732,096.
    M mistral = llama;
    mistral.d_ff = 14336;
    auto gqa = attention(4096, 32, false);
    gqa.n_kv_heads = 8;
    CHECK(total(gqa, mistral) == 7'241'732'096);
}

TEST_CASE("a model's count does not change with h", "[model]") {
    M roberta = bert_like();
    roberta.lm_head = M::Head::mlm;
    for (Count h : {1, 2, 3, 4, 6, 8, 12, 16, 24}) {
        INFO("h = " << static_cast<int>(h));
        CHECK(total(attention(768, h), roberta) == 109'514'298);
    }
}

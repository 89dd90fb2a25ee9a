#pragma once
// Givens the unit tests share, written once. Test-only: included by *_test.cpp files, never by the library.
// Each figure a test expects from these is derived in that test.

#include <spec/problem.hpp>

namespace headcount::testing {

/// An attention block of width d_model with h heads; everything else at its default (all four biases).
inline spec::MhaGivens mha(Count d_model, Count h) {
    spec::MhaGivens g;
    g.d_model = d_model;
    g.h = h;
    return g;
}

/// Hugging Face's BERT-base beyond its attention block (d_model 768, h 12): vocab 30,522, 512 learned positions,
/// 2 token types, 12 layers, d_ff 3072, a LayerNorm after the embeddings, and the pooler.
inline spec::ModelGivens bert_base() {
    spec::ModelGivens m;
    m.d_ff = 3072;
    m.layers = 12;
    m.vocab = 30522;
    m.max_positions = 512;
    m.type_vocab = 2;
    m.embedding_norm = true;
    m.pooler = true;
    return m;
}

/// Hugging Face's GPT-2 small beyond its attention block (d_model 768, h 12): 12 layers, d_ff 3072, a vocabulary of
/// 50,257, 1,024 learned positions, a final norm and an LM head tied to the token embedding.
inline spec::ModelGivens gpt2_small() {
    spec::ModelGivens m;
    m.d_ff = 3072;
    m.layers = 12;
    m.vocab = 50257;
    m.max_positions = 1024;
    m.final_norm = true;
    m.lm_head = spec::ModelGivens::Head::linear;
    return m;
}

/// The week-3 problem with only its part b (total_params, 3 points): d_model 512, h 8, all four biases.
inline spec::Problem week3_part_b() {
    spec::Problem p;
    p.id = "week3";
    p.given = mha(512, 8);
    p.parts = {spec::Part{"b", "total_params", 3, {}, {}, {}, {}, {}, {}, {}, false, {}, false, {}}};
    return p;
}

} // namespace headcount::testing

#pragma once
// Parameter counts of a whole transformer (kind: transformer), as PyTorch's nn.Transformer* modules and Hugging
// Face's BERT / RoBERTa / GPT-2 / LLaMA build them. Read from the problem's computation (solve/solutions.hpp);
// the formulas are catalogue/model.yaml's.

#include <solve/mha.hpp>

#include <string>
#include <vector>

namespace headcount::solve {

/// One line of the breakdown: a named component, how many times the model has it, and its parameters.
struct Component {
    std::string name;  ///< "token embedding", "self-attention", ...
    std::string shape; ///< "30,522 × 768", or "" when not one matrix
    Count copies = 1;  ///< e.g. the number of layers
    Count each = 0;    ///< parameters of one copy
    Count total = 0;   ///< copies * each
};

/// Every quantity of a whole transformer.
struct ModelSolution {
    MhaSolution attention; ///< one attention block (self- or cross-attention: the same shape here)
    Count embedding = 0;   ///< token + position + type embeddings and the embedding norm
    Count token_embedding = 0, position_embedding = 0, type_embedding = 0;
    Count norm = 0;     ///< one norm layer: d_model (RMSNorm) or 2 d_model (LayerNorm with bias)
    Count ffn = 0;      ///< one layer's feed-forward network: the expert, or experts x expert + router
    Count expert = 0;   ///< one FFN: ffn_up + ffn_down + ffn_biases (the whole FFN without experts)
    Count router = 0;   ///< a mixture of experts' d_model x experts router, else 0
    Count ffn_up = 0;   ///< the d_model x d_ff matrices of one expert (two when gated)
    Count ffn_down = 0; ///< the d_ff x d_model matrix of one expert
    Count ffn_biases = 0;
    Count layer = 0;         ///< one layer of the (first) stack: attention + FFN + its norms
    Count decoder_layer = 0; ///< one decoder layer of an encoder-decoder (with cross-attention), else 0
    Count norms = 0;         ///< every norm parameter in the model
    Count head = 0;          ///< pooler and LM head, not counting a tied weight
    Count layers_total = 0;  ///< every layer: layers x layer (+ decoder_layers x decoder_layer)
    Count final_norms = 0;   ///< the norms after the stacks
    Count total = 0;
    std::vector<Component> breakdown; ///< sums to total
};

} // namespace headcount::solve

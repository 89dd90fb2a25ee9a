#pragma once
// Compute of a whole transformer's forward pass and training step over a workload, counted exactly (every matrix
// product, attention's n^2 terms included) and by the 2N / 6N rule of thumb (Kaplan et al., 2020) for comparison.
// Read from the problem's computation (solve/solutions.hpp); the formulas are catalogue/model_flops.yaml's.

#include <solve/flops.hpp>
#include <solve/model.hpp>

namespace headcount::solve {

/// One forward pass and one training step of a one-stack transformer over b sequences of n tokens.
struct ModelFlopsSolution {
    Count tokens = 0;      ///< b x n
    Count per_product = 2; ///< 2 for FLOPs, 1 for MACs
    Count layers = 0;
    Count layer_linear = 0;       ///< one layer's matrix products with weights: Q, K, V, O and the FFN, over all tokens
    Count layer_ffn = 0;          ///< the FFN's share of layer_linear
    Count layer_attention = 0;    ///< one layer's Q K^T, A V (and softmax when counted): grows with n^2
    Count head = 0;               ///< the LM head's products (a tied head multiplies too), over all tokens
    Count forward = 0;            ///< layers x (layer_linear + layer_attention) + head
    Count linear = 0;             ///< layers x layer_linear
    Count attention = 0;          ///< layers x layer_attention: what the 2N rule leaves out
    Count per_token = 0;          ///< forward / tokens (every term is the same for each token)
    Count per_sequence = 0;       ///< per_token x n
    Count backward = 0;           ///< 2 x forward: gradients for the activations and for the weights, each a forward
    Count training = 0;           ///< forward + backward = 3 x forward
    Count training_per_token = 0; ///< 3 x per_token
    Count parameters = 0;         ///< N: every parameter of the model
    Count rule_per_token = 0;     ///< 2N (N for MACs)
    Count rule_forward = 0;       ///< 2N x tokens
    Count rule_training = 0;      ///< 6N x tokens (3N for MACs)
    Count rule_gap = 0;           ///< forward - rule_forward: what the rule misses (negative: what it overcounts)
};

} // namespace headcount::solve

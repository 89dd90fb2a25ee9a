#pragma once
// The training asks (memory, a run's compute and time, MFU, decoding, LoRA, MoE): one row each, with what it asks
// for, its unit, what it reads from the problem and the convention its solution states. The rows are what the
// spec reader accepts as a training `ask:` and what `headcount catalogue training-asks` prints for docs/spec.md,
// read from their catalogue rows (catalogue/training.yaml), which hold their formulas, explanations and mistakes.

#include <span>
#include <string>
#include <string_view>

namespace headcount::spec {

/// What of the problem's workload (seq_len, batch) a training ask reads beyond its givens.
enum class TrainingWorkload {
    none,   ///< the model and the setup alone (or through the asks it uses)
    tokens, ///< the step's sequences (seq_len, batch), counted in bytes: count: macs changes nothing
    flops,  ///< the step's sequences, counted in FLOPs as a GPU's peak_flops is: count: macs is refused
};

/// One training ask: a row of the reference table and of what the reader accepts.
struct TrainingAsk {
    std::string_view id, what, unit;
    TrainingWorkload workload;
    std::string_view convention; ///< Markdown: the source of its count, and the other common one
};

/// The training asks, in the order the reference lists them.
std::span<const TrainingAsk> training_asks();

/// The training ask of `id`, or nullptr.
const TrainingAsk* find_training_ask(std::string_view id);

/// The reference table of the training asks, in Markdown, one row each.
std::string training_asks_markdown();

} // namespace headcount::spec

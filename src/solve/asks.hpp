#pragma once
// The asks: the quantities a part may ask for. A built-in ask is an entry of the catalogue (catalogue/*.yaml) with
// its ask's columns; a quantity the spec defines is one too (kind "defined"). Either is read off the problem's one
// computation (solve/computation.hpp) by its formula's name.

#include <solve/catalogue.hpp>
#include <solve/computation.hpp>
#include <solve/flops.hpp>
#include <solve/memory.hpp>
#include <solve/mha.hpp>
#include <solve/model.hpp>
#include <solve/model_flops.hpp>
#include <solve/shapes.hpp>

#include <array>
#include <compare>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::solve {

struct SolvedProblem;

/// An ask's answer. For a count ask, `count` is the number; for a shape ask, `shape` holds the axes (and `count`
/// their product, the tensor's elements); for a choice ask, `count` is the index of the word in Ask::choices.
/// A defined quantity's answer is `exact` (any size, whole or not), with `count` its value when that is a whole
/// number within k_count_limit, 10^36 (else 0).
struct Answer {
    Count count = 0;
    Shape shape;
    std::optional<formula::Number> exact;
    bool operator==(const Answer& other) const;
    std::strong_ordering operator<=>(const Answer& other) const;
};

/// The groups of Ask::group, in the order templates' earlier.<group> lists them: parameter counts whose solutions
/// explain why the heads do not change the count (partials/heads), compute (partials/flops_conventions), tensor
/// shapes (partials/shape_walk) and memory (partials/memory_dtype).
inline constexpr auto k_ask_groups = std::to_array<std::string_view>({"shapes", "flops", "memory", "heads"});

/// One askable quantity.
struct Ask {
    std::string_view id;   ///< as written in a spec's `ask:`, and the template's file name
    std::string_view unit; ///< "parameters", "dimensions", "bytes", "shape", ...
    /// What it asks for, to follow "the answer for" in feedback ("the whole block, $W_O$ included"): a student whose
    /// number is another ask's answer is told which quantity they computed.
    std::string_view noun;
    std::string_view projections; ///< which of Q, K, V, O the answer counts ("QKVO", "QKV", "Q", "" for widths)
    std::string_view kind;        ///< "mha": any problem (for a transformer, one layer's attention);
                                  ///< "transformer": only kind: transformer; "defined": a spec's own quantity.
                                  ///< Its solution's template is <kind>/<id>, its question's partials/question_<id>
    /// The asks whose solutions share one explanation, given in full only in the first part of the group a problem
    /// asks (templates see it as earlier.<group>): one of k_ask_groups, or "" for none.
    std::string_view group;
    /// What the problem must give for this ask to have an answer (Needs of catalogue.hpp, combined with |).
    unsigned needs = needs_nothing;
    std::span<const Choice> choices = {};  ///< set for a choice ask: the words it is answered with
    bool shaped = false;                   ///< a shape ask: its answer is a tensor's axes
    std::string_view name;                 ///< its formula's name: what the computation calls it
    const CatalogueEntry* entry = nullptr; ///< the catalogue's entry; nullptr for a spec's own quantity

    static constexpr unsigned nothing = needs_nothing, workload = needs_workload,
                              encoder_decoder = needs_encoder_decoder, dtype = needs_dtype, one_stack = needs_one_stack,
                              self_attention = needs_self_attention;

    enum class Type { count, shape, choice };
    [[nodiscard]] constexpr Type type() const {
        return shaped ? Type::shape : (choices.empty() ? Type::count : Type::choice);
    }
    /// Whether the answer is a number of bytes, which students may write with units (16 MiB).
    [[nodiscard]] constexpr bool in_bytes() const { return unit == "bytes"; }
    /// This ask's answer for a solved problem (which can answer it).
    [[nodiscard]] Answer evaluate(const SolvedProblem& solved) const;
};

/// Why `problem` cannot ask `ask` (a transformer's ask in a block, no workload, no dtype, ...) as one sentence,
/// or nullopt when it can.
std::optional<std::string> cannot_ask(const Ask& ask, const spec::Problem& problem);

/// Why `ask` has no answer in `solved`: cannot_ask's reasons, or what its formula lacks here.
std::optional<std::string> cannot_answer(const Ask& ask, const SolvedProblem& solved);

/// Every built-in ask, in the catalogue's order (mha first).
std::span<const Ask> asks();

/// The built-in ask with this id, or nullptr.
const Ask* find_ask(std::string_view id);

/// The ids of asks(), for the spec reader's validation and did-you-mean.
std::vector<std::string_view> ask_ids();

/// A part with its answer.
/// A reading the part accepts besides the right one (`accept:`), valued in this variant.
struct AcceptedValue {
    formula::Number value;
    double credit = 1;
    std::string feedback; ///< the sentence feedback shows when an answer matches it
};

struct SolvedPart {
    spec::Part part;
    const Ask* ask = nullptr;
    Answer answer;
    std::vector<AcceptedValue> accepted; ///< its other readings, each differing from the answer
    /// For `answer: formula`: the right answer as a formula in the givens a student may name (solve/formula_form.hpp),
    /// and as text formula::parse reads back.
    std::shared_ptr<const formula::Node> formula;
    std::string formula_text;
    std::vector<std::string> formula_names; ///< the givens such a formula may name
};

/// A problem with its computation and every part answered.
struct SolvedProblem {
    spec::Problem problem;
    /// Every quantity of the problem, built-in and its own, evaluated: what the parts' answers and every number
    /// below are read from, and what a mistake changes.
    std::shared_ptr<const Computation> computation;
    MhaSolution mha;                               ///< the attention block (of every layer, for a transformer)
    std::optional<ModelSolution> model;            ///< set for kind: transformer
    std::optional<FlopsSolution> flops;            ///< set when the problem gives a workload (seq_len)
    std::optional<ShapeSolution> shapes;           ///< set when the problem gives a workload
    std::optional<MemorySolution> memory;          ///< set when the problem gives a dtype
    std::optional<ModelFlopsSolution> model_flops; ///< set for a one-stack transformer with a self-attention workload
    std::vector<SolvedPart> parts;
    /// How the count scales: the same block at twice d_model (heads and biases as given, d_k = d_v = d_model / h).
    /// Set for a square block (MhaSolution::square) that is not part of a model.
    std::optional<MhaSolution> doubled_width;
    /// For a spec with `quantities:`, every name its formulas may use, with its value in this variant: the givens,
    /// the kind's built-in quantities (dots as underscores) and the defined quantities.
    std::map<std::string, formula::Number, std::less<>> values;
};

/// Solves every part of a validated problem. Errors carry the spec file's name: a formula that cannot be
/// computed, a quantity a part asks for that this problem cannot answer (with the ask's position).
/// With `givens`, solved at those values in place of the problem's own (a formula answer's random points; the
/// problem's structs, which solutions read their words from, stay as written).
/// With `like`, another variant's whole computation (or null): this one's is that one revalued at its givens where
/// it can be (Computation::revalued), and is left there for the next.
Result<SolvedProblem> solve_problem(const spec::Problem& problem, const GivenValues* givens = nullptr,
                                    std::shared_ptr<const Computation>* like = nullptr);

/// Whether solve_problem(`problem`) succeeds, with its error when not, computing only what the parts ask: what
/// generate::valid_variants asks of every combination of `vary:`. With `like`, the last variant's computation (or
/// null at first): this one's is that one revalued at its givens where it can be (Computation::revalued), and is
/// left there for the next.
Result<void> check_solvable(const spec::Problem& problem, std::shared_ptr<const Computation>* like = nullptr);

/// The spec's quantities that redefine one of headcount's built-ins (by its formula name, in `quantities:`) and that
/// `part`'s answer is computed with, itself included: what a solution and `check --format json` name as the
/// definitions used. Empty when the part uses headcount's alone.
std::vector<const spec::Quantity*> redefinitions(const SolvedProblem& solved, const SolvedPart& part);

} // namespace headcount::solve

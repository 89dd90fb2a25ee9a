#include <solve/asks.hpp>

#include <solve/defined.hpp>

#include <util/rows.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace headcount::solve {

namespace {

const ModelSolution& model(const SolvedProblem& s) { return *s.model; }
const FlopsSolution& flops(const SolvedProblem& s) { return *s.flops; }
const ShapeSolution& shapes(const SolvedProblem& s) { return *s.shapes; }
const MemorySolution& memory(const SolvedProblem& s) { return *s.memory; }
const ModelFlopsSolution& model_flops(const SolvedProblem& s) { return *s.model_flops; }

// One ask per line, so that a row reads (and diffs) as a row.
// clang-format off
/// The row of a shape ask: the tensor's elements as the count, its axes as the shape.
template <Tensor ShapeSolution::*member>
constexpr Ask shape_ask(std::string_view id, std::string_view noun) {
    return Ask{id,
               "shape",
               noun,
               [](const SolvedProblem& s) { return (shapes(s).*member).elements; },
               "",
               "mha",
               "shapes",
               Ask::workload,
               [](const SolvedProblem& s) { return (shapes(s).*member).shape; }};
}

constexpr auto k_dominant_terms = std::to_array<Choice>({
    {"projections", "projection linear linear_layers the_linear_layers qkv_projections"},
    {"attention", "scores attention_matmuls qk_t quadratic self_attention"},
    {"equal", "neither tie tied same equally"},
});

constexpr auto k_asks = std::to_array<Ask>({
    {"q_params", "parameters", "the query projection alone", [](const SolvedProblem& s) { return s.mha.q().total; }, "Q", "mha", "heads"},
    {"k_params", "parameters", "the key projection alone", [](const SolvedProblem& s) { return s.mha.k().total; }, "K", "mha", "heads"},
    {"v_params", "parameters", "the value projection alone", [](const SolvedProblem& s) { return s.mha.v().total; }, "V", "mha", "heads"},
    {"o_params", "parameters", "the output projection alone", [](const SolvedProblem& s) { return s.mha.o().total; }, "O", "mha", "heads"},
    {"qkv_params", "parameters", "the query, key and value projections together, without $W_O$", [](const SolvedProblem& s) { return s.mha.qkv; }, "QKV", "mha", "heads"},
    {"weight_params", "parameters", "the weight matrices alone, without the biases", [](const SolvedProblem& s) { return s.mha.weights; }, "QKVO", "mha", "heads"},
    {"bias_params", "parameters", "the biases alone", [](const SolvedProblem& s) { return s.mha.biases; }, "QKVO", "mha", ""},
    {"total_params", "parameters", "the whole block, $W_O$ and every bias included", [](const SolvedProblem& s) { return s.mha.total; }, "QKVO", "mha", "heads"},
    {"d_k", "dimensions", "the query/key width of one head, $d_k$", [](const SolvedProblem& s) { return s.mha.d_k; }, "", "mha", ""},
    {"d_v", "dimensions", "the value width of one head, $d_v$", [](const SolvedProblem& s) { return s.mha.d_v; }, "", "mha", ""},
    {"embedding_params", "parameters", "the embeddings alone", [](const SolvedProblem& s) { return model(s).embedding; }, "", "transformer", ""},
    {"attention_params", "parameters", "one layer's self-attention alone", [](const SolvedProblem& s) { return model(s).attention.total; }, "QKVO",
     "transformer", "heads"},
    {"ffn_params", "parameters", "one layer's feed-forward network alone", [](const SolvedProblem& s) { return model(s).ffn; }, "", "transformer", ""},
    {"norm_params", "parameters", "the normalisation layers alone", [](const SolvedProblem& s) { return model(s).norms; }, "", "transformer", ""},
    {"layer_params", "parameters", "one whole layer", [](const SolvedProblem& s) { return model(s).layer; }, "QKVO", "transformer", "heads"},
    {"decoder_layer_params", "parameters", "one decoder layer, cross-attention included", [](const SolvedProblem& s) { return model(s).decoder_layer; }, "QKVO",
     "transformer", "", Ask::Needs::encoder_decoder},
    {"model_params", "parameters", "the whole model", [](const SolvedProblem& s) { return model(s).total; }, "QKVO", "transformer", "heads"},
    {"flops.projections", "FLOPs", "the query, key and value projections alone", [](const SolvedProblem& s) { return flops(s).projections; }, "QKV", "mha", "flops", Ask::Needs::workload},
    {"flops.scores", "FLOPs", "the scores $Q K^\\top$ alone", [](const SolvedProblem& s) { return flops(s).scores; }, "", "mha", "flops", Ask::Needs::workload},
    {"flops.weighted_sum", "FLOPs", "the weighted sum $A V$ alone", [](const SolvedProblem& s) { return flops(s).weighted_sum; }, "", "mha", "flops", Ask::Needs::workload},
    {"flops.output", "FLOPs", "the output projection alone", [](const SolvedProblem& s) { return flops(s).output; }, "O", "mha", "flops", Ask::Needs::workload},
    {"flops.total", "FLOPs", "the whole block", [](const SolvedProblem& s) { return flops(s).total; }, "QKVO", "mha", "flops", Ask::Needs::workload},
    {"flops.dominant", "term", "which term dominates", [](const SolvedProblem& s) { return flops(s).dominant; }, "QKVO", "mha", "flops", Ask::workload,
     nullptr, k_dominant_terms},
    shape_ask<&ShapeSolution::input>("shape.input", "the input $X$"),
    shape_ask<&ShapeSolution::q>("shape.q", "$Q$ before the heads are split"),
    shape_ask<&ShapeSolution::k>("shape.k", "$K$ before the heads are split"),
    shape_ask<&ShapeSolution::v>("shape.v", "$V$ before the heads are split"),
    shape_ask<&ShapeSolution::q_heads>("shape.q_heads", "the queries split into heads"),
    shape_ask<&ShapeSolution::k_heads>("shape.k_heads", "the keys split into heads"),
    shape_ask<&ShapeSolution::v_heads>("shape.v_heads", "the values split into heads"),
    shape_ask<&ShapeSolution::scores>("shape.scores", "the scores"),
    shape_ask<&ShapeSolution::weights>("shape.attention_weights", "the attention weights"),
    shape_ask<&ShapeSolution::head_output>("shape.head_output", "the heads' outputs before they are concatenated"),
    shape_ask<&ShapeSolution::concat>("shape.concat", "the concatenated heads, before $W_O$"),
    shape_ask<&ShapeSolution::output>("shape.output", "the block's output"),
    {"memory.attention_weights", "bytes", "the attention weights", [](const SolvedProblem& s) { return memory(s).attention_weights; }, "",
     "mha", "memory", Ask::workload | Ask::dtype},
    {"memory.qkv_activations", "bytes", "the projected $Q$, $K$ and $V$ together", [](const SolvedProblem& s) { return memory(s).qkv_activations; }, "QKV",
     "mha", "memory", Ask::workload | Ask::dtype},
    {"memory.kv_cache", "bytes", "the KV cache", [](const SolvedProblem& s) { return memory(s).kv_cache; }, "", "mha", "memory",
     Ask::workload | Ask::dtype | Ask::one_stack},
    {"memory.parameters", "bytes", "the parameters", [](const SolvedProblem& s) { return memory(s).parameters; }, "QKVO", "mha", "memory",
     Ask::dtype},
    {"flops.model_forward", "FLOPs", "one forward pass of the whole model",
     [](const SolvedProblem& s) { return model_flops(s).forward; }, "QKVO", "transformer", "flops",
     Ask::workload | Ask::one_stack | Ask::self_attention},
    {"flops.training", "FLOPs", "one training step of the whole model, forward and backward",
     [](const SolvedProblem& s) { return model_flops(s).training; }, "QKVO", "transformer", "flops",
     Ask::workload | Ask::one_stack | Ask::self_attention},
});
// clang-format on

static_assert(ids_unique(k_asks), "two asks have the same id");

/// Whether a row is whole: a unit, a noun for feedback, a solver function, a kind that names its template folder,
/// a group from k_ask_groups (or none), and the columns its type needs.
constexpr bool complete(const Ask& ask) {
    const bool known_group =
        ask.group.empty() || std::find(k_ask_groups.begin(), k_ask_groups.end(), ask.group) != k_ask_groups.end();
    const bool typed = ask.type() != Ask::Type::shape || ask.unit == "shape";
    return !ask.id.empty() && !ask.unit.empty() && !ask.noun.empty() && ask.answer != nullptr &&
           (ask.kind == "mha" || ask.kind == "transformer") && known_group && typed;
}
static_assert(std::all_of(k_asks.begin(), k_asks.end(), complete),
              "every ask has a unit, a noun, an answer, a kind (mha, transformer) and a known group");

} // namespace

std::span<const Ask> asks() { return k_asks; }

bool Answer::operator==(const Answer& other) const {
    return count == other.count && shape == other.shape && exact.has_value() == other.exact.has_value() &&
           (!exact || *exact == *other.exact);
}

std::strong_ordering Answer::operator<=>(const Answer& other) const {
    if (exact && other.exact) {
        const int c = cmp(*exact, *other.exact);
        return c < 0 ? std::strong_ordering::less
                     : (c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal);
    }
    if (exact.has_value() != other.exact.has_value())
        return exact.has_value() ? std::strong_ordering::greater : std::strong_ordering::less;
    if (const auto c = count <=> other.count; c != 0)
        return c;
    return shape <=> other.shape;
}

Answer Ask::evaluate(const SolvedProblem& solved) const {
    return Answer{answer(solved), shape ? shape(solved) : Shape{}, {}};
}

const Ask* find_ask(std::string_view id) {
    const auto it = std::find_if(k_asks.begin(), k_asks.end(), [&](const Ask& a) { return a.id == id; });
    return it == k_asks.end() ? nullptr : &*it;
}

std::vector<std::string_view> ask_ids() {
    std::vector<std::string_view> ids;
    for (const Ask& a : k_asks)
        ids.push_back(a.id);
    return ids;
}

std::optional<std::string> cannot_ask(const Ask& ask, const spec::Problem& problem) {
    if (ask.kind == "transformer" && !problem.model)
        return fmt::format("ask '{}' is about a whole transformer; this problem is kind: {}", ask.id, problem.kind);
    if ((ask.needs & Ask::workload) && !problem.workload)
        return fmt::format("ask '{}' is about tensors over a sequence: give seq_len (and batch) in given", ask.id);
    if ((ask.needs & Ask::dtype) && !problem.precision)
        return fmt::format("ask '{}' is about memory: give dtype (fp64, fp32, fp16, bf16, int8) in given", ask.id);
    if ((ask.needs & Ask::one_stack) && problem.model && problem.model->decoder_layers > 0)
        return fmt::format("ask '{}' is about one stack of layers (decoder-only or one block); an encoder-decoder's "
                           "cache also holds cross-attention keys, which headcount does not model",
                           ask.id);
    if ((ask.needs & Ask::self_attention) && problem.workload && problem.workload->seq_len_kv)
        return fmt::format("ask '{}' is about a forward pass over the sequence itself; seq_len_kv (cross-attention, "
                           "or a cache) is not modelled for it",
                           ask.id);
    if ((ask.needs & Ask::encoder_decoder) && (!problem.model || problem.model->decoder_layers == 0))
        return fmt::format("ask '{}' needs encoder_layers and decoder_layers", ask.id);
    return std::nullopt;
}

std::optional<std::string> cannot_answer(const Ask& ask, const SolvedProblem& solved) {
    if (auto why = cannot_ask(ask, solved.problem))
        return why;
    if (solved.too_large.empty())
        return std::nullopt;
    const std::string_view source = ask.group == "flops" && ask.kind == "transformer" ? "model_flops" : ask.group;
    if (const auto it = solved.too_large.find(source); it != solved.too_large.end())
        return fmt::format("ask '{}': {}; give a smaller batch or seq_len, or write it as a formula of the givens "
                           "under quantities:, which is exact at any size",
                           ask.id, it->second);
    return std::nullopt;
}

namespace {

/// Evaluates the spec's own quantities, then answers every part of `solved`, whose built-in solutions are set.
Result<SolvedProblem> solve_parts(SolvedProblem solved) {
    const spec::Problem& problem = solved.problem;
    if (auto ok = solve_quantities(solved); !ok)
        return std::unexpected(ok.error());
    for (const spec::Part& part : problem.parts) {
        const Error at_ask{problem.file, part.ask_mark.line, part.ask_mark.column, ""};
        const Ask* ask = find_ask(part.ask);
        if (const spec::Quantity* q = ask ? nullptr : find_quantity(problem, part.ask))
            ask = quantity_ask(*q);
        if (!ask) // the reader validates asks; this guards callers that build a Problem by hand
            return std::unexpected(Error{at_ask.file, at_ask.line, at_ask.column, "unknown ask '" + part.ask + "'"});
        if (ask->kind == "defined") {
            const formula::Number& value = solved.values.find(find_quantity(problem, ask->id)->name)->second;
            if (const auto why = untypable(value))
                return std::unexpected(Error{at_ask.file, at_ask.line, at_ask.column,
                                             fmt::format("part '{}' asks for {}, {}", part.id, ask->id, *why)});
            solved.parts.push_back({part, ask, exact_answer(value)});
            continue;
        }
        if (const auto why = cannot_answer(*ask, solved))
            return std::unexpected(Error{at_ask.file, at_ask.line, at_ask.column, *why});
        solved.parts.push_back({part, ask, ask->evaluate(solved)});
    }
    return solved;
}

} // namespace

Result<SolvedProblem> solve_problem(const spec::Problem& problem, const Recipe& recipe) {
    auto located = [&](Error e) {
        e.file = problem.file;
        return std::unexpected(std::move(e));
    };
    // A count past k_count_limit in a solution the parts may not need: kept as the reason those asks cannot be
    // answered (cannot_answer), so an absurd batch's FLOPs do not stop its model_params from being solved.
    SolvedProblem solved; // its solutions set below, each when the problem gives what it needs
    solved.problem = problem;
    if (problem.kind == "quantities") // formulas alone: no architecture to solve
        return solve_parts(std::move(solved));
    auto mha = solve_mha(problem.given, recipe);
    if (!mha)
        return located(mha.error());
    solved.mha = *mha;
    // Sets a solution, or keeps its overflow as the reason the asks reading it (under `key`) cannot be answered.
    const auto keep = [&](auto result, auto& slot, const char* key) -> std::optional<Error> {
        if (result)
            slot = std::move(*result);
        else if (is_overflow(result.error()))
            solved.too_large.emplace(key, result.error().message);
        else
            return result.error();
        return std::nullopt;
    };
    if (mha->square && !problem.model && recipe == Recipe{}) {
        spec::MhaGivens doubled = problem.given;
        doubled.d_k = doubled.d_v = doubled.kdim = doubled.vdim = std::nullopt;
        // A width that overflows when doubled gets no scaling remark; it is not an error.
        if (auto width = checked_mul(doubled.d_model, 2, "d_model")) {
            doubled.d_model = *width;
            if (auto twice = solve_mha(doubled))
                solved.doubled_width = *twice;
        }
    }
    if (problem.workload) {
        // A mask assumed where none applies is a whole model's slip (decoder LMs are causal); for one block's
        // products it would only shadow MACs for FLOPs, which halves the same terms.
        Recipe block_recipe = recipe;
        block_recipe.causal_mask_assumed = false;
        auto flops = solve_flops(*mha, *problem.workload, block_recipe);
        if (auto error = keep(std::move(flops), solved.flops, "flops"))
            return located(*error);
    }
    if (problem.workload) {
        auto shapes = solve_shapes(*mha, *problem.workload, recipe);
        if (auto error = keep(std::move(shapes), solved.shapes, "shapes"))
            return located(*error);
    }
    if (problem.model) {
        auto model = solve_model(problem.given, *problem.model, recipe);
        if (!model)
            return located(model.error());
        solved.model = std::move(*model);
    }
    const auto& w = problem.workload;
    if (solved.model && w && !w->seq_len_kv && problem.model->decoder_layers == 0) {
        auto flops = solve_model_flops(*mha, *solved.model, *problem.model, *w, recipe);
        if (auto error = keep(std::move(flops), solved.model_flops, "model_flops"))
            return located(*error);
    }
    if (problem.precision) {
        auto memory =
            solve_memory(*mha, solved.model ? &*solved.model : nullptr, problem.model ? &*problem.model : nullptr,
                         problem.workload ? &*problem.workload : nullptr, *problem.precision, recipe);
        if (auto error = keep(std::move(memory), solved.memory, "memory"))
            return located(*error);
    }
    return solve_parts(std::move(solved));
}

} // namespace headcount::solve

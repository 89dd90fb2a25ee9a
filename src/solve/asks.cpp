#include <solve/asks.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace headcount::solve {

namespace {

const ModelSolution& model(const SolvedProblem& s) { return *s.model; }
const FlopsSolution& flops(const SolvedProblem& s) { return *s.flops; }
const ShapeSolution& shapes(const SolvedProblem& s) { return *s.shapes; }
const MemorySolution& memory(const SolvedProblem& s) { return *s.memory; }

/// The row of a shape ask: the tensor's elements as the count, its axes as the shape.
template <Tensor ShapeSolution::*member>
constexpr Ask shape_ask(std::string_view id) {
    return Ask{id,
               "shape",
               [](const SolvedProblem& s) { return (shapes(s).*member).elements; },
               "",
               "mha",
               Ask::workload,
               [](const SolvedProblem& s) { return (shapes(s).*member).shape; }};
}

constexpr std::array<Choice, 3> k_dominant_terms{{
    {"projections", "projection linear linear_layers the_linear_layers qkv_projections"},
    {"attention", "scores attention_matmuls qk_t quadratic self_attention"},
    {"equal", "neither tie tied same equally"},
}};

constexpr std::array<Ask, 39> k_asks{{
    {"q_params", "parameters", [](const SolvedProblem& s) { return s.mha.q().total; }, "Q", "mha"},
    {"k_params", "parameters", [](const SolvedProblem& s) { return s.mha.k().total; }, "K", "mha"},
    {"v_params", "parameters", [](const SolvedProblem& s) { return s.mha.v().total; }, "V", "mha"},
    {"o_params", "parameters", [](const SolvedProblem& s) { return s.mha.o().total; }, "O", "mha"},
    {"qkv_params", "parameters", [](const SolvedProblem& s) { return s.mha.qkv; }, "QKV", "mha"},
    {"weight_params", "parameters", [](const SolvedProblem& s) { return s.mha.weights; }, "QKVO", "mha"},
    {"bias_params", "parameters", [](const SolvedProblem& s) { return s.mha.biases; }, "QKVO", "mha"},
    {"total_params", "parameters", [](const SolvedProblem& s) { return s.mha.total; }, "QKVO", "mha"},
    {"d_k", "dimensions", [](const SolvedProblem& s) { return s.mha.d_k; }, "", "mha"},
    {"d_v", "dimensions", [](const SolvedProblem& s) { return s.mha.d_v; }, "", "mha"},
    {"embedding_params", "parameters", [](const SolvedProblem& s) { return model(s).embedding; }, "", "transformer"},
    {"attention_params", "parameters", [](const SolvedProblem& s) { return model(s).attention.total; }, "QKVO",
     "transformer"},
    {"ffn_params", "parameters", [](const SolvedProblem& s) { return model(s).ffn; }, "", "transformer"},
    {"norm_params", "parameters", [](const SolvedProblem& s) { return model(s).norms; }, "", "transformer"},
    {"layer_params", "parameters", [](const SolvedProblem& s) { return model(s).layer; }, "QKVO", "transformer"},
    {"decoder_layer_params", "parameters", [](const SolvedProblem& s) { return model(s).decoder_layer; }, "QKVO",
     "transformer", Ask::Needs::encoder_decoder},
    {"model_params", "parameters", [](const SolvedProblem& s) { return model(s).total; }, "QKVO", "transformer"},
    {"flops.projections", "FLOPs", [](const SolvedProblem& s) { return flops(s).projections; }, "QKV", "mha", Ask::Needs::workload},
    {"flops.scores", "FLOPs", [](const SolvedProblem& s) { return flops(s).scores; }, "", "mha", Ask::Needs::workload},
    {"flops.weighted_sum", "FLOPs", [](const SolvedProblem& s) { return flops(s).weighted_sum; }, "", "mha", Ask::Needs::workload},
    {"flops.output", "FLOPs", [](const SolvedProblem& s) { return flops(s).output; }, "O", "mha", Ask::Needs::workload},
    {"flops.total", "FLOPs", [](const SolvedProblem& s) { return flops(s).total; }, "QKVO", "mha", Ask::Needs::workload},
    {"flops.dominant", "term", [](const SolvedProblem& s) { return flops(s).dominant; }, "QKVO", "mha", Ask::workload,
     nullptr, k_dominant_terms},
    shape_ask<&ShapeSolution::input>("shape.input"),
    shape_ask<&ShapeSolution::q>("shape.q"),
    shape_ask<&ShapeSolution::k>("shape.k"),
    shape_ask<&ShapeSolution::v>("shape.v"),
    shape_ask<&ShapeSolution::q_heads>("shape.q_heads"),
    shape_ask<&ShapeSolution::k_heads>("shape.k_heads"),
    shape_ask<&ShapeSolution::v_heads>("shape.v_heads"),
    shape_ask<&ShapeSolution::scores>("shape.scores"),
    shape_ask<&ShapeSolution::weights>("shape.attention_weights"),
    shape_ask<&ShapeSolution::head_output>("shape.head_output"),
    shape_ask<&ShapeSolution::concat>("shape.concat"),
    shape_ask<&ShapeSolution::output>("shape.output"),
    {"memory.attention_weights", "bytes", [](const SolvedProblem& s) { return memory(s).attention_weights; }, "",
     "mha", Ask::workload | Ask::dtype},
    {"memory.qkv_activations", "bytes", [](const SolvedProblem& s) { return memory(s).qkv_activations; }, "QKV",
     "mha", Ask::workload | Ask::dtype},
    {"memory.kv_cache", "bytes", [](const SolvedProblem& s) { return memory(s).kv_cache; }, "", "mha",
     Ask::workload | Ask::dtype | Ask::one_stack},
    {"memory.parameters", "bytes", [](const SolvedProblem& s) { return memory(s).parameters; }, "QKVO", "mha",
     Ask::dtype},
}};


} // namespace

std::span<const Ask> asks() { return k_asks; }

Answer Ask::evaluate(const SolvedProblem& solved) const {
    return Answer{answer(solved), shape ? shape(solved) : Shape{}};
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

Result<SolvedProblem> solve_problem(const spec::Problem& problem, const Recipe& recipe) {
    auto located = [&](Error e) {
        e.file = problem.file;
        return std::unexpected(std::move(e));
    };
    auto mha = solve_mha(problem.given, recipe);
    if (!mha)
        return located(mha.error());
    SolvedProblem solved; // members added later default to unset, and the compiler has nothing to warn about
    solved.problem = problem;
    solved.mha = *mha;
    if (problem.workload) {
        auto flops = solve_flops(*mha, *problem.workload, recipe);
        if (!flops)
            return located(flops.error());
        solved.flops = *flops;
    }
    if (problem.workload) {
        auto shapes = solve_shapes(*mha, *problem.workload, recipe);
        if (!shapes)
            return located(shapes.error());
        solved.shapes = std::move(*shapes);
    }
    if (problem.model) {
        auto model = solve_model(problem.given, *problem.model, recipe);
        if (!model)
            return located(model.error());
        solved.model = std::move(*model);
    }
    if (problem.precision) {
        auto memory = solve_memory(*mha, solved.model ? &*solved.model : nullptr,
                                   problem.model ? &*problem.model : nullptr,
                                   problem.workload ? &*problem.workload : nullptr, *problem.precision, recipe);
        if (!memory)
            return located(memory.error());
        solved.memory = *memory;
    }
    for (const spec::Part& part : problem.parts) {
        const Ask* ask = find_ask(part.ask);
        const Error at_ask{problem.file, part.ask_mark.line, part.ask_mark.column, ""};
        if (!ask) // the reader validates asks; this guards callers that build a Problem by hand
            return located(Error{at_ask.file, at_ask.line, at_ask.column, "unknown ask '" + part.ask + "'"});
        if (ask->kind == "transformer" && !problem.model)
            return located(Error{at_ask.file, at_ask.line, at_ask.column,
                                 fmt::format("ask '{}' is about a whole transformer; this problem is kind: {}",
                                             part.ask, problem.kind)});
        if ((ask->needs & Ask::workload) && !problem.workload)
            return located(Error{at_ask.file, at_ask.line, at_ask.column,
                                 fmt::format("ask '{}' is about tensors over a sequence: give seq_len (and batch) "
                                             "in given",
                                             part.ask)});
        if ((ask->needs & Ask::dtype) && !problem.precision)
            return located(Error{at_ask.file, at_ask.line, at_ask.column,
                                 fmt::format("ask '{}' is about memory: give dtype (fp64, fp32, fp16, bf16, int8) in given",
                                             part.ask)});
        if ((ask->needs & Ask::one_stack) && problem.model && problem.model->decoder_layers > 0)
            return located(Error{at_ask.file, at_ask.line, at_ask.column,
                                 fmt::format("ask '{}' is about one stack of layers (decoder-only or one block); an "
                                             "encoder-decoder's cache also holds cross-attention keys, which "
                                             "headcount does not model",
                                             part.ask)});
        if ((ask->needs & Ask::encoder_decoder) && problem.model->decoder_layers == 0)
            return located(Error{at_ask.file, at_ask.line, at_ask.column,
                                 fmt::format("ask '{}' needs encoder_layers and decoder_layers", part.ask)});
        solved.parts.push_back({part, ask, ask->evaluate(solved)});
    }
    return solved;
}

} // namespace headcount::solve

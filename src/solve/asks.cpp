#include <solve/asks.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace headcount::solve {

namespace {

const ModelSolution& model(const SolvedProblem& s) { return *s.model; }
const FlopsSolution& flops(const SolvedProblem& s) { return *s.flops; }

constexpr std::array<Ask, 22> k_asks{{
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
}};

} // namespace

std::span<const Ask> asks() { return k_asks; }

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
    SolvedProblem solved{problem, *mha, std::nullopt, std::nullopt, {}};
    if (problem.workload) {
        auto flops = solve_flops(*mha, *problem.workload, recipe);
        if (!flops)
            return located(flops.error());
        solved.flops = *flops;
    }
    if (problem.model) {
        auto model = solve_model(problem.given, *problem.model, recipe);
        if (!model)
            return located(model.error());
        solved.model = std::move(*model);
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
        if (ask->needs == Ask::Needs::workload && !problem.workload)
            return located(Error{at_ask.file, at_ask.line, at_ask.column,
                                 fmt::format("ask '{}' is about compute: give seq_len (and batch) in given",
                                             part.ask)});
        if (ask->needs == Ask::Needs::encoder_decoder && problem.model->decoder_layers == 0)
            return located(Error{at_ask.file, at_ask.line, at_ask.column,
                                 fmt::format("ask '{}' needs encoder_layers and decoder_layers", part.ask)});
        solved.parts.push_back({part, ask, ask->answer(solved)});
    }
    return solved;
}

} // namespace headcount::solve

#include <solve/asks.hpp>

#include <algorithm>
#include <array>

namespace headcount::solve {

namespace {

constexpr std::array<Ask, 10> k_mha_asks{{
    {"q_params", "parameters", [](const MhaSolution& s) { return s.q().total; }, "Q"},
    {"k_params", "parameters", [](const MhaSolution& s) { return s.k().total; }, "K"},
    {"v_params", "parameters", [](const MhaSolution& s) { return s.v().total; }, "V"},
    {"o_params", "parameters", [](const MhaSolution& s) { return s.o().total; }, "O"},
    {"qkv_params", "parameters", [](const MhaSolution& s) { return s.qkv; }, "QKV"},
    {"weight_params", "parameters", [](const MhaSolution& s) { return s.weights; }, "QKVO"},
    {"bias_params", "parameters", [](const MhaSolution& s) { return s.biases; }, "QKVO"},
    {"total_params", "parameters", [](const MhaSolution& s) { return s.total; }, "QKVO"},
    {"d_k", "dimensions", [](const MhaSolution& s) { return s.d_k; }, ""},
    {"d_v", "dimensions", [](const MhaSolution& s) { return s.d_v; }, ""},
}};

} // namespace

std::span<const Ask> mha_asks() { return k_mha_asks; }

const Ask* find_ask(std::string_view id) {
    const auto it = std::find_if(k_mha_asks.begin(), k_mha_asks.end(), [&](const Ask& a) { return a.id == id; });
    return it == k_mha_asks.end() ? nullptr : &*it;
}

std::vector<std::string_view> ask_ids() {
    std::vector<std::string_view> ids;
    for (const Ask& a : k_mha_asks)
        ids.push_back(a.id);
    return ids;
}

Result<SolvedProblem> solve_problem(const spec::Problem& problem) {
    auto mha = solve_mha(problem.given);
    if (!mha) {
        Error e = mha.error();
        e.file = problem.file;
        return std::unexpected(e);
    }
    SolvedProblem solved{problem, *mha, {}};
    for (const spec::Part& part : problem.parts) {
        const Ask* ask = find_ask(part.ask);
        if (!ask) // the reader validates asks; this guards callers that build a Problem by hand
            return std::unexpected(Error{problem.file, part.ask_mark.line, part.ask_mark.column,
                                         "unknown ask '" + part.ask + "'"});
        solved.parts.push_back({part, ask, ask->answer(*mha)});
    }
    return solved;
}

} // namespace headcount::solve

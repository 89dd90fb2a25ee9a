#include <render/hints.hpp>

#include <render/facts.hpp>

#include <util/text.hpp>

#include <fmt/format.h>

namespace headcount::render {

namespace {

std::string n(Count value) { return with_thousands(value); }

View projection_names(const solve::MhaSolution& s) {
    View out = View::array();
    for (const solve::Projection& p : s.projections)
        out.push_back(View{{"name", std::string(1, p.name)}, {"has_bias", p.has_bias}});
    return out;
}

View model_hints(const solve::SolvedProblem& solved) {
    if (!solved.problem.model)
        return View::object();
    const spec::ModelGivens& m = *solved.problem.model;
    View view = model_facts(m);
    view["max_positions"] = n(m.max_positions);
    view["final_norm"] = m.final_norm;
    return view;
}

View workload_hints(const solve::SolvedProblem& solved) {
    const auto& w = solved.problem.workload;
    return w ? workload_facts(*w, solved.mha) : View::object();
}

View memory_hints(const solve::SolvedProblem& solved) {
    const auto& p = solved.problem.precision;
    if (!p)
        return View::object();
    return precision_facts(*p);
}

} // namespace

std::string join_words(std::span<const std::string> items, std::string_view last_separator) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0)
            out += i + 1 == items.size() ? std::string(last_separator) : std::string(", ");
        out += items[i];
    }
    return out;
}

std::string bias_names(const solve::MhaSolution& mha, std::string_view projections) {
    std::vector<std::string> names;
    for (const solve::Projection& p : mha.projections)
        if (p.has_bias && projections.find(p.name) != std::string_view::npos)
            names.push_back(fmt::format("$b_{}$", p.name));
    return join_words(names);
}

View hint_view(const solve::SolvedProblem& solved) {
    const solve::MhaSolution& s = solved.mha;
    const spec::MhaGivens& g = s.given;
    const View projections = projection_names(s);
    // kdim, vdim and n_kv are either stated or equal to a stated given (d_model, h), so they are safe to show;
    // d_k and d_v are not (their default d_model / h is an answer of its own).
    View view{{"id", solved.problem.id},
              {"title", solved.problem.title},
              {"d_k_given", g.d_k.has_value()},
              {"d_v_given", g.d_v.has_value()},
              // kdim or vdim only: a workload's seq_len_kv shows as flops.cross.
              {"cross_attention", g.kdim.has_value() || g.vdim.has_value()},
              {"is_model", solved.model.has_value()},
              {"projections", projections},
              {"q", projections[0]},
              {"k", projections[1]},
              {"v", projections[2]},
              {"o", projections[3]},
              {"model", model_hints(solved)},
              {"flops", workload_hints(solved)},
              {"memory", memory_hints(solved)}};
    // The facts go in last: update() copies them, and they are the small object.
    view.update(block_facts(s));
    return view;
}

} // namespace headcount::render

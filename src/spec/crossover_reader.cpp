#include <spec/crossover_reader.hpp>

#include <spec/quantities_reader.hpp>

#include <fmt/format.h>

namespace headcount::spec::detail {

Result<Crossover> read_crossover(const Reader& r, const YAML::Node& body, std::string_view quantity) {
    Crossover out;
    const YAML::Node given = body["solve_for"];
    auto name = r.string_of(given, "solve_for");
    if (!name)
        return std::unexpected(name.error());
    out.given = *name;
    out.given_mark = mark_of(given);
    auto equation = r.required(body, "equation", fmt::format("quantity '{}' (with solve_for)", quantity));
    if (!equation)
        return std::unexpected(equation.error());
    auto parsed = read_formula(r, *equation, fmt::format("equation of {}", quantity));
    if (!parsed)
        return std::unexpected(parsed.error());
    if (parsed->op != formula::Node::Op::compare || (parsed->text != "==" && parsed->text != "="))
        return r.error_at(*equation, fmt::format("equation of {} must be two formulas with '=' between them, e.g. "
                                                 "2 * seq_len^2 * d_model = 16 * seq_len * d_model^2",
                                                 quantity));
    out.left = std::move(parsed->children[0]);
    out.right = std::move(parsed->children[1]);
    out.equation = equation->Scalar();
    out.equation_mark = formula_mark(*equation);
    out.low = 0;
    out.high = formula::Number(1000000000000000);
    if (const YAML::Node range = body["range"]) {
        if (!range.IsSequence() || range.size() != 2)
            return r.error_at(range, fmt::format("range of {} must be [low, high], e.g. [1, 1000000]", quantity));
        formula::Number ends[2];
        for (std::size_t i = 0; i < 2; ++i) {
            auto end = read_formula(r, range[i], "range");
            if (!end)
                return std::unexpected(end.error());
            auto value = formula::evaluate(*end, [](std::string_view) -> const formula::Number* { return nullptr; });
            if (!value)
                return r.error_at(range[i], fmt::format("range of {}: each end must be a number, got {}", quantity,
                                                        range[i].Scalar()));
            ends[i] = *value;
        }
        if (ends[0] >= ends[1])
            return r.error_at(range, fmt::format("range of {}: the low end must be below the high end", quantity));
        out.low = ends[0];
        out.high = ends[1];
    }
    return out;
}

} // namespace headcount::spec::detail

#include <generate/bank.hpp>

#include <generate/variants.hpp>
#include <spec/givens.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace headcount::generate {

namespace {

Result<BankVariant> solved_variant(const spec::Problem& problem, const spec::Givens& givens, std::size_t number) {
    auto solved = solve::solve_problem(spec::with_givens(problem, givens));
    if (!solved)
        return std::unexpected(solved.error());
    return BankVariant{number, std::move(*solved)};
}

/// A problem without `vary`: its one variant, the spec's own givens.
Result<std::vector<BankVariant>> only_variant(const spec::Problem& problem) {
    auto one = solved_variant(problem, spec::givens_of(problem), 1);
    if (!one)
        return std::unexpected(one.error());
    std::vector<BankVariant> out;
    out.push_back(std::move(*one));
    return out;
}

} // namespace

Result<std::vector<BankVariant>> drawn_variants(const spec::Problem& problem, std::size_t count,
                                                std::string_view seed) {
    if (problem.vary.empty())
        return only_variant(problem);
    std::vector<BankVariant> out;
    auto valid = valid_variants(problem);
    if (!valid)
        return std::unexpected(valid.error());
    std::vector<std::size_t> order(valid->size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::string key = "headcount-bank-v1";
    for (std::string_view part : {seed, std::string_view(problem.id)}) {
        key += '\0';
        key += part;
    }
    SplitMix64 stream(fnv1a64(key));
    const std::size_t taken = std::min(count, order.size());
    for (std::size_t i = 0; i < taken; ++i)
        std::swap(order[i], order[i + stream.below(order.size() - i)]);
    order.resize(taken);
    std::sort(order.begin(), order.end());
    for (std::size_t index : order) {
        auto variant = solved_variant(problem, (*valid)[index], index + 1);
        if (!variant)
            return std::unexpected(variant.error());
        out.push_back(std::move(*variant));
    }
    return out;
}

Result<std::vector<BankVariant>> class_variants_bank(const ClassVariants& variants, std::size_t problem) {
    std::vector<BankVariant> out;
    for (const std::uint32_t index : variants.handed_out(problem)) {
        auto solved = variants.variant(problem, index);
        if (!solved)
            return std::unexpected(solved.error());
        out.push_back(BankVariant{index + std::size_t{1}, **solved});
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> varying_givens(const solve::SolvedProblem& variant) {
    std::vector<std::pair<std::string, std::string>> out;
    const spec::Givens values = spec::givens_of(variant.problem);
    for (const spec::Variation& v : variant.problem.vary) {
        const auto value = spec::given_value(values, v.key);
        if (!value)
            continue;
        const auto it = values.values.find(v.key); // a given with a unit in its unit: 2 TB/s
        out.emplace_back(v.key, it != values.values.end() && !it->second.unit.empty() ? it->second.text
                                : spec::is_flag_key(v.key)                            ? (*value != 0 ? "true" : "false")
                                                                                      : std::to_string(*value));
    }
    return out;
}

std::string varying_givens_text(const solve::SolvedProblem& variant) {
    std::string out;
    for (const auto& [key, value] : varying_givens(variant))
        out += fmt::format("{}{} = {}", out.empty() ? "" : ", ", key, value);
    return out;
}

} // namespace headcount::generate

#include <generate/bank.hpp>

#include <generate/variants.hpp>
#include <spec/givens.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace headcount::generate {

namespace {

/// The values of the varying keys: what tells two variants of one problem apart.
std::vector<std::int64_t> vary_values(const spec::Problem& problem, const spec::Givens& givens) {
    std::vector<std::int64_t> out;
    for (const spec::Variation& v : problem.vary)
        out.push_back(spec::given_value(givens, v.key).value_or(0));
    return out;
}

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

Result<std::vector<BankVariant>> drawn_variants(const spec::Problem& problem, std::size_t count, std::string_view seed) {
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

Result<std::vector<BankVariant>> class_variants_bank(const spec::Problem& problem,
                                                     const std::map<std::string, solve::SolvedProblem>& assigned) {
    if (problem.vary.empty())
        return only_variant(problem);
    std::vector<BankVariant> out;
    auto valid = valid_variants(problem);
    if (!valid)
        return std::unexpected(valid.error());
    std::vector<std::vector<std::int64_t>> keys;
    for (const spec::Givens& givens : *valid)
        keys.push_back(vary_values(problem, givens));
    std::vector<std::size_t> handed_out;
    for (const auto& [student, variant] : assigned) {
        const auto key = vary_values(problem, spec::givens_of(variant.problem));
        const auto found = std::find(keys.begin(), keys.end(), key);
        if (found == keys.end())
            return std::unexpected(Error{problem.file, 0, 0,
                                         fmt::format("{}'s variant of '{}' is not one of its valid variants",
                                                     student, problem.id)});
        handed_out.push_back(static_cast<std::size_t>(found - keys.begin()));
    }
    std::sort(handed_out.begin(), handed_out.end());
    handed_out.erase(std::unique(handed_out.begin(), handed_out.end()), handed_out.end());
    for (std::size_t index : handed_out) {
        auto variant = solved_variant(problem, (*valid)[index], index + 1);
        if (!variant)
            return std::unexpected(variant.error());
        out.push_back(std::move(*variant));
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
        out.emplace_back(v.key, spec::is_flag_key(v.key) ? (*value != 0 ? "true" : "false") : std::to_string(*value));
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

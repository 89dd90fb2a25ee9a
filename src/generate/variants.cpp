#include <generate/variants.hpp>

#include <solve/defined.hpp>

#include <spec/givens.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace headcount::generate {

namespace {
constexpr std::size_t k_max_combinations = 1'000'000;
} // namespace

std::uint64_t fnv1a64(std::string_view bytes) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (unsigned char c : bytes) {
        hash ^= c;
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

std::uint64_t SplitMix64::next() {
    std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::uint64_t SplitMix64::below(std::uint64_t n) {
    // Accept only outputs below the largest multiple of n, so every residue is equally likely.
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    std::uint64_t x = next();
    while (x >= limit)
        x = next();
    return x % n;
}

SplitMix64 variant_stream(std::string_view seed, std::string_view problem_id, std::string_view student) {
    std::string key = "headcount-variant-v1";
    for (std::string_view part : {seed, problem_id, student}) {
        key += '\0';
        key += part;
    }
    return SplitMix64(fnv1a64(key));
}

Result<std::vector<spec::Givens>> valid_variants(const spec::Problem& problem) {
    std::size_t combinations = 1;
    for (const spec::Variation& v : problem.vary) {
        if (const auto why = spec::cannot_vary(problem, v.key))
            return std::unexpected(Error{problem.file, v.mark.line, v.mark.column, *why});
        if (combinations > k_max_combinations / v.values.size())
            return std::unexpected(Error{problem.file, v.mark.line, v.mark.column,
                                         fmt::format("vary allows more than {} combinations; narrow the lists",
                                                     with_thousands(k_max_combinations))});
        combinations *= v.values.size();
    }
    const spec::Givens written = spec::givens_of(problem);
    spec::Problem variant = problem; // one copy, its givens replaced by each combination's in turn
    variant.vary.clear();            // solving copies the problem; its value lists are not needed to solve it
    std::vector<spec::Givens> valid;
    // The combinations share one computation's structure while they settle every condition alike: each after the
    // first is only its values computed anew (solve::check_solvable).
    std::shared_ptr<const solve::Computation> like;
    std::vector<std::size_t> index(problem.vary.size(), 0);
    std::string first_reason, first_combination; // why the first invalid combination is, for the error below
    for (std::size_t n = 0; n < combinations; ++n) {
        spec::Givens givens = written;
        for (std::size_t k = 0; k < problem.vary.size(); ++k)
            spec::set_given(givens, problem.vary[k].key, problem.vary[k].values[index[k]]);
        if (auto wrong = spec::check_givens(givens.given)) {
            if (first_reason.empty())
                first_reason = wrong->message;
        } else {
            variant = spec::with_givens(std::move(variant), givens);
            auto solved = solve::check_solvable(variant, &like);
            if (solved)
                valid.push_back(givens);
            else if (solve::is_formula_error(solved.error())) // the spec's formula fails for this variant: say so
                return std::unexpected(solved.error());
            else if (first_reason.empty())
                first_reason = solved.error().message;
        }
        if (first_reason.size() && first_combination.empty())
            for (std::size_t k = 0; k < problem.vary.size(); ++k)
                first_combination += fmt::format("{}{} = {}", k ? ", " : "", problem.vary[k].key,
                                                 with_thousands(problem.vary[k].values[index[k]]));
        for (std::size_t k = problem.vary.size(); k-- > 0;) { // odometer, last key fastest
            if (++index[k] < problem.vary[k].values.size())
                break;
            index[k] = 0;
        }
    }
    if (valid.empty()) {
        const spec::Mark at = problem.vary.empty() ? spec::Mark{} : problem.vary.front().mark;
        return std::unexpected(
            Error{problem.file, at.line, at.column,
                  fmt::format("none of the {} combinations in vary is a valid problem; the "
                              "first, {}: {}",
                              with_thousands(static_cast<Count>(combinations)), first_combination, first_reason)});
    }
    return valid;
}

Result<std::vector<solve::SolvedProblem>> solve_variants(const spec::Problem& problem,
                                                         std::span<const spec::Givens> variants) {
    std::vector<solve::SolvedProblem> solved;
    solved.reserve(variants.size());
    std::shared_ptr<const solve::Computation> like; // the last variant's, revalued for the next where it can be
    for (const spec::Givens& givens : variants) {
        auto one = solve::solve_problem(spec::with_givens(problem, givens), nullptr, &like);
        if (!one)
            return std::unexpected(one.error());
        solved.push_back(std::move(*one));
    }
    return solved;
}

Result<std::vector<std::size_t>> distinct_variant_numbers(const spec::Problem& problem,
                                                          std::span<const solve::SolvedProblem> solved,
                                                          std::span<const std::string> order, std::string_view seed) {
    const std::size_t parts = problem.parts.size();
    for (std::size_t p = 0; p < parts; ++p) {
        std::set<solve::Answer> answers;
        for (const solve::SolvedProblem& s : solved)
            answers.insert(s.parts[p].answer);
        if (answers.size() < order.size())
            return std::unexpected(Error{
                problem.file, problem.parts[p].ask_mark.line, problem.parts[p].ask_mark.column,
                fmt::format("distinct: true gives every student different answers, but part '{}' ({}) has only {} "
                            "different answer{} across the {} variant{} of vary, for {} students: vary a given this "
                            "part depends on",
                            problem.parts[p].id, problem.parts[p].ask, answers.size(), answers.size() == 1 ? "" : "s",
                            solved.size(), solved.size() == 1 ? "" : "s", order.size())});
    }
    // A variant is blocked once one of its answers is a served student's. Blocking goes through an index of which
    // variants give each answer, so serving the class costs O(variants x parts) in all, not per student.
    std::vector<std::map<solve::Answer, std::vector<std::size_t>>> giving(parts);
    for (std::size_t v = 0; v < solved.size(); ++v)
        for (std::size_t p = 0; p < parts; ++p)
            giving[p][solved[v].parts[p].answer].push_back(v);
    std::vector<bool> blocked(solved.size(), false);
    std::size_t available = solved.size();
    std::vector<std::size_t> out;
    out.reserve(order.size());
    for (std::size_t served = 0; served < order.size(); ++served) {
        if (available == 0)
            return std::unexpected(Error{problem.file, 0, 0,
                                         fmt::format("distinct: true: after {} of the {} students no variant is left "
                                                     "whose answers all differ from theirs; vary needs more values",
                                                     served, order.size())});
        SplitMix64 stream = variant_stream(seed, problem.id, order[served]);
        std::uint64_t pick = stream.below(solved.size());
        while (blocked[pick])
            pick = stream.below(solved.size());
        for (std::size_t p = 0; p < parts; ++p) {
            auto same = giving[p].find(solved[pick].parts[p].answer);
            for (const std::size_t w : same->second)
                if (!blocked[w]) {
                    blocked[w] = true;
                    --available;
                }
            same->second.clear(); // never needed again
        }
        out.push_back(pick);
    }
    return out;
}

} // namespace headcount::generate

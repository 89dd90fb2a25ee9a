#include "fuzz_support.hpp"

#include <grade/mistakes.hpp>
#include <spec/reader.hpp>

#include <map>
#include <string>

namespace headcount::fuzz {

const solve::SolvedProblem& shipped_problem(std::string_view id) {
    static std::map<std::string, solve::SolvedProblem, std::less<>> solved;
    if (const auto it = solved.find(id); it != solved.end())
        return it->second;
    const std::vector<std::string_view> asks = solve::ask_ids();
    const std::vector<std::string_view> mistakes = grade::mistake_ids();
    const std::string path = std::string(HEADCOUNT_SOURCE_DIR) + "/problems/" + std::string(id) + ".yaml";
    auto problem = spec::load_problem(path, spec::Vocabulary{asks, mistakes});
    auto result = problem ? solve::solve_problem(*problem) : std::unexpected(problem.error());
    if (!result) {
        std::fprintf(stderr, "fuzz setup: %s\n", result.error().to_string().c_str());
        std::abort();
    }
    return solved.emplace(std::string(id), std::move(*result)).first->second;
}

} // namespace headcount::fuzz

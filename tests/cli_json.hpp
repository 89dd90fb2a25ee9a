#pragma once
// What the end-to-end tests of built-in asks read from `solve --format json` and `check --format json`.
#include "run_binary.hpp"

#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <string>
#include <string_view>

namespace headcount::testing {

/// A JSON answer as a double: a number, digits, a decimal or "numerator/denominator".
inline double as_double(const nlohmann::json& value) {
    if (value.is_number())
        return value.get<double>();
    const std::string text = value.get<std::string>();
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos)
        return std::stod(text);
    return std::stod(text.substr(0, slash)) / std::stod(text.substr(slash + 1));
}

/// Whether `text` (a command's output or message) contains `part`.
inline bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

/// `solve SPEC --format json`, which must succeed, parsed.
inline nlohmann::json solved_json(const std::string& spec) {
    const auto run = run_headcount({"solve", spec, "--format", "json"});
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    return nlohmann::json::parse(run.out);
}

/// `check SPEC --part PART --answer ANSWER --format json`, parsed.
inline nlohmann::json check_json(const std::string& spec, std::string_view part, std::string_view answer) {
    const auto run = run_headcount(
        {"check", spec, "--part", std::string(part), "--answer", std::string(answer), "--format", "json"});
    INFO(run.err);
    return nlohmann::json::parse(run.out);
}

} // namespace headcount::testing

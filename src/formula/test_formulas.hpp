#pragma once
// What the formula library's tests (formula_test.cpp, irrational_test.cpp) share: a formula read or its value
// required, a failure required, TeX with plain names, a perturbation found by its id.

#include <formula/formula.hpp>

#include <util/test_catch.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace headcount::formula::testing {

/// The formula read from `text`; fails the test when it cannot be.
inline Node parsed(std::string_view text) {
    auto result = parse(text);
    INFO("formula '" << std::string(text) << "' -> " << (result ? std::string("ok") : result.error().message));
    REQUIRE(result.has_value());
    return *result;
}

/// The formula's value with the names of `lookup`; fails the test when it has none.
inline Number value_with(const Node& formula, const Lookup& lookup) {
    auto result = evaluate(formula, lookup);
    INFO("formula '" << formula.source << "' -> " << (result ? std::string("ok") : result.error().message));
    REQUIRE(result.has_value());
    return *result;
}

/// Why the formula read from `text` cannot be evaluated with `lookup`; fails the test when it can.
inline Problem problem_with(std::string_view text, const Lookup& lookup) {
    auto result = evaluate(parsed(text), lookup);
    INFO("formula '" << std::string(text) << "'");
    REQUIRE_FALSE(result.has_value());
    return result.error();
}

/// The formula's TeX with every name written as it is.
inline std::string plain_names(std::string_view text) {
    return tex(parsed(text), [](std::string_view name) { return std::string(name); });
}

/// The perturbation of id `id` among `all`; fails the test when there is none.
inline const Perturbation& find(const std::vector<Perturbation>& all, std::string_view id) {
    for (const Perturbation& p : all)
        if (p.id == id)
            return p;
    FAIL("no perturbation " << std::string(id));
    return all.front();
}

} // namespace headcount::formula::testing

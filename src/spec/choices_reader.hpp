#pragma once
// Reading a quantity answered with a word (`choices:`), each word with its condition. Internal to the spec reader
// (quantities_reader.cpp).

#include <spec/problem.hpp>
#include <spec/yaml_reader.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace headcount::spec::detail {

/// `choices:` of quantity `quantity`: two or more words, each with a condition (a formula, nonzero where it holds)
/// or `otherwise`, which only the last may have. Names are checked later, once every quantity is known.
Result<std::vector<WordChoice>> read_choices(const Reader& r, const YAML::Node& node, std::string_view quantity);

/// The formula of a quantity answered with `choices`: the index of the first word whose condition holds, the last
/// word where none does.
std::string choices_formula(const std::vector<WordChoice>& choices);

/// The ask row of a quantity answered with `choices` (the words a grader reads), kept for the program's life.
const solve::CatalogueEntry* choice_row(const std::vector<WordChoice>& choices);

} // namespace headcount::spec::detail

#pragma once
// What the worked solution of a quantity the spec defines shows: its formula in TeX, the formula with this
// variant's numbers, each defined quantity it is built from (in dependency order), and the answer in its unit.

#include <render/mustache.hpp>
#include <solve/asks.hpp>

#include <set>
#include <string>

namespace headcount::render {

/// A name as TeX writes it: \mathrm{n\_params}.
std::string name_tex(std::string_view name);

/// An exact value in TeX: whole numbers grouped with {,} (or m \times 10^{k} when that is exact and shorter), a
/// fraction's decimal when it ends within twelve digits, else six figures.
std::string number_tex(const formula::Number& value);

/// The view of a defined quantity's part, under the key "quantity": name, title, unit, formula_tex,
/// substituted_tex, value_tex, exact (whether value_tex is the exact value), explanation, and steps (each
/// defined quantity it uses that `shown` does not yet hold, which it then holds).
View quantity_view(const solve::SolvedProblem& solved, const solve::SolvedPart& part, std::set<std::string>& shown);

/// The answer of a defined quantity's part as the solution states it, with its unit: "315,000,000,000,000,000,000,000
/// FLOPs", "about 25.36 days" (to the part's significant figures, at least four).
std::string quantity_answer_text(const solve::SolvedProblem& solved, const solve::SolvedPart& part);

} // namespace headcount::render

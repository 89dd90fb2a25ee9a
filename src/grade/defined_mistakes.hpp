#pragma once
// The mistakes of a quantity the spec defines: those the instructor lists, those derived from its formula's
// structure (a term left out or counted twice, a factor left out or inverted, an exponent dropped), a mistake made
// in a defined quantity it uses, and the unit slips its unit invites (bits for bytes, GB for GiB, multiply-adds for
// FLOPs, hours for days). Each is a Mistake row whose `feedback` is its words, so feedback, reports and exports
// treat it as they treat the catalogue's.

#include <grade/mistakes.hpp>

#include <string_view>
#include <vector>

namespace headcount::grade {

/// Most single mistakes tried for one part, and the singles that are paired (the first of them, in order).
inline constexpr std::size_t k_max_defined_singles = 96;
inline constexpr std::size_t k_max_defined_paired = 40;
/// Most mistakes of one defined quantity a formula uses that are carried through it.
inline constexpr std::size_t k_max_carried = 16;

/// A mistake row that lives as long as the program: the same (id, title, feedback) give the same row, so every
/// variant of a problem names the same mistake.
const Mistake* defined_mistake(std::string_view id, std::string_view title, std::string_view feedback);

/// The first row defined_mistake made with this id, or nullptr.
const Mistake* find_defined_mistake(std::string_view id);

/// The defined quantity `part` asks for, when its answer is exact (a defined quantity's is); else nullptr.
const spec::Quantity* exactly_defined(const solve::SolvedProblem& solved, const solve::SolvedPart& part);

/// Every explanation of a wrong answer to `part` of `solved`, which asks for `q` (exactly_defined): the singles
/// above and their pairs, each different from the right answer; a listed mistake wins over a derived one of the
/// same value.
std::vector<Explanation> defined_explanations(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                                              const spec::Quantity& q);

/// The problem's defined quantities other than `q` in its dimension, valued in this part's unit, grouped by value.
std::vector<Explanation> defined_others(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                                        const spec::Quantity& q);

} // namespace headcount::grade

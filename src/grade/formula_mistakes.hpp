#pragma once
// The mistakes of a quantity's own formula: those listed with it (an instructor's `mistakes:`, or a catalogue
// entry's), those derived from its structure (a term left out or counted twice, a factor left out or inverted, an
// exponent dropped; for a spec's quantities and the catalogue entries that ask for it), the same made in any
// quantity it uses, however deep, carried through ("In the training compute: …"), a model's advertised size used
// for model_params, and the unit slips its unit invites (bits for bytes, GB for GiB, multiply-adds for FLOPs, hours
// for days). Each is a Mistake row whose `feedback` is its words, so feedback, reports and exports treat it as they
// treat the catalogue's.

#include <grade/mistakes.hpp>

#include <string_view>
#include <vector>

namespace headcount::grade {

/// Most single mistakes tried for one part, and the singles that are paired (the first of them, in order).
inline constexpr std::size_t k_max_defined_singles = 96;
inline constexpr std::size_t k_max_defined_paired = 40;
/// Most mistakes of one quantity a formula uses that are carried through it.
inline constexpr std::size_t k_max_carried = 16;

/// A mistake row that lives as long as the program: the same (id, title, feedback) give the same row, so every
/// variant of a problem names the same mistake.
const Mistake* defined_mistake(std::string_view id, std::string_view title, std::string_view feedback);

/// The first row defined_mistake made with this id, or nullptr.
const Mistake* find_defined_mistake(std::string_view id);

/// The explanations of a wrong answer to `part` that come from formulas' own mistakes, singles then pairs (two
/// changes of the part's formula, one of it and one carried from a quantity it uses, or any and a unit slip).
/// `taken`: ids the catalogue's mistakes already give for this part, whose unit slip of the same id is left out.
std::vector<Explanation> formula_explanations(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                                              const std::vector<std::string_view>& taken);

} // namespace headcount::grade

#pragma once
// Quantities a spec defines (`quantities:`): their ask rows and units. Their values are the problem's computation's
// (solve/computation.hpp), where they stand beside the catalogue's own; this file gives them the row every channel
// (solve, grade, feedback, exports, serve) reads a part through.

#include <formula/units.hpp>
#include <solve/asks.hpp>

#include <string_view>

namespace headcount::solve {

/// What a defined quantity's unit measures, and how large it is in that dimension's base (formula/units.hpp).
using UnitInfo = formula::UnitInfo;

/// The unit as written in a spec: bytes (B, bytes, KB/MB/GB/TB, KiB/MiB/GiB/TiB), time (s, seconds, minutes, hours,
/// days, weeks, years of 365.25 days), plain numbers ("", percent, %, ratio) and otherwise a count of what it names
/// (parameters, FLOPs, FLOP/s, tokens, ...).
UnitInfo unit_info(std::string_view unit);

/// The unit of `ask`'s answer in `problem`: unit_info(ask.unit), except that an answer in `percent` (or `%`), a
/// spec's quantity or headcount's own `mfu`, is a fraction of one shown as a percentage (fraction_as_percent).
UnitInfo ask_unit(const spec::Problem& problem, const Ask& ask);

/// The unit of `quantity`'s value, as ask_unit says.
UnitInfo quantity_unit(const spec::Quantity& quantity);

/// The tolerance `part` is graded at: its own, else exact for a whole answer and {sigfigs: 3} for one that is not
/// (a defined quantity's value may be any fraction) or that may be irrational (spec::Part::inexact).
spec::Tolerance tolerance_of(const SolvedPart& part);

/// Why no student could type `value` as an answer (answers are read exactly up to 10^36, so a value must stay
/// within [10^-15, 10^33] in size, or be 0, leaving room for another unit), or nullopt when one could.
std::optional<std::string> untypable(const formula::Number& value);

/// A defined quantity's answer: `value` exact, and as the count when it is whole and within 10^36.
Answer exact_answer(formula::Number value);

/// The ask row of a defined quantity: kind "defined", its name as id, its unit, its title as noun. Interned, so the
/// row lives as long as the program and every variant of a problem shares it.
const Ask* quantity_ask(const spec::Quantity& quantity);

/// The quantity `problem` defines under this name, or nullptr.
const spec::Quantity* find_quantity(const spec::Problem& problem, std::string_view name);

/// The defined quantity `ask` stands for in `problem`, or nullptr when it is a built-in ask.
const spec::Quantity* defined_quantity(const spec::Problem& problem, const Ask& ask);

/// Why a listed mistake of `solved` (solved as written, without `vary:`) cannot be one: its formula comes to the
/// right answer, or cannot be evaluated. Located at the mistake's id.
std::optional<Error> listed_mistake_problem(const SolvedProblem& solved);

/// Whether a solve failed in one of the spec's own formulas (a division by zero in this variant, a power too large),
/// which `vary:` must not hide by leaving the variant out.
bool is_formula_error(const Error& error);

} // namespace headcount::solve

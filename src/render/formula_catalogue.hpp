#pragma once
// `headcount catalogue formulas`: every row of the built-in catalogue as the formula it computes, so that an
// instructor can read (and redefine, by name, in a spec's `quantities:`) what each ask counts.

#include <solve/computation.hpp>

#include <string>

namespace headcount::render {

/// Every quantity of the catalogue as a Markdown table, one row each in catalogue order: the name formulas use, the
/// ask (if a part may ask it), and its formula as written, with its conditions (if()) on the givens; a shape's
/// formula is the tuple of its axes, a choice's lists the word each of its values stands for. With a computation
/// (one spec's), only the rows that problem has, each with the conditions its givens settle applied, its own
/// quantities after them, and which definition each row uses: the catalogue's or the spec's. Ends with a newline.
std::string formulas_markdown(const solve::Computation* computation = nullptr);

} // namespace headcount::render

#pragma once
// The picture of a multi-head attention block's forward pass: every tensor as a box with its shape, and the
// operation that leads from one to the next. Drawn as SVG by headcount; it computes nothing.

#include <solve/shapes.hpp>

#include <string>

namespace headcount::render {

/// The tensors of `shapes` from the input to the output as an SVG flow diagram: X (and, with `cross`, the source
/// S the keys and values come from, kdim = `block`.kdim wide), Q/K/V, their per-head forms, the scores, the
/// attention weights, A·V, the concatenation and the output; each box shows the tensor's name, its shape in
/// numbers and its axes.
std::string shapes_diagram_svg(const solve::ShapeSolution& shapes, const solve::MhaSolution& block, bool cross);

/// The same diagram in a <figure> with a caption, as a solution's HTML places it.
std::string shapes_figure(const solve::ShapeSolution& shapes, const solve::MhaSolution& block, bool cross);

} // namespace headcount::render

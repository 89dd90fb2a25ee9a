#pragma once
// The solutions' numbers as the templates that show them read them (solve/mha.hpp, model.hpp, flops.hpp,
// shapes.hpp, memory.hpp, model_flops.hpp), read from a problem's computation: views of its values, with the
// breakdown of a model and the symbols of a shape's axes. Nothing here counts. With a change (a mistake), the
// values it comes to: what a student who made it would have.

#include <solve/computation.hpp>
#include <solve/flops.hpp>
#include <solve/memory.hpp>
#include <solve/model.hpp>
#include <solve/model_flops.hpp>
#include <solve/shapes.hpp>

namespace headcount::solve {

/// The attention block's numbers (of every layer, for a transformer).
MhaSolution read_mha(const Computation& computation, const spec::MhaGivens& given,
                     const Computation::Change* change = nullptr);
/// A whole transformer's numbers and its breakdown.
ModelSolution read_model(const Computation& computation, const spec::ModelGivens& model, const MhaSolution& attention,
                         const Computation::Change* change = nullptr);
/// The block's compute over the workload.
FlopsSolution read_flops(const Computation& computation, const Computation::Change* change = nullptr);
/// The block's tensors over the workload.
ShapeSolution read_shapes(const Computation& computation, const Computation::Change* change = nullptr);
/// The memory asks' bytes and the values they count.
MemorySolution read_memory(const Computation& computation, const Computation::Change* change = nullptr);
/// A whole model's compute over the workload.
ModelFlopsSolution read_model_flops(const Computation& computation, const Computation::Change* change = nullptr);

} // namespace headcount::solve

#pragma once
// The decimal and binary byte units (KB/KiB ... TB/TiB) as pairs: what a GB-for-GiB slip reads a number in. One
// table for the three slips that use it: an answer's label (grader.cpp), a byte quantity's unit and a byte given's
// other reading (formula_mistakes.cpp).

#include <formula/formula.hpp>

#include <optional>
#include <string_view>

namespace headcount::grade {

/// The other family's unit at the same level as `unit`, and how many times larger it is.
struct OtherByteUnit {
    std::string_view unit;  ///< GiB for GB, MB for MiB, GiB/s for GB/s
    formula::Number factor; ///< its size over `unit`'s: 1.024^3 for GB -> GiB, its inverse for GiB -> GB
};

/// The other reading of a prefixed byte unit (KB, kB, MB, GB, TB, KiB, ..., TiB, each also with /s), or nullopt
/// for bytes alone or any other unit.
std::optional<OtherByteUnit> other_byte_unit(std::string_view unit);

} // namespace headcount::grade

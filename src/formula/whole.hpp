#pragma once
// Whole-number steps for the fast paths of evaluation: evaluate()'s (formula/evaluate.cpp), over a formula's tree,
// and the catalogue's (solve/computation.cpp), over the tables the build parsed its formulas into. Nearly every
// count is a whole number that fits in a long; each step here gives nullopt (or false) where its result would not
// be one, and the caller then computes the formula over rationals, which gives the same value where these give one.

#include <formula/formula.hpp>

#include <optional>
#include <string_view>

namespace headcount::formula::whole {

/// `v` as a long, when it is a whole number that fits in one.
std::optional<long> of(const Number& v);

/// One term or factor taken into `total`: added, subtracted (a sum's `inverse`), multiplied or divided (a
/// product's). False when the result is no whole long: an overflow, a division that is not exact, or by zero.
bool step(long& total, long term, bool sum, bool inverse);

/// base ^ exponent, or nullopt for a negative exponent or an overflow.
std::optional<long> power(long base, long exponent);

/// Whether comparison `op` (< <= > >= == !=) holds between two values whose order is `order` (negative, zero or
/// positive, as the first is less than, equal to or greater than the second).
bool holds(std::string_view op, int order);

/// floor(x), ceil(x) or abs(x) of a whole x (`name`), or nullopt for another function or an overflow.
std::optional<long> function_of_one(std::string_view name, long x);

} // namespace headcount::formula::whole

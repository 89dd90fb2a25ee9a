#pragma once
// Exact integer arithmetic for counts, up to 10^36 (128-bit): an overflow is an error with a message, never a
// wrapped number.

#include <util/error.hpp>
#include <util/wide.hpp>

#include <cstdint>
#include <optional>
#include <string_view>

namespace headcount {

/// A count: parameters, FLOPs, bytes, elements. Exact up to k_count_limit (10^36); a GPT-3-sized training run
/// (3.2 × 10^23 FLOPs) is far inside it.
using Count = Wide;

/// a + b, or an error naming `what` when the sum's magnitude is past k_count_limit.
Result<Count> checked_add(Count a, Count b, std::string_view what);
/// a * b, or an error naming `what` when the product's magnitude is past k_count_limit.
Result<Count> checked_mul(Count a, Count b, std::string_view what);
/// Whether `error` is a checked operation's overflow (a count too large to keep), rather than a fault of the input.
bool is_overflow(const Error& error);

} // namespace headcount

namespace headcount {

/// Accumulates a chain of checked operations and keeps the first overflow, so a formula reads as a formula.
/// After an overflow every further result is 0 and error() names the first quantity that overflowed.
class CheckedArithmetic {
  public:
    Count add(Count a, Count b, std::string_view what);
    Count mul(Count a, Count b, std::string_view what);
    [[nodiscard]] bool ok() const { return !m_error.has_value(); }
    [[nodiscard]] const Error& error() const { return *m_error; }

  private:
    /// The result, or 0 with its error kept.
    Count kept(Result<Count> result);

    std::optional<Error> m_error;
};

} // namespace headcount

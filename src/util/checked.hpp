#pragma once
// Exact 64-bit integer arithmetic for counts: an overflow is an error with a message, never a wrapped number.

#include <util/error.hpp>

#include <cstdint>
#include <optional>
#include <string_view>

namespace headcount {

using Count = std::int64_t;

/// a + b, or an error naming `what` when the sum does not fit in a signed 64-bit integer.
Result<Count> checked_add(Count a, Count b, std::string_view what);
/// a * b, or an error naming `what` when the product does not fit in a signed 64-bit integer.
Result<Count> checked_mul(Count a, Count b, std::string_view what);

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

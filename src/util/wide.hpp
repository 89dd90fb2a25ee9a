#pragma once
// The 128-bit integer that counts and exact answers are kept in. A GCC extension, spelled so that -Wpedantic
// stays quiet. In strict C++ mode std::is_integral is false for it (std::numeric_limits is specialised), so
// std::to_string, std::to_chars and nlohmann::json refuse it at compile time rather than narrowing it: format it
// with fmt ("{}") or with_thousands, and convert it to GMP with to_mpz.

namespace headcount {

__extension__ typedef __int128 Wide;
__extension__ typedef unsigned __int128 UnsignedWide;

/// The largest magnitude a count may reach: 10^36, as an answer's numerator (answer/rational.hpp). Past it a
/// count is refused as too large, well before the 128-bit limit (about 1.7 × 10^38), so a product of two counts
/// is always checked before it could wrap.
inline constexpr Wide k_count_limit = static_cast<Wide>(1'000'000'000'000'000'000) * 1'000'000'000'000'000'000;

/// |value|, as std::abs is for the standard integers (it has no overload for Wide in strict C++).
inline constexpr Wide wide_abs(Wide value) { return value < 0 ? -value : value; }

} // namespace headcount

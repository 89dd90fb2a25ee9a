#pragma once
// An enum's values named from one list in the enum's order, in place of a switch per enum. The list is checked
// against the enum's last value where it is written (static_assert(names_every(...))), so a value added to the enum
// without a name fails to compile, as a switch's -Wswitch would warn.

#include <array>
#include <cstddef>
#include <string_view>

namespace headcount {

/// names[value] for an enum whose values are 0, 1, ... in the order of `names`; `fallback` for a value out of range
/// (only a cast from an unchecked integer could make one).
template <class Enum, std::size_t N>
constexpr std::string_view enum_name(Enum value, const std::array<std::string_view, N>& names,
                                     std::string_view fallback) {
    const auto i = static_cast<std::size_t>(value);
    return i < N ? names[i] : fallback;
}

/// Whether `names` has exactly one name for each value of an enum whose last value is `last`.
template <class Enum, std::size_t N>
constexpr bool names_every(Enum last, const std::array<std::string_view, N>& /*names*/) {
    return static_cast<std::size_t>(last) + 1 == N;
}

} // namespace headcount

#pragma once
// Checks over a catalogue kept as rows (asks, mistakes), for static_asserts beside the table: a mistake in a row
// then fails the build, not a test run.

#include <array>
#include <cstddef>

namespace headcount {

/// Whether no two rows have the same `id`.
template <class Row, std::size_t N> constexpr bool ids_unique(const std::array<Row, N>& rows) {
    for (std::size_t i = 0; i < N; ++i)
        for (std::size_t j = i + 1; j < N; ++j)
            if (rows[i].id == rows[j].id)
                return false;
    return true;
}

namespace detail {
/// Converts to any type: `T{AnyField{}, ...}` compiles with as many of them as T has fields, and no more.
struct AnyField {
    template <class T> constexpr operator T() const { return T{}; }
};
} // namespace detail

/// How many fields the aggregate T has (T must not hold an aggregate member, whose braces could be elided). For
/// a static_assert that a struct declares no field beyond those a list of rows generates.
template <class T, class... Fields> constexpr std::size_t field_count() {
    if constexpr (requires { T{Fields{}..., detail::AnyField{}}; })
        return field_count<T, Fields..., detail::AnyField>();
    else
        return sizeof...(Fields);
}

} // namespace headcount

#include <util/checked.hpp>

#include <fmt/format.h>

namespace headcount {

namespace {

constexpr std::string_view k_overflow_phrase = "is too large to count exactly: its magnitude is past 10^36";

std::unexpected<Error> overflow(std::string_view what) { return fail(fmt::format("{} {}", what, k_overflow_phrase)); }

/// `value` when its magnitude is within k_count_limit, else the overflow naming `what`.
Result<Count> bounded(Count value, std::string_view what) {
    if (value > k_count_limit || value < -k_count_limit)
        return overflow(what);
    return value;
}

} // namespace

bool is_overflow(const Error& error) { return error.message.find(k_overflow_phrase) != std::string::npos; }

Result<Count> checked_add(Count a, Count b, std::string_view what) {
    Count out = 0;
    if (__builtin_add_overflow(a, b, &out))
        return overflow(what);
    return bounded(out, what);
}

Result<Count> checked_mul(Count a, Count b, std::string_view what) {
    Count out = 0;
    if (__builtin_mul_overflow(a, b, &out))
        return overflow(what);
    return bounded(out, what);
}

} // namespace headcount

namespace headcount {

Count CheckedArithmetic::add(Count a, Count b, std::string_view what) {
    return m_error ? 0 : kept(checked_add(a, b, what));
}

Count CheckedArithmetic::mul(Count a, Count b, std::string_view what) {
    return m_error ? 0 : kept(checked_mul(a, b, what));
}

Count CheckedArithmetic::kept(Result<Count> result) {
    if (!result) {
        m_error = result.error();
        return 0;
    }
    return *result;
}

} // namespace headcount

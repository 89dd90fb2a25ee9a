#include <util/checked.hpp>

#include <fmt/format.h>

namespace headcount {

namespace {
std::unexpected<Error> overflow(std::string_view what) {
    return fail(
        fmt::format("{} is too large: it does not fit in a 64-bit integer (over 9,223,372,036,854,775,807)", what));
}
} // namespace

Result<Count> checked_add(Count a, Count b, std::string_view what) {
    Count out = 0;
    if (__builtin_add_overflow(a, b, &out))
        return overflow(what);
    return out;
}

Result<Count> checked_mul(Count a, Count b, std::string_view what) {
    Count out = 0;
    if (__builtin_mul_overflow(a, b, &out))
        return overflow(what);
    return out;
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

// fmt's compiled part, for the static headcount program (HEADCOUNT_STATIC): Debian's libfmt-dev has only a shared
// library (which would load libstdc++.so into the static program), and FMT_HEADER_ONLY would compile fmt's
// implementation into every file that formats (zip.cpp: 2.6 s -> 8.9 s). These are the instantiations fmt's own
// src/format.cc makes for fmt 9; the non-template functions of format-inl.h are compiled here because
// FMT_HEADER_ONLY is not defined.
#include <fmt/format-inl.h>

#if FMT_VERSION < 90000 || FMT_VERSION >= 100000
#error "src/util/fmt_library.cpp makes fmt 9's instantiations; with another fmt configure -DHEADCOUNT_STATIC=OFF"
#endif

FMT_BEGIN_NAMESPACE
namespace detail {

template FMT_API auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template FMT_API auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;

#ifndef FMT_STATIC_THOUSANDS_SEPARATOR
template FMT_API locale_ref::locale_ref(const std::locale& loc);
template FMT_API auto locale_ref::get<std::locale>() const -> std::locale;
#endif

template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API void buffer<char>::append(const char*, const char*);
template FMT_API void vformat_to(buffer<char>&, string_view, basic_format_args<FMT_BUFFER_CONTEXT(char)>, locale_ref);

template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<wchar_t>;
template FMT_API auto decimal_point_impl(locale_ref) -> wchar_t;
template FMT_API void buffer<wchar_t>::append(const wchar_t*, const wchar_t*);

} // namespace detail
FMT_END_NAMESPACE

#include <formula/units.hpp>

#include <util/text.hpp>

#include <algorithm>
#include <array>
#include <string>

namespace headcount::formula {

namespace {

struct UnitRow {
    std::string_view names; ///< space-separated spellings, compared ignoring case for words
    UnitInfo::Dimension dimension;
    long numerator;
    long denominator;
    std::string_view symbol;
};

using D = UnitInfo::Dimension;
// Byte units are case-sensitive (MB is not Mb); the rest are compared as written, then lower-cased.
constexpr auto k_units = std::to_array<UnitRow>({
    {"B byte bytes", D::bytes, 1, 1, "bytes"},
    {"KB kB", D::bytes, 1000, 1, "KB"},
    {"MB", D::bytes, 1000000, 1, "MB"},
    {"GB", D::bytes, 1000000000, 1, "GB"},
    {"TB", D::bytes, 1000000000000, 1, "TB"},
    {"KiB", D::bytes, 1L << 10, 1, "KiB"},
    {"MiB", D::bytes, 1L << 20, 1, "MiB"},
    {"GiB", D::bytes, 1L << 30, 1, "GiB"},
    {"TiB", D::bytes, 1L << 40, 1, "TiB"},
    {"ns nanosecond nanoseconds", D::time, 1, 1000000000, "ns"},
    {"us \u00b5s \u03bcs microsecond microseconds", D::time, 1, 1000000, "\u00b5s"},
    {"ms millisecond milliseconds", D::time, 1, 1000, "ms"},
    {"s sec secs second seconds", D::time, 1, 1, "seconds"},
    {"min mins minute minutes", D::time, 60, 1, "minutes"},
    {"h hr hrs hour hours", D::time, 3600, 1, "hours"},
    {"d day days", D::time, 86400, 1, "days"},
    {"wk week weeks", D::time, 604800, 1, "weeks"},
    // A Julian year, 365.25 days.
    {"yr yrs year years", D::time, 31557600, 1, "years"},
    {"% percent", D::plain, 1, 100, "%"},
    // A count of FLOPs, as a compute budget is given (1e21 FLOPs): spelt so only, since FLOPS is read as a rate.
    {"FLOPs", D::count, 1, 1, "FLOPs"},
    // Rates: FLOP/s with a prefix is a count of FLOPs per second; bytes per second keep the bytes' units and slips.
    {"FLOP/s flop/s FLOPS", D::count, 1, 1, "FLOP/s"},
    {"kFLOP/s", D::count, 1000, 1, "kFLOP/s"},
    {"MFLOP/s", D::count, 1000000, 1, "MFLOP/s"},
    {"GFLOP/s", D::count, 1000000000, 1, "GFLOP/s"},
    {"TFLOP/s", D::count, 1000000000000, 1, "TFLOP/s"},
    {"PFLOP/s", D::count, 1000000000000000, 1, "PFLOP/s"},
    {"EFLOP/s", D::count, 1000000000000000000, 1, "EFLOP/s"},
    {"B/s", D::bytes, 1, 1, "B/s"},
    {"KB/s kB/s", D::bytes, 1000, 1, "KB/s"},
    {"MB/s", D::bytes, 1000000, 1, "MB/s"},
    {"GB/s", D::bytes, 1000000000, 1, "GB/s"},
    {"TB/s", D::bytes, 1000000000000, 1, "TB/s"},
    {"KiB/s", D::bytes, 1L << 10, 1, "KiB/s"},
    {"MiB/s", D::bytes, 1L << 20, 1, "MiB/s"},
    {"GiB/s", D::bytes, 1L << 30, 1, "GiB/s"},
    {"TiB/s", D::bytes, 1L << 40, 1, "TiB/s"},
    {"ratio fraction number", D::plain, 1, 1, ""},
});

} // namespace

std::optional<UnitInfo> known_unit(std::string_view unit) {
    std::string lower(unit);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const UnitRow& row : k_units)
        if (one_of_words(row.names, unit) || (row.dimension != D::bytes && one_of_words(row.names, lower)))
            return UnitInfo{row.dimension, Number(row.numerator, row.denominator), row.symbol};
    return std::nullopt;
}

} // namespace headcount::formula

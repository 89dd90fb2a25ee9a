#include <formula/units.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>

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

namespace {

/// The first row naming each spelling, of all the rows and of those compared lower-cased: made once, so that a
/// lookup (one or two per graded answer, most of them for a unit no row names, like "parameters") is two hash
/// lookups and not a scan of every row's spellings.
struct UnitIndex {
    std::unordered_map<std::string_view, std::size_t> as_written, lower_cased;
    UnitIndex() {
        for (std::size_t i = 0; i < k_units.size(); ++i)
            for (std::string_view names = k_units[i].names; !names.empty();) {
                const std::size_t space = names.find(' ');
                const std::string_view word = names.substr(0, space);
                as_written.emplace(word, i); // emplace keeps the first row's
                if (k_units[i].dimension != D::bytes)
                    lower_cased.emplace(word, i);
                names = space == std::string_view::npos ? std::string_view() : names.substr(space + 1);
            }
    }
};

} // namespace

std::optional<UnitInfo> known_unit(std::string_view unit) {
    static const UnitIndex index;
    std::string lower(unit);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    // The first row that names the unit as written, or (a row not of bytes) lower-cased.
    std::size_t row = k_units.size();
    if (const auto it = index.as_written.find(unit); it != index.as_written.end())
        row = it->second;
    if (const auto it = index.lower_cased.find(std::string_view(lower)); it != index.lower_cased.end())
        row = std::min(row, it->second);
    if (row == k_units.size())
        return std::nullopt;
    const UnitRow& r = k_units[row];
    return UnitInfo{r.dimension, Number(r.numerator, r.denominator), r.symbol};
}

} // namespace headcount::formula

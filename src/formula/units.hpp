#pragma once
// The units headcount reads after a number, in a spec's `unit:` and in its givens (hbm_bandwidth: 3.35 TB/s,
// step_time: 2.5 ms, memory_budget: 80 GB): one table, below the spec reader and the solver that both use it.

#include <formula/formula.hpp>

#include <optional>
#include <string_view>

namespace headcount::formula {

/// What a unit measures, and how large it is in that dimension's base (1 for counts, bytes and plain numbers,
/// seconds for time): GiB is bytes × 2^30, days is time × 86400, percent is plain × 1/100.
struct UnitInfo {
    enum class Dimension { count, bytes, time, plain };
    Dimension dimension = Dimension::count;
    Number scale = 1;
    std::string_view symbol; ///< how the solution writes the unit after a number ("FLOPs", "GiB", "days", "%")
    /// A spec's own `unit: percent`: the formula's value is a fraction of one (scale 1), shown times 100 with "%".
    bool fraction_as_percent = false;
};

/// The unit `unit` names in the table: bytes (B, bytes, KB/MB/GB/TB, KiB/MiB/GiB/TiB) and bytes per second (GB/s),
/// time (ns, µs, ms, s, min, h, days, weeks, years of 365.25 days), FLOPs, FLOP/s with a prefix (989 TFLOP/s is a count
/// of FLOPs per second), plain numbers (percent, %, ratio); nullopt for any other word (a count of what it names). Byte
/// units are case-sensitive (MB is not Mb); the rest are compared ignoring case.
std::optional<UnitInfo> known_unit(std::string_view unit);

} // namespace headcount::formula

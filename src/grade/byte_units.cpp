#include <grade/byte_units.hpp>

#include <array>

namespace headcount::grade {

std::optional<OtherByteUnit> other_byte_unit(std::string_view unit) {
    struct Level {
        std::string_view decimal, binary, decimal_rate, binary_rate;
    };
    static constexpr std::array<Level, 4> k_levels{{{"KB", "KiB", "KB/s", "KiB/s"},
                                                    {"MB", "MiB", "MB/s", "MiB/s"},
                                                    {"GB", "GiB", "GB/s", "GiB/s"},
                                                    {"TB", "TiB", "TB/s", "TiB/s"}}};
    if (unit == "kB" || unit == "kB/s") // the SI spelling of KB
        return other_byte_unit(unit == "kB" ? "KB" : "KB/s");
    formula::Number ratio = 1; // 1.024^level: a binary unit over the decimal one of its level
    for (const Level& level : k_levels) {
        ratio *= formula::Number(1024, 1000);
        if (unit == level.decimal || unit == level.decimal_rate)
            return OtherByteUnit{unit == level.decimal ? level.binary : level.binary_rate, ratio};
        if (unit == level.binary || unit == level.binary_rate)
            return OtherByteUnit{unit == level.binary ? level.decimal : level.decimal_rate, 1 / ratio};
    }
    return std::nullopt;
}

} // namespace headcount::grade

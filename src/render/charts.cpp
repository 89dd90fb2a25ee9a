#include <render/charts.hpp>

#include <render/svg.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace headcount::render {

namespace {

constexpr std::string_view k_bar_colour = "#0b5cad";
constexpr std::string_view k_axis_colour = "#57606a";

/// round(scale * count / whole), half up, in whole pixels.
int scaled(std::size_t count, std::size_t whole, int scale) {
    if (whole == 0)
        return 0;
    return static_cast<int>((2 * static_cast<unsigned long long>(scale) * count + whole) / (2 * whole));
}

/// The step between axis ticks: 1, 2, 5, 10, 20, 50, ... whichever first gives at most five steps up to `max`.
std::size_t tick_step(std::size_t max) {
    for (std::size_t magnitude = 1;; magnitude *= 10)
        for (std::size_t step : {magnitude, 2 * magnitude, 5 * magnitude})
            if (max <= 5 * step)
                return step;
}

} // namespace

int column_height(std::size_t count, std::size_t max) { return scaled(count, max, k_histogram_height); }

std::string histogram_svg(std::span<const ChartBar> bins, std::string_view title, std::string_view y_label) {
    constexpr int left = 56, top = 24, column = 44, gap = 12;
    const int base = top + k_histogram_height;
    const int width = left + static_cast<int>(bins.size()) * (column + gap) + gap;
    const int height = base + 44;
    std::size_t max = 0;
    for (const ChartBar& bin : bins)
        max = std::max(max, bin.count);

    std::string out = svg::open(width, height, title);
    // Ticks and grid lines at whole numbers of students.
    const std::size_t step = tick_step(std::max<std::size_t>(max, 1));
    for (std::size_t tick = 0; tick <= max; tick += step) {
        const int y = base - column_height(tick, max);
        out += svg::line(left - 4, y, width - gap / 2, y, tick == 0 ? k_axis_colour : "#d0d7de");
        out += svg::text(left - 8, y + 4, std::to_string(tick), "end", 11, k_axis_colour);
    }
    out +=
        fmt::format("<text x=\"14\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\" fill=\"{}\" "
                    "transform=\"rotate(-90 14 {})\">{}</text>\n",
                    base - k_histogram_height / 2, k_axis_colour, base - k_histogram_height / 2, escape_xml(y_label));
    for (std::size_t i = 0; i < bins.size(); ++i) {
        const int x = left + gap + static_cast<int>(i) * (column + gap);
        const int h = column_height(bins[i].count, max);
        out += svg::rect(x, base - h, column, h, k_bar_colour);
        out += svg::text(x + column / 2, base - h - 5, std::to_string(bins[i].count), "middle", 11);
        out += svg::text(x + column / 2, base + 16, bins[i].label, "middle", 11, k_axis_colour);
    }
    return out + svg::close();
}

std::string frequency_chart_svg(std::span<const ChartBar> bars, std::size_t of, std::string_view title) {
    constexpr int left = 8, row = 42, top = 8;
    const int width = left + k_frequency_length + 312; // room for a long title above a bar
    const int height = top + static_cast<int>(bars.size()) * row + 8;
    std::string out = svg::open(width, height, title);
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const int y = top + static_cast<int>(i) * row;
        const int length = scaled(bars[i].count, of, k_frequency_length);
        out += svg::text(left, y + 13, bars[i].label, "start", 12);
        out += svg::rect(left, y + 18, k_frequency_length, 14, "#eef2f6");
        out += svg::rect(left, y + 18, length, 14, k_bar_colour);
        out += svg::text(
            left + k_frequency_length + 8, y + 30,
            fmt::format("{} ({})", bars[i].count,
                        percent_text(static_cast<std::int64_t>(bars[i].count), static_cast<std::int64_t>(of), 0)),
            "start", 12);
    }
    return out + svg::close();
}

} // namespace headcount::render

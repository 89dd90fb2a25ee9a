#pragma once
// Charts as SVG, drawn by headcount (no plotting dependency) for the class report's HTML: the score histogram and
// the mistakes by frequency. Pure functions of their data: same data, same bytes.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace headcount::render {

/// One bar of a chart: what it stands for and how many it counts.
struct ChartBar {
    std::string label; ///< under a column ("90-100%") or above a bar (a mistake's title); escaped when drawn
    std::size_t count = 0;
};

/// Column heights and lengths are whole pixels: the tallest column is k_histogram_height high, a bar counting all of
/// `of` is k_frequency_length long, and the others in proportion, rounded half up.
inline constexpr int k_histogram_height = 200;
inline constexpr int k_frequency_length = 400;

/// A column of a histogram is this high for `count` when the tallest counts `max` (0 when max is 0).
int column_height(std::size_t count, std::size_t max);

/// The score distribution as an SVG histogram: a column per bin in the order given, its label below and its count
/// above, and a vertical axis of `y_label` ("students") with whole-number ticks. `title` is the picture's
/// accessible name.
std::string histogram_svg(std::span<const ChartBar> bins, std::string_view title, std::string_view y_label);

/// How often each mistake was made, as horizontal bars in the order given: the label above each bar, its length
/// in proportion to count / `of` (the answers it is a share of), and "count (share)" at its end.
std::string frequency_chart_svg(std::span<const ChartBar> bars, std::size_t of, std::string_view title);

} // namespace headcount::render

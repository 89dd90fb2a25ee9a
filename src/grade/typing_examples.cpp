#include <grade/typing_examples.hpp>

#include <formula/units.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

namespace headcount::grade {

bool near_answer(double example, Count answer) {
    const double value = static_cast<double>(answer);
    return answer != 0 && example >= value / 2 && example <= value * 2;
}

render::View writing_examples(const solve::SolvedPart& part) {
    struct Example {
        std::string_view text;
        double value;
    };
    const auto pick = [&](const std::array<Example, 2>& options) {
        // A defined quantity's value may be past 64 bits or not whole: compared as a double, it is near or not the
        // same.
        const bool near = part.answer.exact ? [&] {
            const double value = formula::to_double(*part.answer.exact);
            return value != 0 && options[0].value >= value / 2 && options[0].value <= value * 2;
        }()
                                            : near_answer(options[0].value, part.answer.count);
        return std::string(near ? options[1].text : options[0].text);
    };
    // A time, compared in seconds: an answer in days or ms is the same quantity.
    const auto time_unit = part.ask ? formula::known_unit(part.ask->unit) : std::nullopt;
    const double seconds =
        time_unit && time_unit->dimension == formula::UnitInfo::Dimension::time
            ? formula::to_double(part.answer.exact ? *part.answer.exact : formula::to_number(part.answer.count)) *
                  formula::to_double(time_unit->scale)
            : 0;
    const bool near_time = seconds > 0 && 0.0042 >= seconds / 2 && 0.0042 <= seconds * 2;
    return render::View{{"number", pick({{{"1,234,567", 1234567}, {"7,654,321", 7654321}}})},
                        {"time", near_time ? "7.5 h" : "4.2 ms"},
                        {"scaled", pick({{{"1.23M", 1230000}, {"7.65M", 7650000}}})},
                        {"expression", pick({{{"12*(34^2+56)", 14544}, {"98*(76^2+54)", 571340}}})},
                        {"bytes", pick({{{"1.23 MB", 1230000}, {"7.65 MB", 7650000}}})},
                        {"binary_bytes", pick({{{"1.5 MiB", 1572864}, {"7.5 MiB", 7864320}}})},
                        {"shape", part.answer.shape == solve::Shape{2, 3, 4, 5} ? "(5, 4, 3, 2)" : "(2, 3, 4, 5)"}};
}

std::optional<CountExample> count_example(std::span<const Count> answers) {
    // n = 10, 15, 20, 30, 50, 70 times a power of 10, up to 10^9: consecutive counts are at most 2.8 times apart, so
    // between two answers more than 11 times apart (2x off each, and 2.8x of room) there is always one.
    std::vector<Count> sizes;
    for (Count scale = 1; scale <= 100'000'000; scale *= 10)
        for (const Count m : {10, 15, 20, 30, 50, 70})
            if (m * scale <= 1'000'000'000)
                sizes.push_back(m * scale);
    // The most ordinary size first: closest to three million (as a ratio), where a count shows its separators.
    const auto distance = [](Count n) { return std::abs(std::log(3.0 * static_cast<double>(n * (n + 1)) / 3e6)); };
    std::stable_sort(sizes.begin(), sizes.end(), [&](Count a, Count b) { return distance(a) < distance(b); });
    for (const Count n : sizes) {
        const Count value = 3 * n * (n + 1); // at most 3·10^9·(10^9 + 1) < 2^62
        const bool near = std::any_of(answers.begin(), answers.end(),
                                      [&](Count answer) { return near_answer(static_cast<double>(value), answer); });
        if (!near)
            return CountExample{value, plain_number(value), with_thousands(value), fmt::format("3*{}*{}", n, n + 1),
                                fmt::format("3 \\times {} \\times {}", n, n + 1)};
    }
    return std::nullopt;
}

void append_count_answers(const solve::SolvedProblem& problem, std::vector<Count>& out) {
    for (const solve::SolvedPart& part : problem.parts)
        if (part.ask->type() == solve::Ask::Type::count) {
            // A defined quantity's value that is not a whole count within 10^36, as the nearest whole one when it has
            // one.
            const double value = part.answer.exact ? formula::to_double(*part.answer.exact) : 0;
            out.push_back(part.answer.exact && part.answer.count == 0 && std::abs(value) < 9e18
                              ? static_cast<Count>(std::llround(value))
                              : part.answer.count);
        }
}

} // namespace headcount::grade

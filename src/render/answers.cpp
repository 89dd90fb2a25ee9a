#include <render/answers.hpp>

#include <util/text.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <cmath>

namespace headcount::render {

namespace {

/// Axes are separated by commas, so they carry no thousands separators: (32, 8, 4096).
std::string shape_text(const solve::Shape& shape) { return fmt::format("({})", fmt::join(shape, ", ")); }

std::string choice_word(const solve::Ask& ask, const solve::Answer& answer) {
    const auto index = static_cast<std::size_t>(answer.count);
    return index < ask.choices.size() ? std::string(ask.choices[index].word) : std::string("?");
}

/// Whole numbers past 2^53 are the ones a JSON reader that parses numbers as doubles (JavaScript's) would round.
constexpr long k_json_safe = 9007199254740992L;

} // namespace

std::string grouped_digits(std::string_view digits, std::string_view separator) {
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += separator;
        out += digits[i];
    }
    return out;
}

std::string exact_text(const formula::Number& value) {
    if (value.get_den() == 1) {
        const std::string digits = value.get_num().get_str();
        const bool negative = !digits.empty() && digits.front() == '-';
        return (negative ? "-" : "") + grouped_digits(negative ? digits.substr(1) : digits, ",");
    }
    if (const auto decimal = formula::exact_decimal(value, 12))
        return *decimal;
    return "about " + formula::rounded(value, 6);
}

std::string plain_exact(const formula::Number& value) {
    if (value.get_den() == 1)
        return value.get_num().get_str();
    if (const auto decimal = formula::exact_decimal(value, 40))
        return *decimal;
    return formula::rounded(value, 15);
}

nlohmann::ordered_json json_count(Count count) {
    if (count >= -k_json_safe && count <= k_json_safe)
        return static_cast<std::int64_t>(count); // exact: within 2^53
    return fmt::format("{}", count);
}

nlohmann::ordered_json json_exact(const formula::Number& value) {
    if (value.get_den() == 1 && cmp(abs(value.get_num()), mpz_class(k_json_safe)) <= 0)
        return value.get_num().get_si();
    if (value.get_den() == 1)
        return value.get_num().get_str();
    if (const auto decimal = formula::exact_decimal(value, 40))
        return *decimal;
    return value.get_str(); // "num/den", lowest terms
}

nlohmann::ordered_json byte_units(Count bytes) {
    constexpr auto k_decimal = std::to_array<std::string_view>({"KB", "MB", "GB", "TB"});
    constexpr auto k_binary = std::to_array<std::string_view>({"KiB", "MiB", "GiB", "TiB"});
    static_assert(k_decimal.size() == k_binary.size(), "each decimal unit has its binary one");
    // The unit as a whole number, so "exactly" is decided on the count itself: past 2^53 a double quotient looks
    // whole whatever its last digits.
    auto in = [&](Count base, const auto& names) {
        Count unit = 1;
        std::size_t level = 0;
        while (level < names.size() && bytes >= unit * base) {
            unit *= base;
            ++level;
        }
        if (level == 0)
            return fmt::format("exactly {} B", bytes);
        if (bytes % unit == 0)
            return fmt::format("exactly {} {}", bytes / unit, names[level - 1]);
        return fmt::format("about {:.2f} {}", static_cast<double>(bytes) / static_cast<double>(unit), names[level - 1]);
    };
    return nlohmann::ordered_json{{"decimal", in(1000, k_decimal)}, {"binary", in(1024, k_binary)}};
}

std::string answer_text(const solve::Ask& ask, const solve::Answer& answer) {
    switch (ask.type()) {
    case solve::Ask::Type::shape:
        return shape_text(answer.shape);
    case solve::Ask::Type::choice:
        return choice_word(ask, answer);
    case solve::Ask::Type::count:
        break;
    }
    return answer.exact ? exact_text(*answer.exact) : with_thousands(answer.count);
}

std::string plain_answer(const solve::Ask& ask, const solve::Answer& answer) {
    if (answer.exact)
        return plain_exact(*answer.exact);
    return ask.type() == solve::Ask::Type::count ? plain_number(answer.count) : answer_text(ask, answer);
}

nlohmann::ordered_json json_answer(const solve::Ask& ask, const solve::Answer& answer) {
    switch (ask.type()) {
    case solve::Ask::Type::shape: {
        auto axes = nlohmann::ordered_json::array();
        for (const Count axis : answer.shape)
            axes.push_back(json_count(axis));
        return axes;
    }
    case solve::Ask::Type::choice:
        return choice_word(ask, answer);
    case solve::Ask::Type::count:
        break;
    }
    return answer.exact ? json_exact(*answer.exact) : json_count(answer.count);
}

} // namespace headcount::render

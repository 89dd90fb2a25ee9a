#include <answer/words.hpp>

#include <util/text.hpp>

#include <algorithm>
#include <array>
#include <string>

namespace headcount::answer::detail {

namespace {

/// A word (lower case) and the number it multiplies by.
struct Entry {
    std::string_view word;
    Wide factor;
};

constexpr Wide k_thousand = 1'000;
constexpr Wide k_kibi = 1'024;

// Words that mean the same whatever the ask's unit.
constexpr std::array k_scale_words{
    Entry{"thousand", k_thousand},
    Entry{"million", k_thousand* k_thousand},
    Entry{"mn", k_thousand* k_thousand},
    Entry{"billion", k_thousand* k_thousand* k_thousand},
    Entry{"bn", k_thousand* k_thousand* k_thousand},
    Entry{"trillion", k_thousand* k_thousand* k_thousand* k_thousand},
    Entry{"tn", k_thousand* k_thousand* k_thousand* k_thousand},
};

// Single-letter scales; for bytes these are ambiguous (k, m, g, t) or a unit (b) instead.
constexpr std::array k_scale_letters{
    Entry{"k", k_thousand},
    Entry{"m", k_thousand* k_thousand},
    Entry{"b", k_thousand* k_thousand* k_thousand},
    Entry{"t", k_thousand* k_thousand* k_thousand* k_thousand},
};

/// A unit of bytes: its symbol and its spelled-out name (matched with and without a final s), lower case.
struct ByteUnit {
    std::string_view symbol;
    std::string_view name;
    Wide factor;
    std::string_view unit; ///< as the feedback writes it
};

constexpr std::array k_byte_units{
    ByteUnit{"b", "byte", 1, "B"},
    ByteUnit{"kb", "kilobyte", k_thousand, "KB"},
    ByteUnit{"mb", "megabyte", k_thousand* k_thousand, "MB"},
    ByteUnit{"gb", "gigabyte", k_thousand* k_thousand* k_thousand, "GB"},
    ByteUnit{"tb", "terabyte", k_thousand* k_thousand* k_thousand* k_thousand, "TB"},
    ByteUnit{"kib", "kibibyte", k_kibi, "KiB"},
    ByteUnit{"mib", "mebibyte", k_kibi* k_kibi, "MiB"},
    ByteUnit{"gib", "gibibyte", k_kibi* k_kibi* k_kibi, "GiB"},
    ByteUnit{"tib", "tebibyte", k_kibi* k_kibi* k_kibi* k_kibi, "TiB"},
};

constexpr auto k_bit_names =
    std::to_array<std::string_view>({"bit", "kbit", "mbit", "gbit", "tbit", "kibit", "mibit", "gibit", "tibit",
                                     "kilobit", "megabit", "gigabit", "terabit"});
// Singular forms: "biases" loses its s to "biase".
constexpr auto k_count_nouns =
    std::to_array<std::string_view>({"parameter", "param", "weight", "bias", "biase", "flop", "learnable", "trainable",
                                     "dimension", "dim", "element", "token", "step", "gpu"});
// A count of devices: a part in any of these units takes the others too (85 GPUs for a part in chips), a part in
// another unit none of them but gpu, which counts as above (1,000 GPU-hours).
constexpr auto k_device_nouns = std::to_array<std::string_view>({"chip", "gpu", "tpu", "accelerator", "device"});
constexpr auto k_fillers = std::to_array<std::string_view>({"and", "in", "total", "all"});
// GFLOPs and the like: a scale and the count's noun in one word, matched in the singular.
constexpr std::array k_flop_scales{
    Entry{"eflop", k_thousand* k_thousand* k_thousand* k_thousand* k_thousand* k_thousand},
    Entry{"kflop", k_thousand},
    Entry{"mflop", k_thousand* k_thousand},
    Entry{"gflop", k_thousand* k_thousand* k_thousand},
    Entry{"tflop", k_thousand* k_thousand* k_thousand* k_thousand},
    Entry{"pflop", k_thousand* k_thousand* k_thousand* k_thousand* k_thousand},
};
constexpr Wide k_minute = 60;
constexpr Wide k_hour = 60 * k_minute;
constexpr Wide k_day = 24 * k_hour;
// A unit of time: its normalised name, its length in seconds and every spelling of it (lower case). A year is the
// Julian year, 365.25 days = 31,557,600 s: one fixed length, where a calendar year is 365 or 366 days.
struct TimeUnit {
    std::string_view unit;
    Wide seconds;
    Wide per = 1;                              ///< `seconds` is divided by this: 1000 for a millisecond
    std::array<std::string_view, 6> spellings; ///< the unused ones empty
};

// µ is written as the micro sign (U+00B5) or the Greek letter mu (U+03BC), both lower-cased as they are.
constexpr std::array k_time_units{
    TimeUnit{"ns", 1, 1'000'000'000, {"ns", "nsec", "nanosecond", "nanoseconds"}},
    TimeUnit{"\u00b5s", 1, 1'000'000, {"us", "usec", "\u00b5s", "\u03bcs", "microsecond", "microseconds"}},
    TimeUnit{"ms", 1, 1'000, {"ms", "msec", "msecs", "millisecond", "milliseconds"}},
    TimeUnit{"s", 1, 1, {"s", "sec", "secs", "second", "seconds"}},
    TimeUnit{"min", k_minute, 1, {"min", "mins", "minute", "minutes"}},
    TimeUnit{"h", k_hour, 1, {"h", "hr", "hrs", "hour", "hours"}},
    TimeUnit{"d", k_day, 1, {"d", "day", "days"}},
    TimeUnit{"wk", 7 * k_day, 1, {"wk", "wks", "week", "weeks"}},
    TimeUnit{"yr", 36'525 * k_day / 100, 1, {"yr", "yrs", "year", "years"}},
};
static_assert(36'525 * k_day / 100 == 31'557'600, "a Julian year is 365.25 days");
constexpr auto k_approx_words =
    std::to_array<std::string_view>({"about", "approx", "approximately", "roughly", "around"});

template <class Table> const Entry* find(const Table& table, std::string_view lower) {
    const auto it = std::find_if(table.begin(), table.end(), [&](const Entry& e) { return e.word == lower; });
    return it == table.end() ? nullptr : &*it;
}

/// The byte unit whose `spelling` (&ByteUnit::symbol or &ByteUnit::name) is `lower`, or nullptr.
const ByteUnit* find_byte_unit(std::string_view ByteUnit::*spelling, std::string_view lower) {
    const auto it =
        std::find_if(k_byte_units.begin(), k_byte_units.end(), [&](const ByteUnit& u) { return u.*spelling == lower; });
    return it == k_byte_units.end() ? nullptr : &*it;
}

template <std::size_t N> bool contains(const std::array<std::string_view, N>& words, std::string_view lower) {
    return std::find(words.begin(), words.end(), lower) != words.end();
}

/// The unit of time spelt `lower` (not empty: the rows pad their spellings with empty ones), or nullptr.
const TimeUnit* find_time_unit(std::string_view lower) {
    const auto it = std::find_if(k_time_units.begin(), k_time_units.end(),
                                 [&](const TimeUnit& u) { return !lower.empty() && contains(u.spellings, lower); });
    return it == k_time_units.end() ? nullptr : &*it;
}

std::string_view without_plural(std::string_view lower) {
    return lower.size() > 1 && lower.back() == 's' ? lower.substr(0, lower.size() - 1) : lower;
}

} // namespace

bool per_tail_of(std::string_view word, std::string_view noun) {
    const std::string own = ascii_lowered(noun);
    const std::size_t per = own.find(" per ");
    if (per == std::string::npos)
        return false;
    const std::string_view rest = std::string_view(own).substr(per + 5);
    const std::string lower = ascii_lowered(word);
    return without_plural(rest.substr(0, rest.find(' '))) == without_plural(lower);
}

WordMeaning classify_word(std::string_view word, AnswerUnit unit, std::string_view noun) {
    const std::string lower = ascii_lowered(word);
    const std::string_view singular = without_plural(lower);
    const std::string own = ascii_lowered(noun);

    if (lower == "x")
        return {WordKind::multiply, 1, ""};
    if (contains(k_approx_words, lower))
        return {WordKind::approx_marker, 1, ""};
    // A plain number is a count that may be a percentage: it takes the same nouns and scales.
    const bool counts = unit == AnswerUnit::count || unit == AnswerUnit::plain;
    // A noun of several words ("tokens per parameter") is a noun by its first; parse_answer reads the rest.
    const std::string_view own_singular = without_plural(std::string_view(own).substr(0, own.find(' ')));
    if (counts && (contains(k_count_nouns, singular) || (!own.empty() && singular == own_singular) ||
                   (contains(k_device_nouns, own_singular) && contains(k_device_nouns, singular))))
        return {WordKind::count_noun, 1, ""};
    if (contains(k_fillers, lower))
        return {WordKind::filler, 1, ""};
    if (counts)
        if (const Entry* e = find(k_flop_scales, singular))
            return {WordKind::scale, e->factor, "", true};
    if (unit == AnswerUnit::plain && lower == "percent")
        return {WordKind::percent, 1, ""};
    if (const Entry* e = find(k_scale_words, lower))
        return {WordKind::scale, e->factor, ""};
    if (unit != AnswerUnit::bytes) {
        if (const Entry* e = find(k_scale_letters, lower))
            return {WordKind::scale, e->factor, ""};
    } else if (lower == "k" || lower == "m" || lower == "g" || lower == "t") {
        return {WordKind::ambiguous_prefix, 1, ""};
    }
    if (const TimeUnit* u = find_time_unit(lower))
        return {WordKind::time_unit, u->seconds, u->unit, false, u->per};
    if (contains(k_bit_names, singular))
        return {WordKind::bits_unit, 1, ""};
    if (const ByteUnit* u = find_byte_unit(&ByteUnit::name, singular))
        return {WordKind::bytes_unit, u->factor, u->unit};
    if (const ByteUnit* u = find_byte_unit(&ByteUnit::symbol, lower)) {
        // Networking writes bits as Mb and Gb; a student typing all lower case has not thought about it.
        const bool has_upper = std::any_of(word.begin(), word.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
        if (has_upper && word.back() == 'b')
            return {WordKind::bits_unit, 1, ""};
        return {WordKind::bytes_unit, u->factor, u->unit};
    }
    return {};
}

} // namespace headcount::answer::detail

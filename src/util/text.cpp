#include <util/text.hpp>
#include <util/utf8.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace headcount {

std::string with_thousands(std::int64_t value) {
    // Work on the magnitude as unsigned so INT64_MIN formats too.
    const bool negative = value < 0;
    std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
    std::string digits = fmt::format("{}", magnitude);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return negative ? "-" + out : out;
}

namespace {
/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours each cost 1,
/// because a swapped pair ("rwo" for "row") is the commonest typo.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}
} // namespace

std::string closest_match(std::string_view word, std::span<const std::string_view> candidates) {
    // A typo is at most a third of the word's letters away (at least 1, so "hh" -> "h" is found).
    const std::size_t limit = std::max<std::size_t>(1, (word.size() + 2) / 3);
    std::string_view best;
    std::size_t best_distance = limit + 1;
    for (std::string_view candidate : candidates) {
        const std::size_t d = edit_distance(word, candidate);
        if (d < best_distance) {
            best = candidate;
            best_distance = d;
        }
    }
    return std::string(best);
}

std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
    const std::string best = closest_match(word, candidates);
    return best.empty() ? std::string() : fmt::format(" (did you mean '{}'?)", best);
}

bool is_valid_utf8(std::string_view text) { return decode_utf8(text).has_value(); }

std::string escape_xml(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string shell_quote(std::string_view text) {
    const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
               c == '.' || c == '@' || c == '/' || c == ':';
    });
    if (plain)
        return std::string(text);
    std::string out = "'";
    for (char c : text)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

} // namespace headcount

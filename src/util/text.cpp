#include <util/text.hpp>

#include <util/utf8.hpp>

#include <fmt/format.h>
#include <nettle/base64.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace headcount {

namespace {

/// `text` with the bytes from `first` to `last` moved by `shift`, others as they are.
std::string ascii_shifted(std::string_view text, char first, char last, int shift) {
    std::string out(text);
    for (char& c : out)
        if (c >= first && c <= last)
            c = static_cast<char>(c + shift);
    return out;
}

} // namespace

std::string ascii_lowered(std::string_view text) { return ascii_shifted(text, 'A', 'Z', 'a' - 'A'); }

std::string ascii_uppered(std::string_view text) { return ascii_shifted(text, 'a', 'z', 'A' - 'a'); }

std::string_view trimmed(std::string_view text, std::string_view characters) {
    const std::size_t first = text.find_first_not_of(characters);
    if (first == std::string_view::npos)
        return {};
    return text.substr(first, text.find_last_not_of(characters) - first + 1);
}

std::string plain_number(Wide value) { return fmt::format("{}", value); }

std::string with_thousands(Wide value) {
    // Work on the magnitude as unsigned so the most negative value formats too.
    const bool negative = value < 0;
    const UnsignedWide magnitude = negative ? 0 - static_cast<UnsignedWide>(value) : static_cast<UnsignedWide>(value);
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

std::string byte_size(std::uint64_t bytes) {
    constexpr auto k_units = std::to_array<std::string_view>({"GiB", "MiB", "KiB"});
    for (int i = 0; i < 3; ++i) {
        const std::uint64_t unit = std::uint64_t{1} << (10 * (3 - i));
        if (bytes >= unit && bytes % unit == 0)
            return fmt::format("{} {}", with_thousands(static_cast<std::int64_t>(bytes / unit)), k_units[i]);
    }
    return fmt::format("{} byte{}", with_thousands(static_cast<std::int64_t>(bytes)), bytes == 1 ? "" : "s");
}

std::string closest_match(std::string_view word, std::span<const std::string_view> candidates) {
    // A typo is at most a third of the word's letters away (at least 1, so "hh" -> "h" is found).
    const std::size_t limit = std::max<std::size_t>(1, (word.size() + 2) / 3);
    std::string_view best;
    std::size_t best_distance = limit + 1;
    for (std::string_view candidate : candidates) {
        // The lengths alone bound the distance from below: skip the quadratic work for hopeless (or huge)
        // words.
        const std::size_t length_gap =
            word.size() > candidate.size() ? word.size() - candidate.size() : candidate.size() - word.size();
        if (length_gap >= best_distance)
            continue;
        const std::size_t d = edit_distance(word, candidate);
        if (d < best_distance) {
            best = candidate;
            best_distance = d;
        }
    }
    return std::string(best);
}

bool one_of_words(std::string_view words, std::string_view word) {
    while (!words.empty()) {
        const std::size_t space = words.find(' ');
        if (words.substr(0, space) == word)
            return true;
        words = space == std::string_view::npos ? std::string_view() : words.substr(space + 1);
    }
    return false;
}

std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
    const std::string best = closest_match(word, candidates);
    return best.empty() ? std::string() : fmt::format(" (did you mean '{}'?)", best);
}

bool is_valid_utf8(std::string_view text) { return decode_utf8(text).has_value(); }

std::optional<std::string> unwritable_text_problem(std::string_view text) {
    const auto characters = decode_utf8(text);
    if (!characters)
        return "is not valid UTF-8";
    for (const CodePoint& c : *characters) {
        const char32_t cp = c.value;
        if ((cp < 0x20 && cp != U'\t' && cp != U'\n') || (cp >= 0x7F && cp <= 0x9F))
            return fmt::format("contains a control character (U+{:04X})", static_cast<std::uint32_t>(cp));
        if (cp == 0xFFFE || cp == 0xFFFF)
            return fmt::format("contains U+{:04X}, which is not a character", static_cast<std::uint32_t>(cp));
    }
    return std::nullopt;
}

namespace {

/// a / b rounded half up to `decimals` places, as digits with a decimal point; a >= 0, b > 0. Long division, so
/// no step overflows for any counts (a remainder stays below b).
std::string rounded_quotient(Wide a, Wide b, int decimals) {
    std::string whole = fmt::format("{}", a / b);
    std::string fraction;
    Wide remainder = a % b;
    for (int i = 0; i < decimals; ++i) {
        remainder *= 10;
        fraction += static_cast<char>('0' + static_cast<int>(remainder / b));
        remainder %= b;
    }
    if (remainder >= b - remainder) { // half up: carry a one into the last digit written
        std::string digits = whole + fraction;
        std::size_t i = digits.size();
        while (i > 0 && digits[i - 1] == '9')
            digits[--i] = '0';
        if (i == 0)
            digits.insert(digits.begin(), '1');
        else
            ++digits[i - 1];
        whole = digits.substr(0, digits.size() - fraction.size());
        fraction = digits.substr(whole.size());
    }
    return decimals == 0 ? whole : whole + "." + fraction;
}

} // namespace

std::string percent_text(Wide part, Wide whole, int decimals) {
    if (whole <= 0)
        return "0%";
    // part / whole to two more places, the point then moved two places right: no part * 100 to overflow.
    std::string digits = rounded_quotient(part, whole, decimals + 2);
    const std::size_t point = digits.find('.');
    digits.erase(point, 1);
    std::string whole_part = digits.substr(0, point + 2);
    const std::size_t nonzero = whole_part.find_first_not_of('0');
    whole_part = nonzero == std::string::npos ? "0" : whole_part.substr(std::min(nonzero, whole_part.size() - 1));
    return (decimals == 0 ? whole_part : whole_part + "." + digits.substr(point + 2)) + "%";
}

std::string ratio_text(Wide a, Wide b, int decimals) { return rounded_quotient(a, b, decimals); }

std::string in_words(Wide value) {
    constexpr Wide k_quintillion = 1'000'000'000'000'000'000;
    constexpr auto k_scales =
        std::to_array<std::pair<Wide, std::string_view>>({{k_quintillion * 1'000'000'000'000'000, "decillion"},
                                                          {k_quintillion * 1'000'000'000'000, "nonillion"},
                                                          {k_quintillion * 1'000'000'000, "octillion"},
                                                          {k_quintillion * 1'000'000, "septillion"},
                                                          {k_quintillion * 1'000, "sextillion"},
                                                          {k_quintillion, "quintillion"},
                                                          {1'000'000'000'000'000, "quadrillion"},
                                                          {1'000'000'000'000, "trillion"},
                                                          {1'000'000'000, "billion"},
                                                          {1'000'000, "million"}});
    for (std::size_t i = 0; i < k_scales.size(); ++i) {
        const auto [scale, name] = k_scales[i];
        if (value < scale)
            continue;
        // Three significant figures: 1.05, 10.5 or 105 of the scale. Rounding may add a digit (9.996 -> 10.0,
        // 999.6 million -> 1.00 billion): then one decimal fewer, or the next scale.
        const Wide whole = value / scale;
        int decimals = whole >= 100 ? 0 : (whole >= 10 ? 1 : 2);
        std::string digits = rounded_quotient(value, scale, decimals);
        if (digits.size() > 4 || (decimals == 0 && digits.size() > 3)) {
            if (decimals == 0)
                return i > 0 ? fmt::format("1.00 {}", k_scales[i - 1].second) : digits + " " + std::string(name);
            digits = rounded_quotient(value, scale, --decimals);
        }
        return fmt::format("{} {}", digits, name);
    }
    return with_thousands(value);
}

namespace {

/// `text` as XML characters: what XML 1.0 cannot carry, or should not, as U+FFFD; with `markup`, &, <, > and "
/// as references.
std::string xml_characters(std::string_view text, bool markup) {
    const std::string valid = repair_utf8(text);
    const auto characters = decode_utf8(valid).value_or(std::vector<CodePoint>{});
    std::string out;
    out.reserve(valid.size());
    for (std::size_t i = 0; i < characters.size(); ++i) {
        const char32_t cp = characters[i].value;
        const std::size_t end = i + 1 < characters.size() ? characters[i + 1].offset : valid.size();
        const bool control = (cp < 0x20 && cp != U'\t' && cp != U'\n' && cp != U'\r') || (cp >= 0x7F && cp <= 0x9F);
        switch (markup ? cp : U'\0') {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += control || cp == 0xFFFE || cp == 0xFFFF
                       ? std::string_view("\uFFFD")
                       : std::string_view(valid).substr(characters[i].offset, end - characters[i].offset);
        }
    }
    return out;
}

} // namespace

std::string escape_xml(std::string_view text) { return xml_characters(text, true); }

std::string xml_cdata(std::string_view text) {
    std::string out = "<![CDATA[";
    const std::string characters = xml_characters(text, false);
    // "]]>" would end the section: close it after "]]" and open another for ">".
    for (std::size_t at = 0, end = 0; at < characters.size(); at = end) {
        end = characters.find("]]>", at);
        end = end == std::string::npos ? characters.size() : end + 2;
        out += std::string_view(characters).substr(at, end - at);
        if (end < characters.size())
            out += "]]><![CDATA[";
    }
    return out + "]]>";
}

std::string base64(std::string_view bytes) {
    std::string out(BASE64_ENCODE_RAW_LENGTH(bytes.size()), '\0');
    base64_encode_raw(out.data(), bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data()));
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

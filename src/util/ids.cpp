#include <util/ids.hpp>

#include <util/text.hpp>

#include <fmt/format.h>
#include <utf8proc.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace headcount {

namespace {

// Characters Windows forbids in file names; '/' and '\\' would also escape the output folder on any system.
constexpr std::string_view k_forbidden_characters = "/\\:*?\"<>|";

// Opening any of these on Windows reaches a device, whatever the folder or extension. COM0/LPT0 and the
// superscript forms are in Microsoft's current list; CONIN$/CONOUT$ are the console.
constexpr auto k_windows_device_names = std::to_array<std::string_view>({
    "CON",       "PRN",       "AUX",       "NUL",       "COM0",      "COM1",      "COM2",   "COM3",
    "COM4",      "COM5",      "COM6",      "COM7",      "COM8",      "COM9",      "LPT0",   "LPT1",
    "LPT2",      "LPT3",      "LPT4",      "LPT5",      "LPT6",      "LPT7",      "LPT8",   "LPT9",
    "COM\u00B9", "COM\u00B2", "COM\u00B3", "LPT\u00B9", "LPT\u00B2", "LPT\u00B3", "CONIN$", "CONOUT$",
});

// Requires valid UTF-8 (checked first by the caller).
char32_t decode_at(std::string_view text, std::size_t& i) {
    const auto byte = [&](std::size_t k) { return static_cast<char32_t>(static_cast<unsigned char>(text[k])); };
    const char32_t lead = byte(i);
    const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    char32_t cp = length == 1 ? lead : lead & (0x7F >> length);
    for (std::size_t k = 1; k < length; ++k)
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    i += length;
    return cp;
}

bool is_control(char32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

// Characters that draw nothing (or reorder or break the line) would let two ids look the same, or one id look
// like another, in a file listing or a terminal. Unicode's categories say which (Cf, Zl, Zp); the combining
// grapheme joiner and the Hangul fillers are letters and marks that render as nothing.
bool is_invisible(char32_t cp) {
    switch (utf8proc_category(static_cast<utf8proc_int32_t>(cp))) {
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_ZL:
    case UTF8PROC_CATEGORY_ZP:
        return true;
    default:
        return cp == 0x034F || cp == 0x115F || cp == 0x1160 || cp == 0x3164 || cp == 0xFFA0;
    }
}

// A space that is not U+0020: no-break, figure, thin, ideographic... They look like a space, or like nothing.
bool is_other_space(char32_t cp) {
    return cp != U' ' && utf8proc_category(static_cast<utf8proc_int32_t>(cp)) == UTF8PROC_CATEGORY_ZS;
}

// What trim_id strips from the ends: blanks and the zero-width characters that stand in for one.
bool is_blank(char32_t cp) {
    return cp == U'\t' || cp == U' ' || is_other_space(cp) || cp == 0x200B || cp == 0x2060 || cp == 0xFEFF;
}

// Windows ignores everything from the first dot and trailing spaces before it, so "con .txt" is still CON.
std::optional<std::string> windows_device_name(std::string_view id) {
    std::string_view stem = id.substr(0, id.find('.'));
    while (!stem.empty() && stem.back() == ' ')
        stem.remove_suffix(1);
    const std::string upper = ascii_uppered(stem);
    if (std::find(k_windows_device_names.begin(), k_windows_device_names.end(), upper) == k_windows_device_names.end())
        return std::nullopt;
    return upper;
}

} // namespace

std::optional<std::string> student_id_problem(std::string_view id) {
    if (id.empty())
        return "is empty";
    if (id.size() > k_max_student_id_bytes)
        return fmt::format("is longer than {} bytes ({})", k_max_student_id_bytes, id.size());
    if (!is_valid_utf8(id))
        return "is not valid UTF-8";
    for (std::size_t i = 0; i < id.size();) {
        const char32_t cp = decode_at(id, i);
        if (is_control(cp))
            return fmt::format("contains a control character (U+{:04X})", static_cast<std::uint32_t>(cp));
        if (is_other_space(cp))
            return fmt::format("contains a space that is not an ordinary one (U+{:04X}, e.g. a no-break space)",
                               static_cast<std::uint32_t>(cp));
        if (is_invisible(cp))
            return fmt::format("contains an invisible formatting character (U+{:04X})", static_cast<std::uint32_t>(cp));
    }
    if (const std::size_t at = id.find_first_of(k_forbidden_characters); at != std::string_view::npos)
        return fmt::format("contains '{}', which cannot be in a file name", id[at]);
    if (id == "." || id == "..")
        return fmt::format("is '{}', which names a folder", id);
    if (id.front() == '.' || id.front() == '-' || id.front() == ' ')
        return id.front() == ' ' ? std::string("starts with a space") : fmt::format("starts with '{}'", id.front());
    if (id.back() == '.' || id.back() == ' ')
        return id.back() == ' ' ? std::string("ends with a space") : std::string("ends with '.'");
    if (const auto device = windows_device_name(id))
        return fmt::format("is the Windows device name {}", *device);
    return std::nullopt;
}

std::string_view trim_id(std::string_view field) {
    if (!is_valid_utf8(field)) {
        const auto first = field.find_first_not_of(" \t");
        return first == std::string_view::npos ? std::string_view()
                                               : field.substr(first, field.find_last_not_of(" \t") - first + 1);
    }
    std::size_t begin = 0;
    while (begin < field.size()) {
        std::size_t next = begin;
        if (!is_blank(decode_at(field, next)))
            break;
        begin = next;
    }
    std::size_t end = begin; // one past the last character that is not blank
    for (std::size_t i = begin; i < field.size();)
        if (!is_blank(decode_at(field, i)))
            end = i;
    return field.substr(begin, end - begin);
}

std::string id_key(std::string_view id) {
    // Most ids are ASCII, whose NFC form is themselves and whose case folding is A-Z to a-z: no utf8proc call and
    // no allocation of its own (a class of 500,000 new ids pays this once each).
    if (std::all_of(id.begin(), id.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
        std::string key(id);
        for (char& c : key)
            if (c >= 'A' && c <= 'Z')
                c = static_cast<char>(c - 'A' + 'a');
        return key;
    }
    utf8proc_uint8_t* folded = nullptr;
    const auto options = static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD);
    const utf8proc_ssize_t length = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(id.data()),
                                                 static_cast<utf8proc_ssize_t>(id.size()), &folded, options);
    if (length < 0)
        return std::string(id);
    const std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owned(folded, &std::free);
    return std::string(reinterpret_cast<const char*>(folded), static_cast<std::size_t>(length));
}

std::string collision_reason(std::string_view id, std::string_view earlier, int earlier_line) {
    return fmt::format("student id '{}' and '{}' (line {}) differ only in case or Unicode form; they would share "
                       "one feedback file on macOS and Windows, so they must not name two students",
                       printable(id), printable(earlier), earlier_line);
}

std::string neutralise_cell(std::string_view value) {
    constexpr std::string_view k_formula_starts = "=+-@\t\r";
    if (!value.empty() && k_formula_starts.find(value.front()) != std::string_view::npos)
        return "'" + std::string(value);
    return std::string(value);
}

std::string printable(std::string_view text) {
    // Cut before a UTF-8 continuation byte rather than through a character: messages end up in JSON.
    std::size_t cut = std::min<std::size_t>(text.size(), 60);
    while (cut > 0 && cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    std::string out;
    for (char c : text.substr(0, cut))
        out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
    return text.size() > 60 ? out + "…" : out;
}

} // namespace headcount

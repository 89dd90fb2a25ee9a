#include <util/utf8.hpp>

namespace headcount {

std::pair<char32_t, std::size_t> decode_utf8_at(std::string_view text, std::size_t at) {
    const auto lead = static_cast<unsigned char>(text[at]);
    std::size_t extra = 0;
    char32_t value = lead;
    char32_t smallest = 0;
    if (lead >= 0x80) {
        if ((lead & 0xE0) == 0xC0) {
            extra = 1, value = lead & 0x1F, smallest = 0x80;
        } else if ((lead & 0xF0) == 0xE0) {
            extra = 2, value = lead & 0x0F, smallest = 0x800;
        } else if ((lead & 0xF8) == 0xF0) {
            extra = 3, value = lead & 0x07, smallest = 0x10000;
        } else {
            return {0, 0};
        }
    }
    if (extra >= text.size() - at)
        return {0, 0};
    for (std::size_t k = 1; k <= extra; ++k) {
        const auto next = static_cast<unsigned char>(text[at + k]);
        if ((next & 0xC0) != 0x80)
            return {0, 0};
        value = (value << 6) | (next & 0x3F);
    }
    if (value < smallest || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
        return {0, 0};
    return {value, extra + 1};
}

std::optional<std::vector<CodePoint>> decode_utf8(std::string_view text) {
    std::vector<CodePoint> out;
    for (std::size_t i = 0; i < text.size();) {
        const auto [value, length] = decode_utf8_at(text, i);
        if (length == 0)
            return std::nullopt;
        out.push_back({value, i});
        i += length;
    }
    return out;
}

std::string repair_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        if (static_cast<unsigned char>(text[i]) < 0x80) { // ASCII, most of any text: no decoding to try
            out += text[i++];
            continue;
        }
        std::size_t length = 1; // the shortest prefix that is one whole valid character, if any
        while (length <= 4 && i + length <= text.size() && !decode_utf8(text.substr(i, length)))
            ++length;
        if (length <= 4 && i + length <= text.size()) {
            out += text.substr(i, length);
            i += length;
        } else {
            out += "\uFFFD";
            ++i;
        }
    }
    return out;
}

} // namespace headcount

#pragma once
// Strict UTF-8 decoding for untrusted input (answers, CSV cells, ids), keeping where each character starts so messages
// can quote it.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace headcount {

/// One decoded character and the offset of its first byte in the text.
struct CodePoint {
    char32_t value = 0;
    std::size_t offset = 0;
};

/// The character that starts at byte `at` of `text` (at < text.size()) and its length in bytes; a length of 0 when
/// no valid character starts there (decode_utf8's rules). For a lexer that reads text a character at a time.
std::pair<char32_t, std::size_t> decode_utf8_at(std::string_view text, std::size_t at);

/// The characters of `text`, or nullopt when it is not valid UTF-8: truncated sequences, overlong forms,
/// surrogates (U+D800..U+DFFF) and values past U+10FFFF are all refused.
std::optional<std::vector<CodePoint>> decode_utf8(std::string_view text);

/// `text` with every byte that does not begin a valid character (by decode_utf8's rules) replaced by U+FFFD,
/// as the WHATWG decoder does one byte at a time; valid text comes back unchanged.
std::string repair_utf8(std::string_view text);

} // namespace headcount

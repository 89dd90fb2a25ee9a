#pragma once
// Strict UTF-8 decoding for untrusted input (answers, CSV cells, ids), keeping where each character starts so messages
// can quote it.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace headcount {

/// One decoded character and the offset of its first byte in the text.
struct CodePoint {
    char32_t value = 0;
    std::size_t offset = 0;
};

/// The characters of `text`, or nullopt when it is not valid UTF-8: truncated sequences, overlong forms,
/// surrogates (U+D800..U+DFFF) and values past U+10FFFF are all refused.
std::optional<std::vector<CodePoint>> decode_utf8(std::string_view text);

/// `text` with every byte that does not begin a valid character (by decode_utf8's rules) replaced by U+FFFD,
/// as the WHATWG decoder does one byte at a time; valid text comes back unchanged.
std::string repair_utf8(std::string_view text);

} // namespace headcount

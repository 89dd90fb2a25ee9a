#pragma once
// Small text helpers shared by the layers: number formatting, "did you mean" suggestions, UTF-8 checks.

#include <util/wide.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace headcount {

/// 1050624 -> "1,050,624"; negative numbers keep their sign ("-2,048").
std::string with_thousands(Wide value);

/// 1050624 -> "1050624": the digits alone, for TeX, CSV and answer forms (std::to_string has no Wide overload).
std::string plain_number(Wide value);

/// A size for messages: "64 MiB" when a whole number of KiB/MiB/GiB, else "1,000 bytes".
std::string byte_size(std::uint64_t bytes);

/// `text` with A-Z lowered, other bytes as they are ("Week3-MHA" -> "week3-mha"): for ids compared without case.
std::string ascii_lowered(std::string_view text);

/// `text` with a-z raised, other bytes as they are ("com1.txt" -> "COM1.TXT").
std::string ascii_uppered(std::string_view text);

/// `text` without the leading and trailing bytes that are among `characters` (" \t" trims blanks).
std::string_view trimmed(std::string_view text, std::string_view characters);

/// The candidate closest to `word` by edit distance, or "" when none is close enough to be a plausible typo.
std::string closest_match(std::string_view word, std::span<const std::string_view> candidates);

/// " (did you mean 'x'?)" for the closest candidate, or "" when there is none.
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);

/// Whether `word` is one of the space-separated `words` ("d day days"), exactly.
bool one_of_words(std::string_view words, std::string_view word);

/// True when `text` is well-formed UTF-8: no overlong forms, surrogates, code points past U+10FFFF or cut-off
/// sequences. The empty string and plain ASCII (NUL included) are valid.
bool is_valid_utf8(std::string_view text);

/// Why `text` cannot be written as it is into Markdown, JSON and XML (every format headcount writes), as a
/// phrase ("is not valid UTF-8", "contains a control character (U+001B)"), or nullopt when it can. Tabs and line
/// feeds are fine; other C0 controls, DEL, C1 controls and the non-characters U+FFFE and U+FFFF (which XML
/// cannot carry even escaped) are not.
std::optional<std::string> unwritable_text_problem(std::string_view text);

/// part / whole as a percentage rounded half up to `decimals` places: (1048576, 1050624, 1) -> "99.8%". Exact
/// integer arithmetic, so every machine prints the same; "0%" when whole is 0.
std::string percent_text(Wide part, Wide whole, int decimals = 1);

/// a / b rounded half up to `decimals` places: (4198400, 1050624, 2) -> "4.00". b must be positive.
std::string ratio_text(Wide a, Wide b, int decimals = 2);

/// A large count in words, to three significant figures: 1050624 -> "1.05 million", 343597383680 ->
/// "344 billion", 3.19e23 -> "319 sextillion"; below a million, the exact number with
/// separators. Non-negative counts.
std::string in_words(Wide value);

/// `text` with &, <, > and " escaped: safe as XML or HTML text and in a double-quoted attribute. What XML 1.0
/// cannot carry even as a character reference (control characters other than tab, LF and CR; U+FFFE, U+FFFF),
/// or should not (DEL, the C1 controls), becomes U+FFFD, as does invalid UTF-8: the output always parses.
std::string escape_xml(std::string_view text);

/// `text` as one CDATA section (<![CDATA[...]]>), characters XML cannot carry replaced as escape_xml does; a "]]>"
/// inside is split across two sections. What XML readers that drop white-space-only pieces of text (Moodle's)
/// need: a section reaches them whole, where escaped text is cut at every reference.
std::string xml_cdata(std::string_view text);

/// `bytes` in base64 (RFC 4648, with padding), as data: URIs carry them; Nettle's encoder.
std::string base64(std::string_view bytes);

/// `text` as one word for a POSIX shell: unchanged when it is only letters, digits and - _ . @ / :, else in single
/// quotes with each ' written '\''.
std::string shell_quote(std::string_view text);

} // namespace headcount

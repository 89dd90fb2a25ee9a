#pragma once
// Small text helpers shared by the layers: number formatting, "did you mean" suggestions, UTF-8 checks.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace headcount {

/// 1050624 -> "1,050,624"; negative numbers keep their sign ("-2,048").
std::string with_thousands(std::int64_t value);

/// The candidate closest to `word` by edit distance, or "" when none is close enough to be a plausible typo.
std::string closest_match(std::string_view word, std::span<const std::string_view> candidates);

/// " (did you mean 'x'?)" for the closest candidate, or "" when there is none.
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);

/// True when `text` is well-formed UTF-8: no overlong forms, surrogates, code points past U+10FFFF or cut-off
/// sequences. The empty string and plain ASCII (NUL included) are valid.
bool is_valid_utf8(std::string_view text);

/// `text` with &, <, > and " escaped: safe as XML or HTML text and in a double-quoted attribute.
std::string escape_xml(std::string_view text);

/// `text` as one word for a POSIX shell: unchanged when it is only letters, digits and - _ . @ / :, else in single
/// quotes with each ' written '\''.
std::string shell_quote(std::string_view text);

} // namespace headcount

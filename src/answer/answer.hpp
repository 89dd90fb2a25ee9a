#pragma once
// Reading a student's typed answer: the exact whole number when the text denotes one, and how precisely it
// was written when it does not. Untrusted input: every failure is a short reason, never an exception or a
// wrapped number.

#include <answer/rational.hpp>
#include <solve/asks.hpp>
#include <util/checked.hpp>

#include <cstddef>
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace headcount::answer {

/// What unit an ask's answer carries:
/// - count: a number of things, which may name them after it (parameters, FLOPs, FLOP/s, tokens, GPU-hours);
/// - bytes: admits B, KB/MB/GB = 10^3 steps, KiB/MiB/GiB = 2^10 steps;
/// - time: admits s, min, h, d, wk, yr (and their spellings: sec, minutes, hrs, days, weeks, years...), read in
///   seconds; a year is the Julian year of 365.25 days (31,557,600 s);
/// - plain: a count that may also be a percentage: a trailing % or "percent" divides by 100.
enum class AnswerUnit { count, bytes, time, plain };

/// The 128-bit integer exact values are kept in (a GCC extension, spelled so that -Wpedantic stays quiet).
using Wide = detail::Wide;

/// An exact rational: num/den in lowest terms, den > 0, both within 10^36 (detail::k_rational_limit).
struct Fraction {
    Wide num = 0;
    Wide den = 1;
};

/// How much parse_answer accepts beyond a count's whole numbers.
struct ParseOptions {
    /// Accept divisions that do not come out whole; the result is then in ParsedAnswer::exact (and value), with
    /// integer unset when it is not a whole number.
    bool wide = false;
    /// The part's own unit when it counts something (chips, sequences): allowed after the number like
    /// "parameters", in the singular or plural.
    std::string_view noun;
};

/// A student's answer, read.
struct ParsedAnswer {
    /// Set when the answer denotes a whole number exactly: 1,050,624; 4*(512^2+512); 1.05M -> 1050000; 3.15e23.
    std::optional<Count> integer;
    /// Always set: the value as a double, in counts, bytes or seconds (1.05M -> 1050000.0; .5 -> 0.5; 90 min ->
    /// 5400.0; 45% -> 0.45).
    double value = 0;
    /// Digits written in a decimal mantissa that has a point or is scaled by a word, unit or exponent, not
    /// counting leading zeros (1.05M -> 3, 1.0e6 -> 2, 16 MiB -> 2); 0 for plain integers and expressions.
    int significant_figures = 0;
    /// Place value of the last digit written, in counts, bytes or seconds (1.05M -> 10000, 16 MiB -> 1048576,
    /// 25.4 days -> 8640); 0 when significant_figures is 0. Lets a grader accept exactly the values that round to
    /// what was written.
    double resolution = 0;
    /// The student marked it as approximate: ≈ ≃ ~ or about, approx, approximately, roughly, around.
    bool literal = false; ///< a single number as written (1,050,000; 1.05M), not the result of arithmetic
    bool approximate = false;
    /// The unit as typed, normalised: "", "B", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB" for bytes, each
    /// also with "/s" for a rate (GB/s); "ns", "µs", "ms", "s", "min", "h", "d", "wk", "yr" for time; "%" for plain;
    /// "FLOP/s" for a count written as FLOP/s (with any prefix: 989 TFLOP/s). "" when none was written: then
    /// nothing was scaled and the number is in whatever unit the question uses.
    std::string unit;
    /// The exact value, in the same base unit as `value` (bytes; seconds for time): set whenever the answer
    /// denotes an exact rational within the parser's bound, which every answer parse_answer accepts does.
    /// 25.36 -> 634/25; 3.15e23 -> 315000000000000000000000/1; 45% -> 9/20.
    std::optional<Fraction> exact;
};

/// Longest answer parse_answer reads, in bytes of UTF-8; longer ones are refused rather than truncated.
inline constexpr std::size_t k_max_answer_bytes = 200;
/// Deepest nesting of parentheses, signs and exponents parse_answer evaluates.
inline constexpr int k_max_answer_depth = 32;

/// Parses untrusted input. Never throws, never crashes, never overflows: returns a short human reason on
/// failure ("the number is too large", "unexpected 'x' at position 5", "empty answer", "answer longer than
/// 200 bytes"). Positions are 1-based characters, not bytes. "B" is billion for counts, times and plain numbers
/// and byte for bytes. Magnitudes past 10^36 are refused ("the number is too large"). Unless options.wide, a
/// division must come out whole. A unit of another kind than `unit` is refused by name ("this part's answer is a
/// time, not bytes ('GB' at position 4)").
std::expected<ParsedAnswer, std::string> parse_answer(std::string_view text, AnswerUnit unit = AnswerUnit::count,
                                                      ParseOptions options = {});

/// Reads a tensor shape: (32, 8, 128, 128), [32,8,128,128], 32x8x128x128, 32 × 8 × 128 × 128, or PyTorch's
/// torch.Size([32, 8, 128, 128]); a trailing comma is allowed, as in Python's (4096,). Commas separate axes, so an
/// axis has no thousands separator; an axis may be an expression (2*64). Untrusted input: fails with a short reason,
/// never throws.
std::expected<solve::Shape, std::string> parse_shape(std::string_view text);

/// Reads which of `choices` an answer names, by its word or a synonym, ignoring case, punctuation and filler
/// ("the", "dominate", ...): "Attention dominates." names attention. Fails when it names none or several.
std::expected<std::size_t, std::string> parse_choice(std::string_view text, std::span<const solve::Choice> choices);

} // namespace headcount::answer

#pragma once
// What the words in an answer mean: scale words (million, M, bn), byte units (MiB, MB, bytes), bits, time units
// (s, min, hours, days, years), the nouns a count may carry (parameters, FLOP/s) and approximation markers. The
// unit of the ask decides the ambiguous ones.

#include <answer/answer.hpp>
#include <answer/rational.hpp>

#include <string_view>

namespace headcount::answer::detail {

enum class WordKind {
    scale,            ///< thousand, million, k, M, bn...: multiplies the number before it
    bytes_unit,       ///< B, bytes, KB, MiB...: a unit of bytes with its factor
    bits_unit,        ///< Mb, Gb, bits, Mbit...: almost always a mistake for bytes
    ambiguous_prefix, ///< K, M, G, T alone in a bytes answer: decimal or binary cannot be told
    time_unit,        ///< s, sec, min, h, hours, d, days, wk, yr, years...: a unit of time with its factor in seconds
    percent,          ///< "percent" in a plain answer (the % sign is a token of its own)
    count_noun,       ///< parameters, params, weights, biases, FLOPs, tokens, steps, GPUs: allowed after a count and
                      ///< ignored, with a per-time or -time tail (FLOP/s, tokens/sec, GPU-hours)
    filler,           ///< and, in, total, all: joins the words after a number ("weights and biases in total")
    approx_marker,    ///< about, approx, approximately, roughly, around
    multiply,         ///< x or X between factors (4x512)
    other,
};

/// What a word means, and the multiplier that scale words and byte units carry.
struct WordMeaning {
    WordKind kind = WordKind::other;
    Wide factor = 1;       ///< 10^6 for "million", 2^20 for "MiB", 1 for "bytes", 3600 for "hours"
    std::string_view unit; ///< the normalised unit for bytes_unit ("B", "KB", ..., "TiB") and time_unit ("s", ...)
    bool noun = false;     ///< a scale that is also the count's noun (GFLOPs, TFLOP/s), so it may take a "/s"
    Wide divisor = 1;      ///< what the factor is divided by: 1000 for "ms" (a thousandth of a second)
};

/// How `word` (ASCII letters, or µ for micro) reads in an answer carrying `unit`. B and b are billion for counts, times
/// and plain numbers, and byte for bytes; count nouns are only nouns in count and plain answers. Time units are
/// classified whatever the unit, so that a parser can name them when they do not belong. Short byte units are
/// case-insensitive except that an upper-case prefix with a lower-case final b (Kb, Mb, Gb, Tb, Mib) reads as
/// bits, as in networking; all-lower-case kb, mb, mib are taken as bytes.
/// `noun` is the part's own unit when it is a count of something (chips, sequences): that word, in the singular or
/// plural and any case, is a count noun too; when it counts devices (chips, GPUs, TPUs, accelerators, devices), so is
/// each of the others.
WordMeaning classify_word(std::string_view word, AnswerUnit unit, std::string_view noun = {});

/// Whether the part's own unit `noun` goes on with "per `word`" (any case, singular or plural): "tokens per
/// parameter" after "296.8 tokens".
bool per_tail_of(std::string_view word, std::string_view noun);

} // namespace headcount::answer::detail

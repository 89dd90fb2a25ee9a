#pragma once
// How an answer is written out: a count, a tensor shape or a word, in solutions, feedback, keys and JSON. The one
// place that knows how each type of answer looks.

#include <solve/asks.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace headcount::render {

/// An answer as people read it: 1,050,624; (32, 8, 128, 128); attention.
std::string answer_text(const solve::Ask& ask, const solve::Answer& answer);

/// An answer as a key file or a form field holds it, without thousands separators: 1050624;
/// (32, 8, 128, 128); attention.
std::string plain_answer(const solve::Ask& ask, const solve::Answer& answer);

/// An answer in JSON: an integer, an array of integers, or a word. A count (built-in or defined) is an integer
/// when it is within ±2^53 (where every JSON reader, JavaScript's doubles included, reads it exactly); past that,
/// a string of its digits ("315000000000000000000000"); a fraction with a finite decimal expansion is a string of
/// that decimal ("0.45"), any other the string "numerator/denominator" in lowest terms.
nlohmann::ordered_json json_answer(const solve::Ask& ask, const solve::Answer& answer);

/// Digits in groups of three from the right, joined by `separator` (",", or "{,}" inside TeX).
std::string grouped_digits(std::string_view digits, std::string_view separator);

/// An exact value as people read it: 315,000,000,000,000,000,000,000; 0.45; about 25.3594 (six figures when its
/// decimal expansion does not end within twelve).
std::string exact_text(const formula::Number& value);
/// The same for a key file or a form field: digits without separators, or the decimal to 15 figures.
std::string plain_exact(const formula::Number& value);
/// A count in JSON, as json_answer writes one: a number within ±2^53, else a string of its digits.
nlohmann::ordered_json json_count(Count count);
/// An exact value in JSON, as json_answer writes a defined quantity's.
nlohmann::ordered_json json_exact(const formula::Number& value);

/// A byte count in decimal and binary units: {"decimal": "about 16.78 MB", "binary": "exactly 16 MiB"};
/// "exactly" when the unit divides the count, else "about" with two decimals; "exactly 512 B" below a kilobyte.
/// Words, not "≈", which not every renderer of the Markdown (LaTeX) reads outside math.
nlohmann::ordered_json byte_units(Count bytes);

} // namespace headcount::render

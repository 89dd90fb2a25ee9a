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

/// An answer in JSON: an integer, an array of integers, or a word.
nlohmann::ordered_json json_answer(const solve::Ask& ask, const solve::Answer& answer);

/// A byte count in decimal and binary units: {"decimal": "about 16.78 MB", "binary": "exactly 16 MiB"};
/// "exactly" when the unit divides the count, else "about" with two decimals; "exactly 512 B" below a kilobyte.
/// Words, not "≈", which not every renderer of the Markdown (LaTeX) reads outside math.
nlohmann::ordered_json byte_units(Count bytes);

} // namespace headcount::render

#pragma once
// The catalogue of asks as the docs list it, printed from the rows (solve/asks.cpp) so the docs are never typed
// twice: `headcount catalogue asks`.

#include <solve/asks.hpp>

#include <string>

namespace headcount::render {

/// What a problem must give for `ask` to have an answer, as words ("seq_len, dtype"); "" when it needs nothing.
std::string ask_needs_words(const solve::Ask& ask);

/// Every ask as a Markdown table, in catalogue order, one row each: its id, what it asks for (the noun feedback
/// uses), its unit, the kind of problem that may ask it (mha: any), what the problem must give, its group, and
/// its two templates (solution_template, question_template). Ends with a newline.
std::string asks_markdown();

} // namespace headcount::render

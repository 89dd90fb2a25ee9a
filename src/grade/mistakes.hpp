#pragma once
// The catalogue of named mistakes. Each is a perturbation of how the solver counts (a solve::Recipe), so a new
// mistake is one row of solve/mistakes.def and a feedback template, templates/mistakes/<id>.mustache.

#include <solve/asks.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::grade {

/// One named way of getting a count wrong.
struct Mistake {
    std::string_view id;      ///< stable: used in specs (credit), JSON, reports and template names
    std::string_view title;   ///< one line, in the student's terms
    solve::Recipe recipe;     ///< how the mistaken count is carried out; default recipe for `rounded`
    double credit = 0;        ///< default fraction of the points; a part's `credit:` overrides it
    bool whole_block = false; ///< a way of counting the block's biases as a whole: not offered on a part that
                              ///< asks about one projection, where it would only mean "bias left out"
    /// The types of answer whose mistakes it names, as words: "counts" (parameters, dimensions, FLOPs), "bytes",
    /// "shapes", "choices". Its feedback template is written for these, in their units.
    std::string_view answers = "counts";
    /// A second way of making the same mistake, evaluated too: the article's bias count split over the projections,
    /// or taken whole into a part about Q, K and V.
    std::optional<solve::Recipe> alternative = std::nullopt;
    /// For a mistake about a quantity the spec defines (listed by the instructor or derived from the formula): what
    /// feedback says, Markdown with $…$, rendered by the template defined/mistake in place of one of its own.
    std::string_view feedback = {};
};

/// The mistakes that are not recipes but ways of writing the right value, tested on the answer itself: the right
/// value rounded, and bytes in decimal units meant as binary ones or the other way round (16 MB for 16 MiB).
inline constexpr std::string_view k_rounded = "rounded";
inline constexpr std::string_view k_unit_base = "decimal_vs_binary_units";
/// The answer is the right value of another quantity of the same problem (the whole block for Q, K and V).
inline constexpr std::string_view k_other_quantity = "other_quantity";

/// Every catalogued mistake, the three that are not recipes last.
std::span<const Mistake> mistake_catalogue();

/// The mistake with this id: the catalogue's, else the first row a defined quantity's mistakes made with it; or
/// nullptr.
const Mistake* find_mistake(std::string_view id);

/// The template that explains `mistake` to a student: "mistakes/<id>".
std::string mistake_template(const Mistake& mistake);

/// The catalogue as a Markdown table, in catalogue order, one row each: id, title, the types of answer it names,
/// its default credit and its template. For the docs (`headcount catalogue mistakes`). Ends with a newline.
std::string mistakes_markdown();

/// The ids of the catalogue, for the spec reader (credit keys) and did-you-mean.
std::vector<std::string_view> mistake_ids();

/// One way to arrive at a wrong number: one mistake, or two independent ones made together.
struct Explanation {
    std::vector<const Mistake*> mistakes;
    solve::Answer value;                   ///< what the part's ask comes to when counted this way
    std::vector<const solve::Ask*> others; ///< for other_quantity: the asks whose right answer this is
};

/// The right answers of the other asks `solved` can answer with the same type and unit as `ask`, grouped by value
/// (asks in catalogue order), leaving out values equal to `ask`'s own: what a student who computed another
/// quantity of the problem would type. Each is an explanation naming other_quantity.
std::vector<Explanation> other_quantities(const solve::SolvedProblem& solved, const solve::Ask& ask);

/// Every single mistake, and every pair of mistakes that change different parts of the count, evaluated for
/// this part, keeping those whose value differs from the right answer. A pair is kept only when its value
/// differs from each of its two mistakes alone (otherwise one of them does nothing here). Order: singles in
/// catalogue order, then pairs. A count that overflows is skipped (no student typed it).
std::vector<Explanation> explanations(const spec::Problem& problem, const solve::Ask& ask,
                                      const solve::Answer& right_answer);

/// What `ask` comes to for `problem` when counted the mistaken way, or nullopt when that count overflows.
std::optional<solve::Answer> value_under(const spec::Problem& problem, const solve::Ask& ask,
                                         const solve::Recipe& recipe);

} // namespace headcount::grade

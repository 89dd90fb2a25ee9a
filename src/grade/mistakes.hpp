#pragma once
// The mistakes a wrong answer is explained by: one engine for every ask, built-in or the spec's own. A mistake is a
// change to the problem's computation (solve/computation.hpp), followed through every quantity that uses what it
// changes: the catalogue's (catalogue/mistakes.yaml, each with its feedback template), those listed with a quantity
// (an instructor's, or a training entry's), those derived from a formula's structure (grade/formula_mistakes.hpp),
// and the unit slips a unit invites. Those made in a quantity the asked one uses are carried through, however deep.

#include <solve/asks.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::grade {

/// One named way of getting a quantity wrong.
struct Mistake {
    std::string_view id;      ///< stable: used in specs (credit), JSON, reports and template names
    std::string_view title;   ///< one line, in the student's terms
    double credit = 0;        ///< default fraction of the points; a part's `credit:` overrides it
    bool whole_block = false; ///< a way of counting the block's biases as a whole: not offered on a part that
                              ///< asks about one projection, where it would only mean "bias left out"
    /// The types of answer whose mistakes it names, as words: "counts" (parameters, dimensions, FLOPs), "bytes",
    /// "shapes", "choices". Its feedback template is written for these, in their units.
    std::string_view answers = "counts";
    /// For one of the catalogue's: its row, with the change it makes (and a second way of making it).
    const solve::CatalogueMistake* row = nullptr;
    /// For a mistake about one formula (listed with it or derived from it): what feedback says, Markdown with $…$,
    /// rendered by the template defined/mistake in place of one of its own.
    std::string_view feedback = {};
};

/// The mistakes that are not changes but ways of writing the right value, tested on the answer itself: the right
/// value rounded, and bytes in decimal units meant as binary ones or the other way round (16 MB for 16 MiB).
inline constexpr std::string_view k_rounded = "rounded";
inline constexpr std::string_view k_unit_base = "decimal_vs_binary_units";
/// The answer is the right value of another quantity of the same problem (the whole block for Q, K and V).
inline constexpr std::string_view k_other_quantity = "other_quantity";

/// Every mistake of the catalogue, in its order (the three that are not changes last).
std::span<const Mistake> mistake_catalogue();

/// The mistake with this id: the catalogue's, else the first row a formula's mistakes made with it; or nullptr.
const Mistake* find_mistake(std::string_view id);

/// The template that explains `mistake` to a student: "mistakes/<id>", or "defined/mistake" for one with words.
std::string mistake_template(const Mistake& mistake);

/// The catalogue as a Markdown table, in catalogue order, one row each: id, title, the types of answer it names,
/// its default credit and its template. For the docs (`headcount catalogue mistakes`). Ends with a newline.
std::string mistakes_markdown();

/// The ids of the catalogue, for the spec reader (credit keys) and did-you-mean.
std::vector<std::string_view> mistake_ids();

/// One way to arrive at a wrong number: one mistake, or two made together.
struct Explanation {
    std::vector<const Mistake*> mistakes;
    solve::Answer value;                   ///< what the part's ask comes to when counted this way
    std::vector<const solve::Ask*> others; ///< for other_quantity: the asks whose right answer this is
};

/// The answer of `part` when it comes to `value` (as solve::Ask::evaluate writes it: exactly for a spec's own).
solve::Answer answer_of(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                        const formula::Number& value);

/// The slot of the computation `part` reads.
int slot_of(const solve::SolvedProblem& solved, const solve::SolvedPart& part);

/// The change a catalogue mistake makes in `computation`: its own, or its second way.
solve::Computation::Change change_of(const solve::Computation& computation, const Mistake& mistake,
                                     bool alternative = false);

/// Every way of getting `part` wrong that gives another value: the part's own mistakes (listed, derived, carried
/// from the quantities it uses, unit slips, an advertised size for model_params) and their pairs, then the
/// catalogue's mistakes that reach it (an aspect of the count it uses) and their pairs. A pair is kept only when its
/// value differs from each of its two mistakes alone. Bounded: grade/formula_mistakes.hpp's limits.
std::vector<Explanation> explanations(const solve::SolvedProblem& solved, const solve::SolvedPart& part);

/// The right answers of the problem's other asks (built-in and its own) of the same type and unit as `part`'s, in
/// its unit, grouped by value (asks in catalogue order), leaving out values equal to `part`'s own: what a student
/// who computed another quantity would type. Each is an explanation naming other_quantity.
std::vector<Explanation> other_quantities(const solve::SolvedProblem& solved, const solve::SolvedPart& part);

/// What `part` comes to under a catalogue mistake, or nullopt when the mistake does not reach it.
std::optional<solve::Answer> value_under(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                                         const Mistake& mistake);

} // namespace headcount::grade

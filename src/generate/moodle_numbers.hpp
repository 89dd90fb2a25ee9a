#pragma once
// Moodle's NUMERICAL answers for grade's verdicts. Moodle tries a subquestion's answers in order and takes
// the first whose closed interval, value ± tolerance, holds the number typed
// (question/type/numerical/question.php). The right answer is rule 1's interval (issue 39): within half a unit of
// the part's last required figure of the exact value, both ends in. These functions choose the answers so that
// Moodle's right interval is that one, and so that each value grade lists reaches an answer with its own credit and
// feedback; needs_text says where a float interval cannot do it and the box matches text instead.

#include <formula/formula.hpp>
#include <generate/lms_answers.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace headcount::generate {

/// One NUMERICAL answer: the number and the ± tolerance, as the Cloze text writes them.
struct MoodleNumber {
    double value = 0;
    double tolerance = 0;
};

/// A number as Moodle keeps it from a Cloze answer: whole digits as an integer, anything else as a float
/// written to 14 significant figures (PHP's precision, which Moodle's lib/setup.php sets) when it is stored.
double moodle_stored(double value);

/// The closed interval Moodle accepts for `n` (qtype_numerical_answer::get_tolerance_interval, nominal, and
/// within_tolerance): value ± (tolerance + 1e-14·max(tolerance, |value|)), computed in doubles as PHP does.
std::pair<double, double> moodle_interval(MoodleNumber n);

/// Numbers between `lo` and `hi`, each end left out when its flag says so.
struct NumberRange {
    double lo = 0;
    double hi = 0;
    bool lo_open = false;
    bool hi_open = false;
};

/// Rule 1's interval for a value (issue 39): the numbers within half a unit of the part's last required figure of the
/// exact value, both ends included. {sigfigs: n}: half a unit in its n-th figure (1,050,624 at 3 figures:
/// [1,045,624, 1,055,624]); exact, every digit: half a unit in its last (a whole number ± 0.5, 0.45 ± 0.005, and
/// nothing but itself for 7/39, whose digits do not end); {rel: r}: ± r·|value|.
NumberRange right_band(Count value, const spec::Tolerance& tolerance);
/// The same for a value that need not be whole (a defined quantity's).
NumberRange right_band_real(const formula::Number& value, const spec::Tolerance& tolerance);

/// The answer whose interval holds the most whole numbers of `allowed`, `value` among them when given, and
/// stays inside `allowed`: its tolerance reaches the whole numbers at the ends, or a little less where
/// Moodle's 1e-14 allowance would carry an end outside; 0 (the allowance alone) when nothing fits.
MoodleNumber widest_answer(const NumberRange& allowed, std::optional<double> value);

/// A subquestion's NUMERICAL answers: `entry` indexes platform_answers' list.
struct ClozeNumber {
    std::size_t entry = 0;
    MoodleNumber number;
};

/// The answers for platform_answers' `answers` to a count part with `tolerance`, in the order Moodle tries
/// them. The right value comes first, as itself ± the reach of rule 1's interval (right_band), so Moodle's
/// interval is rule 1's, closed, widened only by Moodle's own allowance of 10^-14 of the value. A mistake's answer
/// covers rule 1's interval around its value, where check names it (issue 39, rule 6): for a count its whole numbers
/// (but an end that Moodle's allowance would cross), up to the next value listed after it with other credit or
/// feedback; for a value that is not whole, up to where another listed value's interval begins or ends, in one or two
/// answers. A rounding is the value alone. `dropped` lists the entries
/// Moodle would still give another answer's credit or feedback (possible only where its 1e-14 allowance spans whole
/// numbers), a value rule 1 takes as right excepted.
struct ClozeNumbers {
    std::vector<ClozeNumber> answers;
    std::vector<std::size_t> dropped;
};
ClozeNumbers cloze_numbers(const std::vector<PlatformAnswer>& answers, const spec::Tolerance& tolerance);

/// Whether a count part whose right value is whole cannot have Moodle NUMERICAL intervals, and is matched as text
/// instead: a whole value listed past 2^53, which a double cannot hold (3.15e23 would take in 10^9 numbers either
/// side), or a right value whose Moodle interval holds whole numbers rule 1's does not, its allowance not lost in the
/// band (exact counts from 5·10^13, where Moodle's allowance is half a unit or more).
bool needs_text(const std::vector<PlatformAnswer>& answers, const spec::Tolerance& tolerance);

/// A number as Moodle's NUMERICAL reads it (-?digits[.digits][e±digits]): whole numbers as digits, others in
/// the shortest form that reads back as the same double.
std::string number_text(double value);

} // namespace headcount::generate

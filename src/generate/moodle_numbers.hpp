#pragma once
// Moodle's NUMERICAL answers for grade's verdicts. Moodle tries a subquestion's answers in order and takes
// the first whose closed interval, value ± tolerance, holds the number typed
// (question/type/numerical/question.php); grade accepts a band around each value it lists, half-open for
// {sigfigs: n}. These functions choose the answers so that every number Moodle accepts as right grade accepts
// too, and so that each value grade lists reaches an answer with its own credit and feedback.

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

/// What grade accepts as `value` under `tolerance` (grader.cpp's within_tolerance): exact, [v, v]; {rel: r},
/// [v - r·v, v + r·v]; {sigfigs: n}, the numbers that round half up to the same n figures, [R - p/2, R + p/2)
/// for R = v rounded at place p (1,050,624 at 3 figures: [1,045,000, 1,055,000)).
NumberRange grade_band(Count value, const spec::Tolerance& tolerance);
/// The same for a value that need not be whole (a defined quantity's): under {sigfigs: n}, [R - p/2, R + p/2).
NumberRange grade_band_real(double value, const spec::Tolerance& tolerance);

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
/// them. The right value comes first (under {sigfigs: n} the exact value, then the rounded value ± half a
/// unit less one). A mistake's answer covers the whole numbers grade reads as that mistake (but an end that
/// Moodle's allowance would cross), up to the next value listed after it with other credit or feedback; a
/// rounding is the value alone. `dropped` lists the entries Moodle would still give another answer's credit
/// or feedback (possible only where its 1e-14 allowance spans whole numbers).
struct ClozeNumbers {
    std::vector<ClozeNumber> answers;
    std::vector<std::size_t> dropped;
};
ClozeNumbers cloze_numbers(const std::vector<PlatformAnswer>& answers, const spec::Tolerance& tolerance);

/// A number as Moodle's NUMERICAL reads it (-?digits[.digits][e±digits]): whole numbers as digits, others in
/// the shortest form that reads back as the same double.
std::string number_text(double value);

} // namespace headcount::generate

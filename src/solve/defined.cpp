#include <solve/defined.hpp>

#include <spec/givens.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <deque>
#include <mutex>

namespace headcount::solve {

namespace {

struct UnitRow {
    std::string_view names; ///< space-separated spellings, compared ignoring case for words
    UnitInfo::Dimension dimension;
    long numerator;
    long denominator;
    std::string_view symbol;
};

using D = UnitInfo::Dimension;
// Byte units are case-sensitive (MB is not Mb); the rest are compared as written, then lower-cased.
constexpr auto k_units = std::to_array<UnitRow>({
    {"B byte bytes", D::bytes, 1, 1, "bytes"},
    {"KB kB", D::bytes, 1000, 1, "KB"},
    {"MB", D::bytes, 1000000, 1, "MB"},
    {"GB", D::bytes, 1000000000, 1, "GB"},
    {"TB", D::bytes, 1000000000000, 1, "TB"},
    {"KiB", D::bytes, 1L << 10, 1, "KiB"},
    {"MiB", D::bytes, 1L << 20, 1, "MiB"},
    {"GiB", D::bytes, 1L << 30, 1, "GiB"},
    {"TiB", D::bytes, 1L << 40, 1, "TiB"},
    {"ns nanosecond nanoseconds", D::time, 1, 1000000000, "ns"},
    {"us \u00b5s \u03bcs microsecond microseconds", D::time, 1, 1000000, "\u00b5s"},
    {"ms millisecond milliseconds", D::time, 1, 1000, "ms"},
    {"s sec secs second seconds", D::time, 1, 1, "seconds"},
    {"min mins minute minutes", D::time, 60, 1, "minutes"},
    {"h hr hrs hour hours", D::time, 3600, 1, "hours"},
    {"d day days", D::time, 86400, 1, "days"},
    {"wk week weeks", D::time, 604800, 1, "weeks"},
    // A Julian year, 365.25 days.
    {"yr yrs year years", D::time, 31557600, 1, "years"},
    {"% percent", D::plain, 1, 100, "%"},
    // Rates: FLOP/s with a prefix is a count of FLOPs per second; bytes per second keep the bytes' units and slips.
    {"FLOP/s flop/s FLOPS", D::count, 1, 1, "FLOP/s"},
    {"kFLOP/s", D::count, 1000, 1, "kFLOP/s"},
    {"MFLOP/s", D::count, 1000000, 1, "MFLOP/s"},
    {"GFLOP/s", D::count, 1000000000, 1, "GFLOP/s"},
    {"TFLOP/s", D::count, 1000000000000, 1, "TFLOP/s"},
    {"PFLOP/s", D::count, 1000000000000000, 1, "PFLOP/s"},
    {"EFLOP/s", D::count, 1000000000000000000, 1, "EFLOP/s"},
    {"B/s", D::bytes, 1, 1, "B/s"},
    {"KB/s kB/s", D::bytes, 1000, 1, "KB/s"},
    {"MB/s", D::bytes, 1000000, 1, "MB/s"},
    {"GB/s", D::bytes, 1000000000, 1, "GB/s"},
    {"TB/s", D::bytes, 1000000000000, 1, "TB/s"},
    {"KiB/s", D::bytes, 1L << 10, 1, "KiB/s"},
    {"MiB/s", D::bytes, 1L << 20, 1, "MiB/s"},
    {"GiB/s", D::bytes, 1L << 30, 1, "GiB/s"},
    {"TiB/s", D::bytes, 1L << 40, 1, "TiB/s"},
    {"ratio fraction number", D::plain, 1, 1, ""},
});

struct InternedAsk {
    std::string id, unit, noun, name;
    Ask row;
};

} // namespace

UnitInfo unit_info(std::string_view unit) {
    if (unit.empty())
        return {D::plain, 1, ""};
    std::string lower(unit);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const UnitRow& row : k_units)
        if (one_of_words(row.names, unit) || (row.dimension != D::bytes && one_of_words(row.names, lower)))
            return {row.dimension, formula::Number(row.numerator, row.denominator), row.symbol};
    return {D::count, 1, unit};
}

UnitInfo quantity_unit(const spec::Quantity& quantity) {
    UnitInfo unit = unit_info(quantity.unit);
    if (!quantity.builtin && unit.dimension == D::plain && unit.scale == formula::Number(1, 100)) {
        unit.scale = 1;
        unit.fraction_as_percent = true;
    }
    return unit;
}

UnitInfo ask_unit(const spec::Problem& problem, const Ask& ask) {
    if (const spec::Quantity* quantity = defined_quantity(problem, ask))
        return quantity_unit(*quantity);
    return unit_info(ask.unit == "number" ? "" : ask.unit);
}

spec::Tolerance tolerance_of(const SolvedPart& part) {
    if (part.part.tolerance)
        return *part.part.tolerance;
    if (part.part.inexact || (part.answer.exact && part.answer.exact->get_den() != 1))
        return spec::Tolerance{spec::Tolerance::Kind::sigfigs, 0, 3};
    return spec::Tolerance{};
}

std::optional<std::string> untypable(const formula::Number& value) {
    if (value == 0)
        return std::nullopt;
    const formula::Number size = abs(value);
    mpz_class large, small;
    mpz_ui_pow_ui(large.get_mpz_t(), 10, 33);
    mpz_ui_pow_ui(small.get_mpz_t(), 10, 15);
    if (size > formula::Number(large))
        return fmt::format("which comes to about {} here: past 10^33, more than an answer can be typed as; give it "
                           "in a larger unit",
                           formula::rounded(value, 3));
    if (size < formula::Number(1, small))
        return fmt::format("which comes to about {} here: under 10^-15, less than an answer can be typed as; give it "
                           "in a smaller unit",
                           formula::rounded(value, 3));
    return std::nullopt;
}

Answer exact_answer(formula::Number value) {
    Answer answer;
    if (const auto count = formula::to_count(value))
        answer.count = *count;
    answer.exact = std::move(value);
    return answer;
}

const Ask* quantity_ask(const spec::Quantity& quantity) {
    static std::mutex mutex;
    static std::deque<InternedAsk> rows; // a deque never moves what it holds
    const std::lock_guard lock(mutex);
    for (const InternedAsk& row : rows)
        if (row.id == quantity.ask && row.unit == quantity.unit && row.noun == quantity.title &&
            row.name == quantity.name)
            return &row.row;
    InternedAsk& row =
        rows.emplace_back(InternedAsk{quantity.ask, quantity.unit, quantity.title, quantity.name, Ask{}});
    row.row = Ask{.id = row.id,
                  .unit = row.unit.empty() ? std::string_view("number") : std::string_view(row.unit),
                  .noun = row.noun,
                  .projections = "",
                  .kind = "defined",
                  .group = "",
                  .name = row.name};
    return &row.row;
}

const spec::Quantity* find_quantity(const spec::Problem& problem, std::string_view name) {
    if (problem.quantities)
        for (const spec::Quantity& q : *problem.quantities)
            if (q.ask == name || q.name == name)
                return &q;
    return nullptr;
}

const spec::Quantity* defined_quantity(const spec::Problem& problem, const Ask& ask) {
    return ask.kind == "defined" ? find_quantity(problem, ask.id) : nullptr;
}

std::optional<Error> listed_mistake_problem(const SolvedProblem& solved) {
    const spec::Problem& problem = solved.problem;
    if (!problem.quantities)
        return std::nullopt;
    const Computation& c = *solved.computation;
    for (const spec::Quantity& q : *problem.quantities) {
        if (q.builtin) // headcount's own: a slip that comes to the answer here (one layer of one) is just not named
            continue;
        const int slot = c.find_visible(q.name);
        if (!c.available(slot))
            continue;
        for (const spec::ListedMistake& m : q.mistakes) {
            const Computation::Change change{
                {{slot, std::shared_ptr<const formula::Node>(problem.quantities, &m.formula)}}};
            const auto value = c.value_under(slot, change);
            if (!value)
                return Error{problem.file, m.mark.line, m.mark.column,
                             fmt::format("formula of mistake {} cannot be evaluated here (a division by zero, or a "
                                         "number too large)",
                                         m.id)};
            if (*value == c.value(slot))
                return Error{problem.file, m.mark.line, m.mark.column,
                             fmt::format("mistake '{}' of {} comes to the right answer, so no student could be told "
                                         "they made it; change its formula",
                                         m.id, q.name)};
        }
    }
    return std::nullopt;
}

bool is_formula_error(const Error& error) { return error.message.starts_with("formula of "); }

} // namespace headcount::solve

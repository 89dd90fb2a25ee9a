#include <generate/class_variants.hpp>

#include <generate/roster.hpp>
#include <generate/variants.hpp>
#include <render/answers.hpp>
#include <spec/givens.hpp>
#include <util/csv.hpp>
#include <util/ids.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <map>

namespace headcount::generate {

namespace {

/// The valid variants of a problem: its vary's, or the spec's own numbers.
Result<std::vector<spec::Givens>> variants_of(const spec::Problem& problem) {
    if (problem.vary.empty())
        return std::vector<spec::Givens>{spec::givens_of(problem)};
    return valid_variants(problem);
}

/// Per valid variant, the first one with the same values of the varying keys; empty when no vary: list repeats a
/// value, so that no two variants are equal (the usual case costs nothing).
std::vector<std::uint32_t> first_equal(const spec::Problem& problem, std::span<const spec::Givens> givens) {
    const bool repeats = std::any_of(problem.vary.begin(), problem.vary.end(), [](const spec::Variation& v) {
        std::vector<std::int64_t> values = v.values;
        std::sort(values.begin(), values.end());
        return std::adjacent_find(values.begin(), values.end()) != values.end();
    });
    if (!repeats)
        return {};
    std::map<std::vector<std::int64_t>, std::uint32_t> first;
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i < givens.size(); ++i) {
        std::vector<std::int64_t> values;
        for (const spec::Variation& v : problem.vary)
            values.push_back(spec::given_value(givens[i], v.key).value_or(0));
        out.push_back(first.emplace(std::move(values), static_cast<std::uint32_t>(i)).first->second);
    }
    return out;
}

std::string not_on_roster(std::string_view student) {
    return fmt::format("student '{}' is not on the roster, so their numbers are unknown", student);
}

} // namespace

Result<ClassVariants::OfProblem> ClassVariants::of_problem(const solve::SolvedProblem& problem) {
    OfProblem of;
    of.spec = &problem;
    auto givens = variants_of(problem.problem);
    if (!givens)
        return std::unexpected(givens.error());
    of.givens = std::move(*givens);
    of.same_as = first_equal(problem.problem, of.givens);
    of.solved = std::make_unique<Solved>();
    of.solved->ready = std::make_unique<std::atomic<const solve::SolvedProblem*>[]>(of.givens.size());
    return of;
}

Result<ClassVariants> ClassVariants::seeded(const std::vector<solve::SolvedProblem>& problems,
                                            std::span<const std::string> roster, std::string seed) {
    ClassVariants out;
    out.m_seed = std::move(seed);
    for (const std::string& student : roster)
        out.m_students.emplace(student, static_cast<std::uint32_t>(out.m_students.size()));
    std::vector<std::string> order; // the roster by id, for distinct: true only
    for (const solve::SolvedProblem& problem : problems) {
        auto of = of_problem(problem);
        if (!of)
            return std::unexpected(of.error());
        of->drawn = !problem.problem.distinct;
        if (problem.problem.distinct) { // depends on the whole class: assigned now, once
            if (order.empty()) {
                order.assign(roster.begin(), roster.end());
                std::sort(order.begin(), order.end());
            }
            auto solved = solve_variants(problem.problem, of->givens);
            if (!solved)
                return std::unexpected(solved.error());
            auto numbers = distinct_variant_numbers(problem.problem, *solved, order, out.m_seed);
            if (!numbers)
                return std::unexpected(numbers.error());
            // Kept: assigning distinct variants solved every one already.
            for (std::size_t v = 0; v < solved->size(); ++v)
                of->solved->ready[v] = &of->solved->held.emplace_back(std::move((*solved)[v]));
            of->assigned.assign(out.m_students.size(), k_unassigned);
            for (std::size_t i = 0; i < order.size(); ++i) {
                const std::uint32_t number = static_cast<std::uint32_t>((*numbers)[i]);
                of->assigned[out.m_students.find(order[i])->second] =
                    of->same_as.empty() ? number : of->same_as[number];
            }
        }
        out.m_problems.push_back(std::move(*of));
    }
    return out;
}

std::uint32_t ClassVariants::draw(const OfProblem& of, std::string_view student) const {
    const auto number =
        static_cast<std::uint32_t>(variant_stream(m_seed, of.spec->problem.id, student).below(of.givens.size()));
    return of.same_as.empty() ? number : of.same_as[number];
}

std::optional<std::string> ClassVariants::unknown_student(std::string_view student) const {
    if (m_students.contains(student))
        return std::nullopt;
    return not_on_roster(student);
}

std::expected<std::uint32_t, std::string> ClassVariants::index(std::size_t problem, std::string_view student) const {
    const OfProblem& of = m_problems[problem];
    const auto row = m_students.find(student);
    if (row == m_students.end())
        return std::unexpected(not_on_roster(student));
    if (of.drawn)
        return draw(of, student);
    if (of.assigned[row->second] == k_unassigned)
        return std::unexpected(not_on_roster(student));
    return of.assigned[row->second];
}

Result<const solve::SolvedProblem*> ClassVariants::variant(std::size_t problem, std::uint32_t index) const {
    const OfProblem& of = m_problems[problem];
    if (const solve::SolvedProblem* ready = of.solved->ready[index].load(std::memory_order_acquire))
        return ready;
    const std::lock_guard lock(of.solved->lock);
    if (const solve::SolvedProblem* ready = of.solved->ready[index].load(std::memory_order_relaxed))
        return ready; // solved by another thread meanwhile
    // The spec as written was solved whole: its computation revalued at the variant's givens where it can be.
    std::shared_ptr<const solve::Computation> like = of.spec->computation;
    auto solved = solve::solve_problem(spec::with_givens(of.spec->problem, of.givens[index]), nullptr, &like);
    if (!solved)
        return std::unexpected(solved.error());
    const solve::SolvedProblem* held = &of.solved->held.emplace_back(std::move(*solved));
    of.solved->ready[index].store(held, std::memory_order_release);
    return held;
}

std::expected<const solve::SolvedProblem*, std::string> ClassVariants::find(std::size_t problem,
                                                                            std::string_view student) const {
    const auto number = index(problem, student);
    if (!number)
        return std::unexpected(number.error());
    auto solved = variant(problem, *number);
    if (!solved)
        return std::unexpected(solved.error().message);
    return *solved;
}

Result<ClassVariants> ClassVariants::seeded_for_roster_file(const std::vector<solve::SolvedProblem>& problems,
                                                            const std::string& roster_file, std::string seed) {
    auto roster = load_roster(roster_file);
    if (!roster)
        return std::unexpected(roster.error());
    return seeded(problems, *roster, std::move(seed));
}

Result<ClassVariants> ClassVariants::for_student(const std::vector<solve::SolvedProblem>& problems,
                                                 const std::string& student, const std::string& roster_file,
                                                 std::string seed) {
    if (const auto why = student_id_problem(student))
        return fail(fmt::format("student id '{}' {}", printable(student), *why));
    std::vector<std::string> roster{student};
    if (!roster_file.empty()) {
        auto loaded = load_roster(roster_file);
        if (!loaded)
            return std::unexpected(loaded.error());
        roster = std::move(*loaded);
    } else {
        for (const solve::SolvedProblem& p : problems)
            if (p.problem.distinct)
                return std::unexpected(Error{p.problem.file, 0, 0,
                                             "this problem gives every student distinct numbers, which depend on the "
                                             "whole class: pass --roster too"});
    }
    if (std::find(roster.begin(), roster.end(), student) == roster.end())
        return std::unexpected(Error{roster_file, 0, 0, fmt::format("student '{}' is not on the roster", student)});
    // Only this student's variants are solved, whatever the roster's size (distinct: true assigns the class's
    // variants, not solves them).
    return seeded(problems, roster, std::move(seed));
}

Result<ClassVariants> ClassVariants::from_key_file(const std::vector<solve::SolvedProblem>& problems,
                                                   const std::string& key_file) {
    std::ifstream key(key_file, std::ios::binary);
    if (!key)
        return std::unexpected(Error{key_file, 0, 0, "cannot read the key"});
    return from_key(problems, key, key_file);
}

Result<ClassVariants> ClassVariants::from_key(const std::vector<solve::SolvedProblem>& problems, std::istream& key,
                                              const std::string& file) {
    CsvStream stream(key, file, std::uint64_t{4} << 30);
    auto header = stream.header();
    if (!header)
        return std::unexpected(header.error());
    constexpr auto k_columns = std::to_array<std::string_view>({"student", "problem", "part", "answer"});
    std::array<std::size_t, k_columns.size()> column{};
    for (std::size_t i = 0; i < k_columns.size(); ++i) {
        const auto found = find_column(*header, k_columns[i]);
        if (!found)
            return std::unexpected(Error{file, 1, 0, fmt::format("the key's header has no '{}' column", k_columns[i])});
        column[i] = *found;
    }
    const std::size_t needed = *std::max_element(column.begin(), column.end()) + 1;

    // Per problem: each part's answers, numbered as they come, and each student's answer number per part (0: none
    // given), so the key is held as small numbers however large the class.
    struct Answers {
        std::vector<std::map<std::string, std::uint32_t, std::less<>>> numbers; ///< per part
        std::vector<std::vector<std::uint32_t>> given; ///< per student row; empty: no row for this problem
    };
    ClassVariants out;
    std::vector<const std::string*> ids; // by student row
    std::vector<Answers> by_problem(problems.size());
    for (std::size_t p = 0; p < problems.size(); ++p)
        by_problem[p].numbers.resize(problems[p].parts.size());
    for (;;) {
        auto record = stream.next();
        if (!record)
            return std::unexpected(record.error());
        if (!*record)
            break;
        const CsvRecord& row = **record;
        if (!row.error.empty())
            return std::unexpected(Error{file, row.line, 0, row.error});
        if (row.fields.size() < needed)
            return std::unexpected(Error{file, row.line, 0, "this row has fewer columns than the header"});
        const std::string& problem_id = row.fields[column[1]];
        const auto problem =
            std::find_if(problems.begin(), problems.end(), [&](const auto& s) { return s.problem.id == problem_id; });
        if (problem == problems.end())
            return std::unexpected(Error{
                file, row.line, 0, fmt::format("the key names problem '{}', which no spec given has", problem_id)});
        const auto p = static_cast<std::size_t>(problem - problems.begin());
        const auto part = std::find_if(problem->parts.begin(), problem->parts.end(),
                                       [&](const auto& s) { return s.part.id == row.fields[column[2]]; });
        if (part == problem->parts.end())
            return std::unexpected(Error{file, row.line, 0,
                                         fmt::format("the key names part '{}' of '{}', which its spec does not have",
                                                     row.fields[column[2]], problem_id)});
        const auto k = static_cast<std::size_t>(part - problem->parts.begin());
        Answers& answers = by_problem[p];
        // Compared as text with what generate writes (plain_answer), so counts, shapes and words all match.
        auto [it, added] = answers.numbers[k].emplace(row.fields[column[3]],
                                                      static_cast<std::uint32_t>(answers.numbers[k].size() + 1));
        const auto [student, fresh] =
            out.m_students.emplace(row.fields[column[0]], static_cast<std::uint32_t>(out.m_students.size()));
        if (fresh)
            ids.push_back(&student->first);
        if (answers.given.size() <= student->second)
            answers.given.resize(student->second + 1);
        auto& given = answers.given[student->second];
        given.resize(problem->parts.size(), 0);
        given[k] = it->second;
    }

    for (std::size_t p = 0; p < problems.size(); ++p) {
        auto of = of_problem(problems[p]);
        if (!of)
            return std::unexpected(of.error());
        out.m_problems.push_back(std::move(*of));
        const std::size_t variants = out.m_problems.back().givens.size();
        Answers& answers = by_problem[p];
        // Each variant's answers as the key's numbers (0 where the key never wrote that answer).
        std::vector<std::vector<std::uint32_t>> variant_answers;
        for (std::size_t v = 0; v < variants; ++v) {
            auto solved = out.variant(p, static_cast<std::uint32_t>(v));
            std::vector<std::uint32_t> numbers;
            if (solved)
                for (std::size_t k = 0; k < (*solved)->parts.size(); ++k) {
                    const auto& part = (*solved)->parts[k];
                    const auto it = answers.numbers[k].find(render::plain_answer(*part.ask, part.answer));
                    numbers.push_back(it == answers.numbers[k].end() ? 0 : it->second);
                }
            variant_answers.push_back(std::move(numbers));
        }
        std::vector<std::uint32_t>& assigned = out.m_problems.back().assigned;
        assigned.assign(out.m_students.size(), k_unassigned);
        const std::string* unmatched = nullptr; // the first by id, so the message does not depend on hashing
        for (std::size_t row = 0; row < answers.given.size(); ++row) {
            const std::vector<std::uint32_t>& given = answers.given[row];
            if (given.empty())
                continue;
            const auto produces = [&](const std::vector<std::uint32_t>& variant) {
                for (std::size_t k = 0; k < given.size(); ++k)
                    if (given[k] != 0 && (variant.empty() || variant[k] != given[k]))
                        return false;
                return true;
            };
            // The first match: variants that a repeated vary: value makes equal count as the first (see index()).
            const auto match = std::find_if(variant_answers.begin(), variant_answers.end(), produces);
            if (match == variant_answers.end()) {
                if (!unmatched || *ids[row] < *unmatched)
                    unmatched = ids[row];
                continue;
            }
            assigned[row] = static_cast<std::uint32_t>(match - variant_answers.begin());
        }
        if (unmatched)
            return std::unexpected(Error{file, 0, 0,
                                         fmt::format("no variant of '{}' gives {}'s key answers; was the spec "
                                                     "changed after the key was made?",
                                                     problems[p].problem.id, *unmatched)});
    }
    return out;
}

std::vector<std::uint32_t> ClassVariants::handed_out(std::size_t problem) const {
    const OfProblem& of = m_problems[problem];
    std::vector<bool> given(of.givens.size(), false);
    if (of.drawn) {
        for (const auto& [student, row] : m_students)
            given[draw(of, student)] = true;
    } else {
        for (const std::uint32_t number : of.assigned)
            if (number != k_unassigned)
                given[number] = true;
    }
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i < given.size(); ++i)
        if (given[i])
            out.push_back(static_cast<std::uint32_t>(i));
    return out;
}

} // namespace headcount::generate

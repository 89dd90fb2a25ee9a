#include <grade/class_grading.hpp>
#include <util/enum_names.hpp>

#include <util/ids.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace headcount::grade {

namespace {

constexpr auto k_columns = std::to_array<std::string_view>({"student", "problem", "part", "answer"});

std::string_view trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

constexpr std::size_t k_arena_block = 64 * 1024;

} // namespace

namespace {
constexpr auto k_outcome_names = std::to_array<std::string_view>({"graded", "rejected", "superseded"});
static_assert(names_every(RowOutcome::superseded, k_outcome_names));
} // namespace

std::string_view outcome_name(RowOutcome outcome) { return enum_name(outcome, k_outcome_names, "rejected"); }

const Answered* ClassResults::answered(std::size_t i, std::size_t scoped, std::size_t part) const {
    const Answered& a = m_grid[i * m_columns + m_part_offset[scoped] + part];
    return a.table ? &a : nullptr;
}

std::vector<RejectedRow> ClassResults::rejected_of(std::size_t i) const {
    std::vector<RejectedRow> out;
    for (std::uint32_t r = m_first_rejected[m_order[i]]; r != std::numeric_limits<std::uint32_t>::max();
         r = m_rejected_next[r])
        out.push_back(m_rejected[r]);
    return out;
}

double ClassResults::total(std::size_t i) const {
    double total = 0;
    for (std::size_t c = 0; c < m_columns; ++c)
        if (const Answered& a = m_grid[i * m_columns + c]; a.table)
            total += a.summary().score;
    return total;
}

double ClassResults::max_points() const {
    double total = 0;
    for (std::size_t p : m_scope)
        for (const auto& part : (*m_problems)[p].parts)
            total += part.part.points;
    return total;
}

ClassGrader::ClassGrader(const std::vector<solve::SolvedProblem>& problems, VariantLookup variants,
                         std::vector<std::size_t> scope, RosterCheck roster)
    : m_problems(problems), m_variants(std::move(variants)), m_roster(std::move(roster)),
      m_named(problems.size(), false), m_scope(std::move(scope)) {
    std::sort(m_scope.begin(), m_scope.end());
    std::uint32_t base = 0;
    for (std::size_t p = 0; p < problems.size(); ++p) {
        m_problem_index.emplace(problems[p].problem.id, p);
        // Ids are ASCII (letters, digits, '-', '_', '.'): folded, they find a row whose case differs.
        m_folded_ids.push_back(ascii_lowered(problems[p].problem.id));
        m_problem_index.emplace(m_folded_ids.back(), p);
        m_part_base.push_back(base);
        base += static_cast<std::uint32_t>(problems[p].parts.size());
    }
    m_results.m_problems = &problems;
    m_results.m_per_student = static_cast<bool>(m_variants);
}

Result<void> ClassGrader::set_header(std::span<const std::string> header, const std::string& file) {
    for (std::size_t i = 0; i < k_columns.size(); ++i) {
        const auto found = find_column(header, k_columns[i]);
        if (!found)
            return std::unexpected(Error{file, 1, 0,
                                         fmt::format("the header has no '{}' column; it needs student, problem, part "
                                                     "and answer",
                                                     k_columns[i])});
        m_column[i] = *found;
    }
    m_needed = *std::max_element(m_column.begin(), m_column.end()) + 1;
    m_header_size = header.size();
    return {};
}

std::string_view ClassGrader::keep(std::string_view text) {
    // Ids are kept once, in blocks, and viewed everywhere else: a class of 500,000 costs its ids' bytes, not
    // 500,000 string objects.
    if (text.size() > m_arena_left) {
        const std::size_t size = std::max(k_arena_block, text.size());
        m_results.m_arena.push_back(std::make_unique<char[]>(size));
        m_arena_next = m_results.m_arena.back().get();
        m_arena_left = size;
    }
    char* at = m_arena_next;
    std::memcpy(at, text.data(), text.size());
    m_arena_next += text.size();
    m_arena_left -= text.size();
    return {at, text.size()};
}

std::uint32_t ClassGrader::new_student(std::string_view id, std::string_view key) {
    const std::string_view kept = keep(id);
    const auto number = static_cast<std::uint32_t>(m_results.m_ids.size());
    m_results.m_ids.push_back(kept);
    m_first_slot.push_back(k_none);
    m_results.m_first_rejected.push_back(k_none);
    m_last_rejected.push_back(k_none);
    m_first_line.push_back(m_current.line);
    m_student_of_key.emplace(key == id ? kept : keep(key), number);
    return number;
}

std::uint32_t ClassGrader::table_for(const solve::SolvedProblem& variant, std::size_t part) {
    const solve::SolvedPart* key = &variant.parts[part];
    if (const auto it = m_table_of.find(key); it != m_table_of.end())
        return it->second;
    const auto number = static_cast<std::uint32_t>(m_tables.size());
    m_tables.push_back(std::make_unique<VerdictTable>(variant, *key));
    m_table_of.emplace(key, number);
    return number;
}

void ClassGrader::reject(std::uint32_t student, std::string reason) {
    m_current.reason = reason;
    const auto number = static_cast<std::uint32_t>(m_results.m_rejected.size());
    m_results.m_rejected.push_back({m_current.line, std::move(reason)});
    m_results.m_rejected_next.push_back(k_none);
    if (student == k_none)
        return;
    // Appended to the student's list through its tail, in O(1) however many rows one student sends.
    if (m_last_rejected[student] == k_none)
        m_results.m_first_rejected[student] = number;
    else
        m_results.m_rejected_next[m_last_rejected[student]] = number;
    m_last_rejected[student] = number;
}

const RowResult& ClassGrader::add(CsvRecord record) {
    m_record = std::move(record);
    m_current = RowResult{};
    m_current.line = m_record.line;
    const std::uint64_t row = m_row++;
    ++m_results.rows;
    const auto field = [&](std::size_t i) {
        return m_column[i] < m_record.fields.size() ? std::string_view(m_record.fields[m_column[i]])
                                                    : std::string_view();
    };
    // Spaces after commas ("alice, week3, a") are common in hand-made CSVs and never part of an id; neither are
    // the no-break spaces a spreadsheet or a web page leaves around one (trim_id).
    m_current.student = trim_id(field(0));
    m_current.problem = trimmed(field(1));
    m_current.part = trimmed(field(2));
    m_current.answer = field(3);

    const auto problem_with_id = student_id_problem(m_current.student);
    // A usable id is a student of the class even if this row is rejected: they get a gradebook row, and the row's
    // reason is in their feedback. But a new spelling must not name a student already known under another one:
    // "Alice" after "alice" would share a feedback file on macOS and Windows (id_key: NFC and case folding). And
    // with a roster, an id not on it is nobody in the class: all their rows are rejected, and a gradebook row of
    // zeros would count them in the report's students and its lowest bucket.
    std::uint32_t student = k_none;
    std::string not_a_student; // why a usable id is no student: another's spelling, or not on the roster
    if (!problem_with_id) {
        // One map, by id_key: the same spelling is the student; another spelling of the same key collides.
        const std::string key = id_key(m_current.student);
        if (const auto known = m_student_of_key.find(key); known != m_student_of_key.end()) {
            if (m_results.m_ids[known->second] == m_current.student)
                student = known->second;
            else
                not_a_student =
                    collision_reason(m_current.student, m_results.m_ids[known->second], m_first_line[known->second]);
        } else if (auto outside = m_roster ? m_roster(m_current.student) : std::nullopt) {
            not_a_student = std::move(*outside);
        } else {
            student = new_student(m_current.student, key);
        }
    }
    if (!m_record.error.empty()) {
        reject(student, "malformed row: " + m_record.error);
        return m_current;
    }
    if (m_record.fields.size() < m_needed) {
        reject(student, fmt::format("malformed row: {} field{}, the header has {}", m_record.fields.size(),
                                    m_record.fields.size() == 1 ? "" : "s", m_header_size));
        return m_current;
    }
    if (problem_with_id) {
        reject(k_none, fmt::format("student id '{}' {}", printable(m_current.student), *problem_with_id));
        return m_current;
    }
    if (!not_a_student.empty()) {
        reject(k_none, std::move(not_a_student));
        return m_current;
    }
    auto problem_it = m_problem_index.find(m_current.problem);
    if (problem_it == m_problem_index.end()) // Week3-MHA-Params is week3-mha-params, as --part B is b for check
        problem_it = m_problem_index.find(ascii_lowered(m_current.problem));
    if (problem_it == m_problem_index.end()) {
        std::vector<std::string_view> ids;
        for (const auto& p : m_problems)
            ids.push_back(p.problem.id);
        reject(student, fmt::format("unknown problem '{}'{}", printable(m_current.problem),
                                    did_you_mean(m_current.problem, ids)));
        return m_current;
    }
    const std::size_t problem = problem_it->second;
    if (!m_scope.empty() && !std::binary_search(m_scope.begin(), m_scope.end(), problem)) {
        reject(student,
               fmt::format("problem '{}' is not among those graded (--problems)", m_problems[problem].problem.id));
        return m_current;
    }
    m_named[problem] = true;
    const solve::SolvedProblem* variant = &m_problems[problem];
    if (m_variants) {
        auto found = m_variants(problem, m_current.student);
        if (!found) {
            reject(student, std::move(found.error()));
            return m_current;
        }
        variant = *found;
    }
    auto part = std::find_if(variant->parts.begin(), variant->parts.end(),
                             [&](const solve::SolvedPart& p) { return p.part.id == m_current.part; });
    if (part == variant->parts.end()) { // B for b, unless the spec has both
        const std::string folded = ascii_lowered(m_current.part);
        if (std::count_if(variant->parts.begin(), variant->parts.end(),
                          [&](const solve::SolvedPart& p) { return ascii_lowered(p.part.id) == folded; }) == 1)
            part = std::find_if(variant->parts.begin(), variant->parts.end(),
                                [&](const solve::SolvedPart& p) { return ascii_lowered(p.part.id) == folded; });
    }
    if (part == variant->parts.end()) {
        std::vector<std::string_view> part_ids;
        for (const auto& p : variant->parts)
            part_ids.push_back(p.part.id);
        reject(student, fmt::format("problem '{}' has no part '{}'{}", m_current.problem, printable(m_current.part),
                                    did_you_mean(m_current.part, part_ids)));
        return m_current;
    }

    const auto part_index = static_cast<std::size_t>(part - variant->parts.begin());
    const std::uint32_t table = table_for(*variant, part_index);
    m_current.outcome = RowOutcome::graded;
    m_current.table = m_tables[table].get();
    m_current.answer_id = m_tables[table]->intern(m_current.answer);
    ++m_results.graded;

    // A later row for the same question replaces the earlier one: students resubmit.
    const std::uint32_t global = m_part_base[problem] + static_cast<std::uint32_t>(part_index);
    const Slot slot{global, table, m_current.answer_id, static_cast<std::uint32_t>(row), m_current.line, k_none};
    std::uint32_t* link = &m_first_slot[student];
    while (*link != k_none && m_slots[*link].part != global)
        link = &m_slots[*link].next;
    if (*link == k_none) {
        *link = static_cast<std::uint32_t>(m_slots.size());
        m_slots.push_back(slot);
    } else {
        Slot& old = m_slots[*link];
        m_superseded.push_back({old.row, m_current.line});
        ++m_results.superseded;
        --m_results.graded;
        old = Slot{global, table, slot.answer, slot.row, slot.line, old.next};
    }
    return m_current;
}

ClassResults ClassGrader::finish() {
    std::vector<std::size_t> scope = m_scope;
    if (scope.empty())
        for (std::size_t p = 0; p < m_problems.size(); ++p)
            if (m_named[p])
                scope.push_back(p);
    ClassResults& out = m_results;
    out.m_scope = std::move(scope);
    std::vector<std::size_t> column_of_part(
        m_part_base.empty() ? 0 : m_part_base.back() + m_problems.back().parts.size(), SIZE_MAX);
    for (std::size_t s = 0; s < out.m_scope.size(); ++s) {
        const std::size_t p = out.m_scope[s];
        out.m_part_offset.push_back(out.m_columns);
        for (std::size_t k = 0; k < m_problems[p].parts.size(); ++k)
            column_of_part[m_part_base[p] + k] = out.m_columns++;
    }
    out.m_order.resize(out.m_ids.size());
    for (std::uint32_t i = 0; i < out.m_order.size(); ++i)
        out.m_order[i] = i;
    std::sort(out.m_order.begin(), out.m_order.end(),
              [&](std::uint32_t a, std::uint32_t b) { return out.m_ids[a] < out.m_ids[b]; });
    out.m_grid.assign(out.m_order.size() * out.m_columns, Answered{});
    for (std::size_t i = 0; i < out.m_order.size(); ++i)
        for (std::uint32_t s = m_first_slot[out.m_order[i]]; s != k_none; s = m_slots[s].next)
            if (const std::size_t column = column_of_part[m_slots[s].part]; column != SIZE_MAX)
                out.m_grid[i * out.m_columns + column] = Answered{m_tables[m_slots[s].table].get(), m_slots[s].answer};
    // The slots were the stream's working state; the grid replaces them.
    m_slots = {};
    m_first_slot = {};
    m_student_of_key = {};
    m_first_line = {};
    out.m_tables_keepalive = std::move(m_tables);
    return std::move(out);
}

} // namespace headcount::grade

#include <generate/roster.hpp>

#include <util/csv.hpp>
#include <util/files.hpp>
#include <util/ids.hpp>

#include <fmt/format.h>

#include <map>

namespace headcount::generate {

Result<std::vector<std::string>> parse_roster(std::string_view csv, const std::string& file) {
    auto table = parse_csv(csv, file);
    if (!table)
        return std::unexpected(table.error());
    const auto column = table->column("student");
    if (!column)
        return std::unexpected(Error{file, 1, 0, "the roster's header has no 'student' column"});
    std::vector<std::string> students;
    // id_key -> the id as first written, and its line
    std::map<std::string, std::pair<std::string, int>> seen;
    for (const CsvRecord& record : table->records) {
        if (!record.error.empty())
            return std::unexpected(Error{file, record.line, 0, record.error});
        if (*column >= record.fields.size())
            return std::unexpected(Error{file, record.line, 0, "this row has no student column"});
        const std::string id(trim_id(record.fields[*column]));
        if (const auto problem = student_id_problem(id)) {
            return std::unexpected(
                Error{file, record.line, 0, fmt::format("student id '{}' {}", printable(id), *problem)});
        }
        const auto [earlier, added] = seen.try_emplace(id_key(id), id, record.line);
        if (!added && earlier->second.first == id)
            return std::unexpected(Error{file, record.line, 0, fmt::format("student '{}' is listed twice", id)});
        if (!added)
            return std::unexpected(
                Error{file, record.line, 0, collision_reason(id, earlier->second.first, earlier->second.second)});
        students.push_back(id);
    }
    if (students.empty())
        return std::unexpected(Error{file, 0, 0, "the roster lists no students"});
    return students;
}

Result<std::vector<std::string>> load_roster(const std::string& path) {
    auto text = read_file_capped(path, k_max_roster_bytes, "the roster");
    if (!text)
        return std::unexpected(text.error());
    return parse_roster(*text, path);
}

} // namespace headcount::generate

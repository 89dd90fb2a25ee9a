#include <generate/roster.hpp>

#include <util/csv.hpp>
#include <util/ids.hpp>

#include <fmt/format.h>

#include <fstream>
#include <set>
#include <sstream>

namespace headcount::generate {

Result<std::vector<std::string>> parse_roster(std::string_view csv, const std::string& file) {
    auto table = parse_csv(csv, file);
    if (!table)
        return std::unexpected(table.error());
    const auto column = table->column("student");
    if (!column)
        return std::unexpected(Error{file, 1, 0, "the roster's header has no 'student' column"});
    std::vector<std::string> students;
    std::set<std::string> seen;
    for (const CsvRecord& record : table->records) {
        if (!record.error.empty())
            return std::unexpected(Error{file, record.line, 0, record.error});
        if (*column >= record.fields.size())
            return std::unexpected(Error{file, record.line, 0, "this row has no student column"});
        const std::string& id = record.fields[*column];
        if (const auto problem = student_id_problem(id)) {
            return std::unexpected(
                Error{file, record.line, 0, fmt::format("student id '{}' {}", printable(id), *problem)});
        }
        if (!seen.insert(id).second)
            return std::unexpected(Error{file, record.line, 0, fmt::format("student '{}' is listed twice", id)});
        students.push_back(id);
    }
    if (students.empty())
        return std::unexpected(Error{file, 0, 0, "the roster lists no students"});
    return students;
}

Result<std::vector<std::string>> load_roster(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::unexpected(Error{path, 0, 0, "cannot read the roster"});
    std::ostringstream text;
    text << in.rdbuf();
    return parse_roster(text.str(), path);
}

} // namespace headcount::generate

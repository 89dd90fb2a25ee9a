#include <spec/answers_file.hpp>

#include <util/csv.hpp>
#include <util/ids.hpp>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <set>

namespace headcount::spec {

namespace {

constexpr auto k_names = std::to_array<std::string_view>({"answers.csv", "answers.yaml", "answers.yml"});

Error at(const std::string& file, const YAML::Node& node, std::string message) {
    const YAML::Mark mark = node.Mark();
    return Error{file, mark.line + 1, mark.column + 1, std::move(message)};
}

/// An answer node as text: a scalar as written, a flow sequence of scalars as "[a, b, c]" (a shape).
Result<std::string> answer_text(const YAML::Node& node, const std::string& file) {
    if (node.IsScalar())
        return node.Scalar();
    if (node.IsSequence()) {
        std::string out = "[";
        for (std::size_t i = 0; i < node.size(); ++i) {
            if (!node[i].IsScalar())
                return std::unexpected(at(file, node[i], "a shape's sizes are numbers, not lists or mappings"));
            out += (i ? ", " : "") + node[i].Scalar();
        }
        return out + "]";
    }
    if (node.IsNull())
        return std::string();
    return std::unexpected(at(file, node, "an answer is a number, a shape or a word, not a mapping"));
}

Result<std::vector<SubmittedAnswer>> parse_yaml(std::string_view text, const std::string& file) {
    YAML::Node root;
    try {
        root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
        return std::unexpected(
            Error{file, e.mark.line + 1, e.mark.column + 1, fmt::format("not valid YAML: {}", e.msg)});
    }
    if (!root.IsMap())
        return std::unexpected(Error{file, 1, 1, "the file should map each part to its answer, e.g. 'a: 1050624'"});
    std::vector<SubmittedAnswer> out;
    std::size_t answer_bytes = 0;
    // `where` is the key's own position, or the problem key's when the part comes from an anchor above it (an alias
    // such as `q5: *x`): the line the student wrote last.
    const auto add = [&](const std::string& problem, const YAML::Node& key, const YAML::Node& value,
                         YAML::Mark where) -> Result<void> {
        if (!key.IsScalar() || key.Scalar().empty())
            return std::unexpected(at(file, key, "a part id is a word such as a or b"));
        if (key.Mark().line > where.line)
            where = key.Mark();
        // Counted as they are read: YAML aliases can repeat a mapping of parts under thousands of problems, or one long
        // answer under thousands of parts, so a small file could otherwise expand into millions of answers, or
        // gigabytes of them, before a bound is checked.
        if (out.size() == k_max_answers)
            return std::unexpected(
                Error{file, where.line + 1, where.column + 1,
                      fmt::format("the answers file holds more than {} answers, the most read", k_max_answers)});
        auto answer = answer_text(value, file);
        if (!answer)
            return std::unexpected(answer.error());
        answer_bytes += answer->size();
        if (answer_bytes > k_max_answers_file_bytes)
            return std::unexpected(Error{file, where.line + 1, where.column + 1,
                                         fmt::format("the answers in this file add up to more than {} bytes, the most "
                                                     "read (a YAML alias repeats its text each time it is used)",
                                                     k_max_answers_file_bytes)});
        out.push_back({problem, key.Scalar(), std::move(*answer), key.Mark().line + 1});
        return {};
    };
    for (const auto& entry : root) {
        if (entry.second.IsMap()) { // problem id -> parts
            if (!entry.first.IsScalar() || entry.first.Scalar().empty())
                return std::unexpected(at(file, entry.first, "a problem id is a word such as week3-mha-params"));
            for (const auto& part : entry.second)
                if (auto ok = add(entry.first.Scalar(), part.first, part.second, entry.first.Mark()); !ok)
                    return std::unexpected(ok.error());
        } else if (auto ok = add("", entry.first, entry.second, entry.first.Mark()); !ok) {
            return std::unexpected(ok.error());
        }
    }
    return out;
}

Result<std::vector<SubmittedAnswer>> parse_csv_answers(std::string_view text, const std::string& file) {
    auto table = parse_csv(text, file);
    if (!table)
        return std::unexpected(table.error());
    const auto part = table->column("part");
    const auto answer = table->column("answer");
    const auto problem = table->column("problem");
    if (!part || !answer)
        return std::unexpected(Error{file, 1, 1,
                                     "the header needs 'part' and 'answer' columns (and 'problem' when the "
                                     "assignment has several problems)"});
    std::vector<SubmittedAnswer> out;
    for (const CsvRecord& record : table->records) {
        if (!record.error.empty())
            return std::unexpected(Error{file, record.line, 0, record.error});
        const auto field = [&](std::optional<std::size_t> column) {
            return column && *column < record.fields.size() ? record.fields[*column] : std::string();
        };
        if (field(part).empty())
            return std::unexpected(Error{file, record.line, 0, "this row names no part"});
        out.push_back({field(problem), field(part), field(answer), record.line});
    }
    return out;
}

} // namespace

Result<std::vector<SubmittedAnswer>> parse_answers_file(std::string_view text, const std::string& file, bool yaml) {
    if (text.size() > k_max_answers_file_bytes)
        return std::unexpected(Error{
            file, 0, 0,
            fmt::format("the answers file is {} bytes; at most {} are read", text.size(), k_max_answers_file_bytes)});
    auto answers = yaml ? parse_yaml(text, file) : parse_csv_answers(text, file);
    if (!answers)
        return answers;
    if (answers->empty())
        return std::unexpected(Error{file, 0, 0, "the answers file holds no answers"});
    if (answers->size() > k_max_answers)
        return std::unexpected(Error{
            file, 0, 0,
            fmt::format("the answers file holds {} answers; at most {} are read", answers->size(), k_max_answers)});
    std::set<std::pair<std::string, std::string>> seen;
    for (const SubmittedAnswer& a : *answers)
        if (!seen.emplace(a.problem, a.part).second)
            return std::unexpected(Error{file, a.line, 0,
                                         fmt::format("part '{}'{} is answered twice", printable(a.part),
                                                     a.problem.empty() ? "" : " of '" + printable(a.problem) + "'")});
    return answers;
}

Result<std::filesystem::path> find_answers_file(const std::filesystem::path& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_regular_file(path, ec))
        return path;
    if (!fs::is_directory(path, ec))
        return std::unexpected(Error{path.string(), 0, 0, "no such file or folder"});
    const auto look_in = [&](const fs::path& dir) {
        std::vector<fs::path> found;
        for (std::string_view name : k_names)
            if (fs::is_regular_file(dir / name, ec))
                found.push_back(dir / name);
        return found;
    };
    std::vector<fs::path> found = look_in(path);
    std::vector<std::string> listing;
    std::vector<fs::path> folders;
    for (const auto& entry : fs::directory_iterator(path, ec)) {
        listing.push_back(entry.path().filename().string());
        if (entry.is_directory(ec))
            folders.push_back(entry.path());
    }
    if (found.empty() && folders.size() == 1)
        found = look_in(folders.front());
    if (found.size() > 1)
        return std::unexpected(Error{path.string(), 0, 0,
                                     fmt::format("the submission has both {} and {}; submit one",
                                                 found[0].filename().string(), found[1].filename().string())});
    if (found.empty()) {
        std::sort(listing.begin(), listing.end());
        std::string files;
        for (std::size_t i = 0; i < listing.size() && i < 10; ++i)
            files += (i ? ", " : "") + printable(listing[i]);
        return std::unexpected(Error{path.string(), 0, 0,
                                     fmt::format("the submission has no answers.csv or answers.yaml{}",
                                                 listing.empty() ? " (it is empty)" : " (it has: " + files + ")")});
    }
    if (fs::file_size(found.front(), ec) > k_max_answers_file_bytes || ec)
        return std::unexpected(
            Error{found.front().string(), 0, 0,
                  fmt::format("the answers file is unreadable or larger than {} bytes", k_max_answers_file_bytes)});
    return found.front();
}

} // namespace headcount::spec

#include <grade/submissions.hpp>

#include <string_view>

namespace headcount::grade {

Result<std::unique_ptr<SubmissionsFile>> SubmissionsFile::open(const std::string& path, std::uint64_t max_bytes) {
    std::unique_ptr<SubmissionsFile> file(new SubmissionsFile);
    file->m_in.open(path, std::ios::binary);
    if (!file->m_in)
        return std::unexpected(Error{path, 0, 0, "cannot read the submissions file"});
    std::ifstream& in = file->m_in;
    char start[64] = {};
    in.read(start, sizeof start);
    const std::string_view text(start, static_cast<std::size_t>(in.gcount()));
    in.clear();
    in.seekg(0);
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    // Said for both kinds: a log is empty until a student checks an answer, and grading it then is no mistake.
    if (first == std::string_view::npos && text.size() < sizeof start)
        return std::unexpected(Error{path, 0, 0,
                                     "the file is empty: there is nothing to grade yet (serve's attempt log stays "
                                     "empty until a student checks an answer)"});
    if (first != std::string_view::npos && text[first] == '{') {
        file->m_log.emplace(in, path, max_bytes);
        file->m_header = AttemptLogStream::header();
        return file;
    }
    file->m_csv.emplace(in, path, max_bytes);
    auto header = file->m_csv->header();
    if (!header)
        return std::unexpected(header.error());
    file->m_header = std::move(*header);
    return file;
}

} // namespace headcount::grade

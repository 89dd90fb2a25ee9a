#include <util/files.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace headcount {

Result<void> write_file_atomic(const std::filesystem::path& path, std::string_view content) {
    std::filesystem::path temporary = path;
    temporary += fmt::format(".tmp-{}", ::getpid());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out)
            return std::unexpected(Error{path.string(), 0, 0, "cannot write the file"});
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
        out.flush();
        if (!out) {
            std::error_code ignored;
            std::filesystem::remove(temporary, ignored);
            return std::unexpected(Error{path.string(), 0, 0, "writing failed (disk full?)"});
        }
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::filesystem::remove(temporary, ec);
        return std::unexpected(Error{path.string(), 0, 0, "cannot move the finished file into place"});
    }
    return {};
}

Result<void> ensure_directory(const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir))
        return std::unexpected(Error{dir.string(), 0, 0, "cannot create the output directory"});
    return {};
}

Result<void> write_files(const OutputFiles& files) {
    for (const auto& [path, content] : files) {
        if (auto ok = ensure_directory(path.parent_path()); !ok)
            return ok;
        if (auto ok = write_file_atomic(path, content); !ok)
            return ok;
    }
    return {};
}

} // namespace headcount

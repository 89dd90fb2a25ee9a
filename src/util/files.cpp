#include <util/files.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <unistd.h>

namespace headcount {

std::string describe_cap(std::size_t bytes) {
    if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
        return fmt::format("{} MiB", bytes / (1024 * 1024));
    if (bytes >= 1024 && bytes % 1024 == 0)
        return fmt::format("{} KiB", bytes / 1024);
    return fmt::format("{} byte{}", bytes, bytes == 1 ? "" : "s");
}

Result<std::string> read_file_capped(const std::filesystem::path& path, std::size_t cap, std::string_view what) {
    const auto cannot_read = [&](int error) {
        return std::unexpected(
            Error{path.string(), 0, 0, fmt::format("cannot read {}: {}", what, std::strerror(error))});
    };
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return cannot_read(EISDIR);
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file)
        return cannot_read(errno);
    // Read in chunks up to one byte past the cap: the size a file claims (none, for a pipe or a device) is
    // not trusted, only what was read.
    std::string text;
    char buffer[64 * 1024];
    while (text.size() <= cap) {
        const std::size_t wanted = std::min(sizeof buffer, cap + 1 - text.size());
        const std::size_t got = std::fread(buffer, 1, wanted, file.get());
        text.append(buffer, got);
        if (got < wanted) {
            if (std::ferror(file.get()))
                return cannot_read(errno);
            return text;
        }
    }
    return std::unexpected(Error{
        path.string(), 0, 0, fmt::format("{} is larger than {}, the most headcount reads", what, describe_cap(cap))});
}

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

#include <util/new_files.hpp>

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

namespace headcount {

Result<NewFilesFolder> NewFilesFolder::open(const std::filesystem::path& dir, std::string_view what) {
    const int fd = ::open(dir.c_str(), O_DIRECTORY | O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::unexpected(Error{dir.string(), 0, 0, fmt::format("cannot write in the {}", what)});
    return NewFilesFolder(fd, dir);
}

NewFilesFolder::NewFilesFolder(NewFilesFolder&& other) noexcept : m_fd(other.m_fd), m_dir(std::move(other.m_dir)) {
    other.m_fd = -1;
}

NewFilesFolder::~NewFilesFolder() {
    if (m_fd >= 0)
        ::close(m_fd);
}

Result<void> NewFilesFolder::write(const std::string& name, std::string_view text) const {
    const auto failed = [&](const char* why) { return std::unexpected(Error{(m_dir / name).string(), 0, 0, why}); };
    const int fd = ::openat(m_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return failed("cannot write the file");
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n <= 0) {
            ::close(fd);
            return failed("writing failed (disk full?)");
        }
        done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0)
        return failed("writing failed (disk full?)");
    return {};
}

Result<void> write_new_file(const std::filesystem::path& path, std::string_view text) {
    const auto folder = NewFilesFolder::open(path.parent_path());
    if (!folder)
        return std::unexpected(Error{path.string(), 0, 0, "cannot write the file"});
    return folder->write(path.filename().string(), text);
}

} // namespace headcount

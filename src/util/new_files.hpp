#pragma once
// Creating many new files fast: a class's hundreds of thousands of feedback files are each one openat, write and
// close relative to a folder opened once, so no file costs a path walk, and O_EXCL refuses to overwrite anything.

#include <util/error.hpp>

#include <filesystem>
#include <string>
#include <string_view>

namespace headcount {

/// A folder opened once, to create new files in. Thread-safe: each write is its own open, write and close.
class NewFilesFolder {
  public:
    /// Opens `dir`; `what` names it in the error when it cannot be ("cannot write in the feedback folder").
    static Result<NewFilesFolder> open(const std::filesystem::path& dir, std::string_view what = "folder");
    NewFilesFolder(NewFilesFolder&& other) noexcept;
    NewFilesFolder& operator=(NewFilesFolder&&) = delete;
    NewFilesFolder(const NewFilesFolder&) = delete;
    ~NewFilesFolder();

    /// Creates the file `name` in the folder (it must not exist yet) holding `text`. `name` must stay in the folder
    /// (no '/'). Errors name the file: "cannot write the file", "writing failed (disk full?)".
    Result<void> write(const std::string& name, std::string_view text) const;

  private:
    NewFilesFolder(int fd, std::filesystem::path dir) : m_fd(fd), m_dir(std::move(dir)) {}
    int m_fd;
    std::filesystem::path m_dir;
};

/// Creates the new file `path` (it must not exist yet) holding `text`. Errors name the file.
Result<void> write_new_file(const std::filesystem::path& path, std::string_view text);

} // namespace headcount

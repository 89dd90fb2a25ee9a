#pragma once
// A set of result files that appears whole or not at all. Everything is written into a staging folder inside the
// output folder; commit() checks that every entry may be replaced, then moves each into place by an atomic exchange
// with the old one (whose files, stale students' included, go away with the staging folder), undoing the exchanges
// done if a later one fails. Until then the previous results are untouched: an error, or a run killed halfway,
// leaves them as they were. Folders are replaced only if headcount wrote them (a marker file inside), never an
// instructor's own. A staging folder left by a killed run is removed by the next one.

#include <util/error.hpp>

#include <filesystem>
#include <span>
#include <string>

namespace headcount {

class Staging {
  public:
    /// Creates `out` if needed and a staging folder in it. Errors name the folder.
    static Result<Staging> create(const std::filesystem::path& out);

    Staging(Staging&& other) noexcept;
    Staging& operator=(Staging&&) = delete;
    Staging(const Staging&) = delete;
    ~Staging(); ///< removes the staging folder and what is still in it

    /// The file in every folder headcount writes, without which commit() will not replace a folder.
    static constexpr std::string_view k_marker = ".headcount-output";

    /// Where to write: the staging folder.
    [[nodiscard]] const std::filesystem::path& dir() const { return m_dir; }

    /// Whether the output folder's `name` may be replaced by (or removed for) a staged file or `folder`: an error
    /// when it is of the other kind, or a folder headcount did not write. Checked again by commit().
    [[nodiscard]] Result<void> may_replace(const std::string& name, bool folder) const;

    /// Creates the folder `name` in the staging folder, with the marker that lets a later run replace it.
    [[nodiscard]] Result<std::filesystem::path> folder(const std::string& name) const;

    /// Moves each of `entries` (names directly inside the staging folder) to the same name in the output folder,
    /// all or none. Each of `remove` that exists in the output folder is removed instead (an output this run does
    /// not make, e.g. feedback/ with --feedback none). Errors, naming the entry, change nothing: a file where a
    /// folder goes (or the other way round), a folder without the marker.
    Result<void> commit(std::span<const std::string> entries, std::span<const std::string> remove = {});

  private:
    Staging(std::filesystem::path out, std::filesystem::path dir) : m_out(std::move(out)), m_dir(std::move(dir)) {}
    std::filesystem::path m_out;
    std::filesystem::path m_dir;
};

} // namespace headcount

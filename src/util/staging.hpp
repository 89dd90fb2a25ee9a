#pragma once
// A set of result files that appears whole or not at all. Everything is written into a staging folder inside the
// output folder; commit() moves each entry into place, a folder by one atomic exchange with the old one (whose
// files, stale students' included, go away with the staging folder). Until then the previous results are
// untouched: an error, or a run killed halfway, leaves them as they were. A staging folder left by a killed run is
// removed by the next one.

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

    /// Where to write: the staging folder.
    [[nodiscard]] const std::filesystem::path& dir() const { return m_dir; }

    /// Moves each of `entries` (names directly inside the staging folder) to the same name in the output folder.
    /// An entry in `remove` that is not staged is removed from the output folder instead (an output this run does
    /// not make, e.g. feedback/ with --feedback none). Errors name the entry.
    Result<void> commit(std::span<const std::string> entries, std::span<const std::string> remove = {});

  private:
    Staging(std::filesystem::path out, std::filesystem::path dir) : m_out(std::move(out)), m_dir(std::move(dir)) {}
    std::filesystem::path m_out;
    std::filesystem::path m_dir;
};

} // namespace headcount

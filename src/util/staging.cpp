#include <util/staging.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace headcount {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_prefix = ".headcount-staging-";

/// Removes staging folders whose process is gone (a run that was killed); a live one belongs to a run in progress.
void remove_abandoned(const fs::path& out) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(out, ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with(k_prefix))
            continue;
        const std::string pid_text = name.substr(k_prefix.size());
        char* end = nullptr;
        const long pid = std::strtol(pid_text.c_str(), &end, 10);
        if (end == pid_text.c_str() || *end != '\0' || pid <= 0)
            continue;
        if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
            fs::remove_all(entry.path(), ec);
    }
}

} // namespace

Result<Staging> Staging::create(const fs::path& out) {
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec || !fs::is_directory(out))
        return std::unexpected(Error{out.string(), 0, 0, "cannot create the output folder"});
    remove_abandoned(out);
    const fs::path dir = out / fmt::format("{}{}", k_prefix, ::getpid());
    fs::remove_all(dir, ec); // our own pid's leftover: a previous process that had this pid
    if (!fs::create_directory(dir, ec) || ec)
        return std::unexpected(Error{out.string(), 0, 0, "cannot write in the output folder"});
    return Staging(out, dir);
}

Staging::Staging(Staging&& other) noexcept : m_out(std::move(other.m_out)), m_dir(std::move(other.m_dir)) {
    other.m_dir.clear();
}

Staging::~Staging() {
    if (m_dir.empty())
        return;
    std::error_code ec;
    fs::remove_all(m_dir, ec);
}

Result<void> Staging::commit(std::span<const std::string> entries, std::span<const std::string> remove) {
    std::error_code ec;
    for (const std::string& name : entries) {
        const fs::path from = m_dir / name, to = m_out / name;
        const bool folder = fs::is_directory(from, ec);
        if (folder && fs::exists(to, ec)) {
            if (!fs::is_directory(to, ec))
                return std::unexpected(Error{to.string(), 0, 0, "exists and is not a folder; move it away"});
            // One atomic step: the new folder takes the old one's place, and the old one lands in staging.
            if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_EXCHANGE) != 0)
                return std::unexpected(Error{to.string(), 0, 0, "cannot move the new results into place"});
            continue;
        }
        fs::rename(from, to, ec);
        if (ec)
            return std::unexpected(Error{to.string(), 0, 0, "cannot move the new results into place"});
    }
    for (const std::string& name : remove) {
        const fs::path to = m_out / name;
        if (fs::exists(to, ec))
            fs::rename(to, m_dir / name, ec); // removed with the staging folder
    }
    return {};
}

} // namespace headcount

#include <util/staging.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <unistd.h>
#include <vector>

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

bool exchange(const fs::path& a, const fs::path& b) {
    return ::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0;
}

/// Why the existing `target` may not be replaced by a staged `folder` (or file), or "" when it may.
std::string cannot_replace(const fs::path& target, bool folder) {
    std::error_code ec;
    const auto status = fs::symlink_status(target, ec);
    if (!fs::exists(status))
        return {};
    if (folder != fs::is_directory(status))
        return folder ? "exists and is not a folder; move it away" : "exists and is a folder; move it away";
    if (folder && !fs::exists(target / std::string(Staging::k_marker)))
        return "is a folder headcount did not write; move it away (headcount replaces only its own folders)";
    return {};
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

Result<void> Staging::may_replace(const std::string& name, bool folder) const {
    if (const std::string why = cannot_replace(m_out / name, folder); !why.empty())
        return std::unexpected(Error{(m_out / name).string(), 0, 0, why});
    return {};
}

Result<fs::path> Staging::folder(const std::string& name) const {
    const fs::path dir = m_dir / name;
    std::error_code ec;
    if (!fs::create_directory(dir, ec) || ec)
        return std::unexpected(Error{(m_out / name).string(), 0, 0, "cannot create the folder"});
    std::ofstream(dir / std::string(k_marker))
        << "Written by headcount. The next run replaces this folder as a whole.\n";
    return dir;
}

Result<void> Staging::commit(std::span<const std::string> entries, std::span<const std::string> remove) {
    std::error_code ec;
    // Everything that could refuse is checked before anything moves.
    for (const std::string& name : entries)
        if (const std::string why = cannot_replace(m_out / name, fs::is_directory(m_dir / name, ec)); !why.empty())
            return std::unexpected(Error{(m_out / name).string(), 0, 0, why});
    for (const std::string& name : remove)
        if (fs::is_directory(m_out / name, ec))
            if (const std::string why = cannot_replace(m_out / name, true); !why.empty())
                return std::unexpected(Error{(m_out / name).string(), 0, 0, why});

    // Each step is an exchange (the old entry lands in staging) or a plain move, and can be undone.
    struct Step {
        fs::path staged, target;
        bool exchanged;
    };
    std::vector<Step> done;
    const auto undo = [&] {
        for (auto it = done.rbegin(); it != done.rend(); ++it)
            if (it->exchanged)
                exchange(it->staged, it->target);
            else
                fs::rename(it->target, it->staged, ec);
    };
    for (const std::string& name : entries) {
        const fs::path from = m_dir / name, to = m_out / name;
        const bool replace = fs::exists(fs::symlink_status(to, ec));
        if (replace ? !exchange(from, to)
                    : ::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) != 0) {
            undo();
            return std::unexpected(Error{to.string(), 0, 0, "cannot move the new results into place"});
        }
        done.push_back({from, to, replace});
    }
    for (const std::string& name : remove) {
        const fs::path to = m_out / name, into = m_dir / (name + ".old");
        if (fs::exists(fs::symlink_status(to, ec)) && ::rename(to.c_str(), into.c_str()) != 0) {
            undo();
            return std::unexpected(Error{to.string(), 0, 0, "cannot remove the previous results"});
        }
    }
    return {};
}

} // namespace headcount

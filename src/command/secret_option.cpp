#include <command/secret_option.hpp>

#include <util/secret.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>

namespace headcount::command {

namespace {

/// Whether `path` is `folder` (a file or a folder) or lies inside it, once both are made absolute and normalised
/// (symbolic links in the parts that exist resolved). When either cannot be resolved, the answer is yes: the secret is
/// refused rather than risked in a folder students receive.
bool inside(const std::filesystem::path& path, const std::filesystem::path& folder) {
    const auto resolved = [](const std::filesystem::path& p) -> std::optional<std::filesystem::path> {
        std::error_code absolute_error, canonical_error;
        const std::filesystem::path whole = std::filesystem::absolute(p, absolute_error);
        if (absolute_error)
            return std::nullopt;
        std::filesystem::path out = std::filesystem::weakly_canonical(whole, canonical_error);
        if (canonical_error || !out.is_absolute())
            return std::nullopt;
        return out;
    };
    const auto file = resolved(path), root = resolved(folder);
    if (!file || !root)
        return true;
    const auto root_end = std::mismatch(root->begin(), root->end(), file->begin(), file->end()).first;
    return root_end == root->end() || (std::next(root_end) == root->end() && root_end->empty());
}

} // namespace

Result<TokenSecret> command_token_secret(const std::string& option, const std::vector<ExposedPath>& exposed) {
    std::filesystem::path path = option;
    if (path.empty()) {
        auto fallback = default_secret_path();
        if (!fallback)
            return std::unexpected(fallback.error());
        path = std::move(*fallback);
    }
    for (const ExposedPath& folder : exposed)
        if (!folder.path.empty() && inside(path, folder.path))
            return std::unexpected(
                Error{path.string(), 0, 0,
                      fmt::format("the token secret must not be inside {}: keep it elsewhere", folder.described)});
    auto loaded = load_token_secret(path, true);
    if (!loaded)
        return std::unexpected(loaded.error());
    if (loaded->source == SecretSource::created)
        fmt::print(stderr,
                   "headcount: made a new token secret in {} (keep it private; generate --serve-url and serve "
                   "must use the same file)\n",
                   path.string());
    return std::move(loaded->secret);
}

} // namespace headcount::command

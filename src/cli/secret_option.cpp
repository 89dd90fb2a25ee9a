#include <cli/secret_option.hpp>

#include <util/secret.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace headcount::cli {

namespace {

/// Whether `path` is `folder` or lies inside it, once both are made absolute and normalised.
bool inside(const std::filesystem::path& path, const std::filesystem::path& folder) {
    std::error_code ec;
    const std::filesystem::path file = std::filesystem::weakly_canonical(path, ec);
    const std::filesystem::path root = std::filesystem::weakly_canonical(folder, ec);
    if (ec)
        return false;
    const auto root_end = std::mismatch(root.begin(), root.end(), file.begin(), file.end()).first;
    return root_end == root.end() || (std::next(root_end) == root.end() && root_end->empty());
}

} // namespace

Result<TokenSecret> command_token_secret(const std::string& option, const std::filesystem::path& out) {
    std::filesystem::path path = option;
    if (path.empty()) {
        auto fallback = default_secret_path();
        if (!fallback)
            return std::unexpected(fallback.error());
        path = std::move(*fallback);
    }
    if (!out.empty() && inside(path, out))
        return std::unexpected(Error{path.string(), 0, 0,
                                     fmt::format("the token secret must not be inside the output folder {}, which "
                                                 "students receive: keep it elsewhere",
                                                 out.string())});
    auto loaded = load_token_secret(path, true);
    if (!loaded)
        return std::unexpected(loaded.error());
    if (loaded->source == SecretSource::created)
        fmt::print(stderr, "headcount: made a new token secret in {} (keep it private; generate --serve-url and serve "
                           "must use the same file)\n",
                   path.string());
    return std::move(loaded->secret);
}

} // namespace headcount::cli

#pragma once
// The instructor's token secret on disk: one file, private to its owner, made by the first command that needs it
// (generate --serve-url, serve with a roster) and read by both. It is never printed, logged or written into an
// output folder; replacing the file (or deleting it, so a new one is made) rotates every student's link.

#include <util/error.hpp>
#include <util/token.hpp>

#include <filesystem>

namespace headcount {

/// Where the secret is kept unless --secret says otherwise: $XDG_CONFIG_HOME/headcount/token-secret, else
/// $HOME/.config/headcount/token-secret. Errors: neither variable set (or not an absolute path).
Result<std::filesystem::path> default_secret_path();

/// How a secret was obtained.
enum class SecretSource { read, created };

/// The secret in `path`, and whether it was made now.
struct LoadedSecret {
    TokenSecret secret;
    SecretSource source;
};

/// Reads the secret in `path`: its bytes without the line break that ends it (LF or CR LF), at least
/// k_min_secret_bytes of them. When the file does not exist and `create` is set, makes it first (its folder too,
/// mode 0700): 32 bytes from the kernel's CSPRNG (getrandom) written as 64 hex digits and a newline, mode 0600,
/// written whole under another name and linked into place, so that two commands racing agree on one secret.
/// Errors name the file, never its content: not a regular file, owned by another user, readable or writable by
/// group or others ("chmod 600"), shorter than 32 bytes, longer than 4 KiB, unreadable.
Result<LoadedSecret> load_token_secret(const std::filesystem::path& path, bool create);

} // namespace headcount

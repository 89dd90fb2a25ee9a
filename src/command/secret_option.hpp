#pragma once
// The --secret option of the commands that hand out or check students' links (generate --serve-url, serve): which
// file keys the tokens, made on first use, and never one inside a folder others see (the one students' files are
// written to, the ones serve reads and serves).

#include <util/error.hpp>
#include <util/token.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace headcount::command {

/// --secret's help, the same for every command that has it.
inline constexpr const char* k_secret_help =
    "The private file whose secret keys students' links (default: ~/.config/headcount/token-secret, or under "
    "$XDG_CONFIG_HOME; made when missing). generate --serve-url and serve must read the same file; anyone who has "
    "it can open any student's page";

/// A folder (or file) whose contents others may see, which the token secret must therefore not be inside.
struct ExposedPath {
    std::filesystem::path path;
    std::string described; ///< for the refusal: "the output folder out/, which students receive"
};

/// The token secret in `option`'s file (or the default one when `option` is empty), made when missing, with a line
/// on stderr saying where (never what). A file inside one of `exposed` is refused, with that path's description.
Result<TokenSecret> command_token_secret(const std::string& option, const std::vector<ExposedPath>& exposed);

} // namespace headcount::command

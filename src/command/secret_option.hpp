#pragma once
// The --secret option of the commands that hand out or check students' links (generate --serve-url, serve): which
// file keys the tokens, made on first use, and never one inside the folder students' files are written to.

#include <util/error.hpp>
#include <util/token.hpp>

#include <filesystem>
#include <string>

namespace headcount::command {

/// --secret's help, the same for every command that has it.
inline constexpr const char* k_secret_help =
    "The private file whose secret keys students' links (default: ~/.config/headcount/token-secret, or under "
    "$XDG_CONFIG_HOME; made when missing). generate --serve-url and serve must read the same file; anyone who has "
    "it can open any student's page";

/// The token secret in `option`'s file (or the default one when `option` is empty), made when missing, with a line
/// on stderr saying where (never what). A file inside `out` (a folder students receive; empty: none) is refused.
Result<TokenSecret> command_token_secret(const std::string& option, const std::filesystem::path& out);

} // namespace headcount::command

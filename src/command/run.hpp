#pragma once
// What both programs' command lines share, headcount's (cli/) and headcount-serve's (serve/serve_command.hpp): a
// command registered on a CLI11 app, the one place that runs it and prints its error, and the exit codes and texts
// they agree on. Below cli and serve, so that serve needs nothing of cli, and cli nothing of serve.

#include <util/error.hpp>

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace headcount::command {

/// Exit codes every subcommand shares.
enum ExitCode : int { k_exit_ok = 0, k_exit_incorrect = 1, k_exit_bad_input = 2 };

/// What a subcommand does once its options are parsed: an exit code, or an error to print (exit 2).
using Action = std::function<Result<int>()>;

/// A registered subcommand and what it runs when it was the one parsed.
struct Command {
    CLI::App* app = nullptr;
    Action run;
};

/// Parses the command line with `app`, on which `commands` are registered, and runs the one given; the process
/// exit code. A usage error is one line on stderr and exit 2, as is an error a command returns; an exception out
/// of a command is "internal error: ...", exit 2.
int run_app(CLI::App& app, const std::vector<Command>& commands, int argc, char** argv);

/// Prints an error on stderr: "file:line:col: message" or "headcount: message", and under an error at a line and
/// column of a file the line itself with a caret under the column.
void print_error(const Error& error);

/// Help for every command's --templates option.
inline constexpr const char* k_templates_help =
    "Use the Mustache templates in this folder instead of the built-in ones of the same name (write them out "
    "with `headcount templates export DIR`)";

/// The SPECS positional every command over specs takes (files or directories), required.
inline CLI::Option* add_specs_argument(CLI::App& command, std::vector<std::string>& specs) {
    return command.add_option("specs", specs, "Problem spec files (.yaml) or directories of them")->required();
}

/// What `headcount --help` says headcount is, and --version.
inline constexpr const char* k_app_description =
    "headcount: solves transformer-arithmetic homework exactly, writes worked solutions, and checks answers.";
inline constexpr const char* k_version = "headcount 0.1.0";

/// serve's one-line description, for `headcount --help` (serve runs as its own program: see cli/app.hpp).
inline constexpr const char* k_serve_description =
    "Put the problems on web pages where students check their answers (and a JSON API for the same).";

} // namespace headcount::command

#pragma once
// One function per subcommand: registers its options on the CLI11 app and returns the action to run.

#include <util/error.hpp>

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace headcount::generate {
struct ExportFormat;
struct ExportRequest;
} // namespace headcount::generate

namespace headcount::cli {

/// What a subcommand does once its options are parsed: an exit code, or an error to print (exit 2).
using Action = std::function<Result<int>()>;

/// A registered subcommand and what it runs when it was the one parsed.
struct Command {
    CLI::App* app = nullptr;
    Action run;
};

/// `headcount solve`.
Command add_solve_command(CLI::App& app);

/// `headcount check`.
Command add_check_command(CLI::App& app);

/// `headcount grade`.
Command add_grade_command(CLI::App& app);

/// `headcount generate`.
Command add_generate_command(CLI::App& app);

/// `headcount answers`.
Command add_answers_command(CLI::App& app);

/// `headcount export FORMAT`: a subcommand per row of generate::export_formats().
Command add_export_command(CLI::App& app);

/// Runs one export (`headcount export FORMAT`, and generate's old spellings of it): checks the options, loads and
/// solves `specs` and the templates, writes the format's files, and says what it wrote on stderr.
Result<int> run_export(const generate::ExportFormat& format, const std::vector<std::string>& specs,
                       generate::ExportRequest request);

/// `headcount catalogue asks|mistakes|exports` (hidden): the catalogues' reference tables, for the docs.
Command add_catalogue_command(CLI::App& app);

/// `headcount serve`.
Command add_serve_command(CLI::App& app);

/// `headcount templates export`.
Command add_templates_command(CLI::App& app);

/// Help for every command's --templates option.
inline constexpr const char* k_templates_help =
    "Use the Mustache templates in this folder instead of the built-in ones of the same name (write them out "
    "with `headcount templates export DIR`)";

/// What `headcount --help` says headcount is, and --version.
inline constexpr const char* k_app_description =
    "headcount: solves transformer-arithmetic homework exactly, writes worked solutions, and checks answers.";
inline constexpr const char* k_version = "headcount 0.1.0";

/// serve's one-line description, for `headcount --help` (serve runs as its own program: see app.hpp).
inline constexpr const char* k_serve_description =
    "Put the problems on web pages where students check their answers (and a JSON API for the same).";

/// Parses the command line with `app`, on which `commands` are registered, and runs the one given; the process
/// exit code. A usage error is one line on stderr and exit 2, as is an error a command returns.
int run_app(CLI::App& app, const std::vector<Command>& commands, int argc, char** argv);

/// Prints an error as one line on stderr: "file:line:col: message" or "headcount: message".
void print_error(const Error& error);

} // namespace headcount::cli

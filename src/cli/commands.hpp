#pragma once
// One function per subcommand: registers its options on the CLI11 app and returns the action to run.

#include <command/problems.hpp>
#include <command/run.hpp>
#include <command/secret_option.hpp>
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

// What every command file uses from command/ (shared with serve's command), named here as cli's own.
using command::Action;
using command::add_specs_argument;
using command::Command;
using command::command_token_secret;
using command::find_part;
using command::k_app_description;
using command::k_exit_bad_input;
using command::k_exit_incorrect;
using command::k_exit_ok;
using command::k_secret_help;
using command::k_serve_description;
using command::k_templates_help;
using command::k_version;
using command::load_and_solve;
using command::load_course;
using command::load_templates;
using command::print_error;
using command::run_app;

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

/// `headcount catalogue asks|mistakes|training-asks|exports` (hidden): the catalogues' reference tables, for the docs.
Command add_catalogue_command(CLI::App& app);

/// `headcount templates export`.
Command add_templates_command(CLI::App& app);

} // namespace headcount::cli

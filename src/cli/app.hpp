#pragma once
// The command line: parses arguments with CLI11 and calls the library. The only layer that prints or exits.

namespace headcount::cli {

/// Exit codes every subcommand shares.
enum ExitCode : int { k_exit_ok = 0, k_exit_incorrect = 1, k_exit_bad_input = 2 };

/// Runs `headcount ARGS...`; returns the process exit code. `headcount serve ...` is handed to the program
/// headcount-serve (exec), which runs serve_main.
int headcount_main(int argc, char** argv);

/// Runs `headcount serve ARGS...` (the program headcount-serve, linked with the HTTP library).
int serve_main(int argc, char** argv);

} // namespace headcount::cli

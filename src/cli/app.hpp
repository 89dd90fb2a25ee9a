#pragma once
// The command line of the program headcount: parses arguments with CLI11 and calls the library. With serve's
// command (serve/serve_command.hpp), the only code that prints or exits; what both share is in command/.

namespace headcount::cli {

/// Runs `headcount ARGS...`; returns the process exit code. `headcount serve ...` is handed to the program
/// headcount-serve (exec), which runs serve::serve_main (serve/serve_command.hpp).
int headcount_main(int argc, char** argv);

} // namespace headcount::cli

#pragma once
// `headcount serve`: its options, and main() of the program headcount-serve that runs it (`headcount serve ...`
// execs that program: exec_serve in cli/app.cpp says why). Built on command/ as cli's commands are, without cli.

#include <command/run.hpp>

namespace headcount::serve {

/// `headcount serve`: registers its options on `app` and returns what runs the server.
command::Command add_serve_command(CLI::App& app);

/// Runs `headcount serve ARGS...`; the process exit code (0 after a clean stop, 2 when it cannot start).
int serve_main(int argc, char** argv);

} // namespace headcount::serve

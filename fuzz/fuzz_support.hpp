#pragma once
// What the fuzz targets share: shipped problems solved once per process, and a check that stops the fuzzer (a
// "crash" it saves and reports) when a property that must always hold does not.

#include <grade/attempt_lines.hpp>
#include <serve/attempt_log.hpp>
#include <solve/asks.hpp>

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace headcount::fuzz {

/// The shipped problem `id` (problems/ID.yaml, built into the target), parsed and solved; aborts if it cannot be.
const solve::SolvedProblem& shipped_problem(std::string_view id);

/// Logs `submission` as the server does (attempt_line) and reads the line back as grade does (read_attempt_line):
/// it must be exactly one line and give the same fields, unless escaping made it longer than a log line may be.
void require_logged_round_trip(const grade::LoggedSubmission& submission);

/// Stops the run with `what` on stderr when `holds` is false: libFuzzer saves the input as a crash.
inline void require(bool holds, const char* what) {
    if (!holds) {
        std::fprintf(stderr, "fuzz property violated: %s\n", what);
        std::abort();
    }
}

} // namespace headcount::fuzz

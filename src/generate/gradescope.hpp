#pragma once
// A Gradescope autograder (Gradescope's autograder specification): a zip with setup.sh, which Gradescope runs once
// on its image and which installs and builds nothing, headcount itself (one static program that needs no library
// or file outside itself: its templates are compiled in), and run_autograder, which reads the student's answers
// file, takes their id from submission_metadata.json for seeded variants, and runs
// `headcount grade --format gradescope` into results/results.json.

#include <render/templates.hpp>
#include <util/zip.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace headcount::generate {

/// Largest program read to put in an autograder: a build with debugging information is about 90 MB.
inline constexpr std::size_t k_max_program_bytes = 512 * 1024 * 1024;

/// What goes into an autograder.
struct AutograderInput {
    std::vector<std::pair<std::string, std::string>> specs; ///< file name in problems/ and the spec's bytes
    std::string roster;                                     ///< the roster's bytes (roster.csv), empty without a seed
    std::string seed;                                       ///< empty: everyone is graded against the specs as written
    bool reveal = false;                                    ///< feedback in full, whatever the specs' reveal policy
    std::string program;             ///< the headcount program's bytes, as loaded_part leaves them
    std::filesystem::path templates; ///< --templates: the instructor's templates, sent along; empty: the built-in
};

/// The zip's entries, in this order: setup.sh, run_autograder and headcount (executable; the scripts from
/// templates/gradescope/), problems/*.yaml, roster.csv when seeded, and templates/ (the *.mustache files of
/// `input.templates`, when given). Errors: an unreadable templates folder or file, a template error.
Result<std::vector<ZipEntry>> gradescope_autograder(const AutograderInput& input, const render::TemplateSet& templates);

/// The program an autograder carries: `path`'s bytes cut to what the kernel loads (loaded_part: debugging
/// information dropped), or an error naming `path` when it is not a static x86-64 program, which Gradescope's
/// Ubuntu image could not run (a dynamic one needs Debian's libraries). `path` empty: the running headcount.
Result<std::string> autograder_program(const std::filesystem::path& path);

/// The results.json Gradescope shows a student whose submission could not be read: no points, `reason` as the
/// visible output.
std::string unreadable_submission_results(const std::string& reason);

} // namespace headcount::generate

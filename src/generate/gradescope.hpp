#pragma once
// A Gradescope autograder (Gradescope's autograder specification): a zip with setup.sh, which installs headcount's
// build dependencies on Gradescope's Ubuntu image and builds headcount from the source tree inside the zip, and
// run_autograder, which reads the student's answers file, takes their id from submission_metadata.json for seeded
// variants, and runs `headcount grade --format gradescope` into results/results.json.

#include <render/templates.hpp>
#include <util/zip.hpp>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace headcount::generate {

/// What goes into an autograder.
struct AutograderInput {
    std::vector<std::pair<std::string, std::string>> specs; ///< file name in problems/ and the spec's bytes
    std::string roster;        ///< the roster's bytes (roster.csv), empty without --seed
    std::string seed;          ///< empty: everyone is graded against the specs as written
    bool reveal = false;       ///< feedback in full, whatever the specs' reveal policy
    std::filesystem::path source_tree; ///< headcount's source: CMakeLists.txt, src/, templates/ (cmake/ if any)
    std::filesystem::path templates;   ///< --templates: the instructor's templates, sent along; empty: the built-in
};

/// The zip's entries: setup.sh and run_autograder (executable, from templates/gradescope/), problems/*.yaml,
/// roster.csv when seeded, templates/ (the *.mustache files of `input.templates`, when given), and headcount/ (the source
/// tree's CMakeLists.txt, cmake/, src/ without the *_test.cpp files, templates/, doc/, completions/), in a fixed order. Errors: a source tree without CMakeLists.txt or src/, an unreadable file,
/// a template error.
Result<std::vector<ZipEntry>> gradescope_autograder(const AutograderInput& input, const render::TemplateSet& templates);

/// The source tree an autograder carries by default: the copy installed beside the binary
/// (../share/headcount/source, from the .deb) or the checkout the binary was built in (its build/ folder's parent);
/// empty when neither is there.
std::filesystem::path default_source_tree();

/// The results.json Gradescope shows a student whose submission could not be read: no points, `reason` as the
/// visible output.
std::string unreadable_submission_results(const std::string& reason);

} // namespace headcount::generate

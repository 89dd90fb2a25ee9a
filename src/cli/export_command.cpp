#include <cli/app.hpp>
#include <cli/commands.hpp>
#include <cli/problems.hpp>

#include <generate/gradescope.hpp>
#include <generate/roster.hpp>
#include <spec/reader.hpp>
#include <util/files.hpp>
#include <util/zip.hpp>

#include <fmt/format.h>

#include <memory>

namespace headcount::cli {

namespace {

struct ExportOptions {
    std::vector<std::string> specs;
    std::string out;
    std::string seed;
    std::string roster;
    bool reveal = false;
    std::string binary; ///< empty: the running headcount
    std::string templates;
};

Result<int> run_export_gradescope(const ExportOptions& options) {
    // Every spec must load and solve here: a bad one would otherwise fail every student's submission.
    auto problems = load_and_solve(options.specs);
    if (!problems)
        return std::unexpected(problems.error());
    auto templates = load_templates(options.templates);
    if (!templates)
        return std::unexpected(templates.error());
    auto paths = spec::expand_spec_paths(options.specs);
    if (!paths)
        return std::unexpected(paths.error());
    generate::AutograderInput input;
    input.seed = options.seed;
    input.reveal = options.reveal;
    input.templates = options.templates;
    for (std::size_t i = 0; i < paths->size(); ++i) {
        auto bytes = read_file_capped((*paths)[i], spec::k_max_spec_bytes, "the spec file");
        if (!bytes)
            return std::unexpected(bytes.error());
        // Named by problem id, which is unique and a safe file name, whatever folders the specs came from.
        input.specs.emplace_back((*problems)[i].problem.id + ".yaml", std::move(*bytes));
    }
    if (!options.seed.empty()) {
        auto roster = generate::load_roster(options.roster); // checked now, so that every id is usable there
        if (!roster)
            return std::unexpected(roster.error());
        auto variants = class_variants(*problems, *roster, options.seed);
        if (!variants)
            return std::unexpected(variants.error());
        auto bytes = read_file_capped(options.roster, generate::k_max_roster_bytes, "the roster");
        if (!bytes)
            return std::unexpected(bytes.error());
        input.roster = std::move(*bytes);
    }
    auto program = generate::autograder_program(options.binary);
    if (!program)
        return std::unexpected(program.error());
    input.program = std::move(*program);
    auto entries = generate::gradescope_autograder(input, *templates);
    if (!entries)
        return std::unexpected(entries.error());
    auto zip = zip_archive(*entries);
    if (!zip)
        return std::unexpected(zip.error());
    const std::filesystem::path target = std::filesystem::path(options.out) / "autograder.zip";
    if (auto ok = write_files({{target, *zip}}); !ok)
        return std::unexpected(ok.error());
    fmt::print(stderr, "headcount: a Gradescope autograder for {} problem{}{}; wrote {} ({} files, {} bytes)\n",
               problems->size(), problems->size() == 1 ? "" : "s",
               options.seed.empty() ? "" : fmt::format(", variants under seed '{}'", options.seed), target.string(),
               entries->size(), zip->size());
    return k_exit_ok;
}

} // namespace

Command add_export_command(CLI::App& app) {
    auto options = std::make_shared<ExportOptions>();
    CLI::App* exporter = app.add_subcommand("export", "Package problems for a platform that runs headcount itself.");
    exporter->require_subcommand(1);
    CLI::App* gradescope = exporter->add_subcommand(
        "gradescope", "Write OUT/autograder.zip, a Gradescope autograder that grades students' answers files.");
    gradescope->add_option("specs", options->specs, "Problem spec files (.yaml) or directories of them")->required();
    gradescope->add_option("--out", options->out, "Output directory")->required();
    auto* seed = gradescope->add_option("--seed", options->seed,
                                        "Grade each student against their own variant from `headcount generate --seed`");
    auto* roster = gradescope->add_option("--roster", options->roster,
                                          "The roster the variants were generated for; its email column maps "
                                          "Gradescope's submitter to a student id");
    seed->needs(roster);
    roster->needs(seed);
    gradescope->add_flag("--reveal", options->reveal,
                         "Feedback in full, expected values included, whatever the specs' feedback policy");
    gradescope->add_option("--binary", options->binary,
                           "The headcount program to put in the zip (default: this one); it must be static, as the "
                           ".deb's is, to run on Gradescope's image");
    gradescope->add_option("--templates", options->templates,
                           std::string(k_templates_help) + "; they go into the zip for the autograder's feedback");
    gradescope->footer("The zip holds setup.sh (which installs and builds nothing), run_autograder, this headcount "
                       "program (static: it needs nothing of Gradescope's image), the specs, the roster and --templates' "
                       "templates. Exit status: 0 written, 2 bad input.");
    return {gradescope, [options] { return run_export_gradescope(*options); }};
}

} // namespace headcount::cli

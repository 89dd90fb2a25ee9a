#include <cli/app.hpp>
#include <cli/commands.hpp>
#include <command/problems.hpp>

#include <generate/export_formats.hpp>
#include <util/files.hpp>

#include <fmt/format.h>

#include <memory>
#include <type_traits>
#include <variant>

namespace headcount::cli {

namespace {

/// What the command line sets, for whichever format it names.
struct ExportArguments {
    std::vector<std::string> specs;
    std::string out;
    generate::ExportRequest request;
};

/// Puts `use` on `command`, bound to its field of `request`: a flag for an on/off field, else an option.
void add_export_option(CLI::App& command, const generate::ExportOptionUse& use, generate::ExportRequest& request) {
    const generate::ExportOptionSpelling& spelling = generate::export_option_spelling(use.option);
    const std::string flag(spelling.flag), help(use.help);
    CLI::Option* option = std::visit(
        [&]<class T>(T generate::ExportRequest::*field) {
            if constexpr (std::is_same_v<T, bool>)
                return command.add_flag(flag, request.*field, help);
            else
                return command.add_option(flag, request.*field, help);
        },
        spelling.field);
    if (use.option == generate::ExportOption::variants)
        option->check(CLI::Range(std::size_t{1}, std::size_t{10000}));
    option->required(use.required);
}

} // namespace

Result<int> run_export(const generate::ExportFormat& format, const std::vector<std::string>& specs,
                       generate::ExportRequest request) {
    if (const auto why = format.check(request))
        return fail(*why);
    // Every spec must load and solve here: a bad one would otherwise fail on the platform, for every student.
    auto course = load_course(specs, request.templates_dir);
    if (!course)
        return std::unexpected(course.error());
    const std::vector<solve::SolvedProblem>& problems = course->problems;
    const render::TemplateSet& templates = course->templates;
    request.problems = &problems;
    request.templates = &templates;
    auto output = format.write(request);
    if (!output)
        return std::unexpected(output.error());
    for (const std::string& note : output->notes)
        fmt::print(stderr, "headcount: {}\n", note);
    if (auto ok = write_files(output->files); !ok)
        return std::unexpected(ok.error());
    fmt::print(stderr, "headcount: {}\n", output->summary);
    return k_exit_ok;
}

Command add_export_command(CLI::App& app) {
    auto arguments = std::make_shared<ExportArguments>();
    CLI::App* exporter = app.add_subcommand("export", "Write problems for a learning platform: a Moodle question "
                                                      "bank, a Canvas quiz or a Gradescope autograder.");
    exporter->require_subcommand(1);
    std::vector<std::pair<const CLI::App*, const generate::ExportFormat*>> commands;
    for (const generate::ExportFormat& format : generate::export_formats()) {
        CLI::App* command = exporter->add_subcommand(std::string(format.name),
                                                     fmt::format("Write OUT/{}, {}.", format.writes, format.summary));
        add_specs_argument(*command, arguments->specs);
        command->add_option("--out", arguments->out, "Output directory")->required();
        for (const generate::ExportOptionUse& use : format.options)
            add_export_option(*command, use, arguments->request);
        command->add_option("--templates", arguments->request.templates_dir, k_templates_help);
        command->footer(fmt::format("{} Exit status: 0 written, 2 bad input or usage.", format.details));
        commands.emplace_back(command, &format);
    }
    return {exporter, [arguments, commands] {
                for (const auto& [command, format] : commands)
                    if (command->parsed()) {
                        arguments->request.out = arguments->out;
                        return run_export(*format, arguments->specs, arguments->request);
                    }
                return Result<int>(k_exit_bad_input); // require_subcommand(1) leaves no other way here
            }};
}

} // namespace headcount::cli

#include <cli/app.hpp>
#include <cli/commands.hpp>

#include <render/builtin_templates.hpp>
#include <util/files.hpp>

#include <fmt/format.h>

#include <memory>

namespace headcount::cli {

namespace {

struct TemplatesOptions {
    std::string dir;
    bool force = false;
};

/// Writes the built-in templates into `dir` as NAME.mustache, refusing to overwrite an instructor's edits unless
/// asked to.
Result<int> run_export(const TemplatesOptions& options) {
    namespace fs = std::filesystem;
    OutputFiles files;
    for (const render::BuiltinTemplate& t : render::builtin_templates())
        files.emplace_back(fs::path(options.dir) / (std::string(t.name) + ".mustache"), std::string(t.text));
    for (const render::BuiltinTemplate& f : render::builtin_static_files()) // serve's style sheet and script
        files.emplace_back(fs::path(options.dir) / std::string(f.name), std::string(f.text));
    if (!options.force) {
        for (const auto& [path, _] : files) {
            std::error_code ec;
            if (fs::exists(path, ec))
                return std::unexpected(Error{
                    path.string(), 0, 0, "already exists; pass --force to overwrite the templates in " + options.dir});
        }
    }
    if (auto ok = write_files(files); !ok)
        return std::unexpected(ok.error());
    fmt::print(stderr,
               "headcount: wrote {} templates to {}; edit any of them and pass --templates {} (the folder "
               "may keep only the ones you change)\n",
               files.size(), options.dir, options.dir);
    return k_exit_ok;
}

} // namespace

Command add_templates_command(CLI::App& app) {
    auto options = std::make_shared<TemplatesOptions>();
    CLI::App* templates = app.add_subcommand("templates", "Work with the Mustache templates built into headcount.");
    templates->require_subcommand(1);
    CLI::App* exporter =
        templates->add_subcommand("export", "Write the built-in templates into a folder, to copy and edit them.");
    exporter->add_option("dir", options->dir, "The folder to write NAME.mustache files into (created if missing)")
        ->required();
    exporter->add_flag("--force", options->force, "Overwrite templates the folder already has");
    exporter->footer("Then pass --templates DIR to solve, check, grade, generate or serve: its templates replace the "
                     "built-in ones of the same name. Exit status: 0 written, 2 error.");
    return {templates, [options] { return run_export(*options); }};
}

} // namespace headcount::cli

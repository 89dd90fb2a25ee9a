#include <generate/gradescope.hpp>

#include <util/elf.hpp>
#include <util/files.hpp>
#include <util/text.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace headcount::generate {

namespace {

namespace fs = std::filesystem;

/// Largest template file packed (a template is read up to 1 MiB; this only bounds what is read here).
constexpr std::size_t k_max_packed_file_bytes = 16 * 1024 * 1024;

/// The *.mustache files below `root`, as zip entries under templates/, in path order; hidden folders and build
/// folders are skipped.
Result<std::vector<ZipEntry>> template_entries(const fs::path& root) {
    std::error_code ec;
    std::vector<fs::path> files;
    for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator(); ++it) {
        const fs::path relative = fs::relative(it->path(), root);
        const std::string first = relative.begin()->string();
        if (it->is_directory() && (first.starts_with('.') || first.starts_with("build"))) {
            it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file() && relative.extension() == ".mustache")
            files.push_back(relative);
    }
    if (ec)
        return std::unexpected(Error{root.string(), 0, 0, "cannot read this folder"});
    std::sort(files.begin(), files.end());
    std::vector<ZipEntry> out;
    for (const fs::path& file : files) {
        auto bytes = read_file_capped(root / file, k_max_packed_file_bytes, "a file to pack");
        if (!bytes)
            return std::unexpected(bytes.error());
        out.push_back({"templates/" + file.generic_string(), std::move(*bytes), false});
    }
    return out;
}

} // namespace

Result<std::string> autograder_program(const fs::path& path) {
    // /proc/self/exe reads the running program even if its file was replaced since; messages name the file.
    std::error_code ec;
    const fs::path named = path.empty() ? fs::read_symlink("/proc/self/exe", ec) : path;
    auto bytes = read_file_capped(path.empty() ? fs::path("/proc/self/exe") : path, k_max_program_bytes,
                                  "the headcount program");
    if (!bytes)
        return std::unexpected(bytes.error());
    if (const auto why = not_a_static_x86_64_program(*bytes))
        return std::unexpected(Error{named.string(), 0, 0,
                                     fmt::format("{}, so it would not run on Gradescope's Ubuntu image: export "
                                                 "with a static headcount (the .deb's, or a build with "
                                                 "HEADCOUNT_STATIC=ON), or name one with --binary",
                                                 *why)});
    return loaded_part(std::move(*bytes));
}

Result<std::vector<ZipEntry>> gradescope_autograder(const AutograderInput& input,
                                                    const render::TemplateSet& templates) {
    const render::View view{{"seeded", !input.seed.empty()},
                            {"custom_templates", !input.templates.empty()},
                            {"seed", shell_quote(input.seed)},
                            {"reveal", input.reveal},
                            {"problems", static_cast<int>(input.specs.size())}};
    auto setup = templates.render("gradescope/setup.sh", view);
    if (!setup)
        return std::unexpected(setup.error());
    auto run = templates.render("gradescope/run_autograder", view);
    if (!run)
        return std::unexpected(run.error());
    std::vector<ZipEntry> entries{
        {"setup.sh", *setup, true}, {"run_autograder", *run, true}, {"headcount", input.program, true}};
    for (const auto& [name, bytes] : input.specs)
        entries.push_back({"problems/" + name, bytes, false});
    if (!input.seed.empty())
        entries.push_back({"roster.csv", input.roster, false});
    // The built-in templates are compiled into the headcount sent; an instructor's own go along.
    if (!input.templates.empty()) {
        auto templates_used = template_entries(input.templates);
        if (!templates_used)
            return std::unexpected(templates_used.error());
        entries.insert(entries.end(), std::make_move_iterator(templates_used->begin()),
                       std::make_move_iterator(templates_used->end()));
    }
    return entries;
}

std::string unreadable_submission_results(const std::string& reason) {
    const nlohmann::ordered_json results{
        {"score", 0},
        {"output", fmt::format("Your submission could not be graded: {}\n\nSubmit one file named answers.csv or "
                               "answers.yaml; the assignment's instructions show its format.",
                               reason)},
        {"output_format", "md"},
        {"visibility", "visible"},
        {"tests", nlohmann::ordered_json::array()}};
    return results.dump(2) + "\n";
}

} // namespace headcount::generate

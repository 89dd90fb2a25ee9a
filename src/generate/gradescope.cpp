#include <generate/gradescope.hpp>

#include <util/files.hpp>
#include <util/text.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace headcount::generate {

namespace {

namespace fs = std::filesystem;

/// What of the source tree the build needs: the CMake project and its modules, the library and main, the templates
/// (compiled in), and the man page and completion the project's install rules name.
bool needed(const fs::path& relative) {
    const std::string top = relative.begin()->string();
    if (relative == "CMakeLists.txt")
        return true;
    if (top == "src")
        return !relative.filename().string().ends_with("_test.cpp");
    return top == "templates" || top == "cmake" || top == "doc" || top == "completions";
}

/// Largest file packed from the source tree or a templates folder (the largest source file is under 100 KiB).
constexpr std::size_t k_max_packed_file_bytes = 16 * 1024 * 1024;

/// The files below `root` that `keep` admits, as zip entries under `prefix`, in path order; hidden folders and build
/// folders are skipped.
template <class Keep>
Result<std::vector<ZipEntry>> tree_entries(const fs::path& root, const std::string& prefix, Keep keep) {
    std::error_code ec;
    std::vector<fs::path> files;
    for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator(); ++it) {
        const fs::path relative = fs::relative(it->path(), root);
        const std::string first = relative.begin()->string();
        if (it->is_directory() && (first.starts_with('.') || first.starts_with("build"))) {
            it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file() && keep(relative))
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
        out.push_back({prefix + file.generic_string(), std::move(*bytes), false});
    }
    return out;
}

bool is_source_tree(const fs::path& root) {
    std::error_code ec;
    return fs::is_regular_file(root / "CMakeLists.txt", ec) && fs::is_regular_file(root / "src" / "main.cpp", ec) &&
           fs::is_directory(root / "templates", ec);
}

Result<std::vector<ZipEntry>> source_entries(const fs::path& root) {
    if (root.empty())
        return std::unexpected(Error{{}, 0, 0, "headcount's source was not found beside this binary (neither "
                                               "../share/headcount/source nor a checkout it was built in): pass "
                                               "--source with a checkout of headcount"});
    if (!is_source_tree(root))
        return std::unexpected(Error{root.string(), 0, 0, "is not headcount's source tree (no CMakeLists.txt, "
                                                          "src/main.cpp and templates/): pass --source with a "
                                                          "checkout of headcount"});
    return tree_entries(root, "headcount/", needed);
}

} // namespace

std::filesystem::path default_source_tree() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec)
        return {};
    // Installed: /usr/bin/headcount and /usr/share/headcount/source (the .deb ships it). Built: the checkout's
    // build/headcount, one folder below the source.
    for (const fs::path& candidate : {exe.parent_path().parent_path() / "share" / "headcount" / "source",
                                      exe.parent_path().parent_path()})
        if (is_source_tree(candidate))
            return candidate;
    return {};
}

Result<std::vector<ZipEntry>> gradescope_autograder(const AutograderInput& input, const render::TemplateSet& templates) {
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
    std::vector<ZipEntry> entries{{"setup.sh", *setup, true}, {"run_autograder", *run, true}};
    for (const auto& [name, bytes] : input.specs)
        entries.push_back({"problems/" + name, bytes, false});
    if (!input.seed.empty())
        entries.push_back({"roster.csv", input.roster, false});
    // The built-in templates are compiled into the headcount setup.sh builds; an instructor's own go along.
    if (!input.templates.empty()) {
        auto templates_used = tree_entries(input.templates, "templates/",
                                           [](const fs::path& file) { return file.extension() == ".mustache"; });
        if (!templates_used)
            return std::unexpected(templates_used.error());
        entries.insert(entries.end(), std::make_move_iterator(templates_used->begin()),
                       std::make_move_iterator(templates_used->end()));
    }
    auto source = source_entries(input.source_tree);
    if (!source)
        return std::unexpected(source.error());
    entries.insert(entries.end(), std::make_move_iterator(source->begin()), std::make_move_iterator(source->end()));
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

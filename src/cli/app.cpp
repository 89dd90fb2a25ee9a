#include <cli/app.hpp>

#include <cli/commands.hpp>
#include <util/ids.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace headcount::cli {

namespace {

/// `headcount serve ...` runs as the program headcount-serve, beside this one (the build folder) or in
/// ../libexec/headcount (installed), so that the one-shot commands never load the HTTP library: cpp-httplib
/// initialises OpenSSL when it is loaded, which was a third of `check`'s start-up.
[[noreturn]] void exec_serve(char** argv) {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    std::vector<std::filesystem::path> tried;
    if (!ec) {
        for (const std::filesystem::path& candidate :
             {self.parent_path() / "headcount-serve",
              self.parent_path().parent_path() / "libexec" / "headcount" / "headcount-serve"}) {
            tried.push_back(candidate);
            if (::access(candidate.c_str(), X_OK) == 0) {
                ::execv(candidate.c_str(), argv);
                fmt::print(stderr, "headcount: cannot start {}: {}\n", candidate.string(), std::strerror(errno));
                std::exit(k_exit_bad_input);
            }
        }
    }
    fmt::print(stderr,
               "headcount: serve is not installed with this headcount (looked for {}); it is built unless "
               "CMake's HEADCOUNT_SERVE is OFF\n",
               tried.empty() ? std::string("headcount-serve") : tried.front().string());
    std::exit(k_exit_bad_input);
}

} // namespace

int headcount_main(int argc, char** argv) {
    if (argc > 1 && std::string_view(argv[1]) == "serve")
        exec_serve(argv);
    CLI::App app{k_app_description, "headcount"};
    app.require_subcommand(1);
    app.set_version_flag("--version", k_version);
    using Add = Command (*)(CLI::App&);
    static constexpr std::pair<std::string_view, Add> k_commands[] = {
        {"solve", add_solve_command},         {"check", add_check_command},        {"grade", add_grade_command},
        {"generate", add_generate_command},   {"answers", add_answers_command},    {"export", add_export_command},
        {"templates", add_templates_command}, {"catalogue", add_catalogue_command}};
    // `headcount COMMAND ...` builds only that command's options: a student's check pays for one command, not
    // seven (what it prints, --help included, is the same).
    if (argc > 1) {
        for (const auto& [name, add] : k_commands)
            if (argv[1] == name)
                return run_app(app, {add(app)}, argc, argv);
        if (argv[1][0] != '-') { // CLI11 would only say "A subcommand is required"
            std::vector<std::string_view> names{"serve"};
            for (const auto& [name, add] : k_commands)
                names.push_back(name);
            fmt::print(stderr, "headcount: unknown command '{}'{} (see 'headcount --help')\n", printable(argv[1]),
                       did_you_mean(argv[1], names));
            return k_exit_bad_input;
        }
    }
    std::vector<Command> commands;
    for (const auto& [name, add] : k_commands) {
        if (name == "templates") // serve is listed in --help here, and runs as its own program (exec_serve)
            app.add_subcommand("serve", k_serve_description);
        commands.push_back(add(app));
    }
    return run_app(app, commands, argc, argv);
}

} // namespace headcount::cli

#include <cli/app.hpp>
#include <cli/commands.hpp>

#include <fmt/format.h>

#include <vector>

namespace headcount::cli {

void print_error(const Error& error) {
    const std::string text = error.to_string();
    fmt::print(stderr, "{}{}\n", error.file.empty() ? "headcount: " : "", text);
}

int headcount_main(int argc, char** argv) {
    CLI::App app{"headcount: solves transformer-arithmetic homework exactly, writes worked solutions, and checks answers.",
                 "headcount"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "headcount 0.1.0");
    const std::vector<Command> commands{add_solve_command(app), add_check_command(app), add_grade_command(app),
                                        add_generate_command(app), add_answers_command(app),
                                        add_export_command(app),
#ifdef HEADCOUNT_WITH_SERVE
                                        add_serve_command(app),
#endif
                                        add_templates_command(app)};

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help and --version are "errors" that exit 0; everything else is a usage error: one line, exit 2.
        if (e.get_exit_code() == 0)
            return app.exit(e);
        fmt::print(stderr, "headcount: {} (see 'headcount --help')\n", e.what());
        return k_exit_bad_input;
    }
    for (const Command& command : commands) {
        if (command.app->parsed()) {
            try {
                auto result = command.run();
                if (!result) {
                    print_error(result.error());
                    return k_exit_bad_input;
                }
                return *result;
            } catch (const std::exception& e) {
                print_error(Error{{}, 0, 0, fmt::format("internal error: {}", e.what())});
                return k_exit_bad_input;
            }
        }
    }
    return k_exit_bad_input;
}

} // namespace headcount::cli

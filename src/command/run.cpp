#include <command/run.hpp>

#include <util/files.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <exception>
#include <string>
#include <string_view>

namespace headcount::command {

void print_error(const Error& error) {
    const std::string text = error.to_string();
    fmt::print(stderr, "{}{}\n", error.file.empty() ? "headcount: " : "", text);
    // Under an error at a line and column of a file (a spec, an answers file, a template), the line itself with a
    // caret under the column, as compilers do. Files past the spec's cap are not read again for it.
    if (error.file.empty() || error.line <= 0 || error.column <= 0)
        return;
    auto source = read_file_capped(error.file, 1024 * 1024, "the file");
    if (!source)
        return;
    std::string_view rest = *source;
    for (int line = 1; line < error.line && !rest.empty(); ++line) {
        const auto end = rest.find('\n');
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
    if (rest.empty() && error.line > 1)
        return;
    std::string_view text_line = rest.substr(0, rest.find('\n'));
    if (text_line.ends_with('\r'))
        text_line.remove_suffix(1);
    fmt::print(stderr, "{}", source_excerpt(text_line, error.line, error.column));
}

int run_app(CLI::App& app, const std::vector<Command>& commands, int argc, char** argv) {
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
                print_error(fail(fmt::format("internal error: {}", e.what())).error());
                return k_exit_bad_input;
            }
        }
    }
    return k_exit_bad_input;
}

} // namespace headcount::command

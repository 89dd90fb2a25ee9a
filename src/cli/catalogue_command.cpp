// `headcount catalogue asks|mistakes|training-asks|exports`: the reference tables of the catalogues, printed from their
// rows (never typed twice): what a spec may ask and grade names, and what the docs' lists are generated from.

#include <cli/app.hpp>
#include <cli/commands.hpp>

#include <generate/export_formats.hpp>
#include <grade/mistakes.hpp>
#include <render/ask_catalogue.hpp>
#include <spec/training_asks.hpp>

#include <fmt/format.h>

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace headcount::cli {

namespace {

using Table = std::string (*)();

/// What the command line chose: the format, and the table of the subcommand parsed.
struct CatalogueArguments {
    std::string format = "markdown";
    std::vector<std::pair<const CLI::App*, Table>> tables;
};

} // namespace

Command add_catalogue_command(CLI::App& app) {
    CLI::App* catalogue = app.add_subcommand("catalogue", "Print a catalogue as a Markdown table: the asks, the "
                                                          "mistakes, the training asks or the export formats.");
    catalogue->require_subcommand(1);
    auto arguments = std::make_shared<CatalogueArguments>();
    constexpr auto k_tables = std::to_array<std::pair<const char*, Table>>({
        {"asks", render::asks_markdown},
        {"mistakes", grade::mistakes_markdown},
        {"training-asks", spec::training_asks_markdown},
        {"exports", generate::export_formats_markdown},
    });
    for (const auto& [name, table] : k_tables) {
        CLI::App* command = catalogue->add_subcommand(name, fmt::format("Print the {} table, one row each.", name));
        command->add_option("--format", arguments->format, "How to print it (only markdown)")
            ->check(CLI::IsMember({"markdown"}));
        arguments->tables.emplace_back(command, table);
    }
    return {catalogue, [arguments] {
                for (const auto& [command, table] : arguments->tables)
                    if (command->parsed()) {
                        fmt::print("{}", table());
                        return Result<int>(k_exit_ok);
                    }
                return Result<int>(k_exit_bad_input); // require_subcommand(1) leaves no other way here
            }};
}

} // namespace headcount::cli

// `headcount catalogue asks|mistakes|training-asks|exports|vary|formulas`: the reference tables of the catalogues,
// printed from their rows (never typed twice): what a spec may ask and grade names, what each ask computes, and what
// the docs' lists are generated from.

#include <cli/app.hpp>
#include <cli/commands.hpp>
#include <command/problems.hpp>

#include <generate/export_formats.hpp>
#include <grade/mistakes.hpp>
#include <render/ask_catalogue.hpp>
#include <render/formula_catalogue.hpp>
#include <spec/givens.hpp>
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
    const CLI::App* formulas = nullptr;
    std::string spec; ///< formulas --spec: the spec whose givens settle the conditions
};

/// `catalogue formulas [--spec FILE]`: the catalogue's formulas, or those of each problem the spec holds.
Result<int> print_formulas(const CatalogueArguments& arguments) {
    if (arguments.spec.empty()) {
        fmt::print("{}", render::formulas_markdown());
        return k_exit_ok;
    }
    auto solved = command::load_and_solve({arguments.spec});
    if (!solved)
        return std::unexpected(solved.error());
    for (const solve::SolvedProblem& problem : *solved) {
        if (solved->size() > 1)
            fmt::print("## {}\n\n", problem.problem.id);
        fmt::print("{}", render::formulas_markdown(problem.computation.get()));
        if (solved->size() > 1)
            fmt::print("\n");
    }
    return k_exit_ok;
}

} // namespace

Command add_catalogue_command(CLI::App& app) {
    CLI::App* catalogue = app.add_subcommand(
        "catalogue", "Print a catalogue as a Markdown table: the asks, the mistakes, the training "
                     "asks, the export formats, the givens vary: takes, or the formula of every built-in "
                     "quantity.");
    catalogue->require_subcommand(1);
    auto arguments = std::make_shared<CatalogueArguments>();
    constexpr auto k_tables = std::to_array<std::pair<const char*, Table>>({
        {"asks", render::asks_markdown},
        {"mistakes", grade::mistakes_markdown},
        {"training-asks", spec::training_asks_markdown},
        {"exports", generate::export_formats_markdown},
        {"vary", spec::vary_markdown},
    });
    for (const auto& [name, table] : k_tables) {
        CLI::App* command = catalogue->add_subcommand(name, fmt::format("Print the {} table, one row each.", name));
        command->add_option("--format", arguments->format, "How to print it (only markdown)")
            ->check(CLI::IsMember({"markdown"}));
        arguments->tables.emplace_back(command, table);
    }
    CLI::App* formulas = catalogue->add_subcommand(
        "formulas", "Print every built-in quantity's formula, by the name a spec's formulas use, with its ask. With "
                    "--spec, only those the spec's problem has, its conditions applied for its givens, its own "
                    "quantities included, and which definition each uses.");
    formulas->add_option("--spec", arguments->spec, "A spec file: print the formulas as its givens settle them")
        ->check(CLI::ExistingFile);
    formulas->add_option("--format", arguments->format, "How to print it (only markdown)")
        ->check(CLI::IsMember({"markdown"}));
    arguments->formulas = formulas;
    return {catalogue, [arguments] {
                if (arguments->formulas->parsed())
                    return print_formulas(*arguments);
                for (const auto& [command, table] : arguments->tables)
                    if (command->parsed()) {
                        fmt::print("{}", table());
                        return Result<int>(k_exit_ok);
                    }
                return Result<int>(k_exit_bad_input); // require_subcommand(1) leaves no other way here
            }};
}

} // namespace headcount::cli

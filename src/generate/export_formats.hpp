#pragma once
// Every export to a learning platform, as one table: a row per format with its name (`headcount export NAME`), what
// it writes, the options it takes and the function that writes it. The command family, its help and the reference
// list in the docs are made from these rows, so adding a format is adding a row and its writer.

#include <render/templates.hpp>
#include <solve/asks.hpp>
#include <util/files.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace headcount::generate {

/// An option some exports take. Each has one spelling (export_option_spelling); a format lists those it takes.
/// Every format takes the specs, --out and --templates, which are not listed.
enum class ExportOption { seed, roster, variants, solutions_in_bank, reveal, binary };

/// An option as one format uses it.
struct ExportOptionUse {
    ExportOption option;
    bool required = false;
    std::string_view help; ///< what it does in this format, one or two sentences
};

/// What an export is asked for: the problems and templates already loaded, and the options as given (those a
/// format does not take stay empty).
struct ExportRequest {
    const std::vector<solve::SolvedProblem>* problems = nullptr; ///< solved as written, in the order given
    const render::TemplateSet* templates = nullptr;              ///< built-in, or overridden by `templates_dir`
    std::filesystem::path out;                                   ///< the folder the files go into
    std::string seed;
    std::string roster; ///< a roster CSV's path; empty: none
    std::size_t variants = 0;
    bool solutions_in_bank = false;
    bool reveal = false;
    std::string binary;        ///< the headcount program to ship; empty: the one running (/proc/self/exe)
    std::string templates_dir; ///< the instructor's templates folder (--templates); empty: the built-in templates
};

/// The field of ExportRequest an option sets: text, a number, or on/off (a flag without a value).
using ExportField = std::variant<std::string ExportRequest::*, std::size_t ExportRequest::*, bool ExportRequest::*>;

/// How an option is written on the command line, and the request's field it sets.
struct ExportOptionSpelling {
    ExportOption option;
    std::string_view flag;  ///< "--seed"
    std::string_view value; ///< what follows the flag in a synopsis ("SEED"); empty for an on/off flag
    ExportField field;
};

/// What an export writes, and what to tell the person who asked for it.
struct ExportOutput {
    OutputFiles files;              ///< paths under the request's `out`, contents in full
    std::vector<std::string> notes; ///< one line each, said before the files are written
    std::string summary;            ///< one line, said once they are: what was written, and where
};

/// One export format: a row of the table.
struct ExportFormat {
    std::string_view name;    ///< `headcount export NAME`: the platform the file is imported into
    std::string_view writes;  ///< the file written, under OUT: "questions.xml"
    std::string_view summary; ///< what the file is, after "Write OUT/questions.xml, "
    std::string_view details; ///< what else a user must know: how the platform takes it (for --help's footer)
    std::span<const ExportOptionUse> options; ///< besides the specs, --out and --templates
    /// Why these options cannot go together (one line), before anything is read; nullopt when they can.
    std::optional<std::string> (*check)(const ExportRequest&);
    Result<ExportOutput> (*write)(const ExportRequest&); ///< the writer; assumes `check` passed
    std::string_view source; ///< the header that documents what the writer writes, for contributors (not users)
};

/// The table: moodle, canvas, gradescope, in the order --help lists them.
std::span<const ExportFormat> export_formats();

/// The row named `name`, or nullptr.
const ExportFormat* find_export_format(std::string_view name);

/// Every option's spelling, in ExportOption's order.
std::span<const ExportOptionSpelling> export_option_spellings();

/// `option`'s spelling.
const ExportOptionSpelling& export_option_spelling(ExportOption option);

/// The table as a Markdown reference list: per format, its command line, the file it writes, what it is and each
/// option with its help. Generated, for the docs: never typed twice.
std::string export_formats_markdown();

} // namespace headcount::generate

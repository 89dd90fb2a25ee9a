#include <generate/export_formats.hpp>

#include <generate/bank.hpp>
#include <generate/class_variants.hpp>
#include <generate/gradescope.hpp>
#include <generate/moodle.hpp>
#include <generate/qti.hpp>
#include <generate/roster.hpp>
#include <spec/reader.hpp>
#include <util/zip.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>

namespace headcount::generate {

namespace {

std::string counted(std::size_t count, std::string_view noun) {
    return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

/// A question bank is drawn (--variants) or the class's (--roster): one or the other.
std::optional<std::string> check_bank(const ExportRequest& request) {
    if (request.roster.empty() == (request.variants == 0))
        return "a question bank needs either --variants N (a bank of N variants per problem) or --roster (the "
               "variants a class was handed), not both";
    return std::nullopt;
}

/// Each problem's variants for a bank: those `request.roster` was handed under the seed, or `request.variants`
/// drawn under it (a note says when a problem has fewer).
/// Takes the parts answered with a formula out of `bank`'s variants, saying so in `notes`: neither Moodle nor Canvas
/// has a question that checks a formula (Moodle's Cloze and Canvas's blanks compare text or numbers, and a formula
/// is right written many ways), so they are graded by headcount itself (grade, or Gradescope, which runs it).
void leave_out_formula_parts(ProblemBank& bank, std::string_view platform, std::vector<std::string>& notes) {
    std::vector<std::string> left;
    for (BankVariant& v : bank.variants) {
        std::erase_if(v.solved.parts, [&](const solve::SolvedPart& part) {
            if (!part.formula)
                return false;
            if (std::find(left.begin(), left.end(), part.part.id) == left.end())
                left.push_back(part.part.id);
            return true;
        });
        std::erase_if(v.solved.problem.parts, [](const spec::Part& part) { return part.formula_answer; });
    }
    if (left.empty())
        return;
    const std::string id = bank.problem->problem.id;
    if (!bank.variants.empty() && bank.variants.front().solved.parts.empty()) {
        bank.variants.clear();
        notes.push_back(fmt::format("{} has no question that checks a formula, and every part of '{}' is answered "
                                    "with one (answer: formula): the problem is left out; grade it with headcount "
                                    "grade, or export it to Gradescope, which runs headcount",
                                    platform, id));
        return;
    }
    notes.push_back(fmt::format("{} has no question that checks a formula, so part{} ({}) of '{}' (answer: formula) "
                                "{} left out of the bank; grade {} with headcount grade, or export to Gradescope, "
                                "which runs headcount",
                                platform, left.size() == 1 ? "" : "s", fmt::join(left, "), ("), id,
                                left.size() == 1 ? "is" : "are", left.size() == 1 ? "it" : "them"));
}

Result<std::vector<ProblemBank>> question_banks(const ExportRequest& request, std::vector<std::string>& notes,
                                                std::string_view platform) {
    std::optional<ClassVariants> handed_out;
    if (!request.roster.empty()) {
        auto table = ClassVariants::seeded_for_roster_file(*request.problems, request.roster, request.seed);
        if (!table)
            return std::unexpected(table.error());
        handed_out.emplace(std::move(*table));
    }
    std::vector<ProblemBank> banks;
    for (std::size_t p = 0; p < request.problems->size(); ++p) {
        const solve::SolvedProblem& problem = (*request.problems)[p];
        Result<std::vector<BankVariant>> variants;
        if (!handed_out) {
            variants = drawn_variants(problem.problem, request.variants, request.seed);
            if (variants && !problem.problem.vary.empty() && variants->size() < request.variants)
                notes.push_back(fmt::format("'{}' has {} valid variant{}; the bank holds all of them",
                                            problem.problem.id, variants->size(), variants->size() == 1 ? "" : "s"));
        } else {
            variants = class_variants_bank(*handed_out, p);
        }
        if (!variants)
            return std::unexpected(variants.error());
        banks.push_back({&problem, std::move(*variants)});
        leave_out_formula_parts(banks.back(), platform, notes);
        if (banks.back().variants.empty())
            banks.pop_back();
    }
    return banks;
}

std::string bank_summary(const std::vector<ProblemBank>& banks, const std::filesystem::path& written) {
    std::size_t questions = 0;
    for (const ProblemBank& bank : banks)
        questions += bank.variants.size();
    return fmt::format("{}, {} (one per variant); wrote {}", counted(banks.size(), "problem"),
                       counted(questions, "question"), written.string());
}

Result<ExportOutput> write_moodle(const ExportRequest& request) {
    ExportOutput output;
    auto banks = question_banks(request, output.notes, "Moodle");
    if (!banks)
        return std::unexpected(banks.error());
    auto bank = moodle_question_bank(*banks, *request.templates);
    if (!bank)
        return std::unexpected(bank.error());
    if (!bank->left_out.empty())
        output.notes.push_back(fmt::format("Moodle would read these values as an earlier answer with other credit or "
                                           "feedback, so the bank leaves them out: {}",
                                           fmt::join(bank->left_out, "; ")));
    output.files.emplace_back(request.out / "questions.xml", std::move(bank->xml));
    output.summary = bank_summary(*banks, output.files.back().first);
    return output;
}

Result<ExportOutput> write_canvas(const ExportRequest& request) {
    ExportOutput output;
    auto banks = question_banks(request, output.notes, "Canvas");
    if (!banks)
        return std::unexpected(banks.error());
    const std::string title = banks->size() == 1 ? banks->front().problem->problem.title
                                                 : fmt::format("headcount: {} problems", banks->size());
    auto package = qti_package(*banks, title, *request.templates, request.solutions_in_bank);
    if (!package)
        return std::unexpected(package.error());
    auto zip = zip_archive(*package);
    if (!zip)
        return std::unexpected(zip.error());
    output.files.emplace_back(request.out / "qti.zip", std::move(*zip));
    output.summary = bank_summary(*banks, output.files.back().first);
    return output;
}

std::optional<std::string> check_gradescope(const ExportRequest& request) {
    if (request.seed.empty() != request.roster.empty())
        return "--seed and --roster go together: the roster's students are graded against their variants under the "
               "seed";
    return std::nullopt;
}

Result<ExportOutput> write_gradescope(const ExportRequest& request) {
    AutograderInput input;
    input.seed = request.seed;
    input.reveal = request.reveal;
    input.templates = request.templates_dir;
    for (const solve::SolvedProblem& problem : *request.problems) {
        auto bytes = read_file_capped(problem.problem.file, spec::k_max_spec_bytes, "the spec file");
        if (!bytes)
            return std::unexpected(bytes.error());
        // Named by problem id, which is unique and a safe file name, whatever folders the specs came from.
        input.specs.emplace_back(problem.problem.id + ".yaml", std::move(*bytes));
    }
    if (!request.seed.empty()) {
        // Every student's variants are drawn now, so that a roster or a vary: that cannot work fails here, not on
        // every student's submission.
        if (auto variants = ClassVariants::seeded_for_roster_file(*request.problems, request.roster, request.seed);
            !variants)
            return std::unexpected(variants.error());
        auto bytes = read_file_capped(request.roster, k_max_roster_bytes, "the roster");
        if (!bytes)
            return std::unexpected(bytes.error());
        input.roster = std::move(*bytes);
    }
    auto program = autograder_program(request.binary);
    if (!program)
        return std::unexpected(program.error());
    input.program = std::move(*program);
    auto entries = gradescope_autograder(input, *request.templates);
    if (!entries)
        return std::unexpected(entries.error());
    auto zip = zip_archive(*entries);
    if (!zip)
        return std::unexpected(zip.error());
    ExportOutput output;
    const std::filesystem::path target = request.out / "autograder.zip";
    output.summary = fmt::format("a Gradescope autograder for {}{}; wrote {} ({} files, {} bytes)",
                                 counted(request.problems->size(), "problem"),
                                 request.seed.empty() ? "" : fmt::format(", variants under seed '{}'", request.seed),
                                 target.string(), entries->size(), zip->size());
    output.files.emplace_back(target, std::move(*zip));
    return output;
}

constexpr auto k_spellings = std::to_array<ExportOptionSpelling>({
    {ExportOption::seed, "--seed", "SEED", &ExportRequest::seed},
    {ExportOption::roster, "--roster", "CSV", &ExportRequest::roster},
    {ExportOption::variants, "--variants", "N", &ExportRequest::variants},
    {ExportOption::solutions_in_bank, "--solutions-in-bank", "", &ExportRequest::solutions_in_bank},
    {ExportOption::reveal, "--reveal", "", &ExportRequest::reveal},
    {ExportOption::binary, "--binary", "FILE", &ExportRequest::binary},
});

// Moodle and Canvas take the same bank options; Canvas alone can leave the solutions out.
constexpr ExportOptionUse k_bank_seed{
    ExportOption::seed, true,
    "The class seed (any text, e.g. fall-2026): the variants are drawn under it, or are those it gave the roster"};
constexpr ExportOptionUse k_bank_variants{ExportOption::variants, false,
                                          "Put N different variants of each problem in the bank, drawn under --seed "
                                          "(all of them when a problem has fewer)"};
constexpr ExportOptionUse k_bank_roster{ExportOption::roster, false,
                                        "CSV with a 'student' column (other columns ignored): the bank holds the "
                                        "variants these students were handed under --seed"};

constexpr auto k_moodle_options = std::to_array<ExportOptionUse>({k_bank_seed, k_bank_variants, k_bank_roster});

constexpr auto k_canvas_options = std::to_array<ExportOptionUse>({
    k_bank_seed,
    k_bank_variants,
    k_bank_roster,
    {ExportOption::solutions_in_bank, false,
     "Put each variant's worked solution in the quiz as its question's general comment, which Canvas shows the "
     "student under the question after every submission (even with correct answers hidden); without it the quiz "
     "holds no solution"},
});

constexpr auto k_gradescope_options = std::to_array<ExportOptionUse>({
    {ExportOption::seed, false,
     "Grade each student against their own variant from `headcount generate --seed` (with --roster)"},
    {ExportOption::roster, false,
     "The roster the variants were generated for; its email column maps Gradescope's submitter to a student id"},
    {ExportOption::reveal, false, "Feedback in full, expected values included, whatever the specs' feedback policy"},
    {ExportOption::binary, false,
     "The headcount program to put in the zip (default: this one); it must be static, as the .deb's is, to run on "
     "Gradescope's image"},
});

constexpr auto k_formats = std::to_array<ExportFormat>({
    {"moodle", "questions.xml", "a Moodle question bank (a category per problem, a Cloze question per variant)",
     "Import it in Moodle under Question bank > Import > Moodle XML format; a quiz's random question from a "
     "problem's category gives each student one variant. Each question's general feedback is its worked solution.",
     k_moodle_options, check_bank, write_moodle, "src/generate/moodle.hpp"},
    {"canvas", "qti.zip", "a Canvas quiz in QTI 1.2 (a question group per problem, a question per variant)",
     "Import it in Canvas under Settings > Import Course Content > QTI .zip file. Canvas takes each blank's answer "
     "as right or wrong: no tolerance, partial credit or feedback per mistake.",
     k_canvas_options, check_bank, write_canvas, "src/generate/qti.hpp"},
    {"gradescope", "autograder.zip", "a Gradescope autograder that grades students' answers files",
     "The zip holds setup.sh (which installs and builds nothing), run_autograder, this headcount program (static: "
     "it needs nothing of Gradescope's image), the specs, the roster and --templates' templates.",
     k_gradescope_options, check_gradescope, write_gradescope, "src/generate/gradescope.hpp"},
});

} // namespace

std::span<const ExportFormat> export_formats() { return k_formats; }

const ExportFormat* find_export_format(std::string_view name) {
    const auto found = std::find_if(k_formats.begin(), k_formats.end(),
                                    [name](const ExportFormat& format) { return format.name == name; });
    return found == k_formats.end() ? nullptr : &*found;
}

std::span<const ExportOptionSpelling> export_option_spellings() { return k_spellings; }

const ExportOptionSpelling& export_option_spelling(ExportOption option) {
    return k_spellings[static_cast<std::size_t>(option)];
}

std::string export_formats_markdown() {
    std::string out;
    for (const ExportFormat& format : k_formats) {
        std::string synopsis = fmt::format("headcount export {} SPEC... --out DIR", format.name);
        for (const ExportOptionUse& use : format.options) {
            const ExportOptionSpelling& spelling = export_option_spelling(use.option);
            const std::string option = spelling.value.empty() ? std::string(spelling.flag)
                                                              : fmt::format("{} {}", spelling.flag, spelling.value);
            synopsis += use.required ? " " + option : " [" + option + "]";
        }
        out += fmt::format("- `{} [--templates DIR]` writes `DIR/{}`, {}. {}\n", synopsis, format.writes,
                           format.summary, format.details);
        for (const ExportOptionUse& use : format.options) {
            const ExportOptionSpelling& spelling = export_option_spelling(use.option);
            out += fmt::format("  - `{}`{}: {}.\n", spelling.flag, use.required ? " (required)" : "", use.help);
        }
    }
    return out;
}

} // namespace headcount::generate

// The export formats' table: every row complete, every option spelled once and taken by some row, and the Markdown
// reference listing every row and option.
#include <generate/export_formats.hpp>

#include <util/test_catch.hpp>

#include <filesystem>
#include <set>
#include <sstream>

using namespace headcount;
using namespace headcount::generate;

TEST_CASE("every export format's row is complete, and its name is a command word", "[exports]") {
    std::set<std::string_view> names, files;
    for (const ExportFormat& format : export_formats()) {
        CAPTURE(format.name);
        CHECK(format.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz") == std::string_view::npos);
        CHECK(names.insert(format.name).second);
        CHECK(files.insert(format.writes).second); // two formats in one folder never overwrite each other
        CHECK_FALSE(format.summary.empty());
        CHECK_FALSE(format.details.empty());
        CHECK(format.details.ends_with('.'));
        CHECK(format.check != nullptr);
        CHECK(format.write != nullptr);
        CHECK(std::filesystem::is_regular_file(std::filesystem::path(HEADCOUNT_SOURCE_DIR) / format.source));
        CHECK(find_export_format(format.name) == &format);
        std::set<ExportOption> taken;
        for (const ExportOptionUse& use : format.options) {
            CHECK(taken.insert(use.option).second);
            CHECK_FALSE(use.help.empty());
            CHECK_FALSE(use.help.ends_with('.')); // --help and the reference add their own punctuation
        }
    }
    // The three platforms of docs/platforms.md, in its order.
    CHECK(names == std::set<std::string_view>{"moodle", "canvas", "gradescope"});
    CHECK(find_export_format("moodle-xml") == nullptr);
}

TEST_CASE("every export option has one spelling, at its place, and some format takes it", "[exports]") {
    const auto spellings = export_option_spellings();
    std::set<std::string_view> flags;
    for (std::size_t i = 0; i < spellings.size(); ++i) {
        CAPTURE(spellings[i].flag);
        CHECK(static_cast<std::size_t>(spellings[i].option) == i);
        CHECK(&export_option_spelling(spellings[i].option) == &spellings[i]);
        CHECK(spellings[i].flag.starts_with("--"));
        CHECK(flags.insert(spellings[i].flag).second);
        // A flag without a value sets an on/off field; every other option sets a field that takes its value.
        CHECK(spellings[i].value.empty() == std::holds_alternative<bool ExportRequest::*>(spellings[i].field));
        CHECK_FALSE(flags.contains("--out"));
        CHECK_FALSE(flags.contains("--templates")); // every format takes these two, so no row lists them
        bool used = false;
        for (const ExportFormat& format : export_formats())
            for (const ExportOptionUse& use : format.options)
                used = used || use.option == spellings[i].option;
        CHECK(used);
    }
    CHECK(spellings.size() == static_cast<std::size_t>(ExportOption::binary) + 1); // the enum's last
}

TEST_CASE("the Markdown reference lists every format with every option it takes", "[exports]") {
    const std::string markdown = export_formats_markdown();
    std::istringstream lines(markdown);
    std::string line;
    std::vector<std::string> entries;
    std::size_t options = 0;
    while (std::getline(lines, line)) {
        if (line.starts_with("- `headcount export "))
            entries.push_back(line);
        else if (line.starts_with("  - `--"))
            ++options;
        else
            FAIL("a line that is neither a format nor an option: " << line);
    }
    REQUIRE(entries.size() == export_formats().size());
    std::size_t listed = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const ExportFormat& format = export_formats()[i];
        CHECK(entries[i].starts_with("- `headcount export " + std::string(format.name) + " SPEC... --out DIR"));
        CHECK(entries[i].find("writes `DIR/" + std::string(format.writes) + "`") != std::string::npos);
        for (const ExportOptionUse& use : format.options)
            CHECK(entries[i].find(std::string(export_option_spelling(use.option).flag)) != std::string::npos);
        listed += format.options.size();
    }
    CHECK(options == listed);
    // One entry in full, written from docs/platforms.md's and the man page's synopsis of the command.
    CHECK(markdown.find("- `headcount export gradescope SPEC... --out DIR [--seed SEED] [--roster CSV] [--reveal] "
                        "[--binary FILE] [--templates DIR]` writes `DIR/autograder.zip`, a Gradescope autograder") !=
          std::string::npos);
    CHECK(markdown.find("- `headcount export moodle SPEC... --out DIR --seed SEED [--variants N] [--roster CSV] "
                        "[--templates DIR]` writes `DIR/questions.xml`") != std::string::npos);
    CHECK(markdown.find("  - `--seed` (required): The class seed") != std::string::npos);
}

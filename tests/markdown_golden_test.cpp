// Every golden solution read by a real CommonMark parser (cmark-gfm, as GitHub reads Markdown): lists stay lists,
// tables stay tables, nothing is glued to the paragraph before it (Pandoc needs the blank line), and the text
// outside math has only characters every renderer, LaTeX's included, reads.
#include "run_binary.hpp"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <util/test_catch.hpp>

#include <filesystem>
#include <memory>
#include <regex>
#include <set>
#include <sstream>

using headcount::testing::read_text;
using headcount::testing::source_dir;
namespace fs = std::filesystem;

namespace {

/// Where cmark-gfm's parse starts lists, list items and tables (1-based source lines).
struct Blocks {
    std::set<int> lists, items, tables;
};

Blocks parse_blocks(const std::string& markdown) {
    cmark_gfm_core_extensions_ensure_registered();
    std::unique_ptr<cmark_parser, decltype(&cmark_parser_free)> parser(cmark_parser_new(CMARK_OPT_SOURCEPOS),
                                                                       cmark_parser_free);
    cmark_parser_attach_syntax_extension(parser.get(), cmark_find_syntax_extension("table"));
    cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
    std::unique_ptr<cmark_node, decltype(&cmark_node_free)> document(cmark_parser_finish(parser.get()),
                                                                     cmark_node_free);
    Blocks blocks;
    std::unique_ptr<cmark_iter, decltype(&cmark_iter_free)> iter(cmark_iter_new(document.get()), cmark_iter_free);
    for (cmark_event_type event; (event = cmark_iter_next(iter.get())) != CMARK_EVENT_DONE;) {
        if (event != CMARK_EVENT_ENTER)
            continue;
        cmark_node* node = cmark_iter_get_node(iter.get());
        const std::string type = cmark_node_get_type_string(node);
        const int line = cmark_node_get_start_line(node);
        if (type == "list")
            blocks.lists.insert(line);
        else if (type == "item")
            blocks.items.insert(line);
        else if (type == "table")
            blocks.tables.insert(line);
    }
    return blocks;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

/// A line with its `$…$` spans taken out (the goldens write each formula on one line), and the spans.
std::pair<std::string, std::vector<std::string>> split_math(const std::string& line) {
    static const std::regex span(R"(\$[^$]+\$)");
    std::vector<std::string> math;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), span); it != std::sregex_iterator(); ++it)
        math.push_back(it->str());
    return {std::regex_replace(line, span, " "), math};
}

/// The cells of a table row: unescaped '|' outside math and code separate them.
std::size_t cells(const std::string& row) {
    const std::string text = std::regex_replace(split_math(row).first, std::regex("`[^`]*`"), "");
    std::size_t pipes = 0;
    for (std::size_t i = 0; i < text.size(); ++i)
        pipes += text[i] == '|' && (i == 0 || text[i - 1] != '\\');
    return pipes - 1;
}

std::vector<fs::path> goldens() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(source_dir() + "/tests/golden"))
        if (entry.path().extension() == ".md")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

TEST_CASE("every golden reads the same in CommonMark, GitHub and Pandoc", "[golden][commonmark]") {
    static const std::regex list_marker(R"(^ {0,3}([-*+]|\d{1,9}[.)]) )");
    // Outside math, LaTeX's utf8 input encoding (Pandoc to PDF with pdflatex) knows these; "≈", "ᵀ", "→" stop it.
    static const std::set<std::string> k_safe{"×", "—", "·", "²"};
    const auto files = goldens();
    REQUIRE(files.size() >= 20);
    std::size_t lists_seen = 0;
    for (const fs::path& file : files) {
        const std::string markdown = read_text(file.string());
        const Blocks blocks = parse_blocks(markdown);
        const std::vector<std::string> lines = lines_of(markdown);
        lists_seen += blocks.lists.size();
        std::size_t header_cells = 0;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const int number = static_cast<int>(i) + 1;
            const std::string& line = lines[i];
            INFO(file.filename().string() << ":" << number << ": " << line);
            const bool blank_before = i == 0 || lines[i - 1].empty();
            if (std::regex_search(line, list_marker))
                CHECK(blocks.items.contains(number)); // a list item, not text in a paragraph
            if (blocks.lists.contains(number) || blocks.tables.contains(number))
                CHECK(blank_before); // Pandoc folds a list or table that follows a line of text into it
            if (blocks.tables.contains(number))
                header_cells = cells(line);
            if (line.starts_with("|") && header_cells > 0)
                CHECK(cells(line) == header_cells);
            if (!line.starts_with("|"))
                header_cells = 0;

            const auto [text, math] = split_math(line);
            for (std::size_t at = 0; at < text.size();) {
                const auto byte = static_cast<unsigned char>(text[at]);
                const std::size_t length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4;
                if (length > 1)
                    CHECK(k_safe.contains(text.substr(at, length)));
                at += length;
            }
            CHECK(text.find('$') == std::string::npos); // every dollar opens or closes a formula
            for (const std::string& formula : math) {
                // A backslash before punctuation is a CommonMark escape ("\," reads as ","): a renderer that
                // parses Markdown before math loses it.
                CHECK_FALSE(std::regex_search(formula, std::regex(R"(\\[!-/:-@\[-`{-~])")));
                CHECK(formula.find("≈") == std::string::npos); // \approx in TeX
            }
        }
    }
    CHECK(lists_seen > 50);
}

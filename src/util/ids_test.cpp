#include <util/ids.hpp>

#include <utf8proc.h>
#include <util/test_catch.hpp>

#include <cstdlib>

#include <string>

using headcount::neutralise_cell;
using headcount::student_id_problem;

namespace {

// The problem text, or "" for an accepted id, so a failing CHECK prints what was said.
std::string problem(std::string_view id) { return student_id_problem(id).value_or(""); }

} // namespace

TEST_CASE("ordinary student ids are accepted", "[ids]") {
    for (const char* id : {"alice", "s1234567", "alice.smith@uni.edu", "Zoë_Ng", "o'brien", "Anne-Marie", "a b", "李华",
                           "x", "console", "com10", "lpt", "nul_", "auxiliary.md", "a..b", "CON-1", "comé"})
        CHECK(problem(id) == "");
    CHECK(problem(std::string(64, 'a')) == "");
    std::string e_acutes; // 64 bytes but 32 characters: the limit is in bytes
    for (int i = 0; i < 32; ++i)
        e_acutes += "\xC3\xA9";
    CHECK(problem(e_acutes) == "");
    CHECK(problem(e_acutes + "x") == "is longer than 64 bytes (65)");
}

TEST_CASE("empty, over-long and invalid UTF-8 ids are rejected", "[ids]") {
    CHECK(problem("") == "is empty");
    CHECK(problem(std::string(65, 'a')) == "is longer than 64 bytes (65)");
    CHECK(problem("caf\xE9") == "is not valid UTF-8");
    CHECK(problem("\xC0\xAF") == "is not valid UTF-8"); // overlong '/'
}

TEST_CASE("control and invisible characters are rejected", "[ids]") {
    CHECK(problem(std::string_view("a\0b", 3)) == "contains a control character (U+0000)");
    CHECK(problem("a\tb") == "contains a control character (U+0009)");
    CHECK(problem("a\rb") == "contains a control character (U+000D)");
    CHECK(problem("a\nb") == "contains a control character (U+000A)");
    CHECK(problem("a\x1b[31mb") == "contains a control character (U+001B)");
    CHECK(problem("a\x7F") == "contains a control character (U+007F)");
    CHECK(problem("a\xC2\x85") == "contains a control character (U+0085)");
    CHECK(problem("evil\xE2\x80\xAE"
                  "gpj.exe") == "contains an invisible formatting character (U+202E)");
    CHECK(problem("al\xE2\x80\x8B"
                  "ice") == "contains an invisible formatting character (U+200B)");
    CHECK(problem("a\xE2\x80\xA8") == "contains an invisible formatting character (U+2028)");
    CHECK(problem("a\xE2\x81\xA6") == "contains an invisible formatting character (U+2066)");
    CHECK(problem("\xEF\xBB\xBF"
                  "alice") == "contains an invisible formatting character (U+FEFF)");
}

TEST_CASE("characters that cannot be in a file name are rejected", "[ids]") {
    CHECK(problem("../etc") == "contains '/', which cannot be in a file name");
    // The characters Windows refuses in a file name (Naming Files, Paths, and Namespaces), '/' aside.
    for (const char c : std::string_view("\\:*?\"<>|")) {
        INFO(c);
        CHECK(problem(std::string("a") + c + "b") ==
              std::string("contains '") + c + "', which cannot be in a file name");
    }
}

TEST_CASE("dot names, leading dot/dash/space and trailing dot/space are rejected", "[ids]") {
    CHECK(problem(".") == "is '.', which names a folder");
    CHECK(problem("..") == "is '..', which names a folder");
    CHECK(problem(".alice") == "starts with '.'");
    CHECK(problem("-rf") == "starts with '-'");
    CHECK(problem(" alice") == "starts with a space");
    CHECK(problem("alice.") == "ends with '.'");
    CHECK(problem("alice ") == "ends with a space");
}

TEST_CASE("Windows device names are rejected in any case and before an extension", "[ids]") {
    for (const char* id : {"CON", "con", "PRN", "Aux", "nul", "COM1", "com9", "LPT1", "lpt9", "com0", "LPT0"})
        CHECK(problem(id).starts_with("is the Windows device name "));
    CHECK(problem("con") == "is the Windows device name CON");
    CHECK(problem("con.txt") == "is the Windows device name CON");
    CHECK(problem("Nul.tar.gz") == "is the Windows device name NUL");
    CHECK(problem("aux .md") == "is the Windows device name AUX");
    CHECK(problem("COM\xC2\xB9") == "is the Windows device name COM\xC2\xB9");
    CHECK(problem("conout$") == "is the Windows device name CONOUT$");
}

TEST_CASE("cells that a spreadsheet would run as a formula get a leading quote", "[ids]") {
    CHECK(neutralise_cell("=HYPERLINK(\"http://x\")") == "'=HYPERLINK(\"http://x\")");
    CHECK(neutralise_cell("+1+1") == "'+1+1");
    CHECK(neutralise_cell("-2+3") == "'-2+3");
    CHECK(neutralise_cell("-5") == "'-5"); // documented: untrusted text only
    CHECK(neutralise_cell("@SUM(A1)") == "'@SUM(A1)");
    CHECK(neutralise_cell("\t=1") == "'\t=1");
    CHECK(neutralise_cell("\r=1") == "'\r=1");
    CHECK(neutralise_cell("alice") == "alice");
    CHECK(neutralise_cell("1,024") == "1,024");
    CHECK(neutralise_cell("a=b") == "a=b");
    CHECK(neutralise_cell("") == "");
}

TEST_CASE("text quoted in a message is cut at 60 bytes, never inside a character", "[ids]") {
    using headcount::printable;
    CHECK(printable("ab\x01"
                    "c") == "ab?c");
    CHECK(printable(std::string(60, 'a')) == std::string(60, 'a'));
    CHECK(printable(std::string(61, 'a')) == std::string(60, 'a') + "…");
    // 59 bytes then é (2 bytes, C3 A9): byte 60 would be the é's first half, so the cut falls before the é.
    CHECK(printable(std::string(59, 'a') + "éz") == std::string(59, 'a') + "…");
    // 58 bytes then é: it fits whole in 60 bytes.
    CHECK(printable(std::string(58, 'a') + "éz") == std::string(58, 'a') + "é…");
    // A 4-byte character straddling byte 60 (bytes 58..61) is left out whole.
    CHECK(printable(std::string(57, 'a') + "\U0001F600z") == std::string(57, 'a') + "…");
}

TEST_CASE("spaces that look like nothing or like a space are trimmed at the ends and refused inside",
          "[ids][hostile]") {
    using headcount::trim_id;
    // U+00A0 (C2 A0) no-break space, U+202F (E2 80 AF) narrow no-break space, U+3000 (E3 80 80) ideographic
    // space, U+200B (E2 80 8B) zero-width space, U+FEFF (EF BB BF) BOM: Unicode's Zs and Cf categories.
    CHECK(trim_id("alice\xC2\xA0") == "alice");
    CHECK(trim_id("\xE2\x80\x8B alice\t\xE2\x80\xAF\xE3\x80\x80") == "alice");
    CHECK(trim_id("\xEF\xBB\xBF"
                  "alice") == "alice");
    CHECK(trim_id(" \xC2\xA0 ") == "");
    CHECK(trim_id("a b") == "a b");
    CHECK(trim_id("  caf\xE9 ") == "caf\xE9"); // not UTF-8: only ASCII blanks go; the id check refuses it
    CHECK(problem("alice\xC2\xA0smith") ==
          "contains a space that is not an ordinary one (U+00A0, e.g. a no-break space)");
    CHECK(problem("a\xE3\x80\x80"
                  "b") == "contains a space that is not an ordinary one (U+3000, e.g. a no-break space)");
    // Soft hyphen U+00AD and zero-width joiner U+200D draw nothing; the Hangul filler U+3164 neither.
    CHECK(problem("al\xC2\xAD"
                  "ice") == "contains an invisible formatting character (U+00AD)");
    CHECK(problem("al\xE2\x80\x8Dice") == "contains an invisible formatting character (U+200D)");
    CHECK(problem("al\xE3\x85\xA4ice") == "contains an invisible formatting character (U+3164)");
}

TEST_CASE("ids that differ only in case or Unicode form share a key (defect 6)", "[ids][hostile]") {
    using headcount::id_key;
    // Before: alice, Alice, ALICE, NFC and NFD álice were five students with five feedback files, which
    // collide on macOS and Windows. Keys by Unicode's case folding (CaseFolding.txt) after canonical
    // composition:
    CHECK(id_key("Alice") == "alice");
    CHECK(id_key("ALICE") == "alice");
    // á precomposed (U+00E1, C3 A1) and as a + combining acute (U+0301, CC 81): one key, the precomposed
    // form.
    CHECK(id_key("\xC3\xA1lice") == "\xC3\xA1lice");
    CHECK(id_key("a\xCC\x81lice") == "\xC3\xA1lice");
    CHECK(id_key("\xC3\x81LICE") == "\xC3\xA1lice"); // Á (U+00C1) folds to á
    // Full folding: ß (U+00DF) is "ss" (CaseFolding.txt: 00DF; F; 0073 0073), so STRASSE and straße collide.
    CHECK(id_key("stra\xC3\x9F"
                 "e") == id_key("STRASSE"));
    // Different letters stay different.
    CHECK(id_key("alice") != id_key("\xC3\xA1lice"));
    CHECK(id_key("s1234567") == "s1234567");
}

TEST_CASE("a collision names both ids", "[ids]") {
    CHECK(headcount::collision_reason("Alice", "alice", 2) ==
          "student id 'Alice' and 'alice' (line 2) differ only in case or Unicode form; they would share one "
          "feedback file on macOS and Windows, so they must not name two students");
}

TEST_CASE("id_key's ASCII path folds every ASCII character as utf8proc does", "[ids]") {
    // The second formula is utf8proc itself (NFC + case folding), applied to each printable ASCII character.
    for (int c = 0x20; c < 0x7F; ++c) {
        const std::string id(1, static_cast<char>(c));
        utf8proc_uint8_t* folded = nullptr;
        const auto length =
            utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(id.data()), 1, &folded,
                         static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD));
        REQUIRE(length >= 0);
        const std::string expected(reinterpret_cast<const char*>(folded), static_cast<std::size_t>(length));
        std::free(folded);
        INFO(c);
        CHECK(headcount::id_key(id) == expected);
    }
    CHECK(headcount::id_key("Bob-O'Neil_42") == "bob-o'neil_42");
}

#include <util/ids.hpp>

#include <fmt/format.h>
#include <utf8proc.h>
#include <util/test_catch.hpp>

#include <cstdint>
#include <cstdlib>

#include <string>

using headcount::neutralise_cell;
using headcount::student_id_problem;

namespace {

// The problem text, or "" for an accepted id, so a failing CHECK prints what was said.
std::string problem(std::string_view id) { return student_id_problem(id).value_or(""); }

// `cp` in UTF-8, encoded by utf8proc.
std::string utf8(std::int32_t cp) {
    utf8proc_uint8_t bytes[4];
    const utf8proc_ssize_t length = utf8proc_encode_char(cp, bytes);
    return std::string(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(length));
}

// ASCII letters in upper case, other bytes as they are.
std::string ascii_upper(std::string text) {
    for (char& c : text)
        if (c >= 'a' && c <= 'z')
            c = static_cast<char>(c - 'a' + 'A');
    return text;
}

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
    // Every character of Unicode's Cc category (C0, DEL and C1), as utf8proc classifies them, named by its code point.
    int controls = 0;
    for (std::int32_t cp = 0; cp < 0x100; ++cp)
        if (utf8proc_category(cp) == UTF8PROC_CATEGORY_CC) {
            INFO("U+" << std::hex << cp);
            CHECK(problem("a" + utf8(cp) + "b") == fmt::format("contains a control character (U+{:04X})", cp));
            ++controls;
        }
    CHECK(controls == 65); // 32 + 1 + 32
    // Characters that draw nothing or reorder what follows: the right-to-left override U+202E (which shows
    // "evil<U+202E>gpj.exe" as "evilexe.jpg"), zero-width space U+200B, line separator U+2028, left-to-right isolate
    // U+2066, BOM U+FEFF, soft hyphen U+00AD, zero-width joiner U+200D, the Hangul filler U+3164.
    for (const std::int32_t cp : {0x202E, 0x200B, 0x2028, 0x2066, 0xFEFF, 0x00AD, 0x200D, 0x3164}) {
        INFO("U+" << std::hex << cp);
        CHECK(problem("al" + utf8(cp) + "ice") ==
              fmt::format("contains an invisible formatting character (U+{:04X})", cp));
    }
    CHECK(problem("evil\xE2\x80\xAE"
                  "gpj.exe") == "contains an invisible formatting character (U+202E)");
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
    for (const std::string dots : {".", ".."})
        CHECK(problem(dots) == "is '" + dots + "', which names a folder");
    CHECK(problem(".alice") == "starts with '.'");
    CHECK(problem("-rf") == "starts with '-'");
    CHECK(problem(" alice") == "starts with a space");
    CHECK(problem("alice.") == "ends with '.'");
    CHECK(problem("alice ") == "ends with a space");
}

TEST_CASE("Windows device names are rejected in any case and before an extension", "[ids]") {
    // The message names the device in upper case; COM¹ (superscript one, C2 B9) is a device too.
    for (const std::string id :
         {"CON", "con", "PRN", "Aux", "nul", "COM1", "com9", "LPT1", "lpt9", "com0", "LPT0", "conout$", "COM\xC2\xB9"})
        CHECK(problem(id) == "is the Windows device name " + ascii_upper(id));
    // Windows opens the device whatever extension follows the name, after a space too.
    CHECK(problem("con.txt") == "is the Windows device name CON");
    CHECK(problem("Nul.tar.gz") == "is the Windows device name NUL");
    CHECK(problem("aux .md") == "is the Windows device name AUX");
}

TEST_CASE("cells that a spreadsheet would run as a formula get a leading quote", "[ids]") {
    // OWASP's list of characters that start a formula: '=', '+', '-', '@', tab and carriage return. "-5" is quoted
    // too (documented: the function is for untrusted text only, never for a number headcount writes).
    for (const std::string formula : {"=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "-5", "@SUM(A1)", "\t=1", "\r=1"})
        CHECK(neutralise_cell(formula) == "'" + formula);
    for (const std::string text : {"alice", "1,024", "a=b", ""})
        CHECK(neutralise_cell(text) == text);
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
}

TEST_CASE("ids that differ only in case or Unicode form share a key (defect 6)", "[ids][hostile]") {
    using headcount::id_key;
    // Before: alice, Alice, ALICE, NFC and NFD álice were five students with five feedback files, which
    // collide on macOS and Windows. Keys by Unicode's case folding (CaseFolding.txt) after canonical
    // composition:
    for (const char* id : {"alice", "Alice", "ALICE"})
        CHECK(id_key(id) == "alice");
    // á precomposed (U+00E1, C3 A1), as a + combining acute (U+0301, CC 81) and as Á (U+00C1, C3 81), which folds
    // to á: one key, the precomposed form.
    for (const char* id : {"\xC3\xA1lice", "a\xCC\x81lice", "\xC3\x81LICE"})
        CHECK(id_key(id) == "\xC3\xA1lice");
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

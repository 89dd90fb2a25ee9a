#pragma once
// Student ids come from untrusted CSVs and become file names (OUT/feedback/<id>.md, OUT/<id>/problems.md) and
// gradebook cells that instructors open in spreadsheets; these checks keep both from being turned against
// them.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace headcount {

/// Longest accepted student id in bytes (not characters), well under every file system's name limit.
inline constexpr std::size_t k_max_student_id_bytes = 64;

/// Why `id` cannot be a student id, as a phrase to follow the id ("contains '/'", "is empty"), or nullopt
/// when it can. Rejects: empty; over 64 bytes; invalid UTF-8; control characters (C0 incl. NUL, tab, CR, LF;
/// DEL; C1); characters that draw nothing: Unicode's format characters (Cf: zero-width spaces and joiners,
/// direction marks, soft hyphen, BOM), line and paragraph separators, the combining grapheme joiner and the
/// Hangul fillers; spaces other than U+0020 (no-break U+00A0, U+202F, the U+2000 block, U+3000: they look
/// like a space but are not one); / \ : * ? " < > |; "." and ".."; a leading '.', '-' or space; a trailing
/// '.' or space; Windows device names (CON, PRN, AUX, NUL, COM0-9, LPT0-9, COM/LPT with superscript 1-3,
/// CONIN$, CONOUT$) in any case, also before an extension ("con.txt", "Nul .md"). Accepts e.g. "alice",
/// "s1234567", "alice.smith@uni.edu", "Zoë_Ng", "o'brien". Does not fold case or Unicode forms: "Alice" and
/// "alice" are both valid; compare ids by id_key to find two that would collide.
std::optional<std::string> student_id_problem(std::string_view id);

/// `field` without what a spreadsheet or a copy from a web page leaves around an id and nobody sees: ASCII
/// spaces and tabs, no-break and other Unicode spaces, and zero-width characters (U+200B, U+2060, U+FEFF) at
/// either end, as a view into `field`. Text that is not valid UTF-8 loses only its ASCII blanks
/// (student_id_problem then refuses it).
std::string_view trim_id(std::string_view field);

/// The form in which two ids are the same student: Unicode NFC, then case folding (utf8proc), so "alice",
/// "Alice", "ALICE" and "álice" typed precomposed or with a combining accent each have one key. File systems
/// that ignore case or normalise names (macOS, Windows) would give two ids with one key one feedback file, so
/// a class must not have two. Requires an id student_id_problem accepts; returns it unchanged if utf8proc
/// fails.
std::string id_key(std::string_view id);

/// Why `id` cannot be used next to `earlier` (read on line `earlier_line`), which has the same id_key.
std::string collision_reason(std::string_view id, std::string_view earlier, int earlier_line);

/// A spreadsheet-safe cell: a value starting with '=', '+', '-', '@', tab or CR gets a single quote in front
/// so spreadsheet programs show it as text rather than run it as a formula (OWASP CSV injection); anything
/// else is returned unchanged. Meant for text from untrusted input (ids, answers), so "-5" becomes "'-5" too:
/// do not pass numbers the tool computed itself. Quoting for CSV is separate (csv_field).
std::string neutralise_cell(std::string_view value);

/// Untrusted text to quote in a message: control characters shown as '?', cut to at most 60 bytes (never
/// inside a UTF-8 character) with "…".
std::string printable(std::string_view text);

} // namespace headcount

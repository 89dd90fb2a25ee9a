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
/// DEL; C1); invisible direction marks and line separators (U+200B, U+200E-200F, U+2028-202E, U+2066-2069,
/// U+FEFF); / \ : * ? " < > |; "." and ".."; a leading '.', '-' or space; a trailing '.' or space; Windows
/// device names (CON, PRN, AUX, NUL, COM0-9, LPT0-9, COM/LPT with superscript 1-3, CONIN$, CONOUT$) in any
/// case, also before an extension ("con.txt", "Nul .md"). Accepts e.g. "alice", "s1234567",
/// "alice.smith@uni.edu", "Zoë_Ng", "o'brien". Does not fold case or Unicode forms: "Alice" and "alice" are
/// both valid, so callers writing to case-insensitive file systems must check for collisions themselves.
std::optional<std::string> student_id_problem(std::string_view id);

/// A spreadsheet-safe cell: a value starting with '=', '+', '-', '@', tab or CR gets a single quote in front
/// so spreadsheet programs show it as text rather than run it as a formula (OWASP CSV injection); anything
/// else is returned unchanged. Meant for text from untrusted input (ids, answers), so "-5" becomes "'-5" too:
/// do not pass numbers the tool computed itself. Quoting for CSV is separate (csv_field).
std::string neutralise_cell(std::string_view value);

/// Untrusted text to quote in a message: control characters shown as '?', cut to at most 60 bytes (never
/// inside a UTF-8 character) with "…".
std::string printable(std::string_view text);

} // namespace headcount

#pragma once
// RFC 4180 CSV for files we do not control (a class's submissions, a roster): reading never throws and never
// drops a record, so a bad row becomes one student's error message instead of a failed run.

#include <util/error.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace headcount {

/// Fields longer than this are cut to this many bytes and their record marked malformed.
inline constexpr std::size_t k_max_csv_field_bytes = 64 * 1024;

/// One data record: its 1-based starting line in the file, its fields, and, when it could not be read, why.
/// `error` is empty for a good record; otherwise it names the field, e.g. "field 2: not valid UTF-8", and
/// `fields` holds what could be read (quotes kept literally, an oversized field cut to
/// k_max_csv_field_bytes).
struct CsvRecord {
    int line = 0;
    std::vector<std::string> fields;
    std::string error;
};

/// A parsed file: the header's column names (trimmed of spaces and tabs) and every data record, malformed
/// ones included (nothing is dropped). Records may have more or fewer fields than the header; the caller
/// decides.
struct CsvTable {
    std::vector<std::string> header;
    std::vector<CsvRecord> records;

    /// Index of the header column named `name`, ignoring ASCII case and surrounding spaces; nullopt when
    /// absent.
    [[nodiscard]] std::optional<std::size_t> column(std::string_view name) const;
};

/// Parses CSV text (a quote that never closes ends its record at the end of its line, so later rows survive;
/// a leading UTF-8 BOM is ignored; LF, CRLF and lone CR all end a line; lines that are empty
/// or only spaces/tabs are skipped). Fails, with `file` and the header's line:column, only when there is no
/// header row, the header is malformed, or a column name is empty or repeats another ignoring case; every
/// later problem is recorded on its record. Fields keep their bytes exactly (no trimming; CRLF inside quotes
/// stays CRLF).
Result<CsvTable> parse_csv(std::string_view text, std::string file);

/// One field as RFC 4180 requires: quoted, with quotes doubled, only when it contains , " CR or LF or starts
/// or ends with a space or tab (so readers that trim cannot change it); otherwise unchanged.
std::string csv_field(std::string_view field);

/// A whole row: csv_field of each field joined by commas and ending in "\n" (LF, not RFC 4180's CRLF: every
/// reader we target accepts it and the files diff cleanly). A row of one empty field is written `""` so that
/// it is not read back as a blank line; a row of no fields is just "\n", which parse_csv skips.
std::string csv_row(std::span<const std::string> fields);

} // namespace headcount

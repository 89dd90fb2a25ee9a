#pragma once
// RFC 4180 CSV for files we do not control (a class's submissions, a roster): reading never throws and never
// drops a record, so a bad row becomes one student's error message instead of a failed run.

#include <util/error.hpp>

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace headcount {

/// Fields longer than this are cut to this many bytes and their record marked malformed.
inline constexpr std::size_t k_max_csv_field_bytes = 64 * 1024;
/// Records longer than this are cut to this many bytes and marked malformed, naming the field the cut falls in; the
/// rest of their line is skipped without being held. A quoted field still open this far on is read as an unterminated
/// quote.
inline constexpr std::size_t k_max_csv_record_bytes = 1024 * 1024;

/// One data record: its 1-based starting line in the file, its fields, and, when it could not be read, why.
/// `error` is empty for a good record; otherwise it names the field, e.g. "field 2: not valid UTF-8", and
/// `fields` holds what could be read (quotes kept literally, an oversized field cut to
/// k_max_csv_field_bytes).
struct CsvRecord {
    int line = 0;
    std::vector<std::string> fields;
    std::string error;
};

/// The index of the column named `name` in `header`, ignoring ASCII case and surrounding spaces; nullopt when absent.
std::optional<std::size_t> find_column(std::span<const std::string> header, std::string_view name);

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

namespace csv_detail {
struct RawRecord;
} // namespace csv_detail

/// Reads CSV from a stream one record at a time, in memory bounded by the longest record (at most
/// k_max_csv_record_bytes plus a read chunk), never by the file: a class of a million rows streams through it. The
/// records, fields, line numbers and errors are parse_csv's, which is built on it.
class CsvStream {
  public:
    /// Reads `in`; `file` names it in errors; more than `max_bytes` read is an error (the input is not what it
    /// claims to be: /dev/zero, a disk image), checked as it reads, never after loading. `chunk_bytes` is how much
    /// is read at a time (tests make it tiny to cross every boundary).
    CsvStream(std::istream& in, std::string file, std::uint64_t max_bytes = UINT64_MAX,
              std::size_t chunk_bytes = 1 << 20);

    /// The header's column names (trimmed); call it once, before next(). Errors: no header row, a malformed
    /// header, an empty or repeated (ignoring case) column name, the size cap, a read error.
    Result<std::vector<std::string>> header();

    /// The next data record (malformed ones included, with their reason), or nullopt at the end. Errors: only the
    /// size cap and read errors.
    Result<std::optional<CsvRecord>> next();

    /// Bytes read so far.
    [[nodiscard]] std::uint64_t bytes_read() const { return m_bytes_read; }

  private:
    struct Segment {
        std::size_t start = 0;    ///< where the record's text starts in m_buffer
        std::size_t text_end = 0; ///< where it ends (before its line break)
        std::size_t next = 0;     ///< where the next record starts
        bool oversized = false;
    };
    Result<bool> fill(std::size_t wanted);
    Result<std::optional<Segment>> next_segment();
    Result<std::optional<Segment>> unterminated(std::size_t quote);
    Result<std::optional<Segment>> oversized();
    Result<std::optional<csv_detail::RawRecord>> next_raw(bool keep_starts);

    std::istream& m_in;
    std::string m_file;
    std::uint64_t m_max_bytes;
    std::size_t m_chunk;
    std::string m_buffer;
    std::size_t m_start = 0; ///< the next record's first byte in m_buffer
    std::uint64_t m_bytes_read = 0;
    int m_line = 1;
    bool m_eof = false;
    bool m_first_fill = true;
    bool m_oversized_header = false;
    bool m_header_done = false;
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

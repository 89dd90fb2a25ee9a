// RFC 4180 read and written: the record scanner (csv_detail), a whole file (parse_csv), a stream read in chunks
// (CsvStream) and the writers. Over ~400 lines because the stream feeds the scanner's private types (RawRecord,
// Problem) and splitting it off would make them a header of their own for one reader.
#include <util/csv.hpp>

#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <spanstream>
#include <unordered_map>
#include <utility>

namespace headcount {

namespace {

constexpr std::string_view k_utf8_bom = "\xEF\xBB\xBF";

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) { return trimmed(s, " \t"); }

} // namespace

namespace csv_detail {

/// Why a record is malformed. `field` is 1-based; line/column locate the offending byte (or the field's start
/// when the whole field is at fault), columns counting UTF-8 characters as an editor does.
struct Problem {
    std::size_t field = 0;
    int line = 0;
    int column = 0;
    std::string what;
    bool says_where = false; // false when `what` needs no position (it names its own line, or the whole field)
};

struct Position {
    int line = 0;
    int column = 0;
};

struct RawRecord {
    int line = 0;
    std::vector<std::string> fields;
    std::vector<Position> starts; // only for the header, whose errors point at a column name
    std::optional<Problem> problem;
};

/// A single forward pass over the text of one or more whole records; every byte is looked at a bounded number of
/// times. `first_line` is the line the text starts on in its file.
class CsvReader {
  public:
    explicit CsvReader(std::string_view text, int first_line = 1) : m_text(text), m_line(first_line) {}

    /// The next record that is not a blank line, or nullopt at the end of the text.
    std::optional<RawRecord> next(bool keep_starts) {
        while (skip_blank_line()) {
        }
        if (at_end())
            return std::nullopt;
        RawRecord record;
        record.line = m_line;
        for (std::size_t number = 1;; ++number) {
            m_field_start = Position{m_line, column_at(m_pos)};
            if (keep_starts)
                record.starts.push_back(m_field_start);
            std::string field;
            if (!at_end() && m_text[m_pos] == '"')
                read_quoted(record, field, number);
            else
                read_unquoted(record, field, number);
            if (!record.problem && !is_valid_utf8(field))
                record.problem = Problem{number, m_field_start.line, m_field_start.column, "not valid UTF-8"};
            record.fields.push_back(std::move(field));
            if (at_end())
                break;
            if (m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            consume_line_break();
            break;
        }
        return record;
    }

  private:
    [[nodiscard]] bool at_end() const { return m_pos >= m_text.size(); }

    // CRLF, LF and a lone CR (old Mac exports) each end one line.
    [[nodiscard]] std::size_t line_break_length(std::size_t at) const {
        if (m_text[at] == '\n')
            return 1;
        return at + 1 < m_text.size() && m_text[at + 1] == '\n' ? 2 : 1;
    }

    void consume_line_break() {
        m_pos += line_break_length(m_pos);
        ++m_line;
        m_line_start = m_pos;
    }

    // Consumes one line holding nothing but spaces and tabs; leaves m_pos alone when the line has content.
    bool skip_blank_line() {
        std::size_t end = m_pos;
        while (end < m_text.size() && is_blank(m_text[end]))
            ++end;
        if (end < m_text.size() && m_text[end] != '\r' && m_text[end] != '\n')
            return false;
        if (end == m_text.size()) {
            m_pos = end;
            return false;
        }
        m_pos = end;
        consume_line_break();
        return true;
    }

    // Columns are counted incrementally from the last one asked for on the same line, so asking once per
    // field stays linear even on a single-line file with a million fields.
    int column_at(std::size_t pos) {
        if (m_counted_line_start != m_line_start || m_counted_pos > pos) {
            m_counted_line_start = m_line_start;
            m_counted_pos = m_line_start;
            m_counted_column = 1;
        }
        for (; m_counted_pos < pos; ++m_counted_pos)
            if ((static_cast<unsigned char>(m_text[m_counted_pos]) & 0xC0) != 0x80)
                ++m_counted_column;
        return m_counted_column;
    }

    void note(RawRecord& record, Problem problem) {
        if (!record.problem)
            record.problem = std::move(problem);
    }

    // Appends up to the field limit; the first byte past it marks the record and the rest is dropped.
    void append(RawRecord& record, std::string& field, std::size_t number, std::string_view chunk) {
        if (field.size() + chunk.size() > k_max_csv_field_bytes) {
            if (field.size() < k_max_csv_field_bytes)
                note(record, Problem{number, m_field_start.line, m_field_start.column, "larger than 64 KiB"});
            chunk = chunk.substr(0, k_max_csv_field_bytes - std::min(field.size(), k_max_csv_field_bytes));
        }
        field.append(chunk);
    }

    // Reads to the next comma or line break. A stray quote is kept as a literal character so the rest of the
    // record still lines up with its columns, but it marks the record: it is usually a hand-edited file.
    void read_unquoted(RawRecord& record, std::string& field, std::size_t number) {
        while (!at_end()) {
            const std::size_t stop = std::min(m_text.find_first_of(",\"\r\n", m_pos), m_text.size());
            append(record, field, number, m_text.substr(m_pos, stop - m_pos));
            m_pos = stop;
            if (at_end() || m_text[m_pos] != '"')
                return;
            note(record, Problem{number, m_line, column_at(m_pos), "quote inside an unquoted field", true});
            append(record, field, number, "\"");
            ++m_pos;
        }
    }

    void read_quoted(RawRecord& record, std::string& field, std::size_t number) {
        const Position open = m_field_start;
        const std::size_t quote = m_pos, line = m_line, line_start = m_line_start;
        ++m_pos;
        for (;;) {
            const std::size_t stop = m_text.find_first_of("\"\r\n", m_pos);
            if (stop == std::string_view::npos) {
                // A quote that never closes would swallow every later row. Instead the record ends with the line
                // the quote opened on, and reading resumes on the next line: one row is lost, not the file.
                const std::size_t end = std::min(m_text.find_first_of("\r\n", quote), m_text.size());
                field.clear();
                append(record, field, number, m_text.substr(quote + 1, end - quote - 1));
                m_pos = end;
                m_line = line;
                m_line_start = line_start;
                // Overrides any earlier problem: it is the one that explains the record's odd end.
                record.problem = Problem{number, open.line, open.column,
                                         fmt::format("unterminated quoted field starting on line {}; the row was "
                                                     "read up to the end of that line",
                                                     open.line)};
                return;
            }
            append(record, field, number, m_text.substr(m_pos, stop - m_pos));
            m_pos = stop;
            if (m_text[m_pos] == '"') {
                if (m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '"') {
                    append(record, field, number, "\"");
                    m_pos += 2;
                    continue;
                }
                ++m_pos;
                break;
            }
            const std::size_t length = line_break_length(m_pos);
            append(record, field, number, m_text.substr(m_pos, length));
            consume_line_break();
        }
        if (!at_end() && m_text[m_pos] != ',' && m_text[m_pos] != '\r' && m_text[m_pos] != '\n') {
            note(record, Problem{number, m_line, column_at(m_pos), "text after the closing quote", true});
            read_unquoted(record, field, number);
        }
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
    int m_line;
    std::size_t m_line_start = 0;
    Position m_field_start;
    std::size_t m_counted_line_start = 0;
    std::size_t m_counted_pos = 0;
    int m_counted_column = 1;
};

std::string describe(const Problem& problem) {
    if (!problem.says_where)
        return fmt::format("field {}: {}", problem.field, problem.what);
    return fmt::format("field {}: {} (line {}, column {})", problem.field, problem.what, problem.line, problem.column);
}

Result<std::vector<std::string>> read_header(const RawRecord& raw, const std::string& file) {
    if (raw.problem) {
        const Problem& p = *raw.problem;
        return std::unexpected(Error{file, p.line, p.column, fmt::format("header column {}: {}", p.field, p.what)});
    }
    std::vector<std::string> names;
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < raw.fields.size(); ++i) {
        const Position at = raw.starts[i];
        names.emplace_back(trim(raw.fields[i]));
        if (names.back().empty())
            return std::unexpected(Error{file, at.line, at.column, fmt::format("header column {} has no name", i + 1)});
        const auto [it, added] = seen.emplace(ascii_lowered(names.back()), i);
        if (!added)
            return std::unexpected(Error{file, at.line, at.column,
                                         fmt::format("header column {} '{}' repeats column {} '{}' (names ignore case)",
                                                     i + 1, names.back(), it->second + 1, names[it->second])});
    }
    return names;
}

} // namespace csv_detail

using namespace csv_detail;

std::optional<std::size_t> find_column(std::span<const std::string> header, std::string_view name) {
    const std::string wanted = ascii_lowered(trim(name));
    for (std::size_t i = 0; i < header.size(); ++i)
        if (ascii_lowered(trim(header[i])) == wanted)
            return i;
    return std::nullopt;
}

std::optional<std::size_t> CsvTable::column(std::string_view name) const { return find_column(header, name); }

CsvStream::CsvStream(std::istream& in, std::string file, std::uint64_t max_bytes, std::size_t chunk_bytes)
    : m_in(in), m_file(std::move(file)), m_max_bytes(max_bytes), m_chunk(std::max<std::size_t>(chunk_bytes, 1)) {}

Result<bool> CsvStream::fill(std::size_t wanted) {
    if (m_first_fill) // enough to see a byte order mark, which is skipped before anything looks at m_start
        wanted = std::max(wanted, k_utf8_bom.size());
    while (m_buffer.size() < wanted && !m_eof) {
        const std::size_t old = m_buffer.size();
        m_buffer.resize(old + m_chunk);
        m_in.read(m_buffer.data() + old, static_cast<std::streamsize>(m_chunk));
        const auto got = static_cast<std::size_t>(m_in.gcount());
        m_buffer.resize(old + got);
        m_bytes_read += got;
        if (m_bytes_read > m_max_bytes)
            return std::unexpected(
                Error{m_file, 0, 0,
                      fmt::format("the file is larger than {}; headcount reads at most that", byte_size(m_max_bytes))});
        if (got < m_chunk) {
            if (m_in.bad())
                return std::unexpected(Error{m_file, 0, 0, "cannot read the file"});
            m_eof = true;
        }
    }
    if (m_first_fill) {
        m_first_fill = false;
        if (std::string_view(m_buffer).starts_with(k_utf8_bom))
            m_start += k_utf8_bom.size();
    }
    return m_buffer.size() >= wanted;
}

Result<std::optional<CsvStream::Segment>> CsvStream::next_segment() {
    // Finds where the record starting at m_start ends: at the first line break outside a quoted field. A quote
    // only opens a field at its start; inside, "" is a quote and a lone " closes it (later quotes are literal).
    // Records already handed out are dropped here, between records, where no index into the buffer is held.
    if (m_start > 0 && m_start >= m_buffer.size() / 2) {
        m_buffer.erase(0, m_start);
        m_start = 0;
    }
    if (auto first = fill(1); !first) // reads past a byte order mark before m_start is used
        return std::unexpected(first.error());
    enum class State { field_start, unquoted, quoted };
    State state = State::field_start;
    std::size_t quote = 0; // where the open quoted field began
    std::size_t i = m_start;
    for (;;) {
        auto more = fill(i + 2); // one byte, and the one after it for "" and CRLF
        if (!more)
            return std::unexpected(more.error());
        if (i >= m_buffer.size()) {
            if (i == m_start)
                return std::optional<Segment>{};
            if (state == State::quoted) // never closed: the record ends with the quote's line
                return unterminated(quote);
            return Segment{m_start, i, i};
        }
        if (i - m_start > k_max_csv_record_bytes)
            return state == State::quoted ? unterminated(quote) : oversized();
        const char c = m_buffer[i];
        switch (state) {
        case State::field_start:
            if (c == '"') {
                state = State::quoted;
                quote = i++;
            } else {
                state = State::unquoted;
            }
            break;
        case State::unquoted:
            if (c == ',') {
                state = State::field_start;
                ++i;
            } else if (c == '\n' || c == '\r') {
                const std::size_t end = i + (c == '\r' && i + 1 < m_buffer.size() && m_buffer[i + 1] == '\n' ? 2 : 1);
                return Segment{m_start, i, end};
            } else {
                ++i;
            }
            break;
        case State::quoted:
            if (c == '"') {
                if (i + 1 < m_buffer.size() && m_buffer[i + 1] == '"')
                    i += 2;
                else {
                    state = State::unquoted;
                    ++i;
                }
            } else {
                ++i;
            }
            break;
        }
    }
}

Result<std::optional<CsvStream::Segment>> CsvStream::unterminated(std::size_t quote) {
    // The record is the text up to the end of the line its open quote is on; reading resumes on the next line.
    std::size_t end = quote + 1;
    for (;; ++end) {
        auto more = fill(end + 2); // the byte, and the one after a CR
        if (!more)
            return std::unexpected(more.error());
        if (end >= m_buffer.size() || m_buffer[end] == '\r' || m_buffer[end] == '\n')
            break;
        if (end - m_start > k_max_csv_record_bytes) // the quote's own line is too long: cut it like any other
            return oversized();
    }
    std::size_t next = end;
    if (next < m_buffer.size())
        next += m_buffer[next] == '\r' && next + 1 < m_buffer.size() && m_buffer[next + 1] == '\n' ? 2 : 1;
    return Segment{m_start, end, next};
}

Result<std::optional<CsvStream::Segment>> CsvStream::oversized() {
    // Keeps the first k_max_csv_record_bytes and skips the rest of the line without holding it.
    Segment segment{m_start, m_start + k_max_csv_record_bytes, 0, true};
    if (!m_header_done) { // the header: the file is refused at once, so the rest need not be read
        segment.next = segment.text_end;
        return segment;
    }
    std::size_t i = segment.text_end;
    for (;;) {
        auto more = fill(i + 2);
        if (!more)
            return std::unexpected(more.error());
        if (i >= m_buffer.size()) {
            segment.next = i;
            return segment;
        }
        const char c = m_buffer[i];
        if (c == '\n' || c == '\r') {
            segment.next = i + (c == '\r' && i + 1 < m_buffer.size() && m_buffer[i + 1] == '\n' ? 2 : 1);
            return segment;
        }
        // Bytes already looked at are dropped as we go, so a line of any length costs no memory.
        if (i - m_start > 2 * m_chunk + k_max_csv_record_bytes) {
            m_buffer.erase(segment.text_end, i - segment.text_end);
            i = segment.text_end;
            continue;
        }
        ++i;
    }
}

Result<std::optional<RawRecord>> CsvStream::next_raw(bool keep_starts) {
    for (;;) {
        auto segment = next_segment();
        if (!segment)
            return std::unexpected(segment.error());
        if (!*segment)
            return std::optional<RawRecord>{};
        const Segment s = **segment;
        const std::string_view text(m_buffer.data() + s.start, s.text_end - s.start);
        if (m_line > std::numeric_limits<int>::max() - 2) // lines are counted in int, as positions everywhere
            return std::unexpected(Error{m_file, 0, 0, "the file has more than 2,147,483,645 lines"});
        const int line = m_line;
        m_oversized_header = m_oversized_header || (s.oversized && line == 1);
        for (std::size_t i = s.start; i < s.next; ++i) // line breaks, CRLF as one
            if (m_buffer[i] == '\n' || (m_buffer[i] == '\r' && (i + 1 >= s.next || m_buffer[i + 1] != '\n')))
                ++m_line;
        CsvReader reader(text, line);
        std::optional<RawRecord> raw = reader.next(keep_starts);
        m_start = s.next;
        if (!raw)
            continue; // a blank line
        if (s.oversized) {
            // The text was cut where the row passed the cap, so its last field is the one the cap fell in (a 10 MB
            // answer in column 4 is field 4, not the row's first).
            raw->problem = Problem{
                std::max<std::size_t>(raw->fields.size(), 1), line, 1,
                fmt::format("the row is longer than {}; its first part was read", byte_size(k_max_csv_record_bytes))};
        }
        return raw;
    }
}

Result<std::vector<std::string>> CsvStream::header() {
    auto first = next_raw(/*keep_starts=*/true);
    m_header_done = true;
    if (!first)
        return std::unexpected(first.error());
    if (!*first)
        return std::unexpected(Error{m_file, 0, 0, "no header row: the file is empty or only blank lines"});
    // A header of NUL bytes or a megabyte long is not a CSV file (/dev/zero, a disk image): said at once, rather
    // than after reading up to the size cap.
    const bool binary = std::any_of((*first)->fields.begin(), (*first)->fields.end(),
                                    [](const std::string& f) { return f.find('\0') != std::string::npos; });
    if (binary || m_oversized_header)
        return std::unexpected(Error{m_file, 1, 0,
                                     binary ? "the first line holds NUL bytes: this is not a CSV text file"
                                            : fmt::format("the first line is longer than {}: this is not a CSV file "
                                                          "with a header",
                                                          byte_size(k_max_csv_record_bytes))});
    return read_header(**first, m_file);
}

Result<std::optional<CsvRecord>> CsvStream::next() {
    auto raw = next_raw(/*keep_starts=*/false);
    if (!raw)
        return std::unexpected(raw.error());
    if (!*raw)
        return std::optional<CsvRecord>{};
    return CsvRecord{.line = (*raw)->line,
                     .fields = std::move((*raw)->fields),
                     .error = (*raw)->problem ? describe(*(*raw)->problem) : std::string()};
}

Result<CsvTable> parse_csv(std::string_view text, std::string file) {
    std::ispanstream in(std::span<const char>(text.data(), text.size()));
    CsvStream stream(in, std::move(file));
    auto header = stream.header();
    if (!header)
        return std::unexpected(std::move(header.error()));
    CsvTable table{.header = std::move(*header), .records = {}};
    for (;;) {
        auto record = stream.next();
        if (!record)
            return std::unexpected(std::move(record.error()));
        if (!*record)
            return table;
        table.records.push_back(std::move(**record));
    }
}

std::string csv_field(std::string_view field) {
    const bool needs_quotes = field.find_first_of(",\"\r\n") != std::string_view::npos ||
                              (!field.empty() && (is_blank(field.front()) || is_blank(field.back())));
    if (!needs_quotes)
        return std::string(field);
    std::string out = "\"";
    for (char c : field) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

std::string csv_row(std::span<const std::string> fields) {
    if (fields.size() == 1 && fields.front().empty())
        return "\"\"\n";
    std::string out;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i > 0)
            out += ',';
        out += csv_field(fields[i]);
    }
    out += '\n';
    return out;
}

} // namespace headcount

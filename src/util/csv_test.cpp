// The CSV reader and writers, whole files and streams, against RFC 4180 and the malformed files classes send.
// Over ~400 lines: one file per unit under test, as everywhere in src/.
#include <util/csv.hpp>
#include <util/text.hpp>

#include <util/test_catch.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <random>
#include <spanstream>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

using headcount::csv_field;
using headcount::csv_row;
using headcount::CsvRecord;
using headcount::CsvTable;
using headcount::parse_csv;
using Fields = std::vector<std::string>;

namespace {

CsvTable parsed(std::string_view text) {
    auto table = parse_csv(text, "class.csv");
    if (!table)
        FAIL("unexpected error: " << table.error().to_string());
    return std::move(*table);
}

std::string header_error(std::string_view text) {
    auto table = parse_csv(text, "class.csv");
    REQUIRE_FALSE(table.has_value());
    return table.error().to_string();
}

/// Writes `rows` under a header with csv_row and checks that parse_csv reads each back exactly, without error.
void check_round_trip(const std::vector<Fields>& rows) {
    std::string text = csv_row(Fields{"a", "b", "c", "d", "e"});
    for (const Fields& row : rows)
        text += csv_row(row);
    const CsvTable t = parsed(text);
    REQUIRE(t.records.size() == rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        INFO("row " << i);
        REQUIRE(t.records[i].fields == rows[i]);
        REQUIRE(t.records[i].error.empty());
    }
}

} // namespace

TEST_CASE("quoted fields keep commas, doubled quotes and newlines", "[csv]") {
    const CsvTable t = parsed("id,answer\n"
                              "alice,\"1,024\"\n"
                              "bob,\"he said \"\"42\"\"\"\n"
                              "carol,\"two\nlines\"\n"
                              "dave,\"\"\n");
    CHECK(t.header == Fields{"id", "answer"});
    REQUIRE(t.records.size() == 4);
    CHECK(t.records[0].fields == Fields{"alice", "1,024"});
    CHECK(t.records[1].fields == Fields{"bob", "he said \"42\""});
    CHECK(t.records[2].fields == Fields{"carol", "two\nlines"});
    CHECK(t.records[3].fields == Fields{"dave", ""});
    for (const CsvRecord& r : t.records)
        CHECK(r.error.empty());
}

TEST_CASE("a record's line is where it starts, and lines after a multi-line field stay right", "[csv]") {
    const CsvTable t = parsed("id,answer\n"
                              "alice,\"line one\r\nline two\rline three\nline four\"\n"
                              "bob,7\n"
                              "carol,\"x\"\"\ny\"\n"
                              "dave,8");
    REQUIRE(t.records.size() == 4);
    CHECK(t.records[0].line == 2);
    CHECK(t.records[0].fields[1] == "line one\r\nline two\rline three\nline four"); // bytes kept exactly
    CHECK(t.records[1].line == 6);
    CHECK(t.records[2].line == 7);
    CHECK(t.records[2].fields[1] == "x\"\ny");
    CHECK(t.records[3].line == 9);
}

TEST_CASE("CRLF, lone CR and a last line without a newline", "[csv]") {
    const CsvTable crlf = parsed("id,answer\r\nalice,1\r\nbob,2");
    REQUIRE(crlf.records.size() == 2);
    CHECK(crlf.records[0].fields == Fields{"alice", "1"});
    CHECK(crlf.records[1].fields == Fields{"bob", "2"});
    CHECK(crlf.records[1].line == 3);

    const CsvTable cr = parsed("id,answer\ralice,1\rbob,2\r");
    REQUIRE(cr.records.size() == 2);
    CHECK(cr.records[1].fields == Fields{"bob", "2"});
    CHECK(cr.records[1].line == 3);
}

TEST_CASE("a UTF-8 byte order mark is stripped", "[csv]") {
    const CsvTable t = parsed("\xEF\xBB\xBFid,answer\nalice,1\n");
    CHECK(t.header == Fields{"id", "answer"});
    CHECK(t.column("id") == 0u);
}

TEST_CASE("blank lines are skipped, not records, and do not shift line numbers", "[csv]") {
    const CsvTable t = parsed("\n  \nid,answer\n\nalice,1\r\n\r\n \t\nbob,2\n\n");
    CHECK(t.header == Fields{"id", "answer"});
    REQUIRE(t.records.size() == 2);
    CHECK(t.records[0].line == 5);
    CHECK(t.records[1].line == 8);

    // "" is an empty field, not a blank line.
    const CsvTable quoted_empty = parsed("id\n\"\"\n");
    REQUIRE(quoted_empty.records.size() == 1);
    CHECK(quoted_empty.records[0].fields == Fields{""});
}

TEST_CASE("fields are kept as they are: no trimming, short and long records are not errors", "[csv]") {
    const CsvTable t = parsed("id,answer,notes\n alice , 1 \nbob\ncarol,1,2,3\ndave,\n");
    REQUIRE(t.records.size() == 4);
    CHECK(t.records[0].fields == Fields{" alice ", " 1 "});
    CHECK(t.records[1].fields == Fields{"bob"});
    CHECK(t.records[2].fields == Fields{"carol", "1", "2", "3"});
    CHECK(t.records[3].fields == Fields{"dave", ""});
    for (const CsvRecord& r : t.records)
        CHECK(r.error.empty());
}

TEST_CASE("header names are trimmed and column() ignores case", "[csv]") {
    const CsvTable t = parsed(" Student ID ,\tAnswer\t,\"Q 2\"\nalice,1,2\n");
    CHECK(t.header == Fields{"Student ID", "Answer", "Q 2"});
    CHECK(t.column("student id") == 0u);
    CHECK(t.column("ANSWER") == 1u);
    CHECK(t.column(" q 2 ") == 2u);
    CHECK_FALSE(t.column("student").has_value());
}

TEST_CASE("a quote inside an unquoted field marks the record and later records are still read", "[csv]") {
    const CsvTable t = parsed("id,answer\nalice,4\"2\nbob,7\n");
    REQUIRE(t.records.size() == 2);
    CHECK(t.records[0].fields == Fields{"alice", "4\"2"});
    CHECK(t.records[0].error == "field 2: quote inside an unquoted field (line 2, column 8)");
    CHECK(t.records[1].fields == Fields{"bob", "7"});
    CHECK(t.records[1].error.empty());
}

TEST_CASE("text after a closing quote marks the record", "[csv]") {
    const CsvTable t = parsed("id,answer\nalice,\"4\"2,x\nbob,7\n");
    REQUIRE(t.records.size() == 2);
    CHECK(t.records[0].fields == Fields{"alice", "42", "x"});
    CHECK(t.records[0].error == "field 2: text after the closing quote (line 2, column 10)");
    CHECK(t.records[1].error.empty());
}

TEST_CASE("columns in messages count characters, not bytes", "[csv]") {
    const CsvTable t = parsed("id,answer\nZoë,ab\"c\n");
    REQUIRE(t.records.size() == 1);
    CHECK(t.records[0].error == "field 2: quote inside an unquoted field (line 2, column 7)");
}

TEST_CASE("an unterminated quoted field ends with its line, and later rows still read", "[csv]") {
    // A quote that never closes would otherwise make every later row part of one field: a class's worth lost.
    const CsvTable t = parsed("id,answer\nalice,1\nbob,\"7\ncarol,3\ndave,4\n");
    REQUIRE(t.records.size() == 4);
    CHECK(t.records[0].error.empty());
    CHECK(t.records[1].line == 3);
    CHECK(t.records[1].fields == Fields{"bob", "7"});
    CHECK(t.records[1].error == "field 2: unterminated quoted field starting on line 3; the row was read up to "
                                "the end of that line");
    CHECK(t.records[2].fields == Fields{"carol", "3"});
    CHECK(t.records[2].line == 4);
    CHECK(t.records[3].fields == Fields{"dave", "4"});
    CHECK(t.records[3].error.empty());
}

TEST_CASE("a field larger than 64 KiB is cut and marks the record", "[csv]") {
    const std::string big(headcount::k_max_csv_field_bytes + 1, 'x');
    const std::string just_fits(headcount::k_max_csv_field_bytes, 'y');
    const CsvTable t = parsed("id,answer\nalice," + big + "\nbob,\"" + big + "\"\ncarol," + just_fits + "\n");
    REQUIRE(t.records.size() == 3);
    CHECK(t.records[0].error == "field 2: larger than 64 KiB");
    CHECK(t.records[0].fields[1].size() == headcount::k_max_csv_field_bytes);
    CHECK(t.records[1].error == "field 2: larger than 64 KiB");
    CHECK(t.records[2].error.empty());
    CHECK(t.records[2].fields[1] == just_fits);
}

TEST_CASE("invalid UTF-8 in any field marks the record; its bytes are kept", "[csv]") {
    const CsvTable t = parsed("id,answer\nalice,caf\xE9\n\"b\xC0\xAFob\",1\ncarol,caf\xC3\xA9\n");
    REQUIRE(t.records.size() == 3);
    CHECK(t.records[0].error == "field 2: not valid UTF-8");
    CHECK(t.records[0].fields[1] == "caf\xE9");
    CHECK(t.records[1].error == "field 1: not valid UTF-8");
    CHECK(t.records[2].error.empty());
}

TEST_CASE("header errors fail the parse with file:line:column", "[csv]") {
    CHECK(header_error("") == "class.csv: no header row: the file is empty or only blank lines");
    CHECK(header_error("\xEF\xBB\xBF\r\n \n") == "class.csv: no header row: the file is empty or only blank lines");
    CHECK(header_error("id,,answer\n") == "class.csv:1:4: header column 2 has no name");
    CHECK(header_error("\nid,  \n") == "class.csv:2:4: header column 2 has no name");
    CHECK(header_error("id,Answer,answer \n") ==
          "class.csv:1:11: header column 3 'answer' repeats column 2 'Answer' (names ignore case)");
    CHECK(header_error("id,ans\"wer\n") == "class.csv:1:7: header column 2: quote inside an unquoted field");
    CHECK(header_error("id,\"answer\"x\n") == "class.csv:1:12: header column 2: text after the closing quote");
    CHECK(header_error("id,\"answer\nalice,1\n") ==
          "class.csv:1:4: header column 2: unterminated quoted "
          "field starting on line 1; the row was read up to the end of that line");
    CHECK(header_error("id,\xFF\n") == "class.csv:1:4: header column 2: not valid UTF-8");
    CHECK(header_error("id," + std::string(70000, 'a') + "\n") == "class.csv:1:4: header column 2: larger than 64 KiB");
}

TEST_CASE("csv_field quotes only when it must", "[csv]") {
    // RFC 4180: a field is quoted when it holds a comma, a quote or a line break; we also quote a leading or
    // trailing space or tab, which spreadsheets would trim. Anything else is written as it is.
    for (const std::string plain : {"alice", "", "a b", "Zo\u00EB"})
        CHECK(csv_field(plain) == plain);
    for (const std::string awkward : {"1,024", "a\nb", "a\rb", " lead", "trail\t"})
        CHECK(csv_field(awkward) == '"' + awkward + '"');
    // A quote inside is doubled.
    CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
}

TEST_CASE("csv_row ends in LF and a lone empty field is not written as a blank line", "[csv]") {
    CHECK(csv_row(Fields{"a", "b,c"}) == "a,\"b,c\"\n");
    CHECK(csv_row(Fields{""}) == "\"\"\n");
    CHECK(csv_row(Fields{"", ""}) == ",\n");
    CHECK(csv_row(Fields{}) == "\n");
}

TEST_CASE("csv_row then parse_csv gives back awkward values exactly", "[csv]") {
    const std::vector<Fields> rows{
        {"plain", "1,024", "say \"hi\"", "\"", "\"\""},
        {"two\nlines", "crlf\r\nend", "lone\rcr", " spaced ", "\t"},
        {"", "", "", "", ""},
        {"Zoë", "=1+1", ",", "trailing,", "x"},
        {""},
    };
    check_round_trip(rows);
}

TEST_CASE("csv_row then parse_csv round-trips random rows of separators, quotes and line breaks", "[csv]") {
    const std::vector<std::string> pieces{"a", ",", "\"", "\r", "\n", "\r\n", " ", "\t", "\xC3\xA9", "="};
    std::minstd_rand random(20240601); // fixed seed: the same rows on every run
    std::vector<Fields> rows;
    for (int r = 0; r < 2000; ++r) {
        Fields row(1 + random() % 4);
        for (std::string& field : row)
            for (unsigned n = random() % 6; n > 0; --n)
                field += pieces[random() % pieces.size()];
        rows.push_back(std::move(row));
    }
    check_round_trip(rows);
}

TEST_CASE("a large file is read whole", "[csv]") {
    constexpr int k_rows = 200'000;
    std::string text = "id,answer,notes\n";
    text.reserve(static_cast<std::size_t>(k_rows) * 40);
    for (int i = 0; i < k_rows; ++i)
        text += i % 10 == 0 ? "s" + std::to_string(i) + ",\"1,0\"\"24\",\"multi\nline\"\r\n"
                            : "s" + std::to_string(i) + "," + std::to_string(i * 7) + ",ok\n";
    const CsvTable t = parsed(text);
    REQUIRE(t.records.size() == static_cast<std::size_t>(k_rows));
    CHECK(t.records.back().fields == Fields{"s199999", "1399993", "ok"});
    CHECK(t.records.back().line == k_rows + 1 + k_rows / 10);
    CHECK(t.records[10].fields == Fields{"s10", "1,0\"24", "multi\nline"});
}

TEST_CASE("a single huge line of separators or quotes does not blow up", "[csv]") {
    const CsvTable commas = parsed("id\n" + std::string(1'000'000, ','));
    REQUIRE(commas.records.size() == 1);
    CHECK(commas.records[0].fields.size() == 1'000'001);

    const CsvTable quotes = parsed("id\n" + std::string(1'000'001, '"'));
    REQUIRE(quotes.records.size() == 1);
    CHECK_FALSE(quotes.records[0].error.empty());
}

TEST_CASE("is_valid_utf8 follows Unicode's well-formed table", "[csv]") {
    using headcount::is_valid_utf8;
    CHECK(is_valid_utf8(""));
    CHECK(is_valid_utf8(std::string_view("a\0b", 3)));
    CHECK(is_valid_utf8("Zoë \xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF"));
    CHECK_FALSE(is_valid_utf8("\x80"));             // continuation without a lead
    CHECK_FALSE(is_valid_utf8("\xC3"));             // cut off
    CHECK_FALSE(is_valid_utf8("\xE2\x82"));         // cut off
    CHECK_FALSE(is_valid_utf8("\xC0\xAF"));         // overlong '/'
    CHECK_FALSE(is_valid_utf8("\xE0\x80\xAF"));     // overlong '/'
    CHECK_FALSE(is_valid_utf8("\xF0\x80\x80\xAF")); // overlong '/'
    CHECK_FALSE(is_valid_utf8("\xED\xA0\x80"));     // surrogate U+D800
    CHECK_FALSE(is_valid_utf8("\xF4\x90\x80\x80")); // past U+10FFFF
    CHECK_FALSE(is_valid_utf8("\xF5\x80\x80\x80"));
    CHECK_FALSE(is_valid_utf8("\xFF"));
    CHECK_FALSE(is_valid_utf8("\xE2\x28\xA1")); // bad third byte
}

namespace {

/// Every record of `text` read through a CsvStream that reads `chunk` bytes at a time, as "line|error|f1|f2...".
std::vector<std::string> streamed(std::string_view text, std::size_t chunk) {
    std::ispanstream in(std::span<const char>(text.data(), text.size()));
    headcount::CsvStream stream(in, "class.csv", UINT64_MAX, chunk);
    auto header = stream.header();
    std::vector<std::string> out;
    if (!header)
        return {"header error: " + header.error().to_string()};
    out.push_back(fmt::format("{}", fmt::join(*header, "|")));
    for (;;) {
        auto record = stream.next();
        REQUIRE(record.has_value());
        if (!*record)
            return out;
        out.push_back(fmt::format("{}|{}|{}", (*record)->line, (*record)->error, fmt::join((*record)->fields, "|")));
    }
}

/// A stream of NUL bytes that never ends, like /dev/zero.
class Zeros : public std::streambuf {
  public:
    Zeros() { setg(m_block.data(), m_block.data(), m_block.data() + m_block.size()); }

  private:
    int_type underflow() override {
        setg(m_block.data(), m_block.data(), m_block.data() + m_block.size());
        return 0;
    }
    std::array<char, 4096> m_block{};
};

} // namespace

TEST_CASE("a stream gives the same records however the file arrives in chunks", "[csv]") {
    // Each input crosses a chunk boundary inside a quote, a doubled quote, a CRLF, the byte order mark, a UTF-8
    // character and an unterminated quote, for some chunk size from 1 to 8.
    const std::vector<std::string> inputs{
        "\xEF\xBB\xBFstudent,answer\r\nalice,\"1,024\"\r\nbob,\"he said \"\"42\"\"\"\r\n\r\ncarol,\"two\nlines\"\n",
        "a,b\n\"open,never closed\nnext,row\nlast,x\n",
        "a,b\nx\"y,z\n\"q\"tail,w\r\r\n  \t\nzoë,ünï\n\xff\xfe,bad\n",
        "only,header",
        "a\n\"\"\"\"\n\"\"\n",
    };
    for (const std::string& input : inputs) {
        INFO(input);
        const auto whole = streamed(input, 1 << 20);
        for (std::size_t chunk = 1; chunk <= 8; ++chunk) {
            INFO("chunk " << chunk);
            CHECK(streamed(input, chunk) == whole);
        }
    }
    // The second input's unterminated quote keeps its line and lets the next lines be rows of their own.
    CHECK(streamed(inputs[1], 3) ==
          std::vector<std::string>{"a|b",
                                   "2|field 1: unterminated quoted field starting on line 2; the row was read up to "
                                   "the end of that line|open,never closed",
                                   "3||next|row", "4||last|x"});
}

TEST_CASE("an unterminated quote on a line longer than a read, and a CRLF split between reads", "[csv]") {
    // The open quote's line runs 200 KiB, past many 4 KiB reads: it is still one record, and the next line is the
    // next record (not the rest of the long line).
    const std::string long_line = "a,b\nann,\"" + std::string(200 * 1024, 'x') + "\nbob,2\n";
    const auto rows = streamed(long_line, 4096);
    REQUIRE(rows.size() == 3);
    CHECK(rows[1].starts_with("2|field 2: unterminated quoted field starting on line 2"));
    CHECK(rows[2] == "3||bob|2");
    // The same with CRLF, the CR the last byte of a read: the LF is part of the same line break.
    std::string crlf = "a,b\r\nann,\"open";
    crlf += std::string(4096 - crlf.size() - 1, 'y') + "\r\nbob,2\r\ncat,3\r\n";
    const auto split = streamed(crlf, 4096);
    REQUIRE(split.size() == 4);
    CHECK(split[2] == "3||bob|2");
    CHECK(split[3] == "4||cat|3");
    // A record of exactly 1 MiB is within the cap.
    const std::string exact = "a\n" + std::string(1 << 20, 'z') + "\n";
    CHECK(streamed(exact, 1 << 16).at(1) == "2|field 1: larger than 64 KiB|" + std::string(64 * 1024, 'z'));
}

TEST_CASE("a stream holds one record at a time, and refuses more than its cap", "[csv]") {
    // A row of 3 MiB without a line break is cut to 1 MiB and marked; the next row is read as usual.
    const std::string huge = "a,b\n" + std::string(3 << 20, 'x') + ",tail\nnext,row\n";
    std::ispanstream in(std::span<const char>(huge.data(), huge.size()));
    headcount::CsvStream stream(in, "class.csv", UINT64_MAX, 4096);
    REQUIRE(stream.header().has_value());
    auto first = stream.next();
    REQUIRE(first.has_value());
    REQUIRE(first->has_value());
    CHECK((*first)->line == 2);
    CHECK((*first)->error == "field 1: the row is longer than 1 MiB; its first part was read");
    auto second = stream.next();
    REQUIRE(second.has_value());
    REQUIRE(second->has_value());
    CHECK((*second)->fields == Fields{"next", "row"});
    CHECK((*second)->line == 3);

    // The message names the field the row passes 1 MiB in, whichever column that is (it said "field 1" for a 10 MB
    // answer in the fourth column): counted by hand, the fourth field of the first row below, the second of the next
    // (its quote still open at the cut), and the third of the last, whose second field has a line break in its
    // quotes (the record starts on line 4, its third field on line 5).
    const std::string fourth = "student,problem,part,answer\nalice,w3,a," + std::string(10 << 20, '7') + "\n" +
                               "bob,\"" + std::string(2 << 20, '8') + "\",a,1\n" + "chen,\"two\nlines\"," +
                               std::string(2 << 20, '9') + ",1\n";
    const auto cut = streamed(fourth, 1 << 16);
    REQUIRE(cut.size() == 4);
    CHECK(cut[1].starts_with("2|field 4: the row is longer than 1 MiB; its first part was read|alice|w3|a|777"));
    CHECK(cut[2].starts_with("3|field 2: the row is longer than 1 MiB; its first part was read|bob|888"));
    CHECK(cut[3].starts_with("4|field 3: the row is longer than 1 MiB; its first part was read|chen|two\nlines|999"));

    // An endless input (/dev/zero) is refused at its first line, after reading little more than a record.
    Zeros zeros;
    std::istream endless(&zeros);
    headcount::CsvStream binary(endless, "/dev/zero", UINT64_MAX, 1 << 16);
    auto header = binary.header();
    REQUIRE_FALSE(header.has_value());
    CHECK(header.error().to_string() == "/dev/zero:1: the first line holds NUL bytes: this is not a CSV text file");
    CHECK(binary.bytes_read() <= (1u << 20) + 2 * (1u << 16));
    // Past the header, an endless row stops at the cap, with the cap in the message.
    const std::string start = "a,b\n";
    std::istringstream head(start);
    Zeros more;
    std::istream rest(&more);
    std::istream* parts[] = {&head, &rest};
    struct Chain : std::streambuf { // "a,b\n" then zeros for ever
        std::istream** at;
        std::array<char, 4096> block{};
        explicit Chain(std::istream** parts) : at(parts) {}
        int_type underflow() override {
            (*at)->read(block.data(), block.size());
            auto got = (*at)->gcount();
            if (got == 0) {
                ++at;
                (*at)->read(block.data(), block.size());
                got = (*at)->gcount();
            }
            setg(block.data(), block.data(), block.data() + got);
            return got ? traits_type::to_int_type(block[0]) : traits_type::eof();
        }
    } chain(parts);
    std::istream endless_rows(&chain);
    headcount::CsvStream capped(endless_rows, "class.csv", 8 << 20, 1 << 16);
    REQUIRE(capped.header().has_value());
    auto row = capped.next();
    REQUIRE_FALSE(row.has_value());
    CHECK(row.error().to_string() == "class.csv: the file is larger than 8 MiB; headcount reads at most that");
    CHECK(capped.bytes_read() <= (8u << 20) + (1u << 16));
}

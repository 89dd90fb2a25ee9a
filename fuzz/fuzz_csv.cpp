// Fuzz target: the RFC 4180 reader for files nobody checked (submissions, rosters, keys) and the student-id rules
// applied to every field. Properties: nothing crashes or hangs; a record read without error is written back by
// csv_row and read again field for field; an id that passes student_id_problem has a key, and trimming is
// idempotent.
#include "fuzz_support.hpp"

#include <util/csv.hpp>
#include <util/ids.hpp>
#include <util/text.hpp>

#include <cstddef>
#include <cstdint>

using namespace headcount;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto table = parse_csv(text, "fuzz.csv");
    if (!table)
        return 0;
    for (const CsvRecord& record : table->records) {
        for (const std::string& field : record.fields) {
            const std::string_view id = trim_id(field);
            fuzz::require(trim_id(id) == id, "trim_id is not idempotent");
            if (!student_id_problem(id))
                fuzz::require(is_valid_utf8(id_key(id)), "an accepted id's key is not UTF-8");
            fuzz::require(is_valid_utf8(printable(field)) || !is_valid_utf8(field), "printable broke UTF-8");
        }
        if (!record.error.empty() || record.fields.empty())
            continue;
        auto again = parse_csv("h\n" + csv_row(record.fields), "again.csv");
        fuzz::require(again.has_value() && again->records.size() == 1, "a written row does not read back as one");
        fuzz::require(again->records[0].fields == record.fields, "a written row reads back different fields");
    }
    return 0;
}

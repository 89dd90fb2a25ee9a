// Fuzz target: an attempt log (`serve --log`) read back by `grade` through AttemptLogStream, and each of its lines
// through read_attempt_line. Properties: nothing crashes, throws or hangs; records come in the file's line order,
// each either a rejected row with a one-line reason or the four fields grade needs; and an attempt that was read
// is written again by attempt_line as one line that reads back the same, so a student's answer (newlines,
// quotes, any UTF-8) can never split or merge the log's lines.
#include "fuzz_support.hpp"

#include <grade/attempt_lines.hpp>
#include <serve/attempt_log.hpp>
#include <util/text.hpp>

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

using namespace headcount;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::istringstream in(text);
    grade::AttemptLogStream stream(in, "fuzz.jsonl", 1 << 20);
    int last_line = 0;
    for (;;) {
        auto record = stream.next();
        fuzz::require(record.has_value(), "reading from memory failed under the size cap");
        if (!*record)
            break;
        const CsvRecord& row = **record;
        fuzz::require(row.line > last_line, "records are not in line order");
        last_line = row.line;
        if (!row.error.empty()) {
            fuzz::require(row.fields.empty() && row.error.find('\n') == std::string::npos && is_valid_utf8(row.error),
                          "a rejected line's reason is not one UTF-8 line");
            continue;
        }
        fuzz::require(row.fields.size() == 4, "an accepted line is not student, problem, part, answer");
        fuzz::require_logged_round_trip({row.fields[0], row.fields[1], row.fields[2], row.fields[3]});
    }
    // The whole input as one line, as read_attempt_line sees it when grade or a tool hands it over directly.
    if (const auto single = grade::read_attempt_line(text))
        fuzz::require_logged_round_trip(*single);
    return 0;
}

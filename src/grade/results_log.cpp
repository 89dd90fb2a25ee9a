#include <grade/results_log.hpp>

#include <util/text.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace headcount::grade {

namespace {

/// A double as nlohmann::json writes it: the shortest text that reads back the same, with ".0" on whole numbers.
std::string json_number(double value) { return nlohmann::json(value).dump(); }

} // namespace

std::string json_string(std::string_view text) {
    if (!is_valid_utf8(text)) // rare: let the library decide how each bad byte is replaced
        return nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    for (char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
                out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
            else
                out += c;
        }
    }
    out += '"';
    return out;
}

void ResultsLog::write(const RowResult& row) {
    m_line.clear();
    m_line += fmt::format("{{\"line\":{},\"outcome\":\"{}\",\"student\":", row.line, outcome_name(row.outcome));
    m_line += json_string(row.student);
    m_line += ",\"problem\":";
    m_line += json_string(row.problem);
    m_line += ",\"part\":";
    m_line += json_string(row.part);
    m_line += ",\"answer\":";
    m_line += json_string(row.answer);
    if (row.outcome == RowOutcome::graded) {
        std::string* cached = nullptr;
        if (auto table = m_verdicts.find(row.table); table != m_verdicts.end())
            if (auto it = table->second.find(row.answer_id); it != table->second.end())
                cached = &it->second;
        // An answer its table did not keep gets a new number each time: it would never be looked up again.
        if (!cached && m_cached < k_cached_verdicts && row.table->kept(row.answer_id)) {
            cached = &m_verdicts[row.table][row.answer_id];
            ++m_cached;
        }
        if (!cached) {
            m_uncached.clear();
            cached = &m_uncached;
        }
        std::string& verdict = *cached;
        if (verdict.empty()) {
            const Verdict& v = row.verdict(m_scratch);
            std::string ids;
            for (const Mistake* m : named_mistakes(v))
                ids += (ids.empty() ? "" : ",") + json_string(m->id);
            verdict = fmt::format(",\"status\":\"{}\",\"score\":{},\"points\":{},\"mistakes\":[{}]",
                                  status_name(v.status), json_number(v.score), json_number(v.points), ids);
            if (v.status == Status::unreadable)
                verdict += ",\"reason\":" + json_string(v.unreadable_reason);
        }
        m_line += verdict;
    } else {
        m_line += ",\"reason\":";
        m_line += json_string(row.reason);
    }
    m_line += "}\n";
    m_out.write(m_line.data(), static_cast<std::streamsize>(m_line.size()));
}

Result<void> mark_superseded(std::istream& in, std::ostream& out, std::vector<Superseded> superseded) {
    std::sort(superseded.begin(), superseded.end(),
              [](const Superseded& a, const Superseded& b) { return a.row < b.row; });
    auto next = superseded.begin();
    std::string line;
    for (std::uint64_t row = 0; std::getline(in, line); ++row) {
        if (next != superseded.end() && next->row == row) {
            const auto parsed = nlohmann::ordered_json::parse(line, nullptr, /*allow_exceptions=*/false);
            if (parsed.is_discarded())
                return fail("the results log being written is corrupt");
            line = nlohmann::ordered_json{{"line", parsed["line"]},
                                          {"outcome", outcome_name(RowOutcome::superseded)},
                                          {"student", parsed["student"]},
                                          {"problem", parsed["problem"]},
                                          {"part", parsed["part"]},
                                          {"answer", parsed["answer"]},
                                          {"reason", fmt::format("superseded by the answer on line {}", next->by_line)}}
                       .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
            ++next;
        }
        line += '\n';
        out.write(line.data(), static_cast<std::streamsize>(line.size()));
    }
    if (in.bad() || !out)
        return fail("cannot write the results log");
    return {};
}

} // namespace headcount::grade

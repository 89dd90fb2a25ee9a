#include <generate/sheet_header.hpp>

#include <render/solution.hpp>
#include <util/text.hpp>
#include <util/token.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace headcount::generate {

namespace {

/// `text` as a Markdown code span, fenced with more backticks than any run inside it.
std::string code_span(std::string_view text) {
    std::size_t longest = 0, run = 0;
    for (char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(longest + 1, '`');
    const bool pad = text.starts_with('`') || text.ends_with('`');
    return fence + (pad ? " " : "") + std::string(text) + (pad ? " " : "") + fence;
}

} // namespace

std::string percent_encode(std::string_view text) {
    std::string out;
    for (unsigned char c : text) {
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
            c == '_' || c == '~')
            out += static_cast<char>(c);
        else
            out += fmt::format("%{:02X}", c);
    }
    return out;
}

std::string serve_link(std::string_view base, const TokenSecret& secret, std::string_view seed,
                       std::string_view student) {
    while (base.ends_with('/'))
        base.remove_suffix(1);
    return fmt::format("{}/?student={}&token={}", base, percent_encode(student), student_token(secret, seed, student));
}

std::optional<std::string> serve_url_problem(std::string_view base) {
    if (base.size() > 200)
        return "is longer than 200 bytes";
    const std::string_view scheme = base.starts_with("https://") ? "https://" : "http://";
    if (!base.starts_with(scheme))
        return "does not start with http:// or https://";
    const std::string_view rest = base.substr(scheme.size());
    if (rest.empty() || rest.front() == '/')
        return "has no host name";
    for (unsigned char c : base) {
        if (c <= 0x20 || c == 0x7F)
            return "contains a space or a control character";
        if (c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' || c == '\\')
            return fmt::format("contains '{}'", static_cast<char>(c));
        if (c == '?' || c == '#')
            return fmt::format("has a query or fragment ('{}'); give the server's address only", static_cast<char>(c));
    }
    return std::nullopt;
}

Result<std::string> sheet_header(const std::string& student, const std::string& seed, const std::string& serve_url,
                                 const TokenSecret* secret, const render::TemplateSet& templates) {
    const render::View view{
        {"student", code_span(student)},
        {"seed", code_span(seed)},
        {"has_link", !serve_url.empty()},
        {"link",
         serve_url.empty() || secret == nullptr ? std::string() : serve_link(serve_url, *secret, seed, student)},
        {"check_command",
         code_span(fmt::format("headcount check PROBLEM.yaml --seed {} --student {} --part a --answer \"...\"",
                               shell_quote(seed), shell_quote(student)))}};
    auto text = templates.render("sheet_header", view);
    if (!text)
        return text;
    return render::tidy_markdown(*text);
}

} // namespace headcount::generate

#include <serve/http.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <ctime>
#include <netinet/in.h>

namespace headcount::serve {

namespace {

std::unexpected<HttpRefusal> refuse(int status, std::string reason) {
    return std::unexpected(HttpRefusal{status, std::move(reason)});
}

/// RFC 9110's tchar: what a method or a field name is made of.
bool is_tchar(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
}

bool is_token(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return is_tchar(static_cast<unsigned char>(c)); });
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

std::string_view trim_ows(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

/// The elements of a comma-separated field value, each without surrounding whitespace.
std::vector<std::string_view> list_elements(std::string_view value) {
    std::vector<std::string_view> out;
    while (true) {
        const auto comma = value.find(',');
        out.push_back(trim_ows(value.substr(0, comma)));
        if (comma == std::string_view::npos)
            return out;
        value.remove_prefix(comma + 1);
    }
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool is_hex(char c) { return hex_digit(c) >= 0; }

/// RFC 3986 §2.3's unreserved and §2.2's sub-delims, but the comma: a Host of "a,b" is two values combined into one
/// (RFC 9110 §5.3), which is as many Hosts as RFC 9112 §3.2 refuses.
bool is_host_character(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           std::string_view("-._~!$&'()*+;=").find(c) != std::string_view::npos;
}

/// RFC 3986 §3.2.2's reg-name (which IPv4address is part of), without the comma: what is allowed, and each '%'
/// followed by two hex digits.
bool is_reg_name(std::string_view name) {
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name[i] == '%') {
            if (i + 2 >= name.size() || !is_hex(name[i + 1]) || !is_hex(name[i + 2]))
                return false;
            i += 2;
        } else if (!is_host_character(name[i])) {
            return false;
        }
    }
    return true;
}

/// RFC 3986 §3.2.2's IP-literal without its brackets: an IPv6address (as inet_pton reads it, which takes the
/// grammar's forms) or an IPvFuture, "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ).
bool is_ip_literal(std::string_view inside) {
    if (!inside.empty() && (inside.front() == 'v' || inside.front() == 'V')) {
        const auto dot = inside.find('.');
        if (dot == std::string_view::npos || dot == 1 || dot + 1 == inside.size())
            return false;
        return std::all_of(inside.begin() + 1, inside.begin() + static_cast<std::ptrdiff_t>(dot), is_hex) &&
               std::all_of(inside.begin() + static_cast<std::ptrdiff_t>(dot) + 1, inside.end(),
                           [](char c) { return c == ':' || is_host_character(c); });
    }
    if (inside.size() > 45) // the longest IPv6 address text (INET6_ADDRSTRLEN - 1)
        return false;
    in6_addr address{};
    return ::inet_pton(AF_INET6, std::string(inside).c_str(), &address) == 1;
}

/// Whether `value` is a Host field value: uri-host [ ":" port ] (RFC 9110 §7.2) with RFC 3986's host (§3.2.2), and
/// a port of digits (§3.2.3; empty is allowed) no larger than a TCP port can be (65535, RFC 9293 §3.1). An empty
/// value is what a client sends for a target without an authority (RFC 9110 §7.2).
bool is_host_value(std::string_view value) {
    std::string_view port;
    if (value.starts_with('[')) {
        const auto close = value.find(']');
        if (close == std::string_view::npos || !is_ip_literal(value.substr(1, close - 1)))
            return false;
        const std::string_view rest = value.substr(close + 1);
        if (!rest.empty() && rest.front() != ':')
            return false;
        port = rest.empty() ? rest : rest.substr(1);
    } else {
        const auto colon = value.find(':');
        if (!is_reg_name(value.substr(0, colon)))
            return false;
        port = colon == std::string_view::npos ? std::string_view() : value.substr(colon + 1);
    }
    std::uint32_t number = 0;
    for (const char c : port) {
        if (c < '0' || c > '9')
            return false;
        number = number * 10 + static_cast<std::uint32_t>(c - '0');
        if (number > 65535)
            return false;
    }
    return true;
}

/// A field name fit to quote in a refusal, or "" when it is not.
std::string quotable(std::string_view name) {
    if (name.size() > 40 || !std::all_of(name.begin(), name.end(), [](char c) { return c >= 0x20 && c < 0x7F; }))
        return "";
    return fmt::format(" '{}'", name);
}

/// The request line: method, target (split into path and query) and version.
std::expected<void, HttpRefusal> read_request_line(std::string_view line, RequestHead& head) {
    const auto first = line.find(' ');
    const auto second = first == std::string_view::npos ? first : line.find(' ', first + 1);
    if (second == std::string_view::npos || line.find(' ', second + 1) != std::string_view::npos)
        return refuse(400, "The request line must be a method, an address and a version, one space apart.");
    const std::string_view method = line.substr(0, first);
    std::string_view target = line.substr(first + 1, second - first - 1);
    const std::string_view version = line.substr(second + 1);
    if (!is_token(method))
        return refuse(400, "The request's method is not a word HTTP allows.");
    if (version == "HTTP/1.1" || version == "HTTP/1.0")
        head.minor_version = version.back() - '0';
    else if (version.size() == 8 && version.starts_with("HTTP/") &&
             std::isdigit(static_cast<unsigned char>(version[5])) && version[6] == '.' &&
             std::isdigit(static_cast<unsigned char>(version[7])))
        return refuse(505, "Only HTTP/1.1 and HTTP/1.0 are spoken here.");
    else
        return refuse(400, "The request's HTTP version is malformed.");
    if (target.empty() || !std::all_of(target.begin(), target.end(), [](char c) { return c > 0x20 && c < 0x7F; }))
        return refuse(400, "The address holds a space or a character addresses cannot have.");
    head.method = method;
    head.target = target;
    // The absolute form (a proxy's "http://host/path") names the same resource as its path.
    for (const std::string_view scheme : {"http://", "https://"})
        if (target.size() > scheme.size() && iequals(target.substr(0, scheme.size()), scheme)) {
            const auto path = target.find_first_of("/?", scheme.size());
            target = path == std::string_view::npos ? std::string_view("/") : target.substr(path);
            if (target.front() == '?')
                head.query = target.substr(1), target = "/";
        }
    if (target.front() != '/' || target.find('#') != std::string_view::npos)
        return refuse(400, "The address is not a path on this server.");
    const auto question = target.find('?');
    if (question != std::string_view::npos)
        head.query = target.substr(question + 1);
    auto path = percent_decode(target.substr(0, question), false);
    if (!path || path->find('\0') != std::string::npos)
        return refuse(400, "The address has a malformed %-escape.");
    head.path = std::move(*path);
    return {};
}

/// What the fields say about framing and the connection, once all are read.
std::expected<void, HttpRefusal> read_framing(RequestHead& head) {
    std::size_t hosts = 0;
    for (const auto& [name, value] : head.fields) {
        if (iequals(name, "host")) {
            if (++hosts == 1 && !is_host_value(value))
                return refuse(400, "The Host header is not a host name or address with an optional port.");
        } else if (iequals(name, "content-length")) {
            for (const std::string_view element : list_elements(value)) {
                if (element.empty() ||
                    !std::all_of(element.begin(), element.end(), [](char c) { return c >= '0' && c <= '9'; }))
                    return refuse(400, "The Content-Length is not a number.");
                std::uint64_t length = 0;
                for (const char digit : element) {
                    if (length > (UINT64_MAX - 9) / 10)
                        return refuse(413, "The request body is too large.");
                    length = length * 10 + static_cast<std::uint64_t>(digit - '0');
                }
                if (head.content_length && *head.content_length != length)
                    return refuse(400, "The request has two Content-Lengths that disagree.");
                head.content_length = length;
            }
        } else if (iequals(name, "transfer-encoding")) {
            head.transfer_encoding = true;
        } else if (iequals(name, "connection")) {
            for (const std::string_view option : list_elements(value))
                head.close = head.close || iequals(option, "close");
        } else if (iequals(name, "expect")) {
            if (!iequals(value, "100-continue"))
                return refuse(417, "Only 'Expect: 100-continue' is understood here.");
            head.expect_continue = true;
        }
    }
    if (hosts > 1)
        return refuse(400, "The request has more than one Host header.");
    if (hosts == 0 && head.minor_version == 1)
        return refuse(400, "The request has no Host header.");
    if (head.transfer_encoding && head.content_length)
        return refuse(400, "The request has both a Transfer-Encoding and a Content-Length.");
    head.close = head.close || head.minor_version == 0;
    return {};
}

} // namespace

const std::string* RequestHead::field(std::string_view name) const {
    for (const auto& [key, value] : fields)
        if (iequals(key, name))
            return &value;
    return nullptr;
}

std::expected<std::size_t, HttpRefusal> HeadScanner::scan(std::string_view received) {
    for (; m_position < received.size(); ++m_position) {
        if (received[m_position] != '\n')
            continue;
        const std::size_t length = m_position + 1 - m_line_start;
        const bool blank = length == 1 || (length == 2 && received[m_line_start] == '\r');
        if (blank && m_lines > 0)
            return m_position + 1;
        if (!blank) {
            if (length > m_limits.max_line + 2)
                return refuse(m_lines == 0 ? 414 : 431,
                              m_lines == 0 ? "The address is too long." : "A header line is too long.");
            if (++m_lines > m_limits.max_fields + 1)
                return refuse(431, fmt::format("The request has more than {} header lines.", m_limits.max_fields));
        } else if (m_position >= 64) {
            return refuse(400, "The request starts with too many empty lines.");
        }
        m_line_start = m_position + 1;
        if (m_lines == 0)
            m_head_start = m_line_start;
        if (m_position + 1 - m_head_start > m_limits.max_head)
            return refuse(431, "The request's headers are too large.");
    }
    // The line still arriving may already be too long: more than max_line bytes before its CR LF.
    const std::size_t arriving = received.size() - m_line_start;
    if (arriving > m_limits.max_line + 1 || (arriving == m_limits.max_line + 1 && received.back() != '\r'))
        return refuse(m_lines == 0 ? 414 : 431,
                      m_lines == 0 ? "The address is too long." : "A header line is too long.");
    if (received.size() - m_head_start > m_limits.max_head)
        return refuse(431, "The request's headers are too large.");
    return 0;
}

std::expected<RequestHead, HttpRefusal> parse_request_head(std::string_view text) {
    while (text.starts_with("\r\n"))
        text.remove_prefix(2);
    if (!text.ends_with("\r\n\r\n"))
        return refuse(400, "The request's lines must end in CR LF.");
    text.remove_suffix(2);
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const auto end = text.find("\r\n");
        const std::string_view line = text.substr(0, end);
        if (line.find_first_of("\r\n") != std::string_view::npos)
            return refuse(400, "The request's lines must end in CR LF.");
        lines.push_back(line);
        text.remove_prefix(end + 2);
    }
    if (lines.empty())
        return refuse(400, "The request is empty.");
    RequestHead head;
    if (auto ok = read_request_line(lines.front(), head); !ok)
        return std::unexpected(ok.error());
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        if (line.front() == ' ' || line.front() == '\t')
            return refuse(400, "Folded header lines are not accepted.");
        const auto colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0)
            return refuse(400, "A header line has no name and colon.");
        const std::string_view name = line.substr(0, colon);
        if (!is_token(name))
            return refuse(400, fmt::format("The header name{} is malformed (no space may come before its colon).",
                                           quotable(name)));
        const std::string_view value = trim_ows(line.substr(colon + 1));
        if (std::any_of(value.begin(), value.end(), [](char c) {
                const auto u = static_cast<unsigned char>(c);
                return (u < 0x20 && u != '\t') || u == 0x7F;
            }))
            return refuse(400, fmt::format("The header{} holds a control character.", quotable(name)));
        head.fields.emplace_back(name, value);
    }
    if (auto ok = read_framing(head); !ok)
        return std::unexpected(ok.error());
    return head;
}

std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%') {
            if (i + 2 >= text.size())
                return std::nullopt;
            const int high = hex_digit(text[i + 1]), low = hex_digit(text[i + 2]);
            if (high < 0 || low < 0)
                return std::nullopt;
            out += static_cast<char>(high * 16 + low);
            i += 2;
        } else {
            out += plus_is_space && text[i] == '+' ? ' ' : text[i];
        }
    }
    return out;
}

FormFields parse_form(std::string_view text, std::size_t max_pairs) {
    FormFields fields;
    while (!text.empty() && fields.size() < max_pairs) {
        const auto amp = text.find('&');
        const std::string_view pair = text.substr(0, amp);
        text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
        if (pair.empty())
            continue;
        const auto eq = pair.find('=');
        const std::string_view name = pair.substr(0, eq);
        const std::string_view value = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
        fields.emplace_back(percent_decode(name, true).value_or(std::string(name)),
                            percent_decode(value, true).value_or(std::string(value)));
    }
    return fields;
}

std::string form_value(const FormFields& fields, std::string_view name) {
    for (const auto& [key, value] : fields)
        if (key == name)
            return value;
    return {};
}

bool accepts_gzip(std::string_view accept_encoding) {
    std::optional<bool> gzip, any;
    for (const std::string_view element : list_elements(accept_encoding)) {
        const auto semicolon = element.find(';');
        const std::string_view coding = trim_ows(element.substr(0, semicolon));
        bool acceptable = true;
        if (semicolon != std::string_view::npos) {
            const std::string_view parameter = trim_ows(element.substr(semicolon + 1));
            if (parameter.size() >= 2 && lower(parameter[0]) == 'q' && parameter[1] == '=')
                acceptable = parameter.substr(2).find_first_of("123456789") != std::string_view::npos;
        }
        if (iequals(coding, "gzip") || iequals(coding, "x-gzip"))
            gzip = gzip.value_or(false) || acceptable;
        else if (coding == "*")
            any = acceptable;
    }
    return gzip ? *gzip : any.value_or(false);
}

bool starts_with_ignoring_case(std::string_view text, std::string_view lower_prefix) {
    return text.size() >= lower_prefix.size() && iequals(text.substr(0, lower_prefix.size()), lower_prefix);
}

std::string_view status_phrase(int status) {
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 411:
        return "Length Required";
    case 413:
        return "Content Too Large";
    case 414:
        return "URI Too Long";
    case 415:
        return "Unsupported Media Type";
    case 417:
        return "Expectation Failed";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Unknown";
    }
}

std::string http_date(std::int64_t unix_seconds) {
    static constexpr const char* k_days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static constexpr const char* k_months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                               "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const std::time_t time = static_cast<std::time_t>(unix_seconds);
    std::tm utc{};
    ::gmtime_r(&time, &utc);
    return fmt::format("{}, {:02d} {} {:04d} {:02d}:{:02d}:{:02d} GMT", k_days[utc.tm_wday], utc.tm_mday,
                       k_months[utc.tm_mon], utc.tm_year + 1900, utc.tm_hour, utc.tm_min, utc.tm_sec);
}

} // namespace headcount::serve

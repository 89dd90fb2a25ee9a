#pragma once
// HTTP/1.1 messages as `serve` reads and writes them, strictly (RFC 9112): a request head is either read exactly as
// the grammar says or refused with the status that names why, so that a proxy in front and this server can never
// disagree on where a request ends. Lines end in CRLF; no folded lines, no space before a field's colon, no
// control characters; one Host; Content-Length digits only, and a second one only if it says the same; no
// Transfer-Encoding. Field values are never decoded. Pure functions: no sockets here (http_server.hpp has them).

#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace headcount::serve {

/// A request refused by the HTTP layer: the status and a sentence for the client.
struct HttpRefusal {
    int status = 400;
    std::string reason;
};

/// Header fields in the order sent; names as sent (compare them case-insensitively).
using HttpFields = std::vector<std::pair<std::string, std::string>>;

/// Decoded name=value pairs of a query or a form body, in the order sent.
using FormFields = std::vector<std::pair<std::string, std::string>>;

/// Bounds on a request head.
struct HeadLimits {
    std::size_t max_line = 8 * 1024;  ///< the request line (414 beyond) and each header line (431), CRLF excluded
    std::size_t max_head = 16 * 1024; ///< the request line and every header line together (431)
    std::size_t max_fields = 100;     ///< header lines (431)
};

/// A request's start line and header fields, read and checked, before its body.
struct RequestHead {
    std::string method;
    std::string target;    ///< as sent
    std::string path;      ///< the target's path, percent-decoded
    std::string query;     ///< the target's query as sent, without '?'
    int minor_version = 1; ///< HTTP/1.<minor_version>
    HttpFields fields;
    std::optional<std::uint64_t> content_length;
    bool transfer_encoding = false; ///< a Transfer-Encoding field was sent (serve reads no chunked bodies)
    bool close = false;             ///< Connection: close, or HTTP/1.0
    bool expect_continue = false;   ///< Expect: 100-continue

    /// The first value of the field `name` (any case), or nullptr.
    [[nodiscard]] const std::string* field(std::string_view name) const;
};

/// Finds the end of a request head in bytes that arrive a piece at a time, looking at each byte once.
class HeadScanner {
  public:
    explicit HeadScanner(HeadLimits limits) : m_limits(limits) {}

    /// Scans `received` (everything received for this request so far: each call's is the last one's and more).
    /// The head's length through its blank line once it has all arrived, 0 while it has not, or a refusal as soon
    /// as what arrived is already too long: 414 for a request line, 431 for a header line, the head or the count.
    std::expected<std::size_t, HttpRefusal> scan(std::string_view received);

  private:
    HeadLimits m_limits;
    std::size_t m_position = 0;   ///< bytes looked at
    std::size_t m_line_start = 0; ///< where the line being read starts
    std::size_t m_head_start = 0; ///< where the request line starts (after any empty lines)
    std::size_t m_lines = 0;      ///< lines read, the request line included (empty lines before it are not)
};

/// The head `text` (as HeadScanner delimited it, blank line included) read strictly, or a refusal: 400 for
/// anything the grammar does not allow (with what it was), 505 for an HTTP version other than 1.0 and 1.1.
std::expected<RequestHead, HttpRefusal> parse_request_head(std::string_view text);

/// `text` with %XX escapes decoded (and '+' as a space when `plus_is_space`), or nullopt for a '%' not followed by
/// two hex digits.
std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space);

/// The pairs of an application/x-www-form-urlencoded text (a query, a form body); an escape that does not decode
/// is kept as typed. At most `max_pairs` pairs are read.
FormFields parse_form(std::string_view text, std::size_t max_pairs = 64);

/// The value of the first pair named `name`, or "" when there is none.
std::string form_value(const FormFields& fields, std::string_view name);

/// Whether an Accept-Encoding value lets the response be gzip-compressed: "gzip" (or "x-gzip", or "*" when gzip is
/// not named) with a q-value above 0.
bool accepts_gzip(std::string_view accept_encoding);

/// Whether `text` starts with `lower_prefix` (lower case), ignoring the case of ASCII letters in `text`: for field
/// values such as Content-Type, whose media types are case-insensitive.
bool starts_with_ignoring_case(std::string_view text, std::string_view lower_prefix);

/// The reason phrase for a status code ("OK", "Not Found", ...).
std::string_view status_phrase(int status);

/// An IMF-fixdate for the Date field: "Wed, 25 Nov 2026 16:32:32 GMT".
std::string http_date(std::int64_t unix_seconds);

} // namespace headcount::serve

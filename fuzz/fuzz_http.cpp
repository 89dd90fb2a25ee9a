// Fuzz target: serve's HTTP request heads (src/serve/http.hpp), as a client on the network may send them. The first
// byte picks the size of the pieces the rest arrives in. Properties: nothing crashes or hangs; the scanner finds the
// same end (or refusal) whatever the pieces; a head ends at a line feed within what arrived; a head the parser
// accepts has a token for a method, a decoded path that starts with '/' and holds no NUL, and when written back
// in the canonical form reads back the same; queries, forms and Accept-Encoding values never crash.
#include "fuzz_support.hpp"

#include <serve/http.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

using namespace headcount;
using namespace headcount::serve;

namespace {

/// What a scanner says after `text` arrives in pieces of `piece` bytes: the head's length, 0, or minus the status.
long scan(std::string_view text, std::size_t piece) {
    HeadScanner scanner(HeadLimits{});
    for (std::size_t end = std::min(piece, text.size());; end = std::min(end + piece, text.size())) {
        auto scanned = scanner.scan(text.substr(0, end));
        if (!scanned)
            return -scanned.error().status;
        if (*scanned > 0 || end == text.size())
            return static_cast<long>(*scanned);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    const std::size_t piece = 1 + data[0] % 64;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    const long whole = scan(text, text.size() + 1);
    const long pieces = scan(text, piece);
    fuzz::require(whole == pieces, "the head's end depends on how the bytes arrive");
    if (whole <= 0)
        return 0;
    const std::size_t length = static_cast<std::size_t>(whole);
    fuzz::require(length <= text.size() && text[length - 1] == '\n', "a head ends anywhere but after a line feed");

    auto head = parse_request_head(text.substr(0, length));
    (void)parse_form(text.substr(length));
    if (!head)
        return 0;
    fuzz::require(!head->method.empty() && head->path.starts_with('/') && head->path.find('\0') == std::string::npos,
                  "an accepted head has a bad method or path");
    (void)parse_form(head->query);
    for (const auto& [name, value] : head->fields)
        (void)accepts_gzip(value);

    std::string canonical =
        head->method + " " + head->target + " HTTP/1." + std::to_string(head->minor_version) + "\r\n";
    for (const auto& [name, value] : head->fields)
        canonical += name + ": " + value + "\r\n";
    canonical += "\r\n";
    auto again = parse_request_head(canonical);
    fuzz::require(again.has_value(), "an accepted head written back is refused");
    fuzz::require(again->method == head->method && again->path == head->path && again->query == head->query &&
                      again->fields == head->fields && again->content_length == head->content_length &&
                      again->close == head->close && again->expect_continue == head->expect_continue,
                  "an accepted head written back reads differently");
    return 0;
}

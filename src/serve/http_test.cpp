#include <serve/http.hpp>

#include <util/test_catch.hpp>

using namespace headcount::serve;

namespace {

RequestHead parsed(std::string_view text) {
    auto head = parse_request_head(text);
    INFO(std::string(text));
    REQUIRE(head.has_value());
    return *head;
}

HttpRefusal refused(std::string_view text) {
    auto head = parse_request_head(text);
    INFO(std::string(text));
    REQUIRE_FALSE(head.has_value());
    return head.error();
}

/// What a scanner says after `text` arrives in pieces of `piece` bytes: the head's length, 0, or the refusal's
/// status as a negative number.
long scan_in_pieces(std::string_view text, std::size_t piece, HeadLimits limits = {}) {
    HeadScanner scanner(limits);
    for (std::size_t end = std::min(piece, text.size());; end = std::min(end + piece, text.size())) {
        auto scanned = scanner.scan(text.substr(0, end));
        if (!scanned)
            return -scanned.error().status;
        if (*scanned > 0 || end == text.size())
            return static_cast<long>(*scanned);
    }
}

} // namespace

TEST_CASE("a request head is read as RFC 9112 writes it", "[http]") {
    const RequestHead get = parsed("GET /p/week3?student=alice&token=ab HTTP/1.1\r\nHost: x\r\n"
                                   "Accept-Encoding:  gzip \t\r\nConnection: keep-alive, Close\r\n\r\n");
    CHECK(get.method == "GET");
    CHECK(get.path == "/p/week3");
    CHECK(get.query == "student=alice&token=ab");
    CHECK(get.minor_version == 1);
    CHECK(*get.field("accept-encoding") == "gzip");
    CHECK(get.close);
    CHECK_FALSE(get.content_length);

    const RequestHead post = parsed("POST /api/check HTTP/1.1\r\nhost: x\r\nContent-Length: 12, 12\r\n"
                                    "Content-Length: 12\r\nExpect: 100-Continue\r\n\r\n");
    CHECK(post.content_length == 12u);
    CHECK(post.expect_continue);
    CHECK_FALSE(post.close);

    // HTTP/1.0 closes after the response and needs no Host; empty lines before the request line are skipped;
    // an absolute-form target names its path; the path is percent-decoded, the query is not.
    const RequestHead old = parsed("\r\n\r\nGET http://example.edu/static/%61.css?x=%41 HTTP/1.0\r\n\r\n");
    CHECK(old.close);
    CHECK(old.path == "/static/a.css");
    CHECK(old.query == "x=%41");
    CHECK(parsed("GET http://example.edu HTTP/1.1\r\nHost: e\r\n\r\n").path == "/");
}

TEST_CASE("a request head the grammar does not allow is refused with why", "[http]") {
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n").reason ==
          "The request has two Content-Lengths that disagree.");
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 6\r\n\r\n").status == 400);
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: %35\r\n\r\n").reason ==
          "The Content-Length is not a number.");
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n").status == 413);
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n").reason ==
          "The request has both a Transfer-Encoding and a Content-Length.");
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n").reason ==
          "The header name 'Transfer-Encoding ' is malformed (no space may come before its colon).");
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n\tTransfer-Encoding: chunked\r\n\r\n").reason ==
          "Folded header lines are not accepted.");
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r2\r\n\r\n").reason == "The request's lines must end in CR LF.");
    CHECK(refused("GET / HTTP/1.1\nHost: x\n\n").reason == "The request's lines must end in CR LF.");
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\x7f\r\n\r\n").reason ==
          "The header 'X-A' holds a control character.");
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\n: empty\r\n\r\n").reason == "A header line has no name and colon.");
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nno colon\r\n\r\n").status == 400);
    CHECK(refused("GET / HTTP/1.1\r\n\r\n").reason == "The request has no Host header.");
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n").reason ==
          "The request has more than one Host header.");
    CHECK(refused("GET / HTTP/2.0\r\nHost: x\r\n\r\n").status == 505);
    CHECK(refused("GET / HTTP/1.1x\r\nHost: x\r\n\r\n").status == 400);
    CHECK(refused("GET  / HTTP/1.1\r\nHost: x\r\n\r\n").reason ==
          "The request line must be a method, an address and a version, one space apart.");
    CHECK(refused("G(T / HTTP/1.1\r\nHost: x\r\n\r\n").reason == "The request's method is not a word HTTP allows.");
    CHECK(refused("GET relative HTTP/1.1\r\nHost: x\r\n\r\n").reason == "The address is not a path on this server.");
    CHECK(refused("GET /a#b HTTP/1.1\r\nHost: x\r\n\r\n").status == 400);
    CHECK(refused("GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n").reason == "The address has a malformed %-escape.");
    CHECK(refused("GET /%00 HTTP/1.1\r\nHost: x\r\n\r\n").status == 400);
    CHECK(refused("GET /\x80 HTTP/1.1\r\nHost: x\r\n\r\n").status == 400);
    CHECK(refused("POST / HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n").status == 417);
}

TEST_CASE("a Host value is a host and an optional port, or the request is refused", "[http]") {
    const auto with_host = [](std::string_view host) {
        return "GET / HTTP/1.1\r\nHost: " + std::string(host) + "\r\n\r\n";
    };
    // Allowed by RFC 9110 §7.2 (uri-host [ ":" port ]) with RFC 3986 §3.2.2's reg-name, IPv4address and
    // IP-literal (IPv6address or IPvFuture) and §3.2.3's port (*DIGIT, so empty too); an empty Host is what a
    // client sends for a target without an authority (RFC 9110 §7.2). Each checked by hand against the grammar.
    for (const std::string_view host : {"x", "localhost:8080", "127.0.0.1", "127.0.0.1:65535", "example.edu:", "[::1]",
                                        "[::1]:80", "[2001:db8::7]:8080", "[::ffff:192.0.2.1]", "[v7.a:b]",
                                        "[::1]:", "ex%41mple.edu", "a-b_c~d!$&'()*+;=", "", "h:00080"}) {
        INFO(host);
        CHECK(parsed(with_host(host)).field("host") != nullptr);
    }
    // Not allowed: a space, '/', '@' (userinfo has no place in Host) and '#' are none of reg-name's characters; an
    // IP-literal needs its ']' and an address inside; a port is digits, at most 65535 (16 bits, RFC 9293 §3.1);
    // '%' needs two hex digits; and "a,b" is two Hosts folded into one (RFC 9110 §5.3), refused as two are.
    for (const std::string_view host :
         {"a b", "a/b", "a@b", "[::1", "a,b", "x:12345678901234567890", "x:65536", "x:8o", "[::1]80", "[1.2.3]",
          "[fe80::1%25eth0]", "[v.x]", "[v1.]", "a%4", "a%zz", "a#b", "x:1:2", "\xc3\xa9.edu"}) {
        INFO(host);
        const HttpRefusal refusal = refused(with_host(host));
        CHECK(refusal.status == 400);
        CHECK(refusal.reason == "The Host header is not a host name or address with an optional port.");
    }
    // HTTP/1.0 needs no Host, but one it sends is read the same way.
    CHECK(refused("GET / HTTP/1.0\r\nHost: a/b\r\n\r\n").status == 400);
}

TEST_CASE("a head's end is found as it arrives, and its limits as soon as they are passed", "[http]") {
    const std::string head = "GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /next";
    // 27 bytes through the blank line, whatever pieces they come in; what follows is the next request's.
    for (const std::size_t piece : {1, 2, 5, 27, 100})
        CHECK(scan_in_pieces(head, piece) == 27);
    CHECK(scan_in_pieces("GET / HTTP/1.1\r\nHost: x\r\n", 3) == 0);
    // A bare LF ends the head too: parse_request_head then refuses it.
    CHECK(scan_in_pieces("GET / HTTP/1.1\nHost: x\n\n", 4) == 24);

    const HeadLimits limits{100, 200, 3};
    CHECK(scan_in_pieces("GET /" + std::string(100, 'a'), 7, limits) == -414);
    CHECK(scan_in_pieces("GET /" + std::string(94, 'a') + "\r\nHost: x\r\n\r\n", 7, limits) > 0); // 99 bytes: fits
    CHECK(scan_in_pieces("GET / HTTP/1.1\r\nX: " + std::string(98, 'a'), 7, limits) == -431);
    CHECK(scan_in_pieces("GET / HTTP/1.1\r\nX: " + std::string(98, 'a') + "\r\n\r\n", 500, limits) == -431);
    CHECK(scan_in_pieces("GET / HTTP/1.1\r\nA: " + std::string(90, 'a') + "\r\nB: " + std::string(90, 'a') + "\r\n\r\n",
                         10, limits) == -431);
    CHECK(scan_in_pieces("GET / HTTP/1.1\r\nA: 1\r\nB: 1\r\nC: 1\r\nD: 1\r\n\r\n", 10, limits) == -431);
    CHECK(scan_in_pieces("GET / HTTP/1.1\r\nA: 1\r\nB: 1\r\nC: 1\r\n\r\n", 10, limits) > 0);
    CHECK(scan_in_pieces(std::string(100, '\n'), 10) == -400);
}

TEST_CASE("queries and forms decode as browsers encode them", "[http]") {
    CHECK(percent_decode("a%20b+c", false) == "a b+c");
    CHECK(percent_decode("a%20b+c", true) == "a b c");
    CHECK(percent_decode("%E2%89%88", false) == "\xE2\x89\x88");
    CHECK_FALSE(percent_decode("%4", false));
    CHECK_FALSE(percent_decode("%G1", false));
    const FormFields form = parse_form("part=b&answer=4%2A512%5E2+%2B+1&&flag&answer=second&bad=%zz");
    CHECK(form ==
          FormFields{{"part", "b"}, {"answer", "4*512^2 + 1"}, {"flag", ""}, {"answer", "second"}, {"bad", "%zz"}});
    CHECK(form_value(form, "answer") == "4*512^2 + 1");
    CHECK(form_value(form, "none").empty());
    CHECK(parse_form(std::string(1000, '&') + "a=1").size() == 1);
    std::string many;
    for (int i = 0; i < 100; ++i)
        many += "k=v&";
    CHECK(parse_form(many).size() == 64);
}

TEST_CASE("gzip is sent only where Accept-Encoding allows it", "[http]") {
    // RFC 9110, section 12.5.3: codings are case-insensitive, x-gzip is gzip, '*' stands for any coding not named,
    // and a weight of 0 (0.000) refuses.
    for (const char* header :
         {"gzip, deflate, br", "br;q=1.0, gzip;q=0.8, *;q=0.1", "GZip", "x-gzip", "*", "gzip;q=0.001"}) {
        INFO(header);
        CHECK(accepts_gzip(header));
    }
    for (const char* header : {"", "br", "identity", "gzip;q=0", "gzip;q=0.000, *", "*;q=0", "*, gzip;q=0"}) {
        INFO(header);
        CHECK_FALSE(accepts_gzip(header));
    }
}

TEST_CASE("the Date field is an IMF-fixdate", "[http]") {
    // Python's email.utils.formatdate(t, usegmt=True) for the same instants.
    CHECK(http_date(0) == "Thu, 01 Jan 1970 00:00:00 GMT");
    CHECK(http_date(951782400) == "Tue, 29 Feb 2000 00:00:00 GMT");
    CHECK(http_date(1795624352) == "Wed, 25 Nov 2026 16:32:32 GMT");
    CHECK(status_phrase(431) == "Request Header Fields Too Large");
}

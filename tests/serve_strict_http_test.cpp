// `headcount serve` under hostile HTTP (issue 24, items 2, 5, 6 and 7): framing read strictly (RFC 9112), the limits
// docs/operations.md states, static files compressed once rather than per request, and one client address unable
// to hold every worker. Raw sockets, since a well-behaved client library sends none of this.
#include "run_binary.hpp"
#include "serve_process.hpp"

#include <util/test_catch.hpp>

#include <zlib.h>

#include <algorithm>
#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <map>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using headcount::testing::connect_from;
using headcount::testing::field;
using headcount::testing::only_response;
using headcount::testing::raw_exchange;
using headcount::testing::responses;
using headcount::testing::send_all;
using headcount::testing::ServeProcess;

namespace {

const std::string k_week3 = "problems/week3-mha-params.yaml";
const std::string k_katex_js = "/usr/share/javascript/katex/katex.min.js";

std::string read_file(const std::string& path) { return headcount::testing::read_text(path); }

std::string gunzip(const std::string& data) {
    z_stream stream{};
    REQUIRE(inflateInit2(&stream, 15 + 16) == Z_OK);
    std::string out(8 * 1024 * 1024, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    stream.avail_in = static_cast<uInt>(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int status = inflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    inflateEnd(&stream);
    REQUIRE(status == Z_STREAM_END);
    return out;
}

const std::string k_check_body = R"({"problem":"week3-mha-params","part":"b","answer":"1048576"})";

std::string check_head(const std::string& extra) {
    return "POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + extra;
}

} // namespace

TEST_CASE("serve never reads a GET's body as a request of its own", "[e2e][serve][http]") {
    ServeProcess server({k_week3});
    // The body of this GET is a whole second request: a lenient server answers it too, which lets a client smuggle
    // requests past a proxy that frames them as one.
    const std::string smuggled = "GET /api/problems HTTP/1.1\r\nHost: x\r\n\r\n";
    const std::string raw =
        raw_exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(smuggled.size()) +
                                        "\r\n\r\n" + smuggled);
    const auto all = responses(raw);
    REQUIRE(all.size() == 1);
    CHECK(all.front().status == 400);
    CHECK(field(all.front(), "connection") == "close");
    CHECK(all.front().body.find("A GET or HEAD request has no body.") != std::string::npos);
    // A GET announcing 100,000 bytes it never sends is refused at once, not waited for.
    const auto start = std::chrono::steady_clock::now();
    CHECK(only_response(raw_exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n"))
              .status == 400);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(4));
    // A chunked GET is refused the same way.
    CHECK(only_response(raw_exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                                                    "0\r\n\r\n"))
              .status == 400);
}

TEST_CASE("serve refuses framing that two readers could take two ways", "[e2e][serve][http]") {
    ServeProcess server({k_week3});
    const std::string length = std::to_string(k_check_body.size());
    SECTION("two Content-Lengths that disagree; the same one twice is fine") {
        const auto two = only_response(raw_exchange(
            server.port(), check_head("Content-Length: " + length + "\r\nContent-Length: 5\r\n\r\n" + k_check_body)));
        CHECK(two.status == 400);
        CHECK(two.body == "{\"error\":\"The request has two Content-Lengths that disagree.\"}\n");
        CHECK(only_response(raw_exchange(server.port(), check_head("Content-Length: " + length + ", " + length +
                                                                   "\r\nConnection: close\r\n\r\n" + k_check_body)))
                  .status == 200);
    }
    SECTION("a Content-Length that is not digits, percent-encoded ones included") {
        // "%31%39%30" decodes to "190": header values are never decoded.
        for (const std::string value : {"%31%39%30", "+60", "60 60", "0x3c", "-1", ""}) {
            INFO(value);
            CHECK(only_response(
                      raw_exchange(server.port(), check_head("Content-Length: " + value + "\r\n\r\n" + k_check_body)))
                      .status == 400);
        }
    }
    SECTION("a space before a field's colon, a folded line, a bare LF, a control character") {
        for (const std::string& head : std::vector<std::string>{
                 check_head("Transfer-Encoding : chunked\r\nContent-Length: " + length + "\r\n\r\n"),
                 check_head("X-Note: a\r\n Transfer-Encoding: chunked\r\nContent-Length: " + length + "\r\n\r\n"),
                 check_head("Transfer-Encoding:\r\n chunked\r\nContent-Length: " + length + "\r\n\r\n"),
                 "GET / HTTP/1.1\nHost: x\n\n",
                 "GET / HTTP/1.1\r\nHost: x\r\nX-A: b\x01"
                 "c\r\n\r\n",
                 "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", "GET / HTTP/1.1\r\n\r\n",
                 "GET  / HTTP/1.1\r\nHost: x\r\n\r\n", "GET / HTTP/1.1 \r\nHost: x\r\n\r\n"}) {
            INFO(head);
            const auto r = only_response(raw_exchange(server.port(), head + k_check_body));
            CHECK(r.status == 400);
            CHECK(field(r, "connection") == "close");
        }
        const auto folded =
            only_response(raw_exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\nX-A: b\r\n c\r\n\r\n"));
        CHECK(folded.body == "{\"error\":\"Folded header lines are not accepted.\"}\n");
        const auto spaced = only_response(raw_exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\nX-A : b\r\n\r\n"));
        CHECK(spaced.body ==
              "{\"error\":\"The header name 'X-A ' is malformed (no space may come before its colon).\"}\n");
    }
    SECTION("a Transfer-Encoding with a Content-Length, and HTTP/2 over a plain socket") {
        CHECK(only_response(raw_exchange(server.port(), check_head("Transfer-Encoding: chunked\r\nContent-Length: " +
                                                                   length + "\r\n\r\n" + k_check_body)))
                  .status == 400);
        CHECK(only_response(raw_exchange(server.port(), "GET / HTTP/2.0\r\nHost: x\r\n\r\n")).status == 505);
    }
}

TEST_CASE("serve sends a static file once, whatever ranges are asked for", "[e2e][serve][http]") {
    ServeProcess server({k_week3});
    std::string ranges = "bytes=0-";
    for (int i = 1; i < 1000; ++i)
        ranges += ",0-";
    const auto r =
        only_response(raw_exchange(server.port(), "GET /static/headcount.css HTTP/1.1\r\nHost: x\r\nRange: " + ranges +
                                                      "\r\nConnection: close\r\n\r\n"));
    CHECK(r.status == 200);
    CHECK(r.body == read_file(headcount::testing::source_dir() + "/templates/serve/static/headcount.css"));
    CHECK_FALSE(r.fields.contains("content-range"));
}

TEST_CASE("serve compresses static files once, and only as the client accepts", "[e2e][serve][http]") {
    ServeProcess server({k_week3});
    const std::string original = read_file(k_katex_js);
    const auto get = [&](const std::string& accept) {
        return only_response(raw_exchange(server.port(), "GET /static/katex/katex.min.js HTTP/1.1\r\nHost: x\r\n" +
                                                             accept + "Connection: close\r\n\r\n"));
    };
    // Brotli is what browsers ask for over HTTPS; it is never made per request (it cost 0.47 s of cpu a response).
    for (const std::string accept : {"Accept-Encoding: br\r\n", "", "Accept-Encoding: identity\r\n",
                                     "Accept-Encoding: gzip;q=0, br\r\n", "Accept-Encoding: *;q=0\r\n"}) {
        INFO(accept);
        const auto r = get(accept);
        CHECK(r.status == 200);
        CHECK_FALSE(r.fields.contains("content-encoding"));
        CHECK(field(r, "vary") == "Accept-Encoding");
        CHECK(r.body == original);
    }
    for (const std::string accept : {"Accept-Encoding: gzip, deflate, br, zstd\r\n", "Accept-Encoding: GZIP;q=0.5\r\n",
                                     "Accept-Encoding: *\r\n", "Accept-Encoding: br;q=1.0, gzip;q=0.8, *;q=0.1\r\n"}) {
        INFO(accept);
        const auto r = get(accept);
        CHECK(r.status == 200);
        CHECK(field(r, "content-encoding") == "gzip");
        CHECK(r.body.size() < original.size() / 2);
        CHECK(gunzip(r.body) == original);
        // The same bytes each time: compressed once, at startup.
        CHECK(get(accept).body == r.body);
    }
    // A HEAD says how long the body would be and sends none.
    const auto head =
        only_response(raw_exchange(server.port(), "HEAD /static/katex/katex.min.js HTTP/1.1\r\nHost: x\r\n"
                                                  "Connection: close\r\n\r\n"));
    CHECK(field(head, "content-length") == std::to_string(original.size()));
    CHECK(head.body.empty());
}

TEST_CASE("serve enforces the header limits docs/operations.md states, with 414 and 431", "[e2e][serve][http]") {
    ServeProcess server({k_week3});
    // 18 KB of headers in lines of 6 KB: over the 16 KiB for the request line and headers, though the line cap is kept.
    std::string big;
    for (int i = 0; i < 3; ++i)
        big += "X-Pad-" + std::to_string(i) + ": " + std::string(6000, 'a') + "\r\n";
    const auto too_many_bytes =
        only_response(raw_exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\n" + big + "\r\n"));
    CHECK(too_many_bytes.status == 431);
    // 16,000 bytes of headers are within it.
    CHECK(only_response(raw_exchange(server.port(),
                                     "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + std::string(7000, 'a') +
                                         "\r\nX-Pad-2: " + std::string(7000, 'a') + "\r\nConnection: close\r\n\r\n"))
              .status == 200);
    // One header line over 8 KiB, whether it ends or never does.
    CHECK(only_response(
              raw_exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(8300, 'a') + "\r\n\r\n"))
              .status == 431);
    CHECK(only_response(raw_exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(9000, 'a')))
              .status == 431);
    // A request line over 8 KiB is an address too long.
    CHECK(only_response(raw_exchange(server.port(), "GET /" + std::string(9000, 'a'))).status == 414);
    // More than 100 header lines.
    std::string many;
    for (int i = 0; i < 101; ++i)
        many += "X-" + std::to_string(i) + ": 1\r\n";
    CHECK(only_response(raw_exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\n" + many + "\r\n")).status == 431);
}

TEST_CASE("serve answers 408 to a request line still arriving after 10 s", "[e2e][serve][http]") {
    ServeProcess server({k_week3});
    const int fd = headcount::testing::connect_loopback(server.port());
    const auto start = std::chrono::steady_clock::now();
    // A byte every 2 s: each read is within the 5 s read timeout, the whole request is not within 10 s.
    std::string response;
    for (int i = 0; i < 8 && response.empty(); ++i) {
        ::send(fd, "G", 1, MSG_NOSIGNAL);
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 2000) > 0)
            response = headcount::testing::read_until_closed(fd, 2000);
    }
    ::close(fd);
    const auto waited = std::chrono::steady_clock::now() - start;
    CHECK(response.starts_with("HTTP/1.1 408 "));
    CHECK(waited >= std::chrono::seconds(9));
    CHECK(waited < std::chrono::seconds(13));
}

TEST_CASE("slow clients from many addresses hold no worker", "[e2e][serve][http]") {
    // Two workers, and 8 addresses with 40 connections each: every connection sends a header line now and then,
    // and 40 more each finish a request slowly with the next one's first byte behind it (pipelined). A thread per
    // connection would be held by all of them; here reading takes no worker, and another student is answered at once.
    ServeProcess server({k_week3, "--threads", "2"});
    std::vector<int> slow;
    for (int a = 0; a < 8; ++a) {
        const std::string from = "127.0.0." + std::to_string(10 + a);
        for (int i = 0; i < 40; ++i) {
            slow.push_back(connect_from(from.c_str(), server.port()));
            send_all(slow.back(), "GET / HTTP/1.1\r\nHost: x\r\n");
        }
    }
    for (int i = 0; i < 40; ++i) {
        slow.push_back(connect_from("127.0.0.30", server.port()));
        send_all(slow.back(), "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nG");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    for (const int fd : slow)
        ::send(fd, "X", 1, MSG_NOSIGNAL);
    for (const std::string path : {"/healthz", "/p/week3-mha-params", "/static/katex/katex.min.js"}) {
        INFO(path);
        const auto start = std::chrono::steady_clock::now();
        const int student = connect_from("127.0.0.2", server.port());
        send_all(student, "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        const std::string answer = headcount::testing::read_until_closed(student, 5000);
        ::close(student);
        CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
        CHECK(answer.starts_with("HTTP/1.1 200 "));
    }
    for (const int fd : slow)
        ::close(fd);
    CHECK(server.stop(SIGTERM) == 0);
}

TEST_CASE("one client address may have 64 connections open, and the next is told why at once", "[e2e][serve][http]") {
    ServeProcess server({k_week3});
    std::vector<int> open;
    for (int i = 0; i < 64; ++i) {
        open.push_back(connect_from("127.0.0.3", server.port()));
        send_all(open.back(), "GET / HTTP/1.1\r\nHost: x\r\n");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const int extra = connect_from("127.0.0.3", server.port());
    const std::string refused = headcount::testing::read_until_closed(extra, 3000);
    ::close(extra);
    const auto r = only_response(refused);
    CHECK(r.status == 503);
    CHECK(field(r, "retry-after") == "5");
    CHECK(r.body == "This address has too many connections open at once; try again in a few seconds.\n");
    // Another address is not affected; and once one of the 64 closes, the address may connect again.
    const int other = connect_from("127.0.0.4", server.port());
    send_all(other, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    CHECK(headcount::testing::read_until_closed(other, 3000).starts_with("HTTP/1.1 200 "));
    ::close(other);
    ::close(open.back());
    open.pop_back();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const int again = connect_from("127.0.0.3", server.port());
    send_all(again, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    CHECK(headcount::testing::read_until_closed(again, 3000).starts_with("HTTP/1.1 200 "));
    ::close(again);
    for (const int fd : open)
        ::close(fd);
}

TEST_CASE("serve answers pipelined requests in order, and a HEAD it refuses without a body", "[e2e][serve][http]") {
    ServeProcess server({k_week3});
    const auto all =
        responses(raw_exchange(server.port(), "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
                                              "GET /api/problems HTTP/1.1\r\nHost: x\r\n\r\n"
                                              "GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
    REQUIRE(all.size() == 3);
    CHECK(all[0].body == "{\"status\":\"ok\"}\n");
    CHECK(all[1].body.starts_with("{\"problems\":["));
    CHECK(all[2].status == 404);
    // A HEAD refused before its head is whole (two Hosts) gets the status and no body, as a HEAD does.
    const std::string raw = raw_exchange(server.port(), "HEAD / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n");
    CHECK(raw.starts_with("HTTP/1.1 400 "));
    CHECK(raw.ends_with("\r\n\r\n"));
    // No 100 Continue for an HTTP/1.0 client (RFC 9110 15.2), but for an HTTP/1.1 one before its body.
    const std::string body = R"({"problem":"week3-mha-params","part":"b","answer":"1"})";
    const std::string old = raw_exchange(server.port(), "POST /api/check HTTP/1.0\r\nContent-Type: application/json\r\n"
                                                        "Expect: 100-continue\r\nContent-Length: " +
                                                            std::to_string(body.size()) + "\r\n\r\n" + body);
    CHECK(old.starts_with("HTTP/1.1 200 "));
    const int fd = headcount::testing::connect_loopback(server.port());
    send_all(fd, "POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
                 "Connection: close\r\nContent-Length: " +
                     std::to_string(body.size()) + "\r\n\r\n");
    char interim[64] = {};
    pollfd p{fd, POLLIN, 0};
    REQUIRE(::poll(&p, 1, 3000) == 1);
    const ssize_t n = ::recv(fd, interim, sizeof interim - 1, 0);
    CHECK(std::string(interim, static_cast<std::size_t>(std::max<ssize_t>(n, 0))) == "HTTP/1.1 100 Continue\r\n\r\n");
    send_all(fd, body);
    CHECK(headcount::testing::read_until_closed(fd, 3000).starts_with("HTTP/1.1 200 "));
    ::close(fd);
}

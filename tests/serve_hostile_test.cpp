// `headcount serve` against the hostile clients of issue 40 (items 15-18): invalid Host values, requests pipelined
// before a half-close, a token secret in a folder serve reads, and connections opened only to hold a slot. Raw
// sockets against a real server process, as the suite that found them.
#include "run_binary.hpp"
#include "serve_process.hpp"

#include <util/test_catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using headcount::testing::connect_from;
using headcount::testing::field;
using headcount::testing::only_response;
using headcount::testing::raw_exchange;
using headcount::testing::read_until_closed;
using headcount::testing::responses;
using headcount::testing::run_headcount;
using headcount::testing::send_all;
using headcount::testing::ServeProcess;

namespace {

const std::string k_week3 = "problems/week3-mha-params.yaml";

} // namespace

TEST_CASE("serve refuses a Host that is not a host and port, as RFC 9112 §3.2 requires", "[e2e][serve][http]") {
    ServeProcess server({k_week3});
    // The values the hostile suite sent: a space, '/' and '@' are no part of RFC 3986's reg-name (§3.2.2), "[::1"
    // opens an IP-literal it never closes, "a,b" is two Hosts combined (RFC 9110 §5.3), and a port is 16 bits.
    for (const std::string host : {"a b", "a/b", "a@b", "[::1", "a,b", "x:12345678901234567890"}) {
        INFO(host);
        const auto r =
            only_response(raw_exchange(server.port(), "GET /healthz HTTP/1.1\r\nHost: " + host + "\r\n\r\n"));
        CHECK(r.status == 400);
        CHECK(field(r, "connection") == "close");
        CHECK(r.body == "{\"error\":\"The Host header is not a host name or address with an optional port.\"}\n");
    }
    for (const std::string host : {"x", "127.0.0.1:8080", "[::1]:8080", "example.edu", ""}) {
        INFO(host);
        CHECK(only_response(raw_exchange(server.port(),
                                         "GET /healthz HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n"))
                  .status == 200);
    }
}

TEST_CASE("serve answers every request pipelined before the client half-closes", "[e2e][serve][http]") {
    ServeProcess server({k_week3});
    // Three requests in one write, then shutdown(SHUT_WR): the client has sent all it will, and waits for the three
    // answers (RFC 9112 §9.6: a server reads what it received before the close). Twenty tries, as the race between
    // the FIN and the first response went one way or the other.
    for (int attempt = 0; attempt < 20; ++attempt) {
        INFO("attempt " << attempt);
        const int fd = headcount::testing::connect_loopback(server.port());
        send_all(fd, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
                     "GET /api/problems HTTP/1.1\r\nHost: x\r\n\r\n"
                     "GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n");
        REQUIRE(::shutdown(fd, SHUT_WR) == 0);
        const auto all = responses(read_until_closed(fd, 3000));
        ::close(fd);
        REQUIRE(all.size() == 3);
        CHECK(all[0].body == "{\"status\":\"ok\"}\n");
        CHECK(all[1].body.starts_with("{\"problems\":["));
        CHECK(all[2].status == 404);
    }
    // A request cut off by the half-close is not one: the whole ones before it are answered, and it is not.
    const int fd = headcount::testing::connect_loopback(server.port());
    send_all(fd, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHo");
    REQUIRE(::shutdown(fd, SHUT_WR) == 0);
    const auto cut = responses(read_until_closed(fd, 3000));
    ::close(fd);
    REQUIRE(cut.size() == 1);
    CHECK(cut[0].status == 200);
}

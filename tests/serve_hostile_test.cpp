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
        const auto r = only_response(raw_exchange(server.port(), "GET /healthz HTTP/1.1\r\nHost: " + host + "\r\n\r\n"));
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

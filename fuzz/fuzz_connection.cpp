// Fuzz target: whole connections through serve's HTTP server (src/serve/http_server.hpp), the event loop and its
// states, not only a request head: several clients (socket pairs the server adopts as if accepted, each from a
// client address) send requests, raw bytes, pipelined requests, half-closes and closes, stop reading, and let time
// pass on a clock the target moves (so every timeout can fire, and runs repeat exactly). No worker threads:
// responses are made on the loop's thread, in order.
//
// The input is a script, one step a line (what a hostile client does; fuzz/connection/ has the cases of issue 40):
//   connect N         a new client from address N (the current client from then on)
//   use N             the N-th client opened is the current one
//   get PATH          a well-formed GET (also head, close-get: with Connection: close, post PATH BODY)
//   pipeline P1 P2..  well-formed GETs in one write
//   send TEXT         raw bytes, with \r \n \t \\ and \xHH escapes
//   shut              the client shuts its write side (half-close)
//   close             the client closes its socket
//   stall, drain      the client stops reading what the server sends, or reads it again
//   wait MS           the clock moves MS milliseconds (every client that has not closed is then unclean)
// A step ending in " &" is followed by the next before the server runs (bytes and a half-close arriving together).
// The server's routes: /big (300 KiB), /close (closes after), /throw (fails), POST /refuse (refused unread).
// Properties: nothing crashes; the loop settles after each step (no busy loop); whatever a client receives starts
// as a response; a clean client (well-formed requests only, reading, no time passing, no more than the server
// holds without making room) gets one response per request, in order, up to the first that closes, whether or not
// it half-closed after sending them (issue 40, item 16); and once every client has closed and the clock has moved
// past every timeout, the server holds no connection.
#include "fuzz_support.hpp"

#include <serve/http_server.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace headcount;
using namespace headcount::serve;
using namespace std::chrono;

namespace {

/// Small limits, so that a short script reaches every cap: 6 connections, the last 2 for addresses with fewer
/// than 2 open, 4 per address, 5 requests per connection.
constexpr std::size_t k_max_connections = 6;
constexpr std::size_t k_max_requests = 5;
constexpr std::size_t k_clean_clients = 4; ///< at most this many clients: the server never has to make room
constexpr std::size_t k_max_clients = 12;
constexpr std::size_t k_max_steps = 400;

steady_clock::time_point g_now = steady_clock::time_point{} + hours(1);

/// A large body (a static file's), more than a socket buffer holds: writing it takes several rounds.
const std::string& big_body() {
    static const std::string body(300 * 1024, 'b');
    return body;
}

HttpServer& server() {
    static HttpServer* instance = [] {
        ConnectionLimits limits;
        limits.max_connections = k_max_connections;
        limits.reserved_connections = 2;
        limits.few_connections = 2;
        limits.per_address = 4;
        limits.max_requests = k_max_requests;
        HttpHandlers handlers;
        handlers.screen = [](const RequestHead& head) -> std::optional<HttpRefusal> {
            if (head.path == "/refuse")
                return HttpRefusal{403, "refused unread"};
            return std::nullopt;
        };
        handlers.handle = [](const HttpRequest& request) {
            if (request.head.path == "/throw")
                throw std::runtime_error("a route that fails");
            HttpResponse response = make_response(200, {{"Content-Type", "text/plain"}},
                                                  request.head.method + " " + request.head.path + "\n");
            if (request.head.path == "/big")
                response.shared_body = big_body();
            response.close = request.head.path == "/close";
            return response;
        };
        handlers.refusal = [](const HttpRefusal& refusal, const RequestHead*) {
            return make_response(refusal.status, {{"Content-Type", "text/plain"}}, refusal.reason + "\n");
        };
        auto* made = new HttpServer(std::move(handlers), {{"X-Fuzz", "1"}}, limits, 0);
        made->set_clock([] { return g_now; });
        fuzz::require(made->start().has_value(), "the event loop cannot be set up");
        return made;
    }();
    return *instance;
}

/// What a well-formed request is answered with: the body (empty for a HEAD) and whether the connection then
/// closes, as the limits and the routes above say.
struct Expected {
    std::string body;
    bool closes = false;
};

/// One client, as the script drives it and as it reads the server.
struct Client {
    int fd = -1;
    std::string received;
    bool draining = true;
    bool closed = false;            ///< by the client
    bool ended = false;             ///< the server closed its side (EOF read)
    bool clean = true;              ///< only well-formed requests, always reading, no time passed while open
    std::vector<Expected> expected; ///< what its well-formed requests are answered with, in order
};

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

/// `text` with \r \n \t \\ \xHH decoded; other bytes as they are.
std::string unescape(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\' || i + 1 == text.size()) {
            out += text[i];
            continue;
        }
        const char c = text[++i];
        if (c == 'x' && i + 2 < text.size() && is_hex(text[i + 1]) && is_hex(text[i + 2])) {
            out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
            i += 2;
        } else {
            out += c == 'r' ? '\r' : c == 'n' ? '\n' : c == 't' ? '\t' : c;
        }
    }
    return out;
}

/// Reads what the server has sent a draining client; whether anything (bytes or the end) came.
bool read_client(Client& client) {
    if (client.closed || client.ended || !client.draining)
        return false;
    bool moved = false;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::recv(client.fd, buffer, sizeof buffer, MSG_DONTWAIT);
        if (n > 0) {
            client.received.append(buffer, static_cast<std::size_t>(n));
            moved = true;
            continue;
        }
        if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            client.ended = true;
            moved = true;
        }
        return moved;
    }
}

/// Runs the loop and the clients' reads until neither moves: the server has done all it can without a client.
void settle(std::vector<Client>& clients) {
    for (int round = 0;; ++round) {
        fuzz::require(round < 100000, "the server never settles (a busy loop)");
        bool moved = server().poll(milliseconds(0)) > 0;
        for (Client& client : clients)
            moved = read_client(client) || moved;
        if (!moved)
            return;
    }
}

/// The responses in `received`, in order: each body (a HEAD's is not sent, as `heads` marks them) and whether it
/// closes the connection; nullopt when the bytes are not whole responses.
std::optional<std::vector<Expected>> read_responses(std::string_view received, const std::vector<bool>& heads) {
    std::vector<Expected> out;
    while (!received.empty()) {
        if (!received.starts_with("HTTP/1.1 "))
            return std::nullopt;
        const auto end = received.find("\r\n\r\n");
        if (end == std::string_view::npos)
            return std::nullopt;
        const std::string_view head = received.substr(0, end + 2);
        const auto at = head.find("\r\nContent-Length: ");
        if (at == std::string_view::npos)
            return std::nullopt;
        std::size_t length = 0;
        for (std::size_t i = at + 18; i < head.size() && head[i] >= '0' && head[i] <= '9'; ++i)
            length = length * 10 + static_cast<std::size_t>(head[i] - '0');
        const std::size_t body = out.size() < heads.size() && heads[out.size()] ? 0 : length;
        if (received.size() < end + 4 + body)
            return std::nullopt;
        out.push_back({std::string(received.substr(end + 4, body)),
                       head.find("\r\nConnection: close\r\n") != std::string_view::npos});
        received.remove_prefix(end + 4 + body);
    }
    return out;
}

/// A path a request line allows, from a script's word: '/' and the word's printable bytes but '#', '%', '?', '\\'.
std::string request_path(std::string_view word) {
    std::string path = "/";
    for (const char c : word.substr(0, 64))
        if (c > 0x20 && c < 0x7f && c != '#' && c != '%' && c != '?' && c != '\\' && !(path.size() == 1 && c == '/'))
            path += c;
    return path;
}

/// Notes what a well-formed request of `client` is answered with. The connection closes after a request that says
/// so, the /close route, a refusal (a POST to /refuse is refused unread) and the connection's last request. A
/// route that throws answers with the refusal's words, and a body over 8 KiB is refused (413): such a client is no
/// longer checked.
void expect(Client& client, std::vector<bool>& heads, const std::string& method, const std::string& path,
            bool says_close, bool too_large) {
    const bool refused = method == "POST" && path == "/refuse";
    const bool last = client.expected.size() + 1 == k_max_requests;
    const std::string body = refused            ? "refused unread\n"
                             : method == "HEAD" ? ""
                             : path == "/big"   ? big_body()
                                                : method + " " + path + "\n";
    client.expected.push_back({body, says_close || path == "/close" || refused || last});
    heads.push_back(method == "HEAD");
    client.clean = client.clean && path != "/throw" && !too_large;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view script(reinterpret_cast<const char*>(data), size);
    std::vector<Client> clients;
    std::vector<std::vector<bool>> heads; // per client: which of its well-formed requests are HEADs
    std::size_t current = 0;
    std::size_t steps = 0;
    for (std::size_t start = 0; start < script.size() && steps < k_max_steps; ++steps) {
        const auto end = std::min(script.find('\n', start), script.size());
        std::string_view line = script.substr(start, end - start);
        start = end + 1;
        // " &" at the end: the next step follows before the server runs (bytes and a half-close arrive together).
        const bool together = line.ends_with(" &");
        if (together)
            line.remove_suffix(2);
        const auto space = line.find(' ');
        const std::string_view verb = line.substr(0, space);
        const std::string_view argument = space == std::string_view::npos ? "" : line.substr(space + 1);
        const auto number = [&] {
            std::size_t n = 0;
            for (const char c : argument.substr(0, 6))
                if (c >= '0' && c <= '9')
                    n = n * 10 + static_cast<std::size_t>(c - '0');
            return n;
        };
        if (verb == "connect") {
            if (clients.size() >= k_max_clients)
                continue;
            int pair[2];
            fuzz::require(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, pair) == 0,
                          "no socket pair");
            clients.emplace_back().fd = pair[0];
            heads.emplace_back();
            current = clients.size() - 1;
            server().adopt(pair[1], "10.0.0." + std::to_string(number() % 8));
        } else if (verb == "use") {
            current = clients.empty() ? 0 : number() % clients.size();
        } else if (verb == "wait") {
            g_now += milliseconds(std::min<std::size_t>(number(), 120000));
            for (Client& client : clients)
                client.clean = client.clean && client.closed;
        } else if (!clients.empty()) {
            Client& client = clients[current];
            std::string bytes;
            if (verb == "pipeline") {
                // Several GETs in one write.
                for (std::size_t at = 0; at < argument.size();) {
                    const auto next = std::min(argument.find(' ', at), argument.size());
                    const std::string path = request_path(argument.substr(at, next - at));
                    bytes += "GET " + path + " HTTP/1.1\r\nHost: fuzz\r\n\r\n";
                    expect(client, heads[current], "GET", path, false, false);
                    at = next + 1;
                }
            } else if (verb == "get" || verb == "head" || verb == "close-get" || verb == "post") {
                const std::string_view word = verb == "post" ? argument.substr(0, argument.find(' ')) : argument;
                const std::string path = request_path(word);
                const std::string_view body =
                    verb == "post" && word.size() < argument.size() ? argument.substr(word.size() + 1) : "";
                const std::string method = verb == "head" ? "HEAD" : verb == "post" ? "POST" : "GET";
                bytes = method + " " + path + " HTTP/1.1\r\nHost: fuzz\r\n" +
                        (verb == "close-get" ? "Connection: close\r\n" : "") +
                        (verb == "post" ? "Content-Length: " + std::to_string(body.size()) + "\r\n" : "") + "\r\n" +
                        std::string(body);
                expect(client, heads[current], method, path, verb == "close-get", body.size() > 8 * 1024);
            } else if (verb == "send") {
                bytes = unescape(argument);
                client.clean = false;
            } else if (verb == "shut") {
                if (!client.closed)
                    ::shutdown(client.fd, SHUT_WR);
            } else if (verb == "close") {
                if (!client.closed)
                    ::close(client.fd);
                client.closed = true;
                client.clean = false;
            } else if (verb == "stall" || verb == "drain") {
                client.draining = verb == "drain";
                client.clean = client.clean && client.draining;
            }
            if (!bytes.empty() && !client.closed) {
                // A client sends what the socket takes; the rest is lost, as when a real one gives up.
                const ssize_t sent = ::send(client.fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
                client.clean = client.clean && sent == static_cast<ssize_t>(bytes.size());
            }
        }
        if (!together)
            settle(clients);
    }
    settle(clients);

    for (std::size_t i = 0; i < clients.size(); ++i) {
        const Client& client = clients[i];
        if (!client.received.empty())
            fuzz::require(client.received.starts_with("HTTP/1.1 "), "a client received something not a response");
        if (!client.clean || clients.size() > k_clean_clients)
            continue;
        const auto answers = read_responses(client.received, heads[i]);
        fuzz::require(answers.has_value(), "a clean client's responses are not whole");
        // One answer per request, in order, up to the first that closes the connection, whether or not the client
        // half-closed after sending them; each says it closes exactly when that is expected of it, but the last
        // (a half-closed client's last answer closes too).
        std::size_t want = 0;
        while (want < client.expected.size() && !client.expected[want].closes)
            ++want;
        want = std::min(want + 1, client.expected.size());
        fuzz::require(answers->size() == want, "a clean client's requests were not all answered");
        for (std::size_t r = 0; r < want; ++r) {
            fuzz::require((*answers)[r].body == client.expected[r].body,
                          "a clean client's answers are not its requests', in order");
            fuzz::require(r + 1 == want || !(*answers)[r].closes, "a clean client was told to close too early");
        }
    }

    // Every client goes; once the clock has passed every timeout (30 s for a response), nothing is left open.
    for (Client& client : clients)
        if (!client.closed)
            ::close(client.fd);
    clients.clear();
    for (int second = 0; second < 40; ++second) {
        g_now += seconds(1);
        settle(clients);
    }
    fuzz::require(server().open_connections() == 0, "a connection outlived every timeout");
    return 0;
}

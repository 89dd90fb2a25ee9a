#pragma once
// serve's HTTP/1.1 server. One event loop (epoll) accepts connections, reads each request strictly (http.hpp)
// within ConnectionLimits and writes each response; a pool of workers turns whole requests into responses through
// the routes it is given. No thread ever waits on a client, so slow clients, however many, cost sockets and
// buffers (bounded per connection, per client address and in all), not workers. It replaces cpp-httplib's server,
// whose parser took a GET's body for a second request, the first of two different Content-Lengths, percent-decoded
// header values and folded lines, sent 1,000 ranges of a file in one response and compressed each static file per
// request, and whose thread per connection let a few addresses' slow requests hold every worker.

#include <serve/connection.hpp>
#include <serve/http.hpp>
#include <util/error.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

namespace headcount::serve {

/// A request as routes see it: the head, the body, and who sent it.
struct HttpRequest {
    RequestHead head;
    std::string body;
    std::string address; ///< the client's key (client_key): its IPv4 address or IPv6 /64
    FormFields query;    ///< the target's query, decoded
    FormFields form;     ///< an application/x-www-form-urlencoded body, decoded

    /// The value of `name` in the query, else in the form body; "" when neither has it.
    [[nodiscard]] std::string param(std::string_view name) const;
    /// Whether the query or the form body names `name`.
    [[nodiscard]] bool has_param(std::string_view name) const;
};

/// A response. The server adds Date, Content-Length, the connection fields and its default fields.
struct HttpResponse {
    int status = 200;
    HttpFields fields;
    std::string body;
    std::string_view shared_body; ///< sent instead of `body` when not empty (a static file; not copied)
    bool close = false;           ///< close the connection after this response
};

/// A response of `status` with `fields` and `body`.
HttpResponse make_response(int status, HttpFields fields, std::string body = {});

/// What the server asks of the routes. Each may be called from any worker at once.
struct HttpHandlers {
    /// Before a POST's body is read: a refusal of it unread (the connection then closes), or nullopt. Called on the
    /// event loop: it must be quick and must not block.
    std::function<std::optional<HttpRefusal>(const RequestHead&)> screen;
    /// A whole request's response (HEAD is asked as GET; the server drops the body).
    std::function<HttpResponse(const HttpRequest&)> handle;
    /// The response to a request the server refused; `head` is null when the request could not be read.
    std::function<HttpResponse(const HttpRefusal&, const RequestHead*)> refusal;
};

/// Where the event loop reads the time: steady_clock, or a clock that moves only when told (the fuzz target's).
using ServerClock = std::function<std::chrono::steady_clock::time_point()>;

/// Listens on one address and serves until told to stop.
class HttpServer {
  public:
    /// `threads` workers make responses (0: each is made on the loop's thread, at once, in order: for a fuzz
    /// target); `default_fields` go on every response.
    HttpServer(HttpHandlers handlers, HttpFields default_fields, ConnectionLimits limits, std::size_t threads);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    /// Binds and listens on `host`:`port` (0: any free port); the port bound. Errors: the address is in use or
    /// not this machine's, or the event loop cannot be set up.
    Result<int> listen(const std::string& host, int port);
    /// Serves until `stopping` is set, then stops accepting, finishes every request already begun (answered with
    /// Connection: close, within the usual time limits) and returns.
    void run(const std::atomic<bool>& stopping);

    /// The parts of run() for a caller that drives the loop itself (the fuzz target): set up the loop without a
    /// listener; take a connected socket from client `key` as if accepted (within the limits); run one round,
    /// waiting up to `wait` for events, and return how many there were. Errors: epoll cannot be set up.
    Result<void> start();
    void adopt(int fd, const std::string& key);
    std::size_t poll(std::chrono::milliseconds wait);
    /// Reads the time from `clock` from now on (before start()).
    void set_clock(ServerClock clock) { m_clock = std::move(clock); }
    /// Connections open, those turned away and lingering included.
    [[nodiscard]] std::size_t open_connections() const { return m_connections.size(); }

  private:
    struct Completed;
    HttpHandlers m_handlers;
    HttpFields m_default_fields;
    ConnectionLimits m_limits;
    std::size_t m_threads;
    AddressCounts m_counts;
    int m_listener = -1;
    int m_epoll = -1;
    int m_wake = -1; ///< an eventfd the workers signal when a response is ready
    bool m_stopping = false;
    std::uint64_t m_next_id = 1;
    std::unordered_map<std::uint64_t, std::unique_ptr<Connection>> m_connections;
    std::size_t m_refusing = 0; ///< connections turned away at accept and still lingering
    std::unique_ptr<WorkerPool> m_pool;
    std::mutex m_done_mutex;
    std::vector<Completed> m_done;
    ServerClock m_clock;
    std::chrono::steady_clock::time_point m_swept;                 ///< when sweep() last ran
    std::chrono::steady_clock::time_point m_listener_paused_until; ///< out of descriptors: accept again then

    [[nodiscard]] std::chrono::steady_clock::time_point now() const;

    /// Accepts what is waiting; false when out of file descriptors.
    bool accept_all();
    /// Admits a new connection within the limits (closing another to make room), or answers it 503 with why.
    void take(int fd, const std::string& key);
    void admit(int fd, const std::string& key);
    void turn_away(int fd, const std::string& body);
    void on_readable(Connection& c);
    /// Takes what a reading connection has received as far as it goes: a head, a body, a whole request dispatched.
    void advance(Connection& c);
    void dispatch(Connection& c, HttpRequest request);
    void dispatch_refusal(Connection& c, HttpRefusal refusal);
    void collect_completed();
    void write_some(Connection& c);
    void finish_response(Connection& c);
    void sweep(std::chrono::steady_clock::time_point now);
    void watch(Connection& c, std::uint32_t events);
    void close(Connection& c);
};

/// The bytes of a response's head: status line, Date, `fields`, Content-Length and the connection fields.
std::string response_head(const HttpResponse& response, const HttpFields& default_fields, std::size_t body_length,
                          bool close, const ConnectionLimits& limits);

} // namespace headcount::serve

#pragma once
// What serve's HTTP server keeps per connection and the bounds it keeps them within. Reading requests and writing
// responses is done by one event loop (http_server.hpp), never by a thread that waits for a client: a slow client
// costs a socket and its buffer, not a worker. Workers only turn a whole request into a response.

#include <serve/http.hpp>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include <sys/socket.h>

namespace headcount::serve {

/// Limits on connections and each request on them.
struct ConnectionLimits {
    std::chrono::milliseconds read_timeout{5000};      ///< longest wait for a request's next bytes (408)
    std::chrono::milliseconds write_timeout{5000};     ///< longest wait to write more of a response
    std::chrono::milliseconds request_timeout{10000};  ///< a whole request, from its first byte to its last (408)
    std::chrono::milliseconds response_timeout{30000}; ///< a whole response, from the request's first byte
    std::chrono::milliseconds idle_timeout{5000};      ///< between requests on a kept-alive connection
    std::size_t max_requests = 1000;                   ///< per connection
    std::size_t max_body_bytes = 8 * 1024;             ///< request body (413)
    std::size_t max_connections = 1024;    ///< open at once; past it an unused or idle one is closed, or 503
    std::size_t reserved_connections = 64; ///< of those, kept for addresses with fewer than few_connections open
    std::size_t few_connections = 6;       ///< what one browser opens at once
    std::size_t per_address = 64;          ///< open connections of one client address (503); 0: no cap
    HeadLimits head;                       ///< request line and headers (414, 431)
};

/// The key a client's limits are counted under: its IPv4 address, or the /64 of an IPv6 address (one host is
/// given a whole /64), written "2001:db8:1:2::/64". An IPv4-mapped IPv6 address counts as its IPv4 address.
std::string client_key(const sockaddr_storage& address);

/// A fixed number of threads running jobs in the order they are queued (none: each job runs at once, on the thread
/// that enqueues it). The queue is not bounded here: the server never has more jobs than connections, each of which
/// waits for its job before it reads on.
class WorkerPool {
  public:
    explicit WorkerPool(std::size_t threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;
    void enqueue(std::function<void()> job);
    /// Runs every job already queued, then joins the threads.
    void shutdown();

  private:
    std::vector<std::thread> m_threads;
    std::deque<std::function<void()>> m_jobs;
    bool m_shutdown = false;
    std::mutex m_mutex;
    std::condition_variable m_ready;
};

/// Open connections per client key, against a cap (0: none).
class AddressCounts {
  public:
    explicit AddressCounts(std::size_t cap) : m_cap(cap) {}
    /// Counts one more connection of `key`; false (and nothing counted) when it already has the cap.
    bool acquire(const std::string& key);
    void release(const std::string& key);
    /// The connections of `key` counted now.
    [[nodiscard]] std::size_t open(const std::string& key) const;

  private:
    std::size_t m_cap;
    std::unordered_map<std::string, std::size_t> m_open;
};

/// One client connection as the event loop sees it.
struct Connection {
    enum class State {
        idle,       ///< between requests: waiting for the next one's first byte
        reading,    ///< a request has begun to arrive
        dispatched, ///< a worker is making its response; nothing is read meanwhile
        writing,    ///< the response is going out
        lingering,  ///< the last response is out and the write side shut: draining what the client still sends
    };

    int fd = -1;
    std::uint64_t id = 0;
    std::string key;          ///< client_key(), for the per-address limits
    bool counted = false;     ///< counted in AddressCounts
    bool turned_away = false; ///< refused at accept (too many connections): only lingers, then closes
    bool peer_closed = false; ///< the client shut its side: what it sent is answered, then the connection closes
    bool head_only = false;   ///< the response being made or written answers a HEAD: no body
    bool registered = true;   ///< in the epoll set (taken out while a worker has it, or the client has closed)
    State state = State::idle;
    std::size_t served = 0; ///< responses written
    std::string received;   ///< bytes read and not yet taken by a request (the next one's, when pipelined)
    HeadScanner scanner{HeadLimits{}};
    std::optional<RequestHead> head;                  ///< the current request's, once read whole
    std::chrono::steady_clock::time_point deadline;   ///< of the state: idle, the request, the response, lingering
    std::chrono::steady_clock::time_point last_moved; ///< when bytes last came in or went out
    std::chrono::steady_clock::time_point request_start;
    std::string out_head;         ///< the response's head being written
    std::string out_body;         ///< its body, when it owns one
    std::string_view shared_body; ///< its body, when it is a static file's
    std::size_t out_sent = 0;     ///< bytes of head and body written
    bool close_after = false;     ///< close once this response is out
    std::size_t drained = 0;      ///< bytes read while lingering

    /// The body being written.
    [[nodiscard]] std::string_view body() const {
        return shared_body.empty() ? std::string_view(out_body) : shared_body;
    }
};

} // namespace headcount::serve

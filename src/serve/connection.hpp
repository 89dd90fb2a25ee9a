#pragma once
// The sockets under `serve`'s HTTP: a thread pool with a bounded queue, a count of each client address's open
// connections, and a client connection read and written against deadlines, so that no request is read or answered
// for longer than ConnectionLimits allows, however slowly its bytes come or go.

#include <serve/http.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace headcount::serve {

/// Limits on connections and each request on them.
struct ConnectionLimits {
    std::chrono::milliseconds read_timeout{5000};      ///< longest wait for a request's next bytes
    std::chrono::milliseconds write_timeout{5000};     ///< longest wait to write more of a response
    std::chrono::milliseconds request_timeout{10000};  ///< a whole request, from its first byte to its last (408)
    std::chrono::milliseconds response_timeout{30000}; ///< a whole response, from the request's first byte
    std::chrono::milliseconds idle_timeout{5000};      ///< between requests on a kept-alive connection
    std::size_t max_requests = 1000;                   ///< per connection
    std::size_t max_body_bytes = 8 * 1024;             ///< request body (413)
    std::size_t per_address = 16;                      ///< open connections of one client address (503); 0: no cap
    HeadLimits head;                                   ///< request line and headers (414, 431)
};

/// A fixed number of threads and a bounded queue of jobs. When the queue is full, enqueue waits, which stops the
/// accept loop and leaves further clients in the kernel's backlog.
class BoundedPool {
  public:
    BoundedPool(std::size_t threads, std::size_t max_queued);
    ~BoundedPool();
    BoundedPool(const BoundedPool&) = delete;
    BoundedPool& operator=(const BoundedPool&) = delete;
    void enqueue(std::function<void()> job);
    /// Runs every job already queued, then joins the threads.
    void shutdown();
    /// Jobs queued and waiting for a thread.
    [[nodiscard]] std::size_t waiting() const { return m_waiting.load(); }

  private:
    std::vector<std::thread> m_threads;
    std::deque<std::function<void()>> m_jobs;
    std::size_t m_max_queued;
    std::atomic<std::size_t> m_waiting{0};
    bool m_shutdown = false;
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::condition_variable m_space;
};

/// Open connections per client address, against a cap.
class AddressCounts {
  public:
    explicit AddressCounts(std::size_t cap) : m_cap(cap) {}
    /// Counts one more connection of `address`; false (and nothing counted) when it already has the cap.
    bool acquire(const std::string& address);
    void release(const std::string& address);

  private:
    std::size_t m_cap;
    std::mutex m_mutex;
    std::unordered_map<std::string, std::size_t> m_open;
};

/// A client connection: what it sent and has not been read as a request yet, read and written against the
/// current request's deadlines. Closes the socket when destroyed.
class Connection {
  public:
    Connection(int fd, std::string address, const ConnectionLimits& limits);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    [[nodiscard]] const std::string& address() const { return m_address; }
    /// Bytes received and not yet taken by a request (the start of the next one, when a client pipelines).
    [[nodiscard]] std::string& received() { return m_received; }

    /// Waits up to `wait` for a request's first byte: false on timeout, close or error, or when `give_up` says so
    /// (asked every 50 ms).
    bool wait_for_request(std::chrono::milliseconds wait, const std::function<bool()>& give_up);
    /// Starts a request: its deadlines run from now.
    void begin_request();

    enum class Read { more, closed, timed_out };
    /// Appends what the client sends next to received(), waiting at most read_timeout and never past the request's
    /// deadline.
    Read read_more();
    /// Writes `head` then `body` (one writev when it can), waiting at most write_timeout for each part and never past
    /// the response's deadline; false when the client is gone or too slow.
    bool write(std::string_view head, std::string_view body = {});
    /// After a refused request whose body was not read: sends FIN and reads what the client still sends (up to
    /// 256 KiB, 2 s), so that it receives the response rather than a reset.
    void linger();

  private:
    int m_fd;
    std::string m_address;
    const ConnectionLimits& m_limits;
    std::string m_received;
    std::chrono::steady_clock::time_point m_read_deadline;
    std::chrono::steady_clock::time_point m_write_deadline;

    /// Waits for `events` up to `limit` and `deadline`; false on timeout.
    bool wait(short events, std::chrono::milliseconds limit, std::chrono::steady_clock::time_point deadline) const;
};

/// The text form of a connected socket's peer address ("127.0.0.1", "::1"), or "" when it has none.
std::string peer_address(int fd);

} // namespace headcount::serve

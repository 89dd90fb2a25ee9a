#pragma once
// The bounds cpp-httplib 0.11 (Debian 12's) does not set itself, supplied around it: a thread pool with a bounded
// queue, and a socket stream that gives each request a byte budget and a deadline. The library reads a request
// line or header of any length and any number of headers, and times only single reads; through this stream a
// request that runs past its budget or its deadline simply fails to read.

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace headcount::serve {

/// Limits on one connection and each request on it.
struct ConnectionLimits {
    std::chrono::milliseconds read_timeout{5000};     ///< longest wait for one read
    std::chrono::milliseconds write_timeout{5000};    ///< longest wait for one write
    std::chrono::milliseconds request_timeout{10000}; ///< a whole request, from its first byte to its last
    std::chrono::milliseconds response_timeout{30000}; ///< a whole response, from the request's first byte
    std::chrono::milliseconds idle_timeout{5000};     ///< between requests on a kept-alive connection
    std::size_t max_requests = 1000;                  ///< per connection
    std::size_t max_header_bytes = 16 * 1024;         ///< request line and headers
    std::size_t max_body_bytes = 8 * 1024;            ///< request body
};

/// A fixed number of threads and a bounded queue of accepted connections. When the queue is full, enqueue waits,
/// which stops the accept loop and leaves further clients in the kernel's backlog.
class BoundedPool final : public httplib::TaskQueue {
  public:
    BoundedPool(std::size_t threads, std::size_t max_queued);
    ~BoundedPool() override;
    void enqueue(std::function<void()> job) override;
    /// Runs every job already queued, then joins the threads.
    void shutdown() override;
    /// Connections accepted and waiting for a thread.
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

/// A client socket read through a buffer, with the per-request budget and deadline of ConnectionLimits.
class ConnectionStream final : public httplib::Stream {
  public:
    ConnectionStream(int fd, const ConnectionLimits& limits);

    /// Starts a request: a fresh byte budget (headers and body) and deadline.
    void begin_request();
    /// Whether the last request ran out of budget (too large) or time.
    [[nodiscard]] bool over_budget() const { return m_over_budget; }
    [[nodiscard]] bool timed_out() const { return m_timed_out; }
    /// Bytes of the current request read, and of its response written.
    [[nodiscard]] std::size_t consumed() const { return m_limits.max_header_bytes + m_limits.max_body_bytes - m_budget; }
    [[nodiscard]] std::size_t written() const { return m_written; }
    /// Waits up to `wait` for the first byte of a request; false on timeout, close or error, or when `give_up`
    /// says so (checked every 50 ms).
    bool wait_for_request(std::chrono::milliseconds wait, const std::function<bool()>& give_up);
    /// After a refused request whose body was not read: sends FIN and reads what the client still sends (up to
    /// 256 KiB, 2 s) so that it receives the response rather than a reset.
    void linger();

    bool is_readable() const override;
    bool is_writable() const override;
    ssize_t read(char* ptr, size_t size) override;
    ssize_t write(const char* ptr, size_t size) override;
    void get_remote_ip_and_port(std::string& ip, int& port) const override;
    void get_local_ip_and_port(std::string& ip, int& port) const override;
    socket_t socket() const override { return m_fd; }

  private:
    int m_fd;
    const ConnectionLimits& m_limits;
    std::vector<char> m_buffer;
    std::size_t m_begin = 0;
    std::size_t m_end = 0;
    std::size_t m_budget = 0;
    std::size_t m_written = 0;
    std::chrono::steady_clock::time_point m_deadline;       ///< for reading the request
    std::chrono::steady_clock::time_point m_write_deadline; ///< for writing the response
    bool m_over_budget = false;
    bool m_timed_out = false;

    /// Waits for `events` on the socket up to `limit` and the request's (POLLIN) or response's deadline; false on
    /// timeout.
    bool wait(short events, std::chrono::milliseconds limit) const;
};

} // namespace headcount::serve

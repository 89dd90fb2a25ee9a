#include <serve/connection.hpp>

#include <arpa/inet.h>
#include <cerrno>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

namespace headcount::serve {

using namespace std::chrono;

BoundedPool::BoundedPool(std::size_t threads, std::size_t max_queued) : m_max_queued(max_queued) {
    for (std::size_t i = 0; i < threads; ++i)
        m_threads.emplace_back([this] {
            for (;;) {
                std::function<void()> job;
                {
                    std::unique_lock lock(m_mutex);
                    m_ready.wait(lock, [this] { return m_shutdown || !m_jobs.empty(); });
                    if (m_jobs.empty())
                        return;
                    job = std::move(m_jobs.front());
                    m_jobs.pop_front();
                    --m_waiting;
                }
                m_space.notify_one();
                job();
            }
        });
}

BoundedPool::~BoundedPool() {
    if (!m_shutdown)
        shutdown();
}

void BoundedPool::enqueue(std::function<void()> job) {
    {
        std::unique_lock lock(m_mutex);
        m_space.wait(lock, [this] { return m_jobs.size() < m_max_queued; });
        m_jobs.push_back(std::move(job));
        ++m_waiting;
    }
    m_ready.notify_one();
}

void BoundedPool::shutdown() {
    {
        const std::lock_guard lock(m_mutex);
        m_shutdown = true;
    }
    m_ready.notify_all();
    for (std::thread& thread : m_threads)
        if (thread.joinable())
            thread.join();
}

ConnectionStream::ConnectionStream(int fd, const ConnectionLimits& limits)
    : m_fd(fd), m_limits(limits), m_buffer(4096) {
    begin_request();
}

void ConnectionStream::begin_request() {
    m_budget = m_limits.max_header_bytes + m_limits.max_body_bytes;
    m_deadline = steady_clock::now() + m_limits.request_timeout;
    m_write_deadline = steady_clock::now() + m_limits.response_timeout;
    m_over_budget = false;
    m_timed_out = false;
    m_written = 0;
}

bool ConnectionStream::wait(short events, milliseconds limit) const {
    const auto left = duration_cast<milliseconds>((events == POLLIN ? m_deadline : m_write_deadline) - steady_clock::now());
    const auto timeout = std::max(milliseconds(0), std::min(limit, left));
    pollfd p{m_fd, events, 0};
    for (;;) {
        const int n = ::poll(&p, 1, static_cast<int>(timeout.count()));
        if (n < 0 && errno == EINTR)
            continue;
        return n > 0;
    }
}

bool ConnectionStream::wait_for_request(milliseconds wait_at_most, const std::function<bool()>& give_up) {
    if (m_begin < m_end)
        return true;
    const auto until = steady_clock::now() + wait_at_most;
    while (steady_clock::now() < until) {
        pollfd p{m_fd, POLLIN, 0};
        const int n = ::poll(&p, 1, 50);
        if (n < 0 && errno != EINTR)
            return false;
        if (n > 0) {
            // Readable with nothing to read is the client closing: no request.
            char byte = 0;
            return ::recv(m_fd, &byte, 1, MSG_PEEK) == 1;
        }
        if (give_up())
            return false;
    }
    return false;
}

void ConnectionStream::linger() {
    ::shutdown(m_fd, SHUT_WR);
    const auto until = steady_clock::now() + seconds(2);
    std::size_t drained = 0;
    char sink[4096];
    while (drained < 256 * 1024 && steady_clock::now() < until) {
        pollfd p{m_fd, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0)
            continue;
        const ssize_t n = ::recv(m_fd, sink, sizeof sink, 0);
        if (n <= 0)
            return;
        drained += static_cast<std::size_t>(n);
    }
}

bool ConnectionStream::is_readable() const {
    return m_begin < m_end || wait(POLLIN, m_limits.read_timeout);
}

bool ConnectionStream::is_writable() const { return wait(POLLOUT, m_limits.write_timeout); }

ssize_t ConnectionStream::read(char* ptr, size_t size) {
    if (m_budget == 0) {
        m_over_budget = true;
        return -1;
    }
    if (m_begin == m_end) {
        if (!wait(POLLIN, m_limits.read_timeout)) {
            m_timed_out = true;
            return -1;
        }
        ssize_t n;
        do
            n = ::recv(m_fd, m_buffer.data(), m_buffer.size(), 0);
        while (n < 0 && errno == EINTR);
        if (n <= 0)
            return n;
        m_begin = 0;
        m_end = static_cast<std::size_t>(n);
    }
    const std::size_t n = std::min({size, m_end - m_begin, m_budget});
    std::copy_n(m_buffer.data() + m_begin, n, ptr);
    m_begin += n;
    m_budget -= n;
    return static_cast<ssize_t>(n);
}

ssize_t ConnectionStream::write(const char* ptr, size_t size) {
    if (!wait(POLLOUT, m_limits.write_timeout)) {
        m_timed_out = true;
        return -1;
    }
    ssize_t n;
    do
        n = ::send(m_fd, ptr, size, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    if (n > 0)
        m_written += static_cast<std::size_t>(n);
    return n;
}

namespace {
void address_of(const sockaddr_storage& address, std::string& ip, int& port) {
    char text[INET6_ADDRSTRLEN] = {};
    if (address.ss_family == AF_INET) {
        const auto& v4 = reinterpret_cast<const sockaddr_in&>(address);
        ::inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
        port = ntohs(v4.sin_port);
    } else if (address.ss_family == AF_INET6) {
        const auto& v6 = reinterpret_cast<const sockaddr_in6&>(address);
        ::inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
        port = ntohs(v6.sin6_port);
    }
    ip = text;
}
} // namespace

void ConnectionStream::get_remote_ip_and_port(std::string& ip, int& port) const {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getpeername(m_fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
        address_of(address, ip, port);
}

void ConnectionStream::get_local_ip_and_port(std::string& ip, int& port) const {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(m_fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
        address_of(address, ip, port);
}

} // namespace headcount::serve

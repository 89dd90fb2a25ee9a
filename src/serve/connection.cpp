#include <serve/connection.hpp>

#include <arpa/inet.h>
#include <cerrno>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

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

bool AddressCounts::acquire(const std::string& address) {
    const std::lock_guard lock(m_mutex);
    std::size_t& open = m_open[address];
    if (m_cap != 0 && open >= m_cap) {
        if (open == 0)
            m_open.erase(address);
        return false;
    }
    ++open;
    return true;
}

void AddressCounts::release(const std::string& address) {
    const std::lock_guard lock(m_mutex);
    const auto it = m_open.find(address);
    if (it != m_open.end() && --it->second == 0)
        m_open.erase(it);
}

Connection::Connection(int fd, std::string address, const ConnectionLimits& limits)
    : m_fd(fd), m_address(std::move(address)), m_limits(limits) {
    begin_request();
}

Connection::~Connection() {
    ::shutdown(m_fd, SHUT_RDWR);
    ::close(m_fd);
}

void Connection::begin_request() {
    m_read_deadline = steady_clock::now() + m_limits.request_timeout;
    m_write_deadline = steady_clock::now() + m_limits.response_timeout;
}

bool Connection::wait(short events, milliseconds limit, steady_clock::time_point deadline) const {
    const auto left = duration_cast<milliseconds>(deadline - steady_clock::now());
    const auto timeout = std::max(milliseconds(0), std::min(limit, left));
    pollfd p{m_fd, events, 0};
    for (;;) {
        const int n = ::poll(&p, 1, static_cast<int>(timeout.count()));
        if (n < 0 && errno == EINTR)
            continue;
        return n > 0;
    }
}

bool Connection::wait_for_request(milliseconds wait_at_most, const std::function<bool()>& give_up) {
    if (!m_received.empty())
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

Connection::Read Connection::read_more() {
    if (!wait(POLLIN, m_limits.read_timeout, m_read_deadline))
        return Read::timed_out;
    char buffer[4096];
    ssize_t n;
    do
        n = ::recv(m_fd, buffer, sizeof buffer, 0);
    while (n < 0 && errno == EINTR);
    if (n <= 0)
        return Read::closed;
    m_received.append(buffer, static_cast<std::size_t>(n));
    return Read::more;
}

bool Connection::write(std::string_view head, std::string_view body) {
    while (!head.empty() || !body.empty()) {
        if (!wait(POLLOUT, m_limits.write_timeout, m_write_deadline))
            return false;
        iovec parts[2] = {{const_cast<char*>(head.data()), head.size()}, {const_cast<char*>(body.data()), body.size()}};
        const int first = head.empty() ? 1 : 0;
        msghdr message{};
        message.msg_iov = parts + first;
        message.msg_iovlen = static_cast<std::size_t>(2 - first);
        const ssize_t n = ::sendmsg(m_fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (n <= 0)
            return false;
        auto sent = static_cast<std::size_t>(n);
        const std::size_t from_head = std::min(sent, head.size());
        head.remove_prefix(from_head);
        body.remove_prefix(sent - from_head);
    }
    return true;
}

void Connection::linger() {
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

std::string peer_address(int fd) {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0)
        return {};
    char text[INET6_ADDRSTRLEN] = {};
    if (address.ss_family == AF_INET)
        ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(address).sin_addr, text, sizeof text);
    else if (address.ss_family == AF_INET6)
        ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(address).sin6_addr, text, sizeof text);
    return text;
}

} // namespace headcount::serve

#include <serve/connection.hpp>

#include <arpa/inet.h>
#include <cstring>
#include <netinet/in.h>

namespace headcount::serve {

std::string client_key(const sockaddr_storage& address) {
    char text[INET6_ADDRSTRLEN] = {};
    if (address.ss_family == AF_INET) {
        ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(address).sin_addr, text, sizeof text);
        return text;
    }
    if (address.ss_family != AF_INET6)
        return {};
    in6_addr ip = reinterpret_cast<const sockaddr_in6&>(address).sin6_addr;
    if (IN6_IS_ADDR_V4MAPPED(&ip)) {
        in_addr v4{};
        std::memcpy(&v4, ip.s6_addr + 12, 4);
        ::inet_ntop(AF_INET, &v4, text, sizeof text);
        return text;
    }
    std::memset(ip.s6_addr + 8, 0, 8);
    ::inet_ntop(AF_INET6, &ip, text, sizeof text);
    return std::string(text) + "/64";
}

WorkerPool::WorkerPool(std::size_t threads) {
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
                }
                job();
            }
        });
}

WorkerPool::~WorkerPool() {
    if (!m_shutdown)
        shutdown();
}

void WorkerPool::enqueue(std::function<void()> job) {
    if (m_threads.empty()) {
        job();
        return;
    }
    {
        const std::lock_guard lock(m_mutex);
        m_jobs.push_back(std::move(job));
    }
    m_ready.notify_one();
}

void WorkerPool::shutdown() {
    {
        const std::lock_guard lock(m_mutex);
        m_shutdown = true;
    }
    m_ready.notify_all();
    for (std::thread& thread : m_threads)
        if (thread.joinable())
            thread.join();
}

bool AddressCounts::acquire(const std::string& key) {
    const auto it = m_open.find(key);
    const std::size_t open = it == m_open.end() ? 0 : it->second;
    if (m_cap != 0 && open >= m_cap)
        return false;
    ++m_open[key];
    return true;
}

std::size_t AddressCounts::open(const std::string& key) const {
    const auto it = m_open.find(key);
    return it == m_open.end() ? 0 : it->second;
}

void AddressCounts::release(const std::string& key) {
    const auto it = m_open.find(key);
    if (it != m_open.end() && --it->second == 0)
        m_open.erase(it);
}

} // namespace headcount::serve

#include <serve/rate_limit.hpp>

#include <algorithm>
#include <cmath>

namespace headcount::serve {

RateLimiter::RateLimiter(RateLimit limit, std::size_t max_keys) : m_limit(limit), m_max_keys(max_keys) {}

double RateLimiter::refilled(const Bucket& bucket, Clock::time_point now) const {
    const double seconds = std::chrono::duration<double>(now - bucket.updated).count();
    return std::min(m_limit.burst, bucket.tokens + std::max(0.0, seconds) * m_limit.per_minute / 60.0);
}

int RateLimiter::take(std::string_view key, Clock::time_point now) {
    if (m_limit.per_minute <= 0)
        return 0;
    const std::lock_guard lock(m_mutex);
    auto it = m_buckets.find(std::string(key));
    if (it == m_buckets.end()) {
        if (m_buckets.size() >= m_max_keys)
            std::erase_if(m_buckets, [&](const auto& entry) { return refilled(entry.second, now) >= m_limit.burst; });
        if (m_buckets.size() >= m_max_keys)
            return 60;
        it = m_buckets.emplace(std::string(key), Bucket{m_limit.burst, now}).first;
    }
    Bucket& bucket = it->second;
    bucket.tokens = refilled(bucket, now);
    bucket.updated = now;
    if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
    }
    const double wait = (1 - bucket.tokens) * 60.0 / m_limit.per_minute;
    return std::max(1, static_cast<int>(std::ceil(wait)));
}

std::size_t RateLimiter::size() const {
    const std::lock_guard lock(m_mutex);
    return m_buckets.size();
}

} // namespace headcount::serve

#pragma once
// Per-key rate limits for checks (one table per student, one per client address): a token bucket per key, in a
// table of bounded size, so no number of students or addresses can grow the server's memory without end.

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace headcount::serve {

/// How many checks a key may make: `per_minute` on average, up to `burst` in a row. per_minute 0: no limit.
struct RateLimit {
    double per_minute = 0;
    double burst = 1;
};

/// Token buckets by key (a student id, an address). Thread-safe.
class RateLimiter {
  public:
    using Clock = std::chrono::steady_clock;

    /// At most `max_keys` keys are tracked at once; a key whose bucket has refilled is forgotten when room is needed.
    RateLimiter(RateLimit limit, std::size_t max_keys);

    /// Takes one check for `key` at `now`: 0 when allowed, else the whole seconds (>= 1) until one is available,
    /// for Retry-After. When the table is full of keys still limited, a new key waits a minute rather than
    /// growing it.
    int take(std::string_view key, Clock::time_point now);

    /// Keys tracked now (for tests and /healthz).
    std::size_t size() const;

  private:
    struct Bucket {
        double tokens = 0;
        Clock::time_point updated;
    };
    RateLimit m_limit;
    std::size_t m_max_keys;
    mutable std::mutex m_mutex;
    std::unordered_map<std::string, Bucket> m_buckets;

    double refilled(const Bucket& bucket, Clock::time_point now) const;
};

} // namespace headcount::serve

#pragma once
// Verdicts already explained, by (variant, part, answer as typed): grading depends on nothing else, and a class
// types the same few numbers again and again, so the server renders each distinct answer's feedback once. Bounded:
// the least recently used entry goes when the cache is full, so memory stays flat however many answers arrive.

#include <grade/feedback.hpp>

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace headcount::serve {

/// One answer graded and put into words.
struct Graded {
    grade::Verdict verdict;
    grade::Feedback feedback;
};

/// A thread-safe LRU cache of Graded answers.
class VerdictCache {
  public:
    explicit VerdictCache(std::size_t capacity) : m_capacity(capacity) {}

    /// The entry for this part of this variant and this answer, or nullptr.
    std::shared_ptr<const Graded> find(const solve::SolvedPart* part, std::string_view answer);

    /// Stores an entry (evicting the least recently used one when full).
    void store(const solve::SolvedPart* part, std::string_view answer, std::shared_ptr<const Graded> graded);

    [[nodiscard]] std::size_t size() const;

  private:
    using Key = std::string; ///< the part's address and the answer, as bytes
    struct Entry {
        std::shared_ptr<const Graded> graded;
        std::list<Key>::iterator age;
    };
    static Key key(const solve::SolvedPart* part, std::string_view answer);

    std::size_t m_capacity;
    mutable std::mutex m_mutex;
    std::unordered_map<Key, Entry> m_entries;
    std::list<Key> m_ages; ///< most recently used first
};

} // namespace headcount::serve

#include <serve/verdict_cache.hpp>

#include <cstring>

namespace headcount::serve {

VerdictCache::Key VerdictCache::key(const solve::SolvedPart* part, std::string_view answer) {
    // A part belongs to one variant of one problem and lives as long as the server: its address names all three.
    Key out(sizeof part, '\0');
    std::memcpy(out.data(), static_cast<const void*>(&part), sizeof part);
    out += answer;
    return out;
}

std::shared_ptr<const Graded> VerdictCache::find(const solve::SolvedPart* part, std::string_view answer) {
    const Key k = key(part, answer);
    const std::lock_guard lock(m_mutex);
    const auto it = m_entries.find(k);
    if (it == m_entries.end())
        return nullptr;
    m_ages.splice(m_ages.begin(), m_ages, it->second.age);
    return it->second.graded;
}

void VerdictCache::store(const solve::SolvedPart* part, std::string_view answer, std::shared_ptr<const Graded> graded) {
    if (m_capacity == 0)
        return;
    Key k = key(part, answer);
    const std::lock_guard lock(m_mutex);
    if (m_entries.contains(k))
        return;
    if (m_entries.size() >= m_capacity) {
        m_entries.erase(m_ages.back());
        m_ages.pop_back();
    }
    m_ages.push_front(k);
    m_entries.emplace(std::move(k), Entry{std::move(graded), m_ages.begin()});
}

std::size_t VerdictCache::size() const {
    const std::lock_guard lock(m_mutex);
    return m_entries.size();
}

} // namespace headcount::serve

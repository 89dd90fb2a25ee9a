#pragma once
// Per-student variants of a problem: a pure function of (class seed, student id, problem id), the same on every
// machine. The derivation is documented in docs/variants.md so other tools can reproduce it.

#include <solve/asks.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::generate {

/// FNV-1a, 64-bit: a stable hash of bytes (std::hash differs between standard libraries).
std::uint64_t fnv1a64(std::string_view bytes);

/// SplitMix64 (Steele, Lea, Flood 2014): a small generator with a fully specified output sequence.
class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed) : m_state(seed) {}
    /// The next 64-bit output.
    std::uint64_t next();
    /// A uniform integer in [0, n), n > 0, by rejection (no modulo bias).
    std::uint64_t below(std::uint64_t n);

  private:
    std::uint64_t m_state;
};

/// The generator of one student's variant of one problem: seeded with fnv1a64 of
/// "headcount-variant-v1" NUL seed NUL problem-id NUL student-id.
SplitMix64 variant_stream(std::string_view seed, std::string_view problem_id, std::string_view student);

/// Every combination of the spec's `vary:` values that passes the same checks as a hand-written spec and whose
/// whole problem solves (no count overflowing), as the givens to put in the spec (spec::with_givens), in a fixed
/// order: the product of the value lists in spec order, last key fastest. Errors: a key this problem cannot vary
/// (spec::cannot_vary; the reader rejects it first, this guards problems built by hand), more than 1,000,000
/// combinations, or none valid.
Result<std::vector<spec::Givens>> valid_variants(const spec::Problem& problem);

/// Each of `variants` (givens of `problem`) solved, in order. Errors: a count overflows.
Result<std::vector<solve::SolvedProblem>> solve_variants(const spec::Problem& problem,
                                                         std::span<const spec::Givens> variants);

/// distinct: true. The number (into `solved`, the problem's valid variants solved) of each student's variant, for
/// `order` (students sorted by id): served in that order, a student whose draw would repeat an answer already handed
/// out, in any part, draws again from their own stream. Fails, naming the part, when a part has fewer different
/// answers than there are students, or when the students served first leave no variant whose answers are all unused.
Result<std::vector<std::size_t>> distinct_variant_numbers(const spec::Problem& problem,
                                                          std::span<const solve::SolvedProblem> solved,
                                                          std::span<const std::string> order, std::string_view seed);

} // namespace headcount::generate

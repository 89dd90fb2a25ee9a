#pragma once
// The variants of a problem that go into a learning platform's question bank (Moodle, Canvas): a platform's quiz
// draws one question at random from a bank, so each question holds one whole variant, every part with the same
// numbers, and no student's name.

#include <generate/class_variants.hpp>
#include <solve/asks.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace headcount::generate {

/// One variant of a problem in a bank.
struct BankVariant {
    std::size_t number = 0; ///< 1-based position in valid_variants (1 for a problem without vary:): a stable label
    solve::SolvedProblem solved;
};

/// A problem's bank: the spec as written and the variants its questions hold.
struct ProblemBank {
    const solve::SolvedProblem* problem = nullptr;
    std::vector<BankVariant> variants;
};

/// `count` different variants of `problem` drawn under `seed` (every valid one when there are fewer), in
/// valid_variants order. The draw: a partial Fisher-Yates shuffle of the valid variants' indices by SplitMix64
/// seeded with fnv1a64 of "headcount-bank-v1" NUL seed NUL problem id. Without vary: the one variant as written.
Result<std::vector<BankVariant>> drawn_variants(const spec::Problem& problem, std::size_t count, std::string_view seed);

/// The different variants of problems[problem] among those a class was handed (`variants`), in valid_variants
/// order: copies of the table's, which solved each once.
Result<std::vector<BankVariant>> class_variants_bank(const ClassVariants& variants, std::size_t problem);

/// The givens that vary in this variant, in the order of the spec's vary:, with their values as written in a
/// spec: {"d_model", "512"}, {"bias", "true"}. Empty for a problem without vary:.
std::vector<std::pair<std::string, std::string>> varying_givens(const solve::SolvedProblem& variant);

/// varying_givens as one line: "d_model = 512, h = 8, bias = true" ("" without vary:).
std::string varying_givens_text(const solve::SolvedProblem& variant);

} // namespace headcount::generate

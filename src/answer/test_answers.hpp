#pragma once
// How the answer reader's unit tests read an answer: accepted, or refused with its reason, each failing the test
// (with the answer and what was said) when the reader decided otherwise. Test-only: included by *_test.cpp files.

#include <answer/answer.hpp>

#include <util/test_catch.hpp>

#include <expected>
#include <string>
#include <string_view>

namespace headcount::testing {

/// What a reader made of `text`; a refusal fails the test, naming its reason.
template <class T> T accepted(std::string_view text, const std::expected<T, std::string>& result) {
    INFO("answer '" << text << "' -> " << (result ? std::string("ok") : result.error()));
    REQUIRE(result.has_value());
    return *result;
}

/// Why a reader refused `text`; an acceptance fails the test.
template <class T> std::string refused(std::string_view text, const std::expected<T, std::string>& result) {
    INFO("answer '" << text << "'");
    REQUIRE_FALSE(result.has_value());
    return result.error();
}

/// `text` read as an answer in `unit`, which must be accepted.
inline answer::ParsedAnswer read(std::string_view text, answer::AnswerUnit unit = answer::AnswerUnit::count,
                                 answer::ParseOptions options = {}) {
    return accepted(text, answer::parse_answer(text, unit, options));
}

/// Why `text` is refused as an answer in `unit`.
inline std::string reason(std::string_view text, answer::AnswerUnit unit = answer::AnswerUnit::count,
                          answer::ParseOptions options = {}) {
    return refused(text, answer::parse_answer(text, unit, options));
}

} // namespace headcount::testing

#pragma once
// Catch2 (v2) for headcount's tests, with how it prints a Wide (a count, which may be past 64 bits) when a check
// fails: Catch2 knows no __int128, and without this a CHECK on two counts does not compile.

#include <util/wide.hpp>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>

namespace Catch {

template <> struct StringMaker<headcount::Wide> {
    static std::string convert(headcount::Wide value) { return fmt::format("{}", value); }
};

} // namespace Catch

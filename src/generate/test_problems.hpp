#pragma once
// Problems the generate tests share, written once. Test-only: included by *_test.cpp files, never by the library.
// Each figure a test expects from these is derived in that test.

#include <spec/problem.hpp>

#include <utility>
#include <vector>

namespace headcount::testing {

/// Week 3's attention block (p.yaml, id week3: d_model 512, h 8, part b asking total_params, 3 points), varied by
/// `vary`, with `distinct` as given.
inline spec::Problem varied(std::vector<spec::Variation> vary, bool distinct = false) {
    spec::Problem p;
    p.file = "p.yaml";
    p.id = "week3";
    p.given.d_model = 512;
    p.given.h = 8;
    p.parts = {spec::Part{"b", "total_params", 3, {}, {}, {}, {}, {}, {}, {}, false, {}, false, {}}};
    p.vary = std::move(vary);
    p.distinct = distinct;
    return p;
}

} // namespace headcount::testing

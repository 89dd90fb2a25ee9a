#include <spec/problem.hpp>
#include <util/enum_names.hpp>

namespace headcount::spec {

namespace {
constexpr auto k_reveal_names = std::to_array<std::string_view>({"hints", "gaps", "full"});
static_assert(names_every(Reveal::full, k_reveal_names));
} // namespace

std::string_view reveal_name(Reveal reveal) { return enum_name(reveal, k_reveal_names, "hints"); }

} // namespace headcount::spec

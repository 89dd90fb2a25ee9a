#include <spec/problem.hpp>

namespace headcount::spec {

std::string_view reveal_name(Reveal reveal) {
    switch (reveal) {
    case Reveal::hints:
        return "hints";
    case Reveal::gaps:
        return "gaps";
    case Reveal::full:
        return "full";
    }
    return "hints";
}

} // namespace headcount::spec

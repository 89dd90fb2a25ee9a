#include <util/error.hpp>

#include <fmt/format.h>

namespace headcount {

std::string Error::to_string() const {
    std::string where = file;
    if (line > 0) {
        where += fmt::format(":{}", line);
        if (column > 0)
            where += fmt::format(":{}", column);
    }
    return where.empty() ? message : fmt::format("{}: {}", where, message);
}

} // namespace headcount

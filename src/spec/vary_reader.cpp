#include <spec/vary_reader.hpp>

#include <spec/givens.hpp>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <array>
#include <string_view>
#include <vector>

namespace headcount::spec::detail {

Result<std::vector<Variation>> read_vary(const Reader& r, const YAML::Node& node, const Problem& problem) {
    if (!node.IsMap() || node.size() == 0)
        return r.error_at(node, "vary must map givens to their values, e.g. {h: [4, 8, 16]}");
    std::vector<std::string_view> keys(varying_keys().begin(), varying_keys().end());
    for (const auto& [name, value] : problem.values)
        keys.push_back(name);
    if (auto ok = r.check_keys(node, keys, "vary"); !ok)
        return std::unexpected(ok.error());
    std::vector<Variation> out;
    for (const auto& entry : node) {
        Variation v{entry.first.Scalar(), {}, mark_of(entry.first)};
        if (const auto why = cannot_vary(problem, v.key))
            return r.error_at(entry.first, *why);
        const YAML::Node values = entry.second;
        const bool flag = is_flag_key(v.key);
        if (values.IsSequence() && values.size() > 0) {
            for (const auto& value : values) {
                if (flag) {
                    auto b = r.boolean(value, fmt::format("vary.{}", v.key));
                    if (!b)
                        return std::unexpected(b.error());
                    v.values.push_back(*b ? 1 : 0);
                } else {
                    auto n = r.positive_integer(value, fmt::format("vary.{}", v.key));
                    if (!n)
                        return std::unexpected(n.error());
                    v.values.push_back(static_cast<std::int64_t>(*n)); // below 10^18: read_size's bound
                }
            }
        } else if (!flag && values.IsMap()) {
            constexpr auto k_range_keys = std::to_array<std::string_view>({"from", "to", "step"});
            if (auto ok = r.check_keys(values, k_range_keys, fmt::format("vary.{}", v.key)); !ok)
                return std::unexpected(ok.error());
            auto from = r.required(values, "from", fmt::format("vary.{}", v.key));
            auto to = from ? r.required(values, "to", fmt::format("vary.{}", v.key)) : from;
            if (!to)
                return std::unexpected(to.error());
            auto first = r.positive_integer(*from, "from");
            auto last = first ? r.positive_integer(*to, "to") : first;
            auto step = values["step"] ? r.positive_integer(values["step"], "step") : Result<Count>(1);
            for (const auto* ok : {&first, &last, &step})
                if (!*ok)
                    return std::unexpected(ok->error());
            if (*last < *first)
                return r.error_at(*to, fmt::format("vary.{}: to = {} is below from = {}", v.key, *last, *first));
            if ((*last - *first) / *step >= 10000)
                return r.error_at(values, fmt::format("vary.{} has more than 10,000 values; use a larger step", v.key));
            for (Count x = *first; x <= *last; x += *step)
                v.values.push_back(static_cast<std::int64_t>(x)); // below 10^18: read_size's bound
        } else {
            return r.error_at(values, fmt::format("vary.{} must be a non-empty list{}", v.key,
                                                  flag ? " of true/false" : " or {from, to, step}"));
        }
        out.push_back(std::move(v));
    }
    return out;
}

} // namespace headcount::spec::detail

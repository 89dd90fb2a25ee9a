#include <spec/part_reader.hpp>

#include <util/text.hpp>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <string>

namespace headcount::spec::detail {

namespace {

Result<Tolerance> read_tolerance(const Reader& r, const YAML::Node& node) {
    if (node.IsScalar() && node.Scalar() == "exact")
        return Tolerance{};
    if (node.IsMap() && node.size() == 1) {
        if (const YAML::Node rel = node["rel"]) {
            auto value = r.fraction(rel, "tolerance rel");
            if (!value)
                return std::unexpected(value.error());
            return Tolerance{Tolerance::Kind::relative, *value, 0};
        }
        if (const YAML::Node sigfigs = node["sigfigs"]) {
            auto value = r.positive_integer(sigfigs, "tolerance sigfigs");
            if (!value)
                return std::unexpected(value.error());
            if (*value > 15)
                return r.error_at(sigfigs, "tolerance sigfigs must be at most 15");
            return Tolerance{Tolerance::Kind::sigfigs, 0, static_cast<int>(*value)};
        }
    }
    return r.error_at(node, "tolerance must be exact, {rel: 0.01} or {sigfigs: 3}");
}

Result<std::map<std::string, double>> read_credit(const Reader& r, const YAML::Node& node,
                                                  std::span<const std::string_view> mistakes) {
    if (auto ok =
            r.check_mapping(node, mistakes, "credit (mistake ids)",
                            "credit must map mistake ids to a fraction of the points, e.g. {missing_biases: 0.5}");
        !ok)
        return std::unexpected(ok.error());
    std::map<std::string, double> credit;
    for (const auto& entry : node) {
        auto value = r.fraction(entry.second, fmt::format("credit for {}", entry.first.Scalar()));
        if (!value)
            return std::unexpected(value.error());
        credit[entry.first.Scalar()] = *value;
    }
    return credit;
}

} // namespace

Result<void> read_check_policy(const Reader& r, const YAML::Node& node, std::optional<Reveal>& feedback,
                               std::optional<int>& attempts) {
    if (const YAML::Node given = node["feedback"]) {
        auto value = choice(r, given, "feedback", k_reveals);
        if (!value)
            return std::unexpected(value.error());
        feedback = *value;
    }
    if (const YAML::Node given = node["attempts"]) {
        auto value = r.attempts(given);
        if (!value)
            return std::unexpected(value.error());
        attempts = *value;
    }
    return {};
}

Result<Part> read_part(const Reader& r, const YAML::Node& node, const Vocabulary& words) {
    const std::span<const std::string_view> known_asks = words.asks;
    Part part;
    auto id =
        r.mapping_id(node, k_part_keys, "part", "part id", "each part must be a mapping with at least 'id' and 'ask'");
    if (!id)
        return std::unexpected(id.error());
    part.id = *id;

    auto ask = r.required_string(node, "ask", fmt::format("part '{}'", part.id));
    if (!ask)
        return std::unexpected(ask.error());
    part.ask_mark = mark_of(node["ask"]);
    if (std::find(known_asks.begin(), known_asks.end(), *ask) == known_asks.end())
        return r.error_at(part.ask_mark, fmt::format("unknown ask '{}' in part '{}'{}", *ask, part.id,
                                                     did_you_mean(*ask, known_asks)));
    part.ask = *ask;

    if (const YAML::Node points = node["points"]) {
        auto value = r.points(points);
        if (!value)
            return std::unexpected(value.error());
        part.points = *value;
    }
    if (auto ok = r.optional(node, "text", &Reader::string_of, part.text); !ok)
        return std::unexpected(ok.error());
    if (const YAML::Node tolerance = node["tolerance"]) {
        auto value = read_tolerance(r, tolerance);
        if (!value)
            return std::unexpected(value.error());
        part.tolerance = *value;
        part.tolerance_mark = mark_of(tolerance);
    }
    if (const YAML::Node credit = node["credit"]) {
        auto value = read_credit(r, credit, words.mistakes);
        if (!value)
            return std::unexpected(value.error());
        part.credit = std::move(*value);
    }
    if (auto policy = read_check_policy(r, node, part.feedback, part.attempts); !policy)
        return std::unexpected(policy.error());
    return part;
}

} // namespace headcount::spec::detail

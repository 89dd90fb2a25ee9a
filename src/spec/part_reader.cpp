#include <spec/part_reader.hpp>

#include <spec/quantities_reader.hpp>
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

constexpr auto k_accept_keys = std::to_array<std::string_view>({"formula", "given", "credit", "feedback"});
/// Most readings one part accepts.
constexpr std::size_t k_max_accepted = 8;

/// The other readings a part accepts: each a formula, or givens read another way (`memory_budget: 80 GiB`).
Result<std::vector<Accepted>> read_accept(const Reader& r, const YAML::Node& node, const Values& values) {
    if (!node.IsSequence() || node.size() == 0)
        return r.error_at(node, "accept must be a list of readings, each {formula: ...} or {given: {memory_budget: 80 "
                                "GiB}}, with an optional credit and feedback");
    if (node.size() > k_max_accepted)
        return r.error_at(node, fmt::format("accept lists more than {} readings", k_max_accepted));
    std::vector<Accepted> out;
    for (const auto& entry : node) {
        if (auto ok = r.check_mapping(entry, k_accept_keys, "accept",
                                      "each reading under accept must be a mapping: {formula: ...} or {given: ...}");
            !ok)
            return std::unexpected(ok.error());
        Accepted a;
        a.mark = mark_of(entry);
        const YAML::Node formula = entry["formula"], given = entry["given"];
        if (static_cast<bool>(formula) == static_cast<bool>(given))
            return r.error_at(entry, "a reading under accept gives either a formula or givens read another way, not "
                                     "both or neither");
        std::string reading;
        if (formula) {
            auto parsed = read_formula(r, formula, "accept formula");
            if (!parsed)
                return std::unexpected(parsed.error());
            a.formula = std::make_shared<const formula::Node>(std::move(*parsed));
            reading = fmt::format("`{}`", formula.Scalar());
        } else {
            if (!given.IsMap() || given.size() == 0)
                return r.error_at(given, "given under accept must map givens to another reading, e.g. "
                                         "{memory_budget: 80 GiB}");
            for (const auto& g : given) {
                const std::string name = g.first.Scalar();
                const auto it = values.find(name);
                if (it == values.end()) {
                    std::vector<std::string_view> names;
                    for (const auto& [key, value] : values)
                        names.push_back(key);
                    return r.error_at(g.first, fmt::format("accept: the problem has no given '{}' to read another "
                                                           "way{}",
                                                           name, did_you_mean(name, names)));
                }
                auto with_unit = read_value_with_unit(r, g.second, name);
                Value read;
                if (with_unit) {
                    if (!*with_unit)
                        return std::unexpected(with_unit->error());
                    read = std::move(**with_unit);
                } else {
                    const auto number =
                        g.second.IsScalar()
                            ? formula::parse(g.second.Scalar())
                            : std::expected<formula::Node, formula::Problem>(std::unexpected(formula::Problem{}));
                    if (!number || number->op != formula::Node::Op::number || !number->value)
                        return r.error_at(g.second, fmt::format("accept: given '{}' must be a number, or a number and "
                                                                "its unit (80 GiB), got {}",
                                                                name, Reader::describe(g.second)));
                    read = Value{*number->value, g.second.Scalar(), mark_of(g.second), {}, 1};
                }
                a.givens.push_back({name, read.value, read.text});
                reading += fmt::format("{}{} read as {}", reading.empty() ? "" : ", ", it->second.text, read.text);
            }
        }
        if (const YAML::Node credit = entry["credit"]) {
            auto value = r.fraction(credit, "accept credit");
            if (!value)
                return std::unexpected(value.error());
            a.credit = *value;
        }
        if (auto ok = r.optional(entry, "feedback", &Reader::string_of, a.feedback); !ok)
            return std::unexpected(ok.error());
        if (a.feedback.empty())
            a.feedback = a.credit >= 1 ? fmt::format("{}: accepted.", reading)
                                       : fmt::format("{}: accepted for {:g}% of the points.", reading, a.credit * 100);
        out.push_back(std::move(a));
    }
    return out;
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

Result<Part> read_part(const Reader& r, const YAML::Node& node, const Vocabulary& words, const Values& values) {
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
    if (const YAML::Node accept = node["accept"]) {
        auto readings = read_accept(r, accept, values);
        if (!readings)
            return std::unexpected(readings.error());
        part.accept = std::move(*readings);
    }
    if (const YAML::Node answer = node["answer"]) {
        part.answer_mark = mark_of(answer);
        if (!answer.IsScalar() || (answer.Scalar() != "formula" && answer.Scalar() != "value"))
            return r.error_at(answer, "answer must be 'formula' (the quantity as a formula in the givens, "
                                      "12*layers*d_model^2) or 'value' (a number, the default)");
        part.formula_answer = answer.Scalar() == "formula";
    }
    return part;
}

} // namespace headcount::spec::detail

#include <spec/model_presets.hpp>

#include <util/text.hpp>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace headcount::spec::detail {

namespace {

/// What a model spec gives beside its architecture: the workload of its own problem, which a spec using the preset
/// chooses for itself (GPT-2 XL's spec reads 1,024 tokens, causally; a homework on it may read 128).
constexpr auto k_workload_keys = std::to_array<std::string_view>(
    {"batch", "seq_len", "seq_len_kv", "count", "softmax", "flop_biases", "dtype", "causal", "tokens"});

} // namespace

Result<void> apply_model_preset(const Reader& r, const YAML::Node& root, YAML::Node given, Problem& problem) {
    if (!given.IsMap())
        return {};
    const YAML::Node node = given["model"];
    if (!node)
        return {};
    std::vector<std::string_view> names;
    for (const ModelPreset& p : builtin_model_presets())
        names.push_back(p.name);
    const std::string name = node.IsScalar() ? node.Scalar() : std::string();
    const auto presets = builtin_model_presets();
    const auto it = std::find_if(presets.begin(), presets.end(), [&](const ModelPreset& p) { return p.name == name; });
    if (it == presets.end())
        return r.error_at(node, fmt::format("unknown model {}; headcount knows: {}{}", Reader::describe(node),
                                            fmt::join(names, ", "), did_you_mean(name, names)));
    if (root["kind"] && problem.kind != "transformer")
        return r.error_at(node, fmt::format("model: {} gives a whole transformer's architecture, and this problem is "
                                            "kind: {}; write 'kind: transformer', or give the givens without it",
                                            name, problem.kind));
    // The preset is a shipped spec, read the way every shipped spec is by the tests: it cannot fail to parse.
    const YAML::Node spec = YAML::Load(std::string(it->text));
    for (const auto& entry : spec["given"]) {
        const std::string key = entry.first.Scalar();
        if (given[key] || std::find(k_workload_keys.begin(), k_workload_keys.end(), key) != k_workload_keys.end())
            continue; // written beside the preset: the spec's own
        // A fresh scalar, so that no message points into the preset's file as if it were the spec's lines.
        YAML::Node value(entry.second.Scalar());
        value.SetTag("?"); // plain, as the preset writes it: a number is a number, not a quoted string
        given[key] = value;
    }
    given.remove("model");
    problem.kind = "transformer";
    problem.model_preset = name;
    problem.model_title = spec["title"].Scalar();
    return {};
}

} // namespace headcount::spec::detail

#include <spec/hardware.hpp>

#include <spec/quantities_reader.hpp>
#include <util/text.hpp>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <string>
#include <vector>

namespace headcount::spec::detail {

namespace {

// Dense BF16 peaks: NVIDIA's datasheets give the Tensor Core figure with sparsity (1,979 TFLOPS for H100 SXM and
// H200), twice the dense one; Google's give the dense peak per chip. Interconnect: NVLink's total per GPU (A100
// 600 GB/s, H100 and H200 900 GB/s); Google's inter-chip interconnect per chip (1,600 Gbps = 200 GB/s on v5e,
// 4,800 Gbps = 600 GB/s on v5p). Memory as the datasheets write it, in GB.
constexpr auto k_presets = std::to_array<Hardware>({
    {"a100-80gb", "NVIDIA A100 80GB SXM", "312 TFLOP/s", "2039 GB/s", "80 GB", "600 GB/s", "NVLink"},
    {"h100-sxm", "NVIDIA H100 SXM", "989.5 TFLOP/s", "3.35 TB/s", "80 GB", "900 GB/s", "NVLink"},
    {"h200", "NVIDIA H200 SXM", "989.5 TFLOP/s", "4.8 TB/s", "141 GB", "900 GB/s", "NVLink"},
    {"tpu-v5e", "Google Cloud TPU v5e", "197 TFLOP/s", "819 GB/s", "16 GB", "200 GB/s", "ICI"},
    {"tpu-v5p", "Google Cloud TPU v5p", "459 TFLOP/s", "2765 GB/s", "95 GB", "600 GB/s", "ICI"},
});

} // namespace

std::span<const Hardware> hardware_presets() { return k_presets; }

Result<void> read_hardware(const Reader& r, const YAML::Node& given, Problem& problem) {
    const YAML::Node node = given.IsMap() ? given["hardware"] : YAML::Node();
    if (!node)
        return {};
    std::vector<std::string_view> names;
    for (const Hardware& h : k_presets)
        names.push_back(h.name);
    const std::string name = node.IsScalar() ? node.Scalar() : std::string();
    const auto it = std::find_if(k_presets.begin(), k_presets.end(), [&](const Hardware& h) { return h.name == name; });
    if (it == k_presets.end())
        return r.error_at(node, fmt::format("unknown hardware {}; headcount knows: {}{}", Reader::describe(node),
                                            fmt::join(names, ", "), did_you_mean(name, names)));
    const std::pair<std::string_view, std::string_view> givens[] = {
        {"peak_flops", it->peak_flops},
        {"hbm_bandwidth", it->hbm_bandwidth},
        {"memory_budget", it->memory_budget},
        {"interconnect_bandwidth", it->interconnect_bandwidth}};
    const std::pair<std::string_view, std::string_view> meanings[] = {
        {"peak_flops", "peak FLOP/s of one {} (dense BF16)"},
        {"hbm_bandwidth", "memory (HBM) bandwidth of one {}"},
        {"memory_budget", "memory of one {}"},
        {"interconnect_bandwidth", "interconnect bandwidth of one {} ({})"}};
    for (std::size_t i = 0; i < std::size(givens); ++i) {
        const auto [key, text] = givens[i];
        if (given[std::string(key)]) // written beside the preset: the spec's own
            continue;
        const YAML::Node value(std::string{text});
        auto read = read_value_with_unit(r, value, key);
        if (!read || !*read) // the table above is read the way a spec is; a bad row is a bug caught by the tests
            return r.error_at(node, fmt::format("internal: hardware {}'s {} cannot be read", name, key));
        Value v = std::move(**read);
        v.mark = mark_of(node);
        problem.values.insert_or_assign(std::string(key), std::move(v));
        problem.meanings.insert_or_assign(std::string(key),
                                          fmt::format(fmt::runtime(meanings[i].second), it->title, it->link));
    }
    return {};
}

} // namespace headcount::spec::detail

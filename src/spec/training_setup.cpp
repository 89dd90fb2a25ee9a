#include <spec/training_setup.hpp>

#include <formula/units.hpp>
#include <spec/quantities_reader.hpp>

#include <util/text.hpp>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <string>

namespace headcount::spec::detail {

namespace {

constexpr auto k_precisions =
    std::to_array<std::pair<std::string_view, Precision>>({{"fp32", Precision::fp32}, {"mixed", Precision::mixed}});
constexpr auto k_optimizers =
    std::to_array<std::pair<std::string_view, Optimizer>>({{"adamw", Optimizer::adamw},
                                                           {"adam", Optimizer::adam},
                                                           {"sgd_momentum", Optimizer::sgd_momentum},
                                                           {"sgd", Optimizer::sgd}});
constexpr auto k_recomputes = std::to_array<std::pair<std::string_view, Recompute>>(
    {{"none", Recompute::none}, {"selective", Recompute::selective}, {"full", Recompute::full}});

} // namespace

Result<Setup> read_setup(const Reader& r, const YAML::Node& given) {
    Setup setup;
    for (const Result<void>& ok : {choice_into(r, given, "precision", k_precisions, setup.precision),
                                   choice_into(r, given, "optimizer", k_optimizers, setup.optimizer),
                                   choice_into(r, given, "recompute", k_recomputes, setup.recompute)})
        if (!ok) // the first in this order
            return std::unexpected(ok.error());
    if (const YAML::Node node = given["zero_stage"]) {
        const std::string text = node.IsScalar() ? node.Scalar() : std::string();
        if (text.size() != 1 || text[0] < '0' || text[0] > '3')
            return r.error_at(
                node, fmt::format("zero_stage must be 0, 1, 2 or 3 (ZeRO's stages), got {}", Reader::describe(node)));
        setup.zero_stage = text[0] - '0';
        if (setup.zero_stage > 0 && !given["data_parallel"])
            return r.error_at(node, fmt::format("zero_stage {} splits model states over the data-parallel GPUs: "
                                                "give data_parallel, their number, too",
                                                setup.zero_stage));
    }
    if (const YAML::Node node = given["lora_targets"]) {
        if (!node.IsSequence() || node.size() == 0)
            return r.error_at(node, "lora_targets must be a list of the matrices LoRA adapts: q, k, v, o, gate, up, "
                                    "down (e.g. [q, v])");
        for (const YAML::Node& item : node) {
            const std::string word = item.IsScalar() ? item.Scalar() : std::string();
            const auto it = std::find_if(k_targets.begin(), k_targets.end(),
                                         [&](const Target& t) { return one_of_words(t.names, word); });
            if (it == k_targets.end()) {
                static constexpr auto k_words =
                    std::to_array<std::string_view>({"q", "k", "v", "o", "gate", "up", "down"});
                return r.error_at(item, fmt::format("lora_targets: {} is not a matrix LoRA can adapt here; one of q, "
                                                    "k, v, o, gate, up, down{}",
                                                    Reader::describe(item), did_you_mean(word, k_words)));
            }
            const auto index = static_cast<std::size_t>(it - k_targets.begin());
            if (std::find(setup.lora_targets.begin(), setup.lora_targets.end(), index) != setup.lora_targets.end())
                return r.error_at(item, fmt::format("lora_targets lists {} twice", word));
            setup.lora_targets.push_back(index);
        }
    }
    return setup;
}

/// A memory budget in bytes: a number and a byte unit (80 GB, 80 GiB, 81920 MiB), or bytes alone.
Result<Value> read_budget(const Reader& r, const YAML::Node& node) {
    const auto bad = [&] {
        return r.error_at(node, fmt::format("memory_budget must be a size in bytes with its unit, e.g. 80 GB or 80 "
                                            "GiB, got {}",
                                            Reader::describe(node)));
    };
    Value budget;
    if (auto with_unit = read_value_with_unit(r, node, "memory_budget")) {
        if (!*with_unit) // an unknown unit: say which units a budget takes
            return bad();
        budget = std::move(**with_unit);
        if (!formula::known_unit(budget.unit) ||
            formula::known_unit(budget.unit)->dimension != formula::UnitInfo::Dimension::bytes ||
            budget.unit.ends_with("/s"))
            return bad();
    } else {
        const auto parsed = node.IsScalar() && node.Tag() != "!"
                                ? formula::parse(node.Scalar())
                                : std::expected<formula::Node, formula::Problem>(std::unexpected(formula::Problem{}));
        if (!parsed || parsed->op != formula::Node::Op::number || !parsed->value)
            return bad();
        budget = Value{*parsed->value, node.Scalar(), mark_of(node), {}, 1};
    }
    if (budget.value <= 0)
        return bad();
    if (budget.value.get_den() != 1 || budget.value > formula::Number(mpz_class("1000000000000000000")))
        return r.error_at(
            node, fmt::format("memory_budget must come to a whole number of bytes under 10^18, got {}", budget.text));
    return budget;
}

/// The setup and the run's numbers in words, for the givens a sheet lists; the setup's words only when it
/// matters, to memory (`about_memory`).
void describe_setup(const Setup& s, Problem& problem, bool about_memory) {
    static constexpr auto k_meanings = std::to_array<std::pair<std::string_view, std::string_view>>({
        {"tokens", "tokens the whole run trains on"},
        {"steps", "training steps of the whole run"},
        {"gpus", "GPUs"},
        {"peak_flops", "peak FLOP/s of one GPU"},
        {"mfu", "model FLOPs utilisation (a fraction of the peak)"},
        {"step_time", "seconds one training step takes"},
        {"data_parallel", "data-parallel replicas, $N_d$ (each processes the batch)"},
        {"lora_rank", "LoRA rank $r$"},
        {"memory_budget", "memory budget of one GPU, bytes"},
        {"hbm_bandwidth", "memory (HBM) bandwidth of one GPU, bytes per second"},
        {"compute_budget", "compute budget of the whole run, FLOPs"},
        {"tensor_parallel", "tensor-parallel GPUs, $t$ (each holds a slice of every layer's matrices)"},
        {"pipeline_parallel", "pipeline stages, $p$ (each holds a run of the layers)"},
        {"microbatches", "microbatches a step's batch is split into, $m$"},
        {"interconnect_bandwidth", "interconnect bandwidth of one GPU, bytes per second"},
    });
    for (const auto& [name, meaning] : k_meanings)
        if (problem.values.contains(name))
            problem.meanings.try_emplace(std::string(name), std::string(meaning)); // hardware: names its chip
    if (!about_memory)
        return;
    problem.setup.emplace_back("precision", s.precision == Precision::mixed
                                                ? "mixed: 16-bit weights and gradients; fp32 master weights and "
                                                  "optimizer states"
                                                : "fp32: every value in 4 bytes");
    problem.setup.emplace_back("optimizer", s.optimizer == Optimizer::sgd ? "SGD, no state of its own"
                                            : s.optimizer == Optimizer::sgd_momentum
                                                ? "SGD with momentum: one fp32 momentum per parameter"
                                                : (s.optimizer == Optimizer::adam ? "Adam" : "AdamW") +
                                                      std::string(": two fp32 moments per parameter"));
    static constexpr auto k_stages = std::to_array<std::string_view>(
        {"0: no ZeRO, every GPU holds all the model states", "1: ZeRO splits the optimizer states",
         "2: ZeRO splits the optimizer states and the gradients",
         "3: ZeRO splits the optimizer states, the gradients and the weights"});
    problem.setup.emplace_back("zero_stage", std::string(k_stages[static_cast<std::size_t>(s.zero_stage)]));
    problem.setup.emplace_back("recompute", s.recompute == Recompute::none        ? "none: every activation is kept"
                                            : s.recompute == Recompute::selective ? "selective: attention's softmax "
                                                                                    "and dropout are recomputed"
                                                                                  : "full: each layer's input is "
                                                                                    "kept, the rest recomputed");
    if (!s.lora_targets.empty()) {
        std::string targets;
        for (std::size_t index : s.lora_targets)
            targets += (targets.empty() ? "" : ", ") + std::string(k_targets[index].label);
        problem.setup.emplace_back("lora_targets", "LoRA adapts " + targets + " in every layer; the rest is frozen");
    }
}

} // namespace headcount::spec::detail

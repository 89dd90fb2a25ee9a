// The training asks of a spec (memory, a run's compute and time, MFU, decoding, LoRA, MoE) as quantities made from
// their rows of the built-in catalogue (catalogue/training.yaml): the setup read into the numbers the rows'
// conditions test (problem.settings), and each row asked, or used by one asked, made a quantity with the conditions
// this setup settles applied to its formula, title, listed mistakes and explanation. The catalogue is data compiled
// into the binary (solve/catalogue.hpp declares its tables and nothing else), so reading it here keeps spec/ below
// solve/.

#include <spec/training.hpp>

#include <solve/catalogue.hpp>
#include <spec/givens.hpp>
#include <spec/quantities_reader.hpp>
#include <spec/training_setup.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace headcount::spec::detail {

namespace {

using solve::CatalogueEntry;

/// The catalogue's training row named `name` (one with an explanation: a worked solution of the generic kind), or
/// nullptr.
const CatalogueEntry* training_row(std::string_view name) {
    for (const CatalogueEntry& e : solve::catalogue_entries())
        if (!e.explanation.empty() && e.name == name)
            return &e;
    return nullptr;
}

/// The numbers of a run a training row reads from the spec's values (the others are the model's and the setup's).
bool is_run_value(std::string_view name) {
    return name == "memory_budget" ||
           std::find(k_training_values.begin(), k_training_values.end(), name) != k_training_values.end();
}

/// The setup as the numbers the catalogue's formulas test.
void put_settings(const Setup& s, Problem& problem) {
    auto& out = problem.settings;
    out["mixed_precision"] = s.precision == Precision::mixed ? 1 : 0;
    out["optimizer_moments"] = s.optimizer == Optimizer::sgd ? 0 : (s.optimizer == Optimizer::sgd_momentum ? 1 : 2);
    out["zero_stage"] = s.zero_stage;
    out["selective_recompute"] = s.recompute == Recompute::selective ? 1 : 0;
    out["full_recompute"] = s.recompute == Recompute::full ? 1 : 0;
    out["lora"] = s.lora_targets.empty() ? 0 : 1;
    for (std::size_t i = 0; i < k_targets.size(); ++i)
        out[std::string(k_targets[i].setting)] =
            std::find(s.lora_targets.begin(), s.lora_targets.end(), i) != s.lora_targets.end() ? 1 : 0;
}

/// The conditions a problem's givens settle, applied to the catalogue's texts.
class Settled {
  public:
    explicit Settled(const Problem& problem) : m_givens(formula_givens(problem)) {}

    /// Whether `condition` holds, or nullopt when it depends on what the problem does not give.
    [[nodiscard]] std::optional<bool> decide(const formula::Node& condition) const {
        auto value = formula::evaluate(condition, [&](std::string_view name) -> const formula::Number* {
            const auto it = m_givens.find(name);
            return it == m_givens.end() ? nullptr : &it->second;
        });
        return value ? std::optional<bool>(*value != 0) : std::nullopt;
    }
    [[nodiscard]] bool holds(std::string_view condition) const {
        auto parsed = formula::parse(condition);
        return parsed && decide(*parsed).value_or(false);
    }
    /// A catalogue formula's text with the settled conditions applied.
    [[nodiscard]] std::string resolve(std::string_view text) const {
        auto parsed = formula::parse(text);
        if (!parsed) // cmake/catalogue_gen.cpp parsed every formula when the program was built
            return std::string(text);
        return formula::resolved(*parsed, text, [this](const formula::Node& condition) { return decide(condition); });
    }

  private:
    FormulaGivens m_givens;
};

/// The words of an explanation's template (catalogue/training.yaml): every fact, as "1" where it holds and "" where
/// it does not, the ZeRO stage and the matrices LoRA adapts.
std::vector<std::pair<std::string, std::string>> explanation_words(const Settled& settled, const Setup& s) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const solve::CatalogueFact& fact : solve::catalogue_facts())
        out.emplace_back(fact.name, settled.holds(fact.formula) ? "1" : "");
    out.emplace_back("zero_stage", std::to_string(s.zero_stage));
    std::string labels;
    for (std::size_t index : s.lora_targets)
        labels += (labels.empty() ? "" : ", ") + std::string(k_targets[index].label);
    out.emplace_back("lora_labels", labels);
    return out;
}

/// The quantity of training row `e` for this setup.
Result<Quantity> quantity_of(const CatalogueEntry& e, const Settled& settled,
                             const std::vector<std::pair<std::string, std::string>>& words) {
    Quantity q;
    q.name = std::string(e.name);
    q.ask = std::string(e.ask);
    q.builtin = true;
    q.row = &e;
    q.title = std::string(!e.title_when.empty() && !settled.holds(e.title_when) ? e.title_otherwise : e.title);
    q.unit = std::string(e.unit);
    q.formula_text = settled.resolve(e.formula);
    auto parsed = formula::parse(q.formula_text);
    if (!parsed)
        return std::unexpected(Error{std::string(e.file), e.line, 1, parsed.error().message});
    q.formula = std::move(*parsed);
    q.explanation = std::string(e.explanation);
    q.explanation_words = words;
    for (const solve::EntryMistake& listed : e.mistakes) {
        if (!listed.when.empty() && !settled.holds(listed.when))
            continue;
        ListedMistake m;
        m.id = std::string(listed.id);
        m.formula_text = settled.resolve(listed.formula);
        auto mistake = formula::parse(m.formula_text);
        if (!mistake)
            return std::unexpected(Error{std::string(e.file), e.line, 1, mistake.error().message});
        m.formula = std::move(*mistake);
        m.feedback = std::string(listed.feedback);
        m.title = std::string(listed.title);
        q.mistakes.push_back(std::move(m));
    }
    return q;
}

} // namespace

std::string training_name(std::string_view ask) { return ask == "mfu" ? "achieved_mfu" : builtin_name(ask); }

std::vector<std::string> training_row_names() {
    std::vector<std::string> out;
    for (const CatalogueEntry& e : solve::catalogue_entries())
        if (!e.explanation.empty())
            out.emplace_back(e.name);
    return out;
}

bool has_training_keys(const YAML::Node& given) {
    if (!given.IsMap())
        return false;
    return std::any_of(k_training_keys.begin(), k_training_keys.end(),
                       [&](std::string_view key) { return static_cast<bool>(given[std::string(key)]); });
}

Result<std::vector<Quantity>> training_quantities(const Reader& r, const YAML::Node& given, Problem& problem,
                                                  std::span<const std::pair<std::string, YAML::Node>> asked,
                                                  std::span<const std::string> redefined) {
    auto setup = read_setup(r, given);
    if (!setup)
        return std::unexpected(setup.error());
    if (const YAML::Node node = given["memory_budget"]) {
        auto budget = read_budget(r, node);
        if (!budget)
            return std::unexpected(budget.error());
        problem.values.insert_or_assign("memory_budget", std::move(*budget));
    }
    // The numbers a run gives, each checked where it stands.
    struct Bound {
        std::string_view key, rule;
        bool whole, at_most_one;
    };
    for (const Bound& b : {Bound{"gpus", "a whole number of GPUs, at least 1", true, false},
                           Bound{"data_parallel", "a whole number of data-parallel GPUs, at least 1", true, false},
                           Bound{"tensor_parallel", "a whole number of tensor-parallel GPUs, at least 1", true, false},
                           Bound{"pipeline_parallel", "a whole number of pipeline stages, at least 1", true, false},
                           Bound{"microbatches", "a whole number of microbatches, at least 1", true, false},
                           Bound{"interconnect_bandwidth", "a positive number of bytes per second", false, false},
                           Bound{"steps", "a whole number of steps, at least 1", true, false},
                           Bound{"lora_rank", "a whole rank, at least 1", true, false},
                           Bound{"tokens", "a positive number of tokens", false, false},
                           Bound{"peak_flops", "a positive peak FLOP/s per GPU", false, false},
                           Bound{"compute_budget", "a positive number of FLOPs", false, false},
                           Bound{"step_time", "a positive number of seconds", false, false},
                           Bound{"mfu", "a fraction above 0 and at most 1 (0.45 for 45%)", false, true}}) {
        const auto it = problem.values.find(b.key);
        if (it == problem.values.end())
            continue;
        const formula::Number& v = it->second.value;
        if (v <= 0 || (b.whole && v.get_den() != 1) || (b.at_most_one && v > 1))
            return r.error_at(it->second.mark, fmt::format("{} must be {}, got {}", b.key, b.rule, it->second.text));
    }

    if (problem.values.contains("steps") && problem.values.contains("tokens"))
        return r.error_at(problem.values.find("steps")->second.mark,
                          "give steps or tokens, not both: a run's length is one of them");
    if (const YAML::Node node = given["lora_targets"])
        for (std::size_t index : setup->lora_targets)
            if (k_targets[index].names.starts_with("gate") && problem.model &&
                problem.model->ffn != ModelGivens::Ffn::gated)
                return r.error_at(node, "lora_targets: gate is the gated FFN's third matrix, and this model's FFN "
                                        "has two (ffn: mlp): adapt up and down");
    describe_setup(*setup, problem,
                   has_training_keys(given) || std::any_of(asked.begin(), asked.end(), [](const auto& part) {
                       return part.first.starts_with("memory.") || part.first == "batch.max";
                   }));
    put_settings(*setup, problem);

    // The rows asked and those their formulas use, each checked against what the problem gives.
    const Settled settled(problem);
    std::set<std::string> wanted; // by name: the order the quantities are read in
    std::vector<std::pair<std::string, const YAML::Node*>> pending;
    for (const auto& [ask, node] : asked)
        pending.emplace_back(training_name(ask), &node);
    while (!pending.empty()) {
        auto [name, node] = pending.back();
        pending.pop_back();
        if (!wanted.insert(name).second)
            continue;
        const CatalogueEntry* e = training_row(name);
        if (!e) // every asked id is a row's (reader.cpp looks them up), and so is every row a row's formula uses
            return r.error_at(*node, fmt::format("{} has no row in catalogue/training.yaml: a bug in headcount", name));
        // A row the spec redefines is the spec's: the catalogue's formula, and what it needs, are not used.
        if (std::find(redefined.begin(), redefined.end(), name) != redefined.end())
            continue;
        if (!e->available_when.empty() && !settled.holds(e->available_when))
            return r.error_at(*node, fmt::format("{} {}", e->ask, e->unavailable));
        if (problem.model && problem.model->layers == 0)
            return r.error_at(*node, fmt::format("{} counts one stack of layers (an encoder or a decoder), and this "
                                                 "model has both",
                                                 e->ask));
        const std::string title(!e->title_when.empty() && !settled.holds(e->title_when) ? e->title_otherwise
                                                                                        : e->title);
        if (e->workload != solve::Workload::none && !problem.workload)
            return r.error_at(*node, fmt::format("{} ({}) needs the step's sequences: give seq_len (and batch, 1 if "
                                                 "left out)",
                                                 e->ask, title));
        if (e->workload == solve::Workload::flops && problem.workload->macs)
            return r.error_at(*node,
                              fmt::format("{} counts FLOPs, as a GPU's peak_flops does: drop count: macs", e->ask));
        const std::string formula = settled.resolve(e->formula);
        auto parsed = formula::parse(formula);
        const std::vector<std::string> names = parsed ? formula::names(*parsed) : std::vector<std::string>{};
        std::vector<std::string_view> missing;
        for (const std::string& used : names)
            if (is_run_value(used) && !problem.values.contains(used))
                missing.push_back(used);
        if (!missing.empty()) {
            std::string list;
            for (std::size_t i = 0; i < missing.size(); ++i)
                list += (i == 0 ? "" : (i + 1 == missing.size() ? " and " : ", ")) + std::string(missing[i]) +
                        (missing[i] == "tokens" ? " (or steps)" : "");
            return r.error_at(*node, fmt::format("{} ({}) needs {} in given", e->ask, title, list));
        }
        if (const auto clash = problem.values.find(name); clash != problem.values.end())
            return r.error_at(clash->second.mark, fmt::format("given '{}' has the name of the ask {} a part asks "
                                                              "for; give it or ask it, not both",
                                                              name, e->ask));
        for (const std::string& used : names)
            if (training_row(used))
                pending.emplace_back(used, node);
    }

    const auto words = explanation_words(settled, *setup);
    std::vector<Quantity> out;
    for (const std::string& name : wanted) {
        if (std::find(redefined.begin(), redefined.end(), name) != redefined.end())
            continue;
        auto q = quantity_of(*training_row(name), settled, words);
        if (!q)
            return std::unexpected(q.error());
        out.push_back(std::move(*q));
    }
    return out;
}

} // namespace headcount::spec::detail

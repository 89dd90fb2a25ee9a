// The rows of the training asks, read from the catalogue (catalogue/training.yaml), where each is written with its
// formula. The conventions are Markdown with TeX, as docs/spec.md shows them.

#include <spec/training_asks.hpp>

#include <solve/catalogue.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace headcount::spec {

namespace {

/// The rows, from the catalogue's training entries (those with an explanation: catalogue/training.yaml), in its order.
const std::vector<TrainingAsk>& rows() {
    static const std::vector<TrainingAsk> out = [] {
        std::vector<TrainingAsk> made;
        for (const solve::CatalogueEntry& e : solve::catalogue_entries())
            if (!e.ask.empty() && !e.explanation.empty())
                made.push_back(TrainingAsk{e.ask, e.what, e.unit,
                                           e.workload == solve::Workload::flops    ? TrainingWorkload::flops
                                           : e.workload == solve::Workload::tokens ? TrainingWorkload::tokens
                                                                                   : TrainingWorkload::none,
                                           e.convention});
        return made;
    }();
    return out;
}

} // namespace

std::span<const TrainingAsk> training_asks() { return rows(); }

const TrainingAsk* find_training_ask(std::string_view id) {
    const auto& all = rows();
    const auto found = std::find_if(all.begin(), all.end(), [&](const TrainingAsk& a) { return a.id == id; });
    return found == all.end() ? nullptr : &*found;
}

std::string training_asks_markdown() {
    std::string out = "| ask | what | unit | convention |\n|---|---|---|---|\n";
    for (const TrainingAsk& a : rows())
        out += fmt::format("| `{}` | {} | {} | {} |\n", a.id, a.what, a.unit, a.convention);
    return out;
}

} // namespace headcount::spec

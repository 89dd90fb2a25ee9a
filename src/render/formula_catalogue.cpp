#include <render/formula_catalogue.hpp>

#include <util/markdown.hpp>

#include <fmt/format.h>

namespace headcount::render {

namespace {

/// `text` in a Markdown table cell, as code.
std::string cell(std::string_view text) { return "`" + table_cell(text) + "`"; }

/// A shape's axes as a tuple of formulas.
std::string tuple(const solve::CatalogueEntry& entry) {
    std::string out = "(";
    for (std::size_t i = 0; i < entry.shape.size(); ++i)
        out += (i ? ", " : "") + std::string(entry.shape[i]);
    return out + ")";
}

/// What a choice ask's values stand for: "0 = projections, 1 = attention, 2 = equal".
std::string choice_words(const solve::CatalogueEntry& entry) {
    std::string out;
    for (std::size_t i = 0; i < entry.choices.size(); ++i)
        out += fmt::format("{}{} = {}", i ? ", " : "", i, entry.choices[i].word);
    return out;
}

/// The formula cell of an entry, its formula being `formula` (as written, or with a problem's conditions applied).
std::string formula_cell(const solve::CatalogueEntry& entry, std::string_view formula) {
    if (!entry.shape.empty())
        return cell(tuple(entry));
    std::string out = cell(formula);
    if (!entry.choices.empty())
        out += "; " + choice_words(entry);
    return out;
}

} // namespace

std::string formulas_markdown(const solve::Computation* computation) {
    std::string out;
    if (!computation) {
        out = "| name | ask | formula |\n|---|---|---|\n";
        for (const solve::CatalogueEntry& e : solve::catalogue_entries()) {
            if (e.given)
                continue;
            out += fmt::format("| `{}` | {} | {} |\n", e.name, e.ask.empty() ? "" : fmt::format("`{}`", e.ask),
                               formula_cell(e, e.formula));
        }
        return out;
    }
    const solve::Computation& c = *computation;
    out = "| name | ask | formula | defined by |\n|---|---|---|---|\n";
    for (std::size_t i = 0; i < c.size(); ++i) {
        const auto index = static_cast<int>(i);
        const solve::Computation::Slot& s = c.slot(index);
        if (s.given || !c.available(index))
            continue;
        const std::string ask = s.quantity                         ? fmt::format("`{}`", s.quantity->ask)
                                : s.entry && !s.entry->ask.empty() ? fmt::format("`{}`", s.entry->ask)
                                                                   : std::string();
        const std::string formula = s.quantity ? cell(s.text) : formula_cell(*s.entry, s.text);
        // A training ask a part asks stands as a quantity made from its catalogue row (spec/training.hpp): the
        // catalogue's definition unless the spec redefined it.
        const bool redefined = s.quantity && s.quantity->redefines;
        const char* by = !s.quantity || (s.quantity->builtin && !redefined) ? "the catalogue"
                         : redefined                                        ? "the spec, in place of the catalogue's"
                                                                            : "the spec";
        out += fmt::format("| `{}` | {} | {} | {} |\n", s.name, ask, formula, by);
    }
    return out;
}

} // namespace headcount::render

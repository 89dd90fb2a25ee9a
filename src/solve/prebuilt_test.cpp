// The catalogue's formulas as the build parsed them (cmake/catalogue_gen.cpp's tables, solve::prebuilt_formula):
// each tree is, field by field, the one formula::parse makes of the same text at run time, the independent
// derivation here. A field the tables dropped or mangled fails the comparison; so does a text left out. And the
// name index the build made (solve::catalogue_index) against a walk over the entries themselves.

#include <solve/computation.hpp>

#include <formula/irrational.hpp>

#include <util/test_catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>

using namespace headcount;

namespace {

/// Where `a` and `b` first differ, as a path of child indices and a field name, or "" when they are equal.
std::string difference(const formula::Node& a, const formula::Node& b, const std::string& path = "root") {
    if (a.op != b.op)
        return path + ".op";
    if (a.value.has_value() != b.value.has_value() || (a.value && *a.value != *b.value))
        return path + ".value";
    if (a.text != b.text)
        return path + ".text";
    if (a.inverse != b.inverse)
        return path + ".inverse";
    if (a.parenthesized != b.parenthesized)
        return path + ".parenthesized";
    if (a.column != b.column)
        return path + ".column";
    if (a.source != b.source)
        return path + ".source";
    if (a.begin != b.begin || a.end != b.end)
        return path + ".begin/end";
    if (a.children.size() != b.children.size())
        return path + ".children";
    for (std::size_t i = 0; i < a.children.size(); ++i)
        if (auto d = difference(a.children[i], b.children[i], path + "." + std::to_string(i)); !d.empty())
            return d;
    return "";
}

/// Every formula text the catalogue holds, gathered from its rows here rather than from the tables under test.
std::set<std::string_view> catalogue_texts() {
    std::set<std::string_view> out;
    const auto add = [&](std::string_view text) {
        if (!text.empty())
            out.insert(text);
    };
    for (const solve::CatalogueEntry& e : solve::catalogue_entries()) {
        add(e.formula);
        add(e.title_when);
        add(e.available_when);
        add(e.check);
        for (const std::string_view axis : e.shape)
            add(axis);
        for (const solve::AxisSymbol& a : e.axes)
            add(a.when);
        for (const solve::EntryMistake& m : e.mistakes) {
            add(m.formula);
            add(m.when);
        }
    }
    for (const solve::CatalogueMistake& m : solve::catalogue_mistakes()) {
        for (const solve::Replacement& r : m.change)
            add(r.formula);
        for (const solve::Replacement& r : m.alternative)
            add(r.formula);
    }
    for (const solve::CatalogueFact& f : solve::catalogue_facts())
        add(f.formula);
    return out;
}

} // namespace

TEST_CASE("every catalogue formula built from the tables is the tree parse() makes of its text", "[catalogue]") {
    const auto texts = catalogue_texts();
    // The catalogue had 233 distinct formula texts when this was written: a gathering that found few would test
    // little.
    REQUIRE(texts.size() > 200);
    for (const std::string_view text : texts) {
        INFO(text);
        const auto prebuilt = solve::prebuilt_formula(text);
        REQUIRE(prebuilt.has_value());
        const auto parsed = formula::parse(text);
        REQUIRE(parsed.has_value());
        CHECK(difference(*prebuilt, *parsed) == "");
    }
}

TEST_CASE("a formula the catalogue does not have is not prebuilt, and is still parsed", "[catalogue]") {
    CHECK_FALSE(solve::prebuilt_formula("d_model * 7 + zz_not_a_row").has_value());
    // A prefix of a catalogue text is not that text (the lookup compares whole texts).
    CHECK_FALSE(solve::prebuilt_formula("q_in * q_out").has_value());
    const auto node = solve::catalogue_formula("d_model * 7 + zz_not_a_row");
    CHECK(node->op == formula::Node::Op::sum);
    CHECK(node->source == "d_model * 7 + zz_not_a_row");
}

TEST_CASE("a catalogue formula valued from the tables has the value its parsed tree has", "[catalogue]") {
    // Every name at a few sets of values (whole, zero, one, large, negative, a fraction): where the tables' whole
    // path gives a value, formula::evaluate of the tree parse() makes of the same text, over rationals alone, must
    // give the same; where it gives none, the tree's value (or error) is what the engine uses.
    const std::vector<formula::Number> samples = {formula::Number(3),   formula::Number(0),
                                                  formula::Number(1),   formula::Number(4096),
                                                  formula::Number(-2),  formula::Number(mpz_class("3037000500")),
                                                  formula::Number(1, 2)};
    std::size_t valued = 0;
    for (const std::string_view text : catalogue_texts()) {
        const int first = solve::prebuilt_first(text);
        REQUIRE(first >= 0);
        const auto tree = formula::parse(text);
        REQUIRE(tree.has_value());
        for (std::size_t k = 0; k < samples.size(); ++k) {
            // Each name its own value, so that a name read in the wrong place shows.
            std::map<std::string, formula::Number, std::less<>> values;
            std::size_t n = k;
            for (const std::string& name : formula::names(*tree))
                values.emplace(name, samples[n++ % samples.size()]);
            const formula::Lookup lookup = [&](std::string_view name) -> const formula::Number* {
                const auto it = values.find(name);
                return it == values.end() ? nullptr : &it->second;
            };
            const auto whole = solve::prebuilt_whole_value(first, lookup);
            const auto exact = formula::detail::evaluate_rational(*tree, lookup);
            INFO(text << " at sample " << k);
            // The same values read by each name's entry (the slot the build wrote into the name's node): the same
            // whole value, or none.
            const solve::SlotValues slots{&lookup, [](const void* at, int slot) -> const formula::Number* {
                                              const auto& by_name = *static_cast<const formula::Lookup*>(at);
                                              return by_name(
                                                  solve::catalogue_entries()[static_cast<std::size_t>(slot)].name);
                                          }};
            CHECK(solve::prebuilt_whole_value(first, slots) == whole);
            if (whole) {
                REQUIRE(exact.has_value());
                CHECK(*exact == formula::Number(*whole));
                ++valued;
            }
        }
    }
    // Most catalogue formulas are whole at whole values: a path that gave up on everything would test nothing.
    CHECK(valued > 500);
}

TEST_CASE("the name index the build made finds every entry, and nothing else", "[catalogue]") {
    const auto entries = solve::catalogue_entries();
    // The index is at least twice the entries (so a probe ends at an empty slot) and holds each once.
    const auto table = solve::catalogue_name_index();
    CHECK(table.size() >= 2 * entries.size());
    CHECK(std::count_if(table.begin(), table.end(), [](short at) { return at >= 0; }) ==
          static_cast<std::ptrdiff_t>(entries.size()));
    // Where a walk over the entries finds `name`, or -1.
    const auto walked = [&](std::string_view name) {
        const auto it = std::find_if(entries.begin(), entries.end(),
                                     [&](const solve::CatalogueEntry& e) { return e.name == name; });
        return it == entries.end() ? -1 : static_cast<int>(it - entries.begin());
    };
    for (std::size_t i = 0; i < entries.size(); ++i) {
        INFO(std::string(entries[i].name));
        CHECK(solve::catalogue_index(entries[i].name) == static_cast<int>(i));
        // A name one character longer or shorter is another name (heads and head are both entries).
        const std::string longer = std::string(entries[i].name) + "x";
        const std::string_view shorter = entries[i].name.substr(0, entries[i].name.size() - 1);
        CHECK(solve::catalogue_index(longer) == walked(longer));
        CHECK(solve::catalogue_index(shorter) == walked(shorter));
    }
    CHECK(solve::catalogue_index("") == -1);
    CHECK(solve::catalogue_index("D_MODEL") == -1);
}

TEST_CASE("the links the build wrote for each entry are those its names and formula find", "[catalogue]") {
    // The independent derivation: a walk over the entries by name, and a search of the formula tables by text.
    const auto entries = solve::catalogue_entries();
    const auto walked = [&](std::string_view name) {
        const auto it = std::find_if(entries.begin(), entries.end(),
                                     [&](const solve::CatalogueEntry& e) { return e.name == name; });
        return it == entries.end() ? -1 : static_cast<int>(it - entries.begin());
    };
    const auto formulas = solve::parsed_formulas();
    for (const solve::CatalogueEntry& e : entries) {
        INFO(std::string(e.name));
        REQUIRE(e.use_slots.size() == e.uses.size());
        for (std::size_t k = 0; k < e.uses.size(); ++k)
            CHECK(e.use_slots[k] == walked(e.uses[k]));
        REQUIRE(e.required_slots.size() == e.required.size());
        for (std::size_t k = 0; k < e.required.size(); ++k)
            CHECK(e.required_slots[k] == walked(e.required[k]));
        CHECK(e.missing == (e.given ? "the problem gives no " + std::string(e.name) : std::string()));
        const auto it = std::find_if(formulas.begin(), formulas.end(),
                                     [&](const solve::ParsedFormula& f) { return f.text == e.formula; });
        CHECK(e.formula_first == (e.formula.empty() || it == formulas.end() ? -1 : static_cast<int>(it->first)));
        if (!e.formula.empty())
            CHECK(e.formula_first >= 0);
    }
}

TEST_CASE("a conditional row resolved over the tables is the text and names resolved() gives of its tree",
          "[catalogue]") {
    // The independent derivation: formula::resolved over formula::parse's tree of the same text, and the names of
    // that result parsed again. Each condition is settled by a pseudo-random outcome keyed by where it stands in
    // the text (true, false or unsettled), so that every combination of branches is met over the seeds.
    std::size_t conditional = 0;
    for (const solve::CatalogueEntry& e : solve::catalogue_entries()) {
        if (!e.conditional)
            continue;
        ++conditional;
        INFO(std::string(e.name) + ": " + std::string(e.formula));
        const auto tree = formula::parse(e.formula);
        REQUIRE(tree);
        for (unsigned seed = 0; seed < 40; ++seed) {
            const auto choice = [&](std::size_t begin) -> std::optional<bool> {
                const unsigned pick = (static_cast<unsigned>(begin) * 2654435761u + seed * 40503u) % 3;
                return pick == 2 ? std::nullopt : std::optional<bool>(pick == 1);
            };
            const std::string expected = formula::resolved(
                *tree, e.formula, [&](const formula::Node& condition) { return choice(condition.begin); });
            const solve::ResolvedRow row = solve::prebuilt_resolved(e.formula_first, e.formula, [&](int condition) {
                return choice(solve::parsed_nodes()[static_cast<std::size_t>(condition)].begin);
            });
            CHECK(row.text == expected);
            const auto reparsed = formula::parse(expected);
            REQUIRE(reparsed);
            CHECK(row.names == formula::name_views(*reparsed));
        }
    }
    CHECK(conditional >= 20); // the catalogue's rows with an if(): 30 when this was written
}

TEST_CASE("a prebuilt value is the value of the parsed tree, or none where a name is unknown", "[catalogue]") {
    // Against formula::evaluate of parse()'s tree with the same lookup: whole, fractional and unknown names.
    const std::map<std::string, formula::Number, std::less<>> values{{"d_model", 512}, {"h", 8},       {"gated", 1},
                                                                     {"experts", 0},   {"layers", 12}, {"seq_len", 3}};
    const formula::Lookup lookup = [&](std::string_view name) -> const formula::Number* {
        const auto it = values.find(name);
        return it == values.end() ? nullptr : &it->second;
    };
    std::size_t valued = 0;
    for (const solve::ParsedFormula& f : solve::parsed_formulas()) {
        INFO(std::string(f.text));
        const auto tree = formula::parse(f.text);
        REQUIRE(tree);
        const auto expected = formula::evaluate(*tree, lookup);
        const auto got = solve::prebuilt_value(static_cast<int>(f.first), lookup);
        REQUIRE(got.has_value() == expected.has_value());
        if (got) {
            CHECK(*got == *expected);
            ++valued;
        }
    }
    CHECK(valued >= 10);
}

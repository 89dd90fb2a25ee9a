// Build tool: reads the built-in catalogue (catalogue/*.yaml), checks every entry and mistake, and writes the C++
// source that defines headcount::solve::catalogue_entries() and catalogue_mistakes() (src/solve/catalogue.hpp).
//   catalogue_gen OUTPUT.cpp FILE.yaml...
// A catalogue that is not whole fails the build with file:line:col and what is wrong: an unknown key, a formula that
// does not parse or uses a name no entry has, an ask without a unit or noun, a mistake that changes no entry. The
// YAML is read here, at build time, so the program never parses it (yaml-cpp takes tens of milliseconds for files
// this size; a student's `check` takes a few).

#include <formula/formula.hpp>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Failure {
    std::string message;
};

[[noreturn]] void fail(const std::string& file, const YAML::Node& node, const std::string& message) {
    const YAML::Mark mark = node.Mark();
    throw Failure{fmt::format("{}:{}:{}: {}", file, mark.line + 1, mark.column + 1, message)};
}

/// The size of the catalogue's name index (solve::make_catalogue_name_index): the least power of two that is at
/// least twice the number of entries, so that a probe stops within a few slots.
std::size_t index_size(std::size_t entries) {
    std::size_t size = 1;
    while (size < 2 * entries)
        size *= 2;
    return size;
}

/// A C++ string literal of `text`, byte for byte.
std::string literal(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        default:
            out += c;
        }
    }
    // A hex escape or a trigraph cannot be formed by what follows: the literal ends here.
    return out + "\"";
}

constexpr std::string_view k_entry_keys[] = {"given",       "default",  "formula",   "title",  "shape",
                                             "axes",        "per_head", "check",     "ask",    "mistakes",
                                             "explanation", "derive",   "available", "refused"};
constexpr std::string_view k_ask_keys[] = {"id",    "unit",    "noun",     "kind",       "group", "projections",
                                           "needs", "choices", "workload", "convention", "what"};
constexpr std::string_view k_mistake_keys[] = {"title", "aspect", "answers", "credit", "whole_block", "set", "or"};
constexpr std::string_view k_groups[] = {"", "shapes", "flops", "memory", "heads"};
constexpr std::pair<std::string_view, std::string_view> k_needs[] = {{"workload", "needs_workload"},
                                                                     {"encoder_decoder", "needs_encoder_decoder"},
                                                                     {"dtype", "needs_dtype"},
                                                                     {"one_stack", "needs_one_stack"},
                                                                     {"self_attention", "needs_self_attention"}};
constexpr std::string_view k_answers[] = {"counts", "bytes", "shapes", "choices"};

template <std::size_t N> bool one_of(std::string_view word, const std::string_view (&words)[N]) {
    return std::find(std::begin(words), std::end(words), word) != std::end(words);
}

void check_keys(const std::string& file, const YAML::Node& node, std::span<const std::string_view> keys,
                const std::string& where) {
    if (!node.IsMap())
        fail(file, node, where + " must be a mapping");
    for (const auto& item : node) {
        const std::string key = item.first.Scalar();
        if (std::find(keys.begin(), keys.end(), key) == keys.end())
            fail(file, item.first, fmt::format("unknown key '{}' in {}", key, where));
    }
}

std::string text(const std::string& file, const YAML::Node& node, const std::string& what) {
    if (!node.IsScalar())
        fail(file, node, what + " must be text");
    return node.Scalar();
}

bool flag(const std::string& file, const YAML::Node& node, const std::string& what) {
    const std::string value = text(file, node, what);
    if (value != "true" && value != "false")
        fail(file, node, what + " must be true or false");
    return value == "true";
}

/// A formula of the catalogue, checked to parse, with the names it uses.
struct Formula {
    std::string text;
    std::vector<std::string> names;
    std::string file;
    YAML::Node node;
};

Formula formula(const std::string& file, const YAML::Node& node, const std::string& what) {
    Formula f{text(file, node, what), {}, file, node};
    auto parsed = headcount::formula::parse(f.text);
    if (!parsed)
        fail(file, node,
             fmt::format("{}: {} (column {} of the formula)", what, parsed.error().message, parsed.error().column));
    f.names = headcount::formula::names(*parsed);
    return f;
}

struct Entry {
    std::string name, file;
    int line = 0;
    bool given = false, per_head = false, derive = false;
    std::string formula, title, title_when, title_otherwise, check, explanation, available_when, unavailable;
    std::string refused_when,
        refused; ///< a condition on its value and the others' that refuses a part asking it, and why
    std::string workload = "none", what, convention;
    std::vector<std::string> uses;     ///< the names its formula (or its axes) use, each once, in the order first met
    std::vector<std::string> required; ///< the givens without a default it needs whatever the conditions
    std::vector<std::string> shape;
    struct Axis {
        std::string text, when, otherwise;
    };
    std::vector<Axis> axes;
    std::string ask, unit, noun, kind, group, projections, needs = "needs_nothing";
    std::vector<std::pair<std::string, std::string>> choices;
    struct Listed {
        std::string id, formula, feedback, title, when;
    };
    std::vector<Listed> mistakes;
};

struct Mistake {
    std::string id, title, aspect, answers = "counts", file;
    int line = 0;
    double credit = 0;
    bool whole_block = false;
    std::vector<std::pair<std::string, std::string>> change, alternative;
};

class Reader {
  public:
    void read(const std::string& path) {
        const std::string file = "catalogue/" + std::filesystem::path(path).filename().string();
        YAML::Node root;
        try {
            root = YAML::LoadFile(path);
        } catch (const YAML::Exception& e) {
            throw Failure{fmt::format("{}:{}:{}: {}", file, e.mark.line + 1, e.mark.column + 1, e.msg)};
        }
        if (!root.IsMap())
            fail(file, root, "a catalogue file is a mapping with quantities: and mistakes:");
        for (const auto& item : root) {
            const std::string key = item.first.Scalar();
            if (key == "quantities")
                read_entries(file, item.second);
            else if (key == "mistakes")
                read_mistakes(file, item.second);
            else if (key == "facts")
                read_facts(file, item.second);
            else
                fail(file, item.first,
                     fmt::format("unknown key '{}': a catalogue file has quantities:, mistakes: and facts:", key));
        }
    }

    /// Every tag of an explanation names a fact or a word the spec reader supplies (spec/training.cpp), and only an
    /// ask has one.
    void check_explanations() const {
        for (const Entry& e : m_entries) {
            if (e.explanation.empty())
                continue;
            if (e.ask.empty())
                throw Failure{fmt::format("{}:{}: entry '{}' has an explanation but no ask: only an ask's worked "
                                          "solution shows one",
                                          e.file, e.line, e.name)};
            for (std::size_t at = e.explanation.find("{{"); at != std::string::npos;
                 at = e.explanation.find("{{", at + 2)) {
                const std::size_t end = e.explanation.find("}}", at);
                if (end == std::string::npos)
                    throw Failure{fmt::format("{}:{}: the explanation of '{}' has a tag without its }}}}", e.file,
                                              e.line, e.name)};
                std::string tag = e.explanation.substr(at + 2, end - at - 2);
                if (!tag.empty() && (tag[0] == '#' || tag[0] == '^' || tag[0] == '/'))
                    tag.erase(0, 1);
                const bool fact =
                    std::any_of(m_facts.begin(), m_facts.end(), [&](const auto& f) { return f.first == tag; });
                if (!fact && tag != "zero_stage" && tag != "lora_labels")
                    throw Failure{fmt::format("{}:{}: the explanation of '{}' tests '{}', which is no fact (facts:) "
                                              "nor zero_stage or lora_labels",
                                              e.file, e.line, e.name, tag)};
            }
        }
    }

    /// For each entry that is not a given, the givens without a default it needs under any conditions: those its
    /// formula (or its axes) uses outside the branches of an if(), and those the entries it so uses need. A problem
    /// that lacks one has no value for the entry, which the computation knows before reading its formula.
    void find_requirements() {
        std::map<std::string, std::size_t> index;
        for (std::size_t i = 0; i < m_entries.size(); ++i)
            index.emplace(m_entries[i].name, i);
        std::map<std::string, std::set<std::string>> memo;
        std::function<const std::set<std::string>&(const std::string&)> of =
            [&](const std::string& name) -> const std::set<std::string>& {
            if (const auto it = memo.find(name); it != memo.end())
                return it->second;
            std::set<std::string> out;
            const Entry& e = m_entries[index.at(name)];
            if (e.given) {
                if (e.formula.empty())
                    out.insert(name);
            } else {
                std::vector<std::string> texts = e.shape;
                if (!e.formula.empty())
                    texts.push_back(e.formula);
                for (const std::string& text : texts) {
                    auto parsed = headcount::formula::parse(text);
                    if (!parsed)
                        continue;
                    std::vector<std::string> names;
                    unconditional_names(*parsed, names);
                    for (const std::string& used : names)
                        if (index.contains(used) && used != name)
                            for (const std::string& given : of(used))
                                out.insert(given);
                }
            }
            return memo.emplace(name, std::move(out)).first->second;
        };
        for (Entry& e : m_entries)
            if (!e.given) {
                const auto& needed = of(e.name);
                e.required.assign(needed.begin(), needed.end());
            }
    }

    static void unconditional_names(const headcount::formula::Node& node, std::vector<std::string>& out) {
        using Op = headcount::formula::Node::Op;
        if (node.op == Op::name) {
            out.push_back(node.text);
            return;
        }
        const bool branches = node.op == Op::call && node.text == "if" && node.children.size() == 3;
        for (std::size_t i = 0; i < (branches ? 1 : node.children.size()); ++i)
            unconditional_names(node.children[i], out);
    }

    /// Every name a formula uses is an entry's; every change names an entry that is not a given.
    void check_names() {
        std::set<std::string> known;
        for (const Entry& e : m_entries)
            known.insert(e.name);
        for (const Formula& f : m_formulas)
            for (const std::string& name : f.names)
                if (!known.contains(name))
                    fail(f.file, f.node, fmt::format("unknown name '{}': no entry of the catalogue has it", name));
        for (const auto& [name, where] : m_changed) {
            const auto it =
                std::find_if(m_entries.begin(), m_entries.end(), [&](const Entry& e) { return e.name == name; });
            if (it == m_entries.end())
                fail(where.first, where.second, fmt::format("a mistake changes '{}', which no entry has", name));
            if (it->given)
                fail(where.first, where.second,
                     fmt::format("a mistake changes '{}', a given: change the entry that reads it", name));
        }
    }

    void write(std::ostream& out) const {
        const auto parsed = parse_all(); // where each formula's nodes begin, for the entries that have it
        out << "// Generated by cmake/catalogue_gen.cpp from catalogue/*.yaml: edit those files, not this one.\n"
               "#include <solve/catalogue.hpp>\n\n"
               "#include <array>\n\n"
               "namespace headcount::solve {\n\nnamespace {\n\n";
        for (std::size_t i = 0; i < m_entries.size(); ++i) {
            const Entry& e = m_entries[i];
            if (!e.shape.empty()) {
                out << "constexpr std::string_view k_shape_" << i << "[] = {";
                for (const std::string& axis : e.shape)
                    out << literal(axis) << ", ";
                out << "};\nconstexpr AxisSymbol k_axes_" << i << "[] = {";
                for (const Entry::Axis& a : e.axes)
                    out << "{" << literal(a.text) << ", " << literal(a.when) << ", " << literal(a.otherwise) << "}, ";
                out << "};\n";
            }
            if (!e.uses.empty()) {
                out << "constexpr std::string_view k_uses_" << i << "[] = {";
                for (const std::string& name : e.uses)
                    out << literal(name) << ", ";
                out << "};\n";
            }
            if (!e.uses.empty()) {
                out << "constexpr short k_use_slots_" << i << "[] = {";
                for (const std::string& name : e.uses)
                    out << slot_of(name) << ", ";
                out << "};\n";
            }
            if (!e.required.empty()) {
                out << "constexpr std::string_view k_required_" << i << "[] = {";
                for (const std::string& name : e.required)
                    out << literal(name) << ", ";
                out << "};\nconstexpr short k_required_slots_" << i << "[] = {";
                for (const std::string& name : e.required)
                    out << slot_of(name) << ", ";
                out << "};\n";
            }
            if (!e.choices.empty()) {
                out << "constexpr Choice k_choices_" << i << "[] = {";
                for (const auto& [word, synonyms] : e.choices)
                    out << "{" << literal(word) << ", " << literal(synonyms) << "}, ";
                out << "};\n";
            }
            if (!e.mistakes.empty()) {
                out << "constexpr EntryMistake k_mistakes_" << i << "[] = {\n";
                for (const Entry::Listed& m : e.mistakes)
                    out << "    {" << literal(m.id) << ", " << literal(m.formula) << ", " << literal(m.feedback) << ", "
                        << literal(m.title) << ", " << literal(m.when) << "},\n";
                out << "};\n";
            }
        }
        out << "\nconstexpr CatalogueEntry k_entries[] = {\n";
        for (std::size_t i = 0; i < m_entries.size(); ++i) {
            const Entry& e = m_entries[i];
            out << "    {.name = " << literal(e.name) << ", .file = " << literal(e.file) << ", .line = " << e.line
                << ", .given = " << (e.given ? "true" : "false") << ", .formula = " << literal(e.formula)
                << ", .title = " << literal(e.title) << ", .title_when = " << literal(e.title_when)
                << ", .title_otherwise = " << literal(e.title_otherwise)
                << ", .derive = " << (e.derive ? "true" : "false")
                << ", .available_when = " << literal(e.available_when) << ", .unavailable = " << literal(e.unavailable)
                << ", .refused_when = " << literal(e.refused_when) << ", .refused = " << literal(e.refused);
            if (!e.shape.empty())
                out << ", .shape = k_shape_" << i << ", .axes = k_axes_" << i;
            if (!e.uses.empty())
                out << ", .uses = k_uses_" << i << ", .use_slots = k_use_slots_" << i;
            if (!e.required.empty())
                out << ", .required = k_required_" << i << ", .required_slots = k_required_slots_" << i;
            if (e.given)
                out << ", .missing = " << literal("the problem gives no " + e.name);
            if (!e.formula.empty())
                out << ", .formula_first = " << parsed.first.at(e.formula);
            out << ", .conditional = " << (e.formula.find("if(") != std::string::npos ? "true" : "false");
            out << ", .per_head = " << (e.per_head ? "true" : "false") << ", .check = " << literal(e.check)
                << ",\n     .ask = " << literal(e.ask) << ", .unit = " << literal(e.unit)
                << ", .noun = " << literal(e.noun) << ", .kind = " << literal(e.kind)
                << ", .group = " << literal(e.group) << ", .projections = " << literal(e.projections)
                << ", .needs = " << e.needs << ", .workload = Workload::" << e.workload
                << ", .what = " << literal(e.what) << ", .convention = " << literal(e.convention);
            if (!e.choices.empty())
                out << ", .choices = k_choices_" << i;
            if (!e.mistakes.empty())
                out << ", .mistakes = k_mistakes_" << i;
            out << ", .explanation = " << literal(e.explanation) << "},\n";
        }
        out << "};\n\n";
        for (std::size_t i = 0; i < m_mistakes.size(); ++i) {
            const Mistake& m = m_mistakes[i];
            for (const auto& [which, list] : {std::pair{"change", &m.change}, {"alternative", &m.alternative}}) {
                if (list->empty())
                    continue;
                out << "constexpr Replacement k_" << which << "_" << i << "[] = {";
                for (const auto& [name, f] : *list)
                    out << "{" << literal(name) << ", " << literal(f) << "}, ";
                out << "};\n";
            }
        }
        out << "\nconstexpr CatalogueMistake k_catalogue_mistakes[] = {\n";
        for (std::size_t i = 0; i < m_mistakes.size(); ++i) {
            const Mistake& m = m_mistakes[i];
            out << "    {" << literal(m.id) << ", " << literal(m.title) << ", " << literal(m.aspect) << ", "
                << literal(m.answers) << ", " << fmt::format("{}", m.credit) << ", "
                << (m.whole_block ? "true" : "false") << ", "
                << (m.change.empty() ? std::string("{}") : fmt::format("k_change_{}", i)) << ", "
                << (m.alternative.empty() ? std::string("{}") : fmt::format("k_alternative_{}", i)) << ", "
                << literal(m.file) << ", " << m.line << "},\n";
        }
        out << "};\n\nconstexpr CatalogueFact k_facts[] = {\n";
        for (const auto& [name, f] : m_facts)
            out << "    {" << literal(name) << ", " << literal(f) << "},\n";
        if (m_facts.empty())
            out << "    {\"\", \"\"},\n";
        out << "};\n\n";
        out << parsed.source;
        out << "} // namespace\n\n"
               "std::span<const ParsedFormula> parsed_formulas() { return k_parsed_formulas; }\n\n"
               "std::span<const ParsedNode> parsed_nodes() { return k_parsed_nodes; }\n\n"
               "std::span<const CatalogueEntry> catalogue_entries() { return k_entries; }\n\n"
               "namespace {\n"
               "constexpr auto k_name_index = make_catalogue_name_index<"
            << index_size(m_entries.size())
            << ">(k_entries);\n"
               "} // namespace\n\n"
               "std::span<const short> catalogue_name_index() { return k_name_index; }\n\n"
               "std::span<const CatalogueFact> catalogue_facts() { return std::span(k_facts).first("
            << m_facts.size()
            << "); }\n\n"
               "std::span<const CatalogueMistake> catalogue_mistakes() { return k_catalogue_mistakes; }\n\n"
               "} // namespace headcount::solve\n";
    }

  private:
    /// Every formula parsed, as tables the program builds its trees from (solve::parsed_formulas()): parsing them
    /// at each start was half of building a computation (callgrind, week 3's `check`). The tables' source text, and
    /// where each formula's nodes begin in them.
    struct Parsed {
        std::string source;
        std::map<std::string, std::size_t> first;
    };
    Parsed parse_all() const {
        Parsed out;
        std::set<std::string> texts;
        for (const Formula& f : m_formulas)
            texts.insert(f.text);
        std::string nodes, formulas;
        std::size_t count = 0;
        const std::function<void(const headcount::formula::Node&)> flatten = [&](const headcount::formula::Node& n) {
            if (n.children.size() > 0xffff)
                throw Failure{"a catalogue formula has too many terms"};
            std::string inverse;
            for (const bool b : n.inverse)
                inverse += b ? '1' : '0';
            // A name's entry, and a literal's value where it is a whole number that fits a long, for the
            // whole-number walk over the tables.
            const short slot = n.op == headcount::formula::Node::Op::name ? slot_of(n.text) : short{-1};
            const bool whole = n.value && n.value->get_den() == 1 && n.value->get_num().fits_slong_p();
            nodes +=
                fmt::format("    {{{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}L}},\n", static_cast<int>(n.op),
                            n.parenthesized ? "true" : "false", n.children.size(), n.column, n.begin, n.end,
                            literal(n.text), literal(n.source), literal(n.value ? n.value->get_str() : ""),
                            literal(inverse), slot, whole ? "true" : "false", whole ? n.value->get_num().get_si() : 0);
            ++count;
            for (const headcount::formula::Node& child : n.children)
                flatten(child);
        };
        for (const std::string& text : texts) {
            auto parsed = headcount::formula::parse(text);
            if (!parsed) // formula() refused these already
                throw Failure{fmt::format("formula '{}' does not parse", text)};
            const std::size_t first = count;
            flatten(*parsed);
            formulas += fmt::format("    {{{}, {}, {}}},\n", literal(text), first, count - first);
            out.first.emplace(text, first);
        }
        out.source = "constexpr ParsedNode k_parsed_nodes[] = {\n" + nodes +
                     "};\n\nconstexpr ParsedFormula k_parsed_formulas[] = {\n" + formulas + "};\n\n";
        return out;
    }

    /// The index of the entry named `name` in k_entries (check_names() found every name an entry's).
    short slot_of(const std::string& name) const {
        const auto it =
            std::find_if(m_entries.begin(), m_entries.end(), [&](const Entry& e) { return e.name == name; });
        if (it == m_entries.end())
            throw Failure{fmt::format("unknown name '{}'", name)};
        return static_cast<short>(it - m_entries.begin());
    }

    std::vector<Entry> m_entries;
    std::vector<Mistake> m_mistakes;
    std::vector<Formula> m_formulas;
    std::vector<std::pair<std::string, std::string>> m_facts;
    std::vector<std::pair<std::string, std::pair<std::string, YAML::Node>>> m_changed;
    std::set<std::string> m_names, m_asks, m_mistake_ids;

    void read_entries(const std::string& file, const YAML::Node& node) {
        if (!node.IsMap())
            fail(file, node, "quantities: must map names to entries");
        for (const auto& item : node) {
            Entry e;
            e.name = item.first.Scalar();
            e.file = file;
            e.line = item.first.Mark().line + 1;
            if (!m_names.insert(e.name).second)
                fail(file, item.first, fmt::format("a second entry named '{}'", e.name));
            const bool name_like = !e.name.empty() && !std::isdigit(static_cast<unsigned char>(e.name[0])) &&
                                   std::all_of(e.name.begin(), e.name.end(), [](char c) {
                                       return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
                                   });
            if (!name_like)
                fail(file, item.first,
                     fmt::format("'{}' is no name a formula can use: lower-case letters, digits "
                                 "and '_'",
                                 e.name));
            const YAML::Node body = item.second;
            check_keys(file, body, k_entry_keys, fmt::format("entry '{}'", e.name));
            if (body["given"])
                e.given = flag(file, body["given"], "given");
            if (body["default"]) {
                if (!e.given)
                    fail(file, body["default"], "a default is a given's; a quantity has a formula");
                m_formulas.push_back(formula(file, body["default"], fmt::format("default of {}", e.name)));
                e.formula = m_formulas.back().text;
                e.uses = m_formulas.back().names;
            }
            if (body["formula"]) {
                if (e.given)
                    fail(file, body["formula"], "a given has no formula (give it a default)");
                m_formulas.push_back(formula(file, body["formula"], fmt::format("formula of {}", e.name)));
                e.formula = m_formulas.back().text;
                e.uses = m_formulas.back().names;
            }
            if (body["shape"]) {
                const YAML::Node shape = body["shape"];
                if (!shape.IsSequence() || shape.size() == 0)
                    fail(file, shape, "shape must be a list of formulas, one per axis");
                for (const YAML::Node& axis : shape) {
                    m_formulas.push_back(formula(file, axis, fmt::format("an axis of {}", e.name)));
                    e.shape.push_back(m_formulas.back().text);
                    for (const std::string& name : m_formulas.back().names)
                        if (std::find(e.uses.begin(), e.uses.end(), name) == e.uses.end())
                            e.uses.push_back(name);
                }
                const YAML::Node axes = body["axes"];
                if (!axes || !axes.IsSequence() || axes.size() != shape.size())
                    fail(file, shape, "a shape needs axes: a symbol for each of its axes");
                for (const YAML::Node& axis : axes) {
                    Entry::Axis a;
                    if (axis.IsMap()) {
                        check_keys(file, axis, std::array<std::string_view, 3>{"if", "then", "else"}, "an axis symbol");
                        m_formulas.push_back(formula(file, axis["if"], "an axis symbol's condition"));
                        a.when = m_formulas.back().text;
                        a.text = text(file, axis["then"], "then");
                        a.otherwise = text(file, axis["else"], "else");
                    } else {
                        a.text = text(file, axis, "an axis symbol");
                    }
                    e.axes.push_back(a);
                }
                if (body["per_head"])
                    e.per_head = flag(file, body["per_head"], "per_head");
            }
            if (!e.given && e.formula.empty() && e.shape.empty())
                fail(file, item.first, fmt::format("entry '{}' needs given: true, a formula or a shape", e.name));
            if (const YAML::Node title = body["title"]; title && title.IsMap()) {
                check_keys(file, title, std::array<std::string_view, 3>{"if", "then", "else"}, "a title");
                m_formulas.push_back(formula(file, title["if"], "a title's condition"));
                e.title_when = m_formulas.back().text;
                e.title = text(file, title["then"], "then");
                e.title_otherwise = text(file, title["else"], "else");
            } else if (title) {
                e.title = text(file, title, "title");
            }
            if (body["derive"])
                e.derive = flag(file, body["derive"], "derive");
            if (const YAML::Node available = body["available"]) {
                check_keys(file, available, std::array<std::string_view, 2>{"when", "otherwise"}, "available");
                m_formulas.push_back(formula(file, available["when"], "available's condition"));
                e.available_when = m_formulas.back().text;
                e.unavailable = text(file, available["otherwise"], "otherwise");
            }
            if (const YAML::Node refused = body["refused"]) {
                check_keys(file, refused, std::array<std::string_view, 2>{"when", "message"}, "refused");
                m_formulas.push_back(formula(file, refused["when"], "refused's condition"));
                e.refused_when = m_formulas.back().text;
                e.refused = text(file, refused["message"], "message");
                // Each {formula|bytes} or {formula|N} of the message is a formula too, written as bytes or to N
                // figures.
                for (std::size_t open = e.refused.find('{'); open != std::string::npos;
                     open = e.refused.find('{', open + 1)) {
                    const std::size_t close = e.refused.find('}', open);
                    const std::size_t bar = e.refused.find('|', open);
                    if (close == std::string::npos || bar == std::string::npos || bar > close)
                        fail(file, refused["message"],
                             "a value in a message is written {formula|bytes} or {formula|N}");
                    const std::string how = e.refused.substr(bar + 1, close - bar - 1);
                    if (how != "bytes" && (how.size() != 1 || how[0] < '1' || how[0] > '9'))
                        fail(file, refused["message"],
                             fmt::format("'{}' is not bytes or a number of figures (1 to 9)", how));
                    Formula f{e.refused.substr(open + 1, bar - open - 1), {}, file, refused["message"]};
                    auto parsed = headcount::formula::parse(f.text);
                    if (!parsed)
                        fail(file, refused["message"], fmt::format("{}: {}", f.text, parsed.error().message));
                    f.names = headcount::formula::names(*parsed);
                    m_formulas.push_back(f);
                }
            }
            if (e.title.empty())
                fail(file, item.first, fmt::format("entry '{}' needs a title: what it is, in words", e.name));
            if (body["check"]) {
                m_formulas.push_back(formula(file, body["check"], fmt::format("check of {}", e.name)));
                e.check = m_formulas.back().text;
            }
            if (body["explanation"])
                e.explanation = text(file, body["explanation"], "explanation");
            if (const YAML::Node ask = body["ask"])
                read_ask(file, ask, e);
            if (const YAML::Node listed = body["mistakes"]) {
                if (!listed.IsSequence())
                    fail(file, listed, "mistakes of an entry must be a list of {id, formula, feedback}");
                for (const YAML::Node& m : listed) {
                    check_keys(file, m, std::array<std::string_view, 5>{"id", "formula", "feedback", "title", "when"},
                               "a listed mistake");
                    Entry::Listed l;
                    l.id = text(file, m["id"], "id");
                    m_formulas.push_back(formula(file, m["formula"], fmt::format("formula of mistake {}", l.id)));
                    l.formula = m_formulas.back().text;
                    l.feedback = text(file, m["feedback"], "feedback");
                    if (m["title"])
                        l.title = text(file, m["title"], "title");
                    if (m["when"]) {
                        m_formulas.push_back(formula(file, m["when"], fmt::format("when of mistake {}", l.id)));
                        l.when = m_formulas.back().text;
                    }
                    e.mistakes.push_back(l);
                }
            }
            m_entries.push_back(e);
        }
    }

    void read_ask(const std::string& file, const YAML::Node& ask, Entry& e) {
        check_keys(file, ask, k_ask_keys, fmt::format("the ask of {}", e.name));
        e.ask = ask["id"] ? text(file, ask["id"], "id") : e.name;
        std::string spelled = e.ask;
        std::replace(spelled.begin(), spelled.end(), '.', '_');
        if (spelled != e.name && e.ask.find('.') != std::string::npos)
            fail(file, ask, fmt::format("ask '{}' is named '{}' in formulas: name the entry so", e.ask, spelled));
        for (auto [key, slot] : {std::pair{"what", &e.what}, {"convention", &e.convention}})
            if (ask[key])
                *slot = text(file, ask[key], key);
        if (ask["workload"]) {
            e.workload = text(file, ask["workload"], "workload");
            if (e.workload != "tokens" && e.workload != "flops")
                fail(file, ask["workload"], "workload is tokens or flops");
        }
        if (!m_asks.insert(e.ask).second)
            fail(file, ask, fmt::format("a second ask '{}'", e.ask));
        for (auto [key, slot] : {std::pair{"unit", &e.unit}, {"noun", &e.noun}, {"kind", &e.kind}})
            if (!ask[key] || (*slot = text(file, ask[key], key)).empty())
                fail(file, ask, fmt::format("ask '{}' needs a {}", e.ask, key));
        if (e.kind != "mha" && e.kind != "transformer")
            fail(file, ask["kind"], "kind is mha (any problem) or transformer");
        if (ask["group"])
            e.group = text(file, ask["group"], "group");
        if (!one_of(e.group, k_groups))
            fail(file, ask["group"], "group is one of shapes, flops, memory, heads");
        if (ask["projections"])
            e.projections = text(file, ask["projections"], "projections");
        if (e.projections.find_first_not_of("QKVO") != std::string::npos)
            fail(file, ask["projections"], "projections are letters of QKVO");
        if (const YAML::Node needs = ask["needs"]) {
            if (!needs.IsSequence())
                fail(file, needs, "needs is a list of: workload, encoder_decoder, dtype, one_stack, self_attention");
            e.needs.clear();
            for (const YAML::Node& word : needs) {
                const std::string w = text(file, word, "needs");
                const auto it = std::find_if(std::begin(k_needs), std::end(k_needs),
                                             [&](const auto& pair) { return pair.first == w; });
                if (it == std::end(k_needs))
                    fail(file, word, fmt::format("unknown need '{}'", w));
                e.needs += (e.needs.empty() ? "" : " | ") + std::string(it->second);
            }
            if (e.needs.empty())
                e.needs = "needs_nothing";
        }
        if ((e.unit == "shape") != !e.shape.empty())
            fail(file, ask, "an ask whose unit is shape has a shape, and only it");
        if (const YAML::Node choices = ask["choices"]) {
            for (const YAML::Node& c : choices) {
                check_keys(file, c, std::array<std::string_view, 2>{"word", "synonyms"}, "a choice");
                e.choices.emplace_back(text(file, c["word"], "word"),
                                       c["synonyms"] ? text(file, c["synonyms"], "synonyms") : "");
            }
        }
    }

    std::vector<std::pair<std::string, std::string>> changes(const std::string& file, const YAML::Node& node,
                                                             const std::string& id) {
        if (!node.IsMap() || node.size() == 0)
            fail(file, node, "a change maps entries to the formulas the mistake uses for them");
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& item : node) {
            const std::string name = item.first.Scalar();
            m_formulas.push_back(formula(file, item.second, fmt::format("{}'s formula for {}", id, name)));
            out.emplace_back(name, m_formulas.back().text);
            m_changed.emplace_back(name, std::pair{file, item.first});
        }
        return out;
    }

    void read_facts(const std::string& file, const YAML::Node& node) {
        if (!node.IsMap())
            fail(file, node, "facts: must map names to conditions on the givens");
        for (const auto& item : node) {
            m_formulas.push_back(formula(file, item.second, fmt::format("fact {}", item.first.Scalar())));
            m_facts.emplace_back(item.first.Scalar(), m_formulas.back().text);
        }
    }

    void read_mistakes(const std::string& file, const YAML::Node& node) {
        if (!node.IsMap())
            fail(file, node, "mistakes: must map ids to mistakes");
        for (const auto& item : node) {
            Mistake m;
            m.id = item.first.Scalar();
            m.file = file;
            m.line = item.first.Mark().line + 1;
            if (!m_mistake_ids.insert(m.id).second)
                fail(file, item.first, fmt::format("a second mistake '{}'", m.id));
            const YAML::Node body = item.second;
            check_keys(file, body, k_mistake_keys, fmt::format("mistake '{}'", m.id));
            m.title = body["title"] ? text(file, body["title"], "title") : "";
            if (m.title.empty())
                fail(file, item.first, fmt::format("mistake '{}' needs a title", m.id));
            if (body["aspect"])
                m.aspect = text(file, body["aspect"], "aspect");
            if (body["answers"])
                m.answers = text(file, body["answers"], "answers");
            std::istringstream words(m.answers);
            for (std::string w; words >> w;)
                if (!one_of(w, k_answers))
                    fail(file, body["answers"], "answers are words of: counts bytes shapes choices");
            if (body["credit"]) {
                const std::string credit = text(file, body["credit"], "credit");
                m.credit = std::stod(credit);
                if (!(m.credit >= 0 && m.credit <= 1))
                    fail(file, body["credit"], "credit is a fraction of the points, from 0 to 1");
            }
            if (body["whole_block"])
                m.whole_block = flag(file, body["whole_block"], "whole_block");
            if (body["set"])
                m.change = changes(file, body["set"], m.id);
            if (body["or"])
                m.alternative = changes(file, body["or"], m.id);
            if (!m.change.empty() && m.aspect.empty())
                fail(file, item.first, fmt::format("mistake '{}' changes the count: give its aspect", m.id));
            m_mistakes.push_back(m);
        }
    }
};

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: catalogue_gen OUTPUT.cpp FILE.yaml...\n";
        return 2;
    }
    try {
        Reader reader;
        for (int i = 2; i < argc; ++i)
            reader.read(argv[i]);
        reader.check_names();
        reader.check_explanations();
        reader.find_requirements();
        std::ostringstream text;
        reader.write(text);
        const std::string output = argv[1];
        std::ifstream existing(output);
        std::stringstream old;
        old << existing.rdbuf();
        if (old.str() != text.str()) // rewritten only when it changes, so nothing recompiles for nothing
            std::ofstream(output) << text.str();
    } catch (const Failure& failure) {
        std::cerr << failure.message << "\n";
        return 1;
    }
    return 0;
}

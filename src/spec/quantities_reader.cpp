#include <spec/quantities_reader.hpp>

#include <spec/choices_reader.hpp>
#include <spec/crossover_reader.hpp>

#include <formula/units.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <set>

namespace headcount::spec::detail {

namespace {

/// Most quantities, and most listed mistakes of one quantity, a spec may define.
constexpr std::size_t k_max_quantities = 64;
constexpr std::size_t k_max_listed_mistakes = 32;

bool is_name(std::string_view text) {
    if (text.empty() || text.size() > 64 || std::isdigit(static_cast<unsigned char>(text.front())))
        return false;
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

/// The first node of `formula` that names `name`, for its column.
const formula::Node* find_name(const formula::Node& formula, std::string_view name) {
    if (formula.op == formula::Node::Op::name && formula.text == name)
        return &formula;
    for (const formula::Node& child : formula.children)
        if (const formula::Node* found = find_name(child, name))
            return found;
    return nullptr;
}

/// Every name `formula` uses must be one of `known`.
Result<void> check_names(const Reader& r, const YAML::Node& node, const formula::Node& formula,
                         const std::vector<std::string_view>& known, std::string_view where) {
    for (const std::string& name : formula::names(formula)) {
        if (std::find(known.begin(), known.end(), name) != known.end())
            continue;
        const formula::Node* at = find_name(formula, name);
        return r.error_at(formula_mark(node, at ? at->column : 1),
                          fmt::format("{}: unknown name '{}'; a formula uses the givens, the quantities the spec "
                                      "defines and the built-in quantities of its kind{}",
                                      where, name, did_you_mean(name, known)));
    }
    return {};
}

std::string default_title(std::string_view name) {
    std::string title(name);
    std::replace(title.begin(), title.end(), '_', ' ');
    return title;
}

} // namespace

// A quoted scalar (yaml-cpp tags it "!") starts one column after its mark.
Mark formula_mark(const YAML::Node& node, int column) {
    Mark mark = mark_of(node);
    if (mark.line == 0)
        return mark;
    mark.column += (node.Tag() == "!" ? 1 : 0) + std::max(column, 1) - 1;
    return mark;
}

Result<formula::Node> read_formula(const Reader& r, const YAML::Node& node, std::string_view where) {
    if (!node.IsScalar() || node.Scalar().empty())
        return r.error_at(node, fmt::format("{} must be a formula, e.g. 6 * n_params * tokens", where));
    auto parsed = formula::parse(node.Scalar());
    if (!parsed)
        return r.error_at(formula_mark(node, parsed.error().column),
                          fmt::format("{}: {}", where, parsed.error().message));
    return std::move(*parsed);
}

std::string builtin_name(std::string_view ask_id) {
    std::string name(ask_id);
    std::replace(name.begin(), name.end(), '.', '_');
    return name;
}

std::vector<std::string> derived_mistake_ids(const Quantity& quantity) {
    std::vector<std::string> ids;
    for (const formula::Perturbation& p : formula::perturbations(quantity.formula))
        ids.push_back(p.id);
    return ids;
}

std::optional<Result<Value>> read_value_with_unit(const Reader& r, const YAML::Node& value, std::string_view key) {
    if (!value.IsScalar() || value.Tag() == "!")
        return std::nullopt;
    const std::string& text = value.Scalar();
    // 45% has its unit against the number; every other unit stands after a space (3.35 TB/s, 2.5 ms, 80 GB).
    const std::size_t space = text.ends_with('%') ? text.size() - 1 : text.rfind(' ');
    if (space == std::string::npos || space == 0)
        return std::nullopt;
    const std::string_view number = trimmed(std::string_view(text).substr(0, space), " \t");
    const std::string_view unit = trimmed(std::string_view(text).substr(space), " \t");
    const auto parsed = formula::parse(number);
    if (!parsed || parsed->op != formula::Node::Op::number || !parsed->value)
        return std::nullopt; // not a number and a word: the caller says what a given must be
    const std::optional<formula::UnitInfo> info = formula::known_unit(unit);
    if (!info || info->symbol.empty())
        return r.error_at(value, fmt::format("given '{}': unknown unit '{}'; a given may carry a unit of bytes (B, KB "
                                             "... TB, KiB ... TiB), bytes per second (GB/s, TB/s, GiB/s), time (ns, "
                                             "µs, ms, s, min, h, days, weeks, years), FLOPs, FLOP/s with a prefix "
                                             "(TFLOP/s) or %",
                                             key, unit));
    // The unit as written, so a variant's value reads in it too (vary: {hbm_bandwidth: [2, 3]} is 2 and 3 TB/s).
    Value out{*parsed->value * info->scale, text, mark_of(value), std::string(unit), info->scale};
    if (info->dimension == formula::UnitInfo::Dimension::bytes && out.value.get_den() != 1)
        return r.error_at(value, fmt::format("given '{}' must come to a whole number of bytes, got {}", key, text));
    return out;
}

Result<Values> read_values(const Reader& r, const YAML::Node& given, std::span<const std::string_view> architecture) {
    Values values;
    if (!given.IsMap())
        return values;
    for (const auto& entry : given) {
        const std::string key = entry.first.Scalar();
        if (std::find(architecture.begin(), architecture.end(), key) != architecture.end())
            continue;
        if (!is_name(key))
            return r.error_at(entry.first, fmt::format("given '{}' cannot be named in a formula: a name is letters, "
                                                       "digits and '_', not starting with a digit",
                                                       key));
        if (values.size() >= k_max_quantities)
            return r.error_at(entry.first,
                              fmt::format("more than {} givens; a problem needs a handful", k_max_quantities));
        const YAML::Node value = entry.second;
        if (auto with_unit = read_value_with_unit(r, value, key)) {
            if (!*with_unit)
                return std::unexpected(with_unit->error());
            Value read = std::move(**with_unit);
            read.mark = mark_of(entry.first);
            values.emplace(key, std::move(read));
            continue;
        }
        auto parsed = value.IsScalar()
                          ? formula::parse(value.Scalar())
                          : std::expected<formula::Node, formula::Problem>(std::unexpected(formula::Problem{}));
        const bool literal =
            parsed &&
            (parsed->op == formula::Node::Op::number ||
             (parsed->op == formula::Node::Op::negate && parsed->children.front().op == formula::Node::Op::number));
        if (!literal || value.Tag() == "!")
            return r.error_at(
                value,
                fmt::format("given '{}' must be a number (175000000000, 3.12e14 or 0.45) or a number and its unit "
                            "(3.35 TB/s, 2.5 ms, 80 GB), got {}{}",
                            key, Reader::describe(value), did_you_mean(key, architecture)));
        auto exact = formula::evaluate(*parsed, [](std::string_view) -> const formula::Number* { return nullptr; });
        if (!exact)
            return r.error_at(value, fmt::format("given '{}': {}", key, exact.error().message));
        values.emplace(key, Value{*exact, value.Scalar(), mark_of(entry.first), {}, 1});
    }
    return values;
}

Result<std::vector<Quantity>> read_quantities(const Reader& r, const YAML::Node& node, const Values& values,
                                              const FormulaNames& names, std::vector<Quantity> builtins) {
    if (!node.IsDefined() && !builtins.empty()) {
        // headcount's own quantities alone: checked when the program was built (cmake/catalogue_gen.cpp).
    } else if (!node.IsMap() || node.size() == 0)
        return r.error_at(node, "quantities must map names to {title, unit, formula}, e.g. train_flops: {formula: "
                                "6 * n_params * tokens}");
    if (node.size() > k_max_quantities)
        return r.error_at(node, fmt::format("more than {} quantities; a problem needs a handful", k_max_quantities));
    std::vector<std::string_view> known;
    for (const auto& [name, value] : values)
        known.push_back(name);
    for (const std::string& name : names.architecture)
        known.push_back(name);
    for (const std::string& name : names.builtin)
        known.push_back(name);

    const std::size_t written = node.IsDefined() ? node.size() : 0; // the spec's own, read first
    std::vector<Quantity> read;
    read.reserve(written + builtins.size()); // `known` holds views of their names: they must not move
    std::vector<YAML::Node> formula_nodes;
    for (const auto& entry : node.IsDefined() ? node : YAML::Node(YAML::NodeType::Map)) {
        const std::string name = entry.first.Scalar();
        if (!is_name(name))
            return r.error_at(entry.first, fmt::format("quantity '{}': a name is letters, digits and '_', not starting "
                                                       "with a digit",
                                                       name));
        // One of headcount's built-in counts redefines it (its ask, and every formula that uses it, follow the spec's
        // formula). A given's name, a second quantity's, or a built-in shape's or choice's is refused.
        const bool redefinable =
            std::find(names.redefinable.begin(), names.redefinable.end(), name) != names.redefinable.end();
        const bool twice = std::any_of(read.begin(), read.end(), [&](const Quantity& q) { return q.name == name; });
        const bool builtin = std::find(names.builtin.begin(), names.builtin.end(), name) != names.builtin.end();
        if (twice || (!redefinable && std::find(known.begin(), known.end(), name) != known.end()))
            return r.error_at(
                entry.first,
                fmt::format("quantity '{}' has the name of {}; choose another", name,
                            twice     ? "another quantity"
                            : builtin ? "a built-in quantity that a formula cannot redefine (a shape, a choice, or a "
                                        "whole transformer's in a problem of kind: mha)"
                                      : "a given"));
        const YAML::Node body = entry.second;
        if (auto ok = r.check_mapping(body, k_quantity_keys, fmt::format("quantity '{}'", name),
                                      fmt::format("quantity '{}' must be a mapping with a formula, e.g. {{title: "
                                                  "training compute, unit: FLOPs, formula: 6 * n_params * tokens}}",
                                                  name));
            !ok)
            return std::unexpected(ok.error());
        Quantity q;
        q.name = name;
        q.ask = name;
        q.redefines = redefinable;
        q.mark = mark_of(entry.first);
        // A formula, or words with their conditions (`choices:`), or a crossover (`solve_for:`): one of the three.
        int ways = 0;
        for (const char* key : {"formula", "choices", "solve_for"})
            ways += body[key] ? 1 : 0;
        if (ways > 1)
            return r.error_at(entry.first, fmt::format("quantity '{}' has more than one of formula, choices and "
                                                       "solve_for; it is one of the three",
                                                       name));
        for (const char* key : {"equation", "range"})
            if (body[key] && !body["solve_for"])
                return r.error_at(body[key], fmt::format("quantity '{}': {} belongs with solve_for", name, key));
        if (redefinable && (body["choices"] || body["solve_for"]))
            return r.error_at(entry.first, fmt::format("quantity '{}' has the name of a built-in count, which {} "
                                                       "cannot redefine; choose another name",
                                                       name, body["choices"] ? "choices" : "solve_for"));
        YAML::Node formula_node;
        if (const YAML::Node choices = body["choices"]) {
            auto words = read_choices(r, choices, name);
            if (!words)
                return std::unexpected(words.error());
            q.choices = std::move(*words);
            q.formula_text = choices_formula(q.choices);
            auto parsed = formula::parse(q.formula_text);
            if (!parsed)
                return r.error_at(choices, fmt::format("choices of {}: {}", name, parsed.error().message));
            q.formula = std::move(*parsed);
            q.formula_mark = mark_of(choices);
            q.row = choice_row(q.choices);
            formula_node = choices;
        } else if (body["solve_for"]) {
            auto crossover = read_crossover(r, body, name);
            if (!crossover)
                return std::unexpected(crossover.error());
            // Its formula is A - B, whose columns are the equation's: an error evaluating it stands where it is.
            formula::Node difference;
            difference.op = formula::Node::Op::sum;
            difference.children = {crossover->left, crossover->right};
            difference.inverse = {false, true};
            difference.source = crossover->equation;
            difference.end = crossover->equation.size();
            q.formula = std::move(difference);
            q.formula_text = crossover->equation;
            q.formula_mark = crossover->equation_mark;
            formula_node = body["equation"];
            q.crossover = std::move(*crossover);
        } else {
            auto required = r.required(body, "formula", fmt::format("quantity '{}'", name));
            if (!required)
                return std::unexpected(required.error());
            formula_node = *required;
            auto parsed = read_formula(r, formula_node, fmt::format("formula of {}", name));
            if (!parsed)
                return std::unexpected(parsed.error());
            q.formula = std::move(*parsed);
            q.formula_text = formula_node.Scalar();
            q.formula_mark = formula_mark(formula_node);
        }
        for (auto [key, slot] : {std::pair{"title", &q.title}, {"unit", &q.unit}}) {
            if (const YAML::Node text = body[key]) {
                auto value = r.string_of(text, key);
                if (!value)
                    return std::unexpected(value.error());
                if (value->size() > 200)
                    return r.error_at(text, fmt::format("{} is longer than 200 bytes", key));
                *slot = *value;
            }
        }
        if (q.title.empty())
            q.title = default_title(name);
        if (auto ok = r.optional(body, "explanation", &Reader::string_of, q.explanation); !ok)
            return std::unexpected(ok.error());
        read.push_back(std::move(q));
        formula_nodes.push_back(formula_node);
        known.push_back(read.back().name);
    }
    for (Quantity& q : builtins) {
        read.push_back(std::move(q));
        known.push_back(read.back().name);
    }
    // Listed mistakes after every name is known: a mistake may use any quantity, its own one included.
    std::size_t index = 0;
    for (const auto& entry : node.IsDefined() ? node : YAML::Node(YAML::NodeType::Map)) {
        Quantity& q = read[index];
        if (!q.choices.empty()) {
            // Each condition at its own place in the file.
            std::size_t at = 0;
            for (const auto& word : formula_nodes[index]) {
                const WordChoice& c = q.choices[at++];
                if (c.condition)
                    if (auto ok = check_names(r, word.second, *c.condition, known,
                                              fmt::format("condition of {} in {}", c.word, q.name));
                        !ok)
                        return std::unexpected(ok.error());
            }
        } else if (auto ok = check_names(r, formula_nodes[index], q.formula, known,
                                         fmt::format("{} of {}", q.crossover ? "equation" : "formula", q.name));
                   !ok)
            return std::unexpected(ok.error());
        if (q.crossover) {
            const Crossover& x = *q.crossover;
            // A size of the architecture or the workload (seq_len, d_model, batch) may be solved for: the solver
            // follows the defaults read beside it (seq_len_kv from seq_len). A flag or the dtype may not.
            static constexpr auto k_sizes =
                std::to_array<std::string_view>({"d_model", "h", "d_k", "d_v", "kdim", "vdim", "n_kv_heads", "d_ff",
                                                 "layers", "encoder_layers", "decoder_layers", "vocab", "max_positions",
                                                 "type_vocab", "experts", "top_k", "batch", "seq_len", "seq_len_kv"});
            const bool architecture =
                std::find(names.architecture.begin(), names.architecture.end(), x.given) != names.architecture.end();
            const bool size = std::find(k_sizes.begin(), k_sizes.end(), x.given) != k_sizes.end();
            if (architecture && !size)
                return r.error_at(x.given_mark,
                                  fmt::format("solve_for of {}: '{}' is a setting of the architecture, not a size; "
                                              "solve for a size (seq_len, d_model, batch, ...) or for one of the "
                                              "spec's own numbers",
                                              q.name, x.given));
            if (!architecture && !values.contains(x.given))
                return r.error_at(x.given_mark,
                                  fmt::format("solve_for of {}: '{}' is not a given of this problem; a crossover is "
                                              "the value of a given{}",
                                              q.name, x.given, did_you_mean(x.given, known)));
            // Whether the equation uses the given, directly or through the quantities it uses; a built-in count's
            // formula is not looked into here (the solver finds the two sides equal at every value instead).
            bool uses_given = false, opaque = false;
            std::set<std::string> seen;
            std::vector<std::string> pending = formula::names(q.formula);
            while (!pending.empty() && !uses_given) {
                const std::string used = std::move(pending.back());
                pending.pop_back();
                if (!seen.insert(used).second)
                    continue;
                uses_given = used == x.given;
                const auto quantity =
                    std::find_if(read.begin(), read.end(), [&](const Quantity& other) { return other.name == used; });
                if (quantity != read.end())
                    for (std::string& name : formula::names(quantity->formula))
                        pending.push_back(std::move(name));
                else if (!values.contains(used))
                    opaque = true;
            }
            if (!uses_given && !opaque)
                return r.error_at(x.equation_mark, fmt::format("equation of {} does not use {}, the given it solves "
                                                               "for",
                                                               q.name, x.given));
        }
        ++index;
        const YAML::Node listed = entry.second["mistakes"];
        if (!listed)
            continue;
        if (!q.choices.empty() || q.crossover)
            return r.error_at(listed, fmt::format("quantity '{}': a quantity with {} lists no mistakes; the mistakes "
                                                  "of the quantities it uses are named where they are asked",
                                                  q.name, q.crossover ? "solve_for" : "choices"));
        if (!listed.IsSequence() || listed.size() == 0)
            return r.error_at(listed, "mistakes must be a list of {id, formula, feedback} (and a title)");
        if (listed.size() > k_max_listed_mistakes)
            return r.error_at(listed, fmt::format("more than {} mistakes for one quantity", k_max_listed_mistakes));
        std::set<std::string> ids;
        for (const YAML::Node& item : listed) {
            ListedMistake m;
            auto id = r.mapping_id(item, k_listed_mistake_keys, "mistake", "mistake id",
                                   "each mistake must be a mapping {id, formula, feedback} (and a title)");
            if (!id)
                return std::unexpected(id.error());
            m.mark = mark_of(item["id"]);
            if (!ids.insert(*id).second)
                return r.error_at(m.mark, fmt::format("duplicate mistake id '{}' in quantity '{}'", *id, q.name));
            m.id = *id;
            auto formula_node = r.required(item, "formula", fmt::format("mistake '{}'", m.id));
            if (!formula_node)
                return std::unexpected(formula_node.error());
            auto parsed = read_formula(r, *formula_node, fmt::format("formula of mistake {}", m.id));
            if (!parsed)
                return std::unexpected(parsed.error());
            if (auto ok = check_names(r, *formula_node, *parsed, known, fmt::format("formula of mistake {}", m.id));
                !ok)
                return std::unexpected(ok.error());
            m.formula = std::move(*parsed);
            m.formula_text = formula_node->Scalar();
            auto feedback = r.required_string(item, "feedback", fmt::format("mistake '{}'", m.id));
            if (!feedback)
                return std::unexpected(feedback.error());
            m.feedback = *feedback;
            if (auto ok = r.optional(item, "title", &Reader::string_of, m.title); !ok)
                return std::unexpected(ok.error());
            if (m.title.size() > 200)
                return r.error_at(item["title"], "title is longer than 200 bytes");
            q.mistakes.push_back(std::move(m));
        }
    }

    // Dependency order, refusing cycles: a depth-first walk from each quantity in spec order.
    std::map<std::string, std::size_t, std::less<>> position;
    for (std::size_t i = 0; i < read.size(); ++i)
        position.emplace(read[i].name, i);
    std::vector<int> state(read.size(), 0); // 0 unseen, 1 on the path, 2 done
    std::vector<std::size_t> order;
    std::vector<std::size_t> path;
    std::function<Result<void>(std::size_t)> visit = [&](std::size_t i) -> Result<void> {
        state[i] = 1;
        path.push_back(i);
        for (const std::string& name : formula::names(read[i].formula)) {
            const auto it = position.find(name);
            if (it == position.end())
                continue;
            if (state[it->second] == 1) {
                std::string cycle;
                const auto start = std::find(path.begin(), path.end(), it->second);
                for (auto p = start; p != path.end(); ++p)
                    cycle += read[*p].name + " → ";
                cycle += name;
                // Said where the spec's own formula on the cycle names the next (headcount's have no cycle).
                std::size_t at_quantity = i;
                std::string next = name;
                for (auto p = start; p != path.end() && at_quantity >= written; ++p)
                    if (*p < written) {
                        at_quantity = *p;
                        next = p + 1 == path.end() ? name : read[*(p + 1)].name;
                    }
                const formula::Node* at = find_name(read[at_quantity].formula, next);
                return r.error_at(formula_mark(formula_nodes[std::min(at_quantity, written - 1)], at ? at->column : 1),
                                  fmt::format("quantities depend on each other in a cycle: {}; a formula may use "
                                              "only quantities that do not use it",
                                              cycle));
            }
            if (state[it->second] == 0)
                if (auto ok = visit(it->second); !ok)
                    return ok;
        }
        state[i] = 2;
        path.pop_back();
        order.push_back(i);
        return {};
    };
    for (std::size_t i = 0; i < read.size(); ++i)
        if (state[i] == 0)
            if (auto ok = visit(i); !ok)
                return std::unexpected(ok.error());
    std::vector<Quantity> ordered;
    for (std::size_t i : order)
        ordered.push_back(std::move(read[i]));
    return ordered;
}

} // namespace headcount::spec::detail

namespace headcount::spec {

std::string mistake_title(std::string_view title, std::string_view feedback, std::string_view id) {
    if (!title.empty())
        return std::string(title);
    // The first sentence: up to a '.' that ends one (followed by a space or the end, so 3.5 and e.g. stay whole), a
    // ';' or a ':'; a $...$ or $$...$$ span is kept whole, and \$ is a dollar sign.
    std::size_t end = feedback.size();
    bool math = false;
    std::size_t math_start = 0;
    for (std::size_t i = 0; i < feedback.size(); ++i) {
        const char c = feedback[i];
        if (c == '\\') {
            ++i;
            continue;
        }
        if (c == '$') {
            if (!math)
                math_start = i;
            if (i + 1 < feedback.size() && feedback[i + 1] == '$')
                ++i;
            math = !math;
            continue;
        }
        if (math)
            continue;
        const bool last = i + 1 == feedback.size() || feedback[i + 1] == ' ' || feedback[i + 1] == '\n';
        if ((c == '.' && last) || c == ';' || c == ':' || c == '\n') {
            end = i;
            break;
        }
    }
    if (math) // a '$' never closed (a currency sign): the sentence is the text before it
        end = std::min(end, math_start);
    std::string first(feedback.substr(0, end));
    while (!first.empty() && (first.back() == ' ' || first.back() == '.'))
        first.pop_back();
    if (first.size() > 100) {
        // Never inside math: the cut comes before the '$' of a span it would leave open.
        std::size_t limit = 100;
        bool open = false;
        std::size_t opened = 0;
        for (std::size_t i = 0; i < limit; ++i) {
            if (first[i] == '\\') {
                ++i;
                continue;
            }
            if (first[i] == '$') {
                if (!open)
                    opened = i;
                open = !open;
            }
        }
        if (open)
            limit = opened;
        std::size_t cut = limit == 0 ? std::string::npos : first.rfind(' ', limit);
        if (cut == std::string::npos) // no word to cut at: at a character's first byte, never inside one
            for (cut = limit; cut > 0 && (static_cast<unsigned char>(first[cut]) & 0xC0) == 0x80; --cut) {
            }
        first = cut == 0 ? std::string() : first.substr(0, cut) + "…";
    }
    if (!first.empty())
        return first;
    std::string words(id);
    std::replace(words.begin(), words.end(), '_', ' ');
    std::replace(words.begin(), words.end(), '-', ' ');
    if (!words.empty())
        words.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(words.front())));
    return words;
}

} // namespace headcount::spec

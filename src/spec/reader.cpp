#include <spec/reader.hpp>

#include <spec/hardware.hpp>
#include <spec/model_presets.hpp>

#include <solve/catalogue.hpp>
#include <spec/givens.hpp>
#include <spec/givens_reader.hpp>
#include <spec/part_reader.hpp>
#include <spec/quantities_reader.hpp>
#include <spec/training.hpp>
#include <spec/vary_reader.hpp>
#include <spec/yaml_reader.hpp>
#include <spec/yaml_syntax.hpp>
#include <util/files.hpp>
#include <util/ids.hpp>
#include <util/text.hpp>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

namespace headcount::spec {

namespace {

/// Whether a spec's quantity may take the place of the catalogue's entry `e` in a problem of `kind`: a count one of
/// the kind's asks asks for, solved by its own template (a training ask's row is redefined as such already), not a
/// shape or a choice, whose answers are not a formula's value.
bool redefinable_builtin(const solve::CatalogueEntry& e, std::string_view kind) {
    return !e.given && !e.ask.empty() && e.explanation.empty() && e.shape.empty() && e.choices.empty() &&
           (e.kind == "mha" || kind == "transformer");
}

using namespace detail;

/// The architecture in `given` (an attention block, or a whole transformer with its workload and dtype) into
/// `problem`; with `formulas`, the other keys of `given` are values for the spec's formulas, which are the training
/// asks' alone unless `own_formulas` (the spec has quantities of its own).
Result<void> read_architecture(const Reader& r, const YAML::Node& given, Problem& problem, bool formulas,
                               bool own_formulas) {
    const bool transformer = problem.kind == "transformer";
    std::vector<std::string_view> architecture =
        transformer ? std::vector<std::string_view>(k_model_keys.begin(), k_model_keys.end())
                    : std::vector<std::string_view>(k_given_keys.begin(), k_given_keys.end());
    if (transformer) // the training setup's words (spec/training.hpp), read there
        architecture.insert(architecture.end(), k_training_keys.begin(), k_training_keys.end());
    if (formulas) // an accelerator's datasheet numbers (spec/hardware.hpp), for formulas and the training asks
        architecture.emplace_back("hardware");
    // A model preset (spec/model_presets.hpp) is taken out of `given` before this, but a misspelt `modle:` should
    // still hear of it.
    architecture.emplace_back("model");
    std::vector<std::string_view> keys(architecture.begin(), architecture.end());
    if (formulas) {
        auto values = read_values(r, given, architecture);
        if (!values)
            return std::unexpected(values.error());
        problem.values = std::move(*values);
        for (const auto& [name, value] : problem.values)
            keys.push_back(name);
        if (!own_formulas) {
            // Only the training asks' formulas read these values: any other number is a key misspelt (expertz).
            std::vector<std::string_view> known(architecture.begin(), architecture.end());
            known.insert(known.end(), k_training_values.begin(), k_training_values.end());
            for (const auto& [name, value] : problem.values)
                if (std::find(k_training_values.begin(), k_training_values.end(), name) == k_training_values.end())
                    return r.error_at(value.mark,
                                      fmt::format("unknown key '{}' in given{}", name, did_you_mean(name, known)));
        }
        // After the check above: a preset's bandwidths are givens of its own, whether a formula reads them or not.
        if (auto ok = read_hardware(r, given, problem); !ok)
            return std::unexpected(ok.error());
    }
    auto givens = formulas ? read_mha_givens(r, given, keys)
                           : (transformer ? read_mha_givens(r, given, k_model_keys) : read_mha_givens(r, given));
    if (!givens)
        return std::unexpected(givens.error());
    problem.given = *givens;
    auto workload = read_workload(r, given);
    if (!workload)
        return std::unexpected(workload.error());
    problem.workload = *workload;
    if (problem.workload)
        if (auto ok = check_causal_halves(r, given, *problem.workload, problem.given); !ok)
            return std::unexpected(ok.error());
    auto precision = read_precision(r, given);
    if (!precision)
        return std::unexpected(precision.error());
    problem.precision = *precision;
    if (transformer) {
        auto model = read_model_givens(r, given);
        if (!model)
            return std::unexpected(model.error());
        problem.model = *model;
    }
    return {};
}

/// A spec with quantities and no kind is an attention block when its given has a d_model or an h, so the other is
/// required: when it is missing, the message says why it is asked for, at the given that made the spec a block.
Result<void> check_guessed_block(const Reader& r, const YAML::Node& given) {
    for (const auto& [present, missing] : {std::pair{"d_model", "h"}, {"h", "d_model"}}) {
        if (given[missing])
            continue;
        for (const auto& entry : given)
            if (entry.first.Scalar() == present)
                return r.error_at(entry.first, fmt::format("missing required key '{1}' in given: the spec has no "
                                                           "'kind:', and its given {0} made it an attention block "
                                                           "(kind: mha), which needs {1} too; add 'kind: quantities' "
                                                           "for a spec of its own formulas alone",
                                                           present, missing));
    }
    return {};
}

/// A spec of formulas alone varies only the numbers its given holds: no attention block's sizes, which it has not,
/// to vary or to suggest. (A key of the problem or a part written in vary is left to read_vary, which says where
/// it belongs.)
Result<void> check_vary_of_formulas(const Reader& r, const YAML::Node& vary, const Values& values) {
    if (!vary.IsMap())
        return {};
    std::vector<std::string_view> names;
    for (const auto& [name, value] : values)
        names.push_back(name);
    for (const auto& entry : vary) {
        const std::string key = entry.first.Scalar();
        if (values.contains(key) || listed(k_top_keys, key) || listed(k_part_keys, key))
            continue;
        return r.error_at(entry.first, fmt::format("cannot vary {0}: given has no {0} to change; a spec of formulas "
                                                   "alone (kind: quantities) varies only the numbers in its given{1}",
                                                   key, did_you_mean(key, names)));
    }
    return {};
}

/// Marks the parts whose quantity's value may be irrational (formula::inexact, its own formula or one of a quantity
/// it uses), graded at figures by default, and refuses `tolerance: exact` on them: no answer could be every digit.
Result<void> mark_inexact_parts(const Reader& r, Problem& problem) {
    if (!problem.quantities)
        return {};
    std::set<std::string, std::less<>> inexact; // in dependency order, so a quantity's uses are known before it
    for (const Quantity& q : *problem.quantities) {
        const std::vector<std::string> uses = formula::names(q.formula);
        if (formula::inexact(q.formula) ||
            std::any_of(uses.begin(), uses.end(), [&](const std::string& name) { return inexact.contains(name); }))
            inexact.insert(q.name);
    }
    for (Part& part : problem.parts) {
        const auto asked = std::find_if(problem.quantities->begin(), problem.quantities->end(),
                                        [&](const Quantity& q) { return q.ask == part.ask; });
        if (asked == problem.quantities->end() || !inexact.contains(asked->name))
            continue;
        part.inexact = true;
        if (part.tolerance && part.tolerance->kind == Tolerance::Kind::exact)
            return r.error_at(part.tolerance_mark,
                              fmt::format("part '{}' cannot be graded exact: {} may be irrational (its formula takes "
                                          "sqrt, cbrt, exp, ln, log2, log10 or a power that is not whole) and is "
                                          "computed to {} figures; leave tolerance out for {{sigfigs: 3}}, or give "
                                          "{{sigfigs: n}} or {{rel: x}}",
                                          part.id, asked->name, formula::k_irrational_bits * 30103 / 100000));
    }
    return {};
}

/// Refuses `answer: formula` on a part whose answer is not a number: a shape, a word, or a crossover's root (a value
/// of a given, which a formula in the givens could only restate).
Result<void> check_formula_parts(const Reader& r, const Problem& problem) {
    for (const Part& part : problem.parts) {
        if (!part.formula_answer)
            continue;
        std::string_view what;
        const Quantity* own = nullptr;
        if (problem.quantities)
            for (const Quantity& q : *problem.quantities)
                if (q.ask == part.ask)
                    own = &q;
        if (own && !own->choices.empty())
            what = "a word";
        else if (own && own->crossover)
            what = "the value of a given where an equation holds (solve_for:)";
        for (const solve::CatalogueEntry& e : solve::catalogue_entries())
            if (!own && e.ask == part.ask) {
                if (!e.shape.empty())
                    what = "a shape";
                else if (!e.choices.empty())
                    what = "a word";
            }
        if (!what.empty())
            return r.error_at(part.answer_mark,
                              fmt::format("part '{}' cannot take answer: formula: the answer to {} is {}; leave "
                                          "answer: out",
                                          part.id, part.ask, what));
    }
    return {};
}

Result<Problem> read_problem(const Reader& r, const YAML::Node& root, const Vocabulary& words) {
    Problem problem;
    auto id = r.mapping_id(root, k_top_keys, "the problem", "problem id",
                           "a problem spec must be a mapping with id, title, given and parts");
    if (!id)
        return std::unexpected(id.error());
    problem.id = *id;
    auto title = r.required_string(root, "title", "the problem");
    if (!title)
        return std::unexpected(title.error());
    problem.title = *title;
    if (const YAML::Node kind = root["kind"]) {
        auto text = r.string_of(kind, "kind");
        if (!text)
            return std::unexpected(text.error());
        if (std::find(k_kinds.begin(), k_kinds.end(), *text) == k_kinds.end())
            return r.error_at(kind, fmt::format("unknown kind '{}'; headcount knows: mha, transformer, quantities{}",
                                                *text, did_you_mean(*text, k_kinds)));
        problem.kind = *text;
    }

    auto given = r.required(root, "given", "the problem");
    if (!given)
        return std::unexpected(given.error());
    if (auto ok = apply_model_preset(r, root, *given, problem); !ok)
        return std::unexpected(ok.error());
    const YAML::Node quantities = root["quantities"];
    // A spec of formulas alone: no architecture, so no kind's built-in quantities.
    if (!root["kind"] && quantities && given->IsMap() && !(*given)["d_model"] && !(*given)["h"])
        problem.kind = "quantities";
    if (!root["kind"] && quantities && given->IsMap())
        if (auto ok = check_guessed_block(r, *given); !ok)
            return std::unexpected(ok.error());
    // Parts that ask for a training quantity (spec/training.hpp), which a transformer's formulas answer; a spec's
    // own quantity of that name (mfu) is the spec's.
    std::vector<std::pair<std::string, YAML::Node>> asked;
    if (const YAML::Node parts = root["parts"]; parts && parts.IsSequence() && problem.kind != "quantities")
        for (const YAML::Node& part : parts)
            if (part.IsMap())
                if (const YAML::Node ask = part["ask"]; ask && ask.IsScalar())
                    if (find_training_ask(ask.Scalar()) &&
                        !(quantities && quantities.IsMap() && quantities[ask.Scalar()]))
                        asked.emplace_back(ask.Scalar(), ask);
    const bool training = problem.kind == "transformer" && (!asked.empty() || has_training_keys(*given));
    if (problem.kind == "mha" && !asked.empty())
        return r.error_at(asked.front().second, fmt::format("{} is asked of a whole model: add 'kind: transformer' "
                                                            "and its layers",
                                                            asked.front().first));
    if (problem.kind == "quantities") {
        if (!quantities)
            return r.error_at(root["kind"], "kind: quantities needs quantities: the formulas its parts ask for");
        if (!given->IsMap())
            return r.not_a_mapping(*given, "given must be a mapping of values, e.g. {n_params: 175000000000}");
        auto values = read_values(r, *given, std::array<std::string_view, 1>{"hardware"});
        if (!values)
            return std::unexpected(values.error());
        problem.values = std::move(*values);
        if (auto ok = read_hardware(r, *given, problem); !ok)
            return std::unexpected(ok.error());
    } else if (auto ok =
                   read_architecture(r, *given, problem, quantities.IsDefined() || training, quantities.IsDefined());
               !ok)
        return std::unexpected(ok.error());

    // The training asks are rows of headcount's catalogue (spec/training.hpp), made quantities beside the spec's
    // own; a spec's quantity of a row's name redefines it, for its ask and every formula that uses it (a course that
    // counts 10 bytes a parameter).
    const bool have_formulas = quantities.IsDefined() || (training && !asked.empty());
    std::vector<std::string> redefined;
    std::vector<Quantity> builtin_quantities;
    if (problem.kind == "transformer" && quantities && quantities.IsMap())
        for (const std::string& name : training_row_names())
            if (quantities[name])
                redefined.push_back(name);
    // Any other built-in count of the problem's kind too (flops_training for a course that counts 6·N per token):
    // the part that asks it is solved with the spec's formula, as a quantity of its own.
    if (problem.kind != "quantities" && quantities && quantities.IsMap())
        for (const solve::CatalogueEntry& e : solve::catalogue_entries())
            if (redefinable_builtin(e, problem.kind) && quantities[std::string(e.name)] &&
                std::find(redefined.begin(), redefined.end(), e.name) == redefined.end())
                redefined.emplace_back(e.name);
    if (training) {
        auto made = training_quantities(r, *given, problem, asked, redefined);
        if (!made)
            return std::unexpected(made.error());
        builtin_quantities = std::move(*made);
    }

    Vocabulary vocabulary = words;
    std::vector<std::string_view> ask_words(words.asks.begin(), words.asks.end());
    std::vector<std::string_view> mistake_words(words.mistakes.begin(), words.mistakes.end());
    std::vector<std::string> derived_ids;
    if (have_formulas) {
        FormulaNames names;
        const Givens givens = givens_of(problem);
        for (std::string_view key : varying_keys())
            if (!problem.values.contains(key) && given_value(givens, key))
                names.architecture.emplace_back(key);
        if (problem.kind != "quantities")
            for (std::string_view ask : words.asks)
                names.builtin.push_back(builtin_name(ask));
        // Every training row is a transformer's, asked or not: a formula may use memory_model_states without a
        // part that asks memory.model_states.
        if (problem.kind == "transformer")
            for (std::string& name : training_row_names())
                if (std::find(names.builtin.begin(), names.builtin.end(), name) == names.builtin.end())
                    names.builtin.push_back(std::move(name));
        names.redefinable = redefined;
        // (yaml-cpp: a missing key's node is invalid, and asking it anything throws: an undefined node stands for it.)
        auto read = read_quantities(r, quantities ? quantities : YAML::Node(YAML::NodeType::Undefined), problem.values,
                                    names, std::move(builtin_quantities));
        if (!read)
            return std::unexpected(read.error());
        for (Quantity& q : *read)
            if (q.redefines) { // the ask of the row it redefines, and its unit unless the spec gives one
                q.builtin = true;
                const auto training =
                    std::find_if(training_asks().begin(), training_asks().end(),
                                 [&](const TrainingAsk& ask) { return training_name(ask.id) == q.name; });
                const auto row = std::find_if(solve::catalogue_entries().begin(), solve::catalogue_entries().end(),
                                              [&](const solve::CatalogueEntry& e) { return e.name == q.name; });
                q.ask = training != training_asks().end() ? std::string(training->id) : std::string(row->ask);
                if (q.unit.empty())
                    q.unit = row->unit;
            }
        problem.quantities = std::make_shared<const std::vector<Quantity>>(std::move(*read));
        for (const Quantity& q : *problem.quantities) {
            for (const ListedMistake& m : q.mistakes)
                derived_ids.push_back(m.id);
            for (std::string& id : derived_mistake_ids(q))
                derived_ids.push_back(std::move(id));
        }
        for (const Quantity& q : *problem.quantities)
            ask_words.push_back(q.ask);
        for (const std::string& id : derived_ids)
            mistake_words.push_back(id);
        // The unit slips grade derives for a defined quantity's unit (grade/formula_mistakes.cpp) that are not in the
        // catalogue already (bits_for_bytes, decimal_vs_binary_units and macs_not_flops are).
        for (std::string_view id : {"time_in_seconds", "time_in_minutes", "time_in_hours", "time_in_days",
                                    "time_in_years", "given_in_other_unit"})
            mistake_words.push_back(id);
        vocabulary = Vocabulary{ask_words, mistake_words};
    }
    // A transformer may ask any training ask (those its parts ask are quantities by now): a misspelt one is named
    // in the did-you-mean.
    if (problem.kind == "transformer") {
        for (const TrainingAsk& ask : training_asks())
            if (std::find(ask_words.begin(), ask_words.end(), ask.id) == ask_words.end())
                ask_words.push_back(ask.id);
        vocabulary = Vocabulary{ask_words, mistake_words};
    }

    if (const YAML::Node vary = root["vary"]) {
        if (problem.kind == "quantities")
            if (auto ok = check_vary_of_formulas(r, vary, problem.values); !ok)
                return std::unexpected(ok.error());
        auto variations = read_vary(r, vary, problem);
        if (!variations)
            return std::unexpected(variations.error());
        problem.vary = std::move(*variations);
    }
    if (auto ok = r.optional(root, "distinct", &Reader::boolean, problem.distinct); !ok)
        return std::unexpected(ok.error());
    if (auto policy = read_check_policy(r, root, problem.feedback, problem.attempts); !policy)
        return std::unexpected(policy.error());

    auto parts = r.required(root, "parts", "the problem");
    if (!parts)
        return std::unexpected(parts.error());
    if (!parts->IsSequence() || parts->size() == 0)
        return r.error_at(*parts, "parts must be a non-empty list of {id, ask} mappings");
    std::set<std::string> part_ids;
    for (const auto& node : *parts) {
        auto part = read_part(r, node, vocabulary, problem.values);
        if (!part)
            return std::unexpected(part.error());
        if (!part_ids.insert(part->id).second)
            return r.error_at(node["id"], fmt::format("duplicate part id '{}'", part->id));
        problem.parts.push_back(std::move(*part));
    }
    if (auto ok = mark_inexact_parts(r, problem); !ok)
        return std::unexpected(ok.error());
    if (auto ok = check_formula_parts(r, problem); !ok)
        return std::unexpected(ok.error());
    return problem;
}

} // namespace

Result<Problem> parse_problem(std::string_view yaml, std::string file, const Vocabulary& words) {
    const Reader reader(file, yaml);
    YAML::Node root;
    try {
        root = YAML::Load(std::string(yaml));
    } catch (const YAML::DeepRecursion& e) {
        return std::unexpected(Error{file, e.mark.line + 1, e.mark.column + 1,
                                     fmt::format("lists and mappings nest more than {} levels deep here; a spec needs "
                                                 "a handful",
                                                 e.depth())});
    } catch (const YAML::ParserException& e) {
        return std::unexpected(syntax_error(file, yaml, e.mark, e.msg));
    }
    try {
        if (auto ok = check_document(reader, root); !ok)
            return std::unexpected(ok.error());
        auto problem = read_problem(reader, root, words);
        if (problem)
            problem->file = file;
        return problem;
    } catch (const YAML::Exception& e) {
        // yaml-cpp throws on malformed node access; report it where it happened rather than crash.
        return std::unexpected(Error{file, e.mark.line + 1, e.mark.column + 1, e.msg});
    }
}

Result<Problem> load_problem(const std::filesystem::path& path, const Vocabulary& words) {
    auto text = read_file_capped(path, k_max_spec_bytes, "the spec file");
    if (!text)
        return std::unexpected(text.error());
    return parse_problem(*text, path.string(), words);
}

Result<std::vector<std::filesystem::path>> expand_spec_paths(std::span<const std::string> arguments) {
    namespace fs = std::filesystem;
    std::vector<fs::path> out;
    for (const std::string& argument : arguments) {
        std::error_code ec;
        if (fs::is_directory(argument, ec)) {
            std::vector<fs::path> found;
            for (const auto& entry : fs::directory_iterator(argument, ec)) {
                const auto ext = entry.path().extension();
                if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml"))
                    found.push_back(entry.path());
            }
            if (found.empty())
                return std::unexpected(Error{argument, 0, 0, "no .yaml spec files in this directory"});
            std::sort(found.begin(), found.end());
            out.insert(out.end(), found.begin(), found.end());
        } else if (fs::exists(argument, ec)) {
            out.emplace_back(argument);
        } else {
            return std::unexpected(Error{argument, 0, 0, "no such file or directory"});
        }
    }
    return out;
}

} // namespace headcount::spec

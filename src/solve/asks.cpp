#include <solve/asks.hpp>

#include <solve/formula_form.hpp>

#include <solve/defined.hpp>
#include <solve/solutions.hpp>

#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace headcount::solve {

namespace {

/// The built-in asks with a template of their own: every catalogue entry with an ask's columns and no explanation,
/// in the catalogue's order. (One with an explanation, a training ask, is a quantity of the spec that asks it:
/// spec/training.hpp.)
const std::vector<Ask>& built_in() {
    static const std::vector<Ask> rows = [] {
        std::vector<Ask> out;
        for (const CatalogueEntry& e : catalogue_entries())
            if (!e.ask.empty() && e.explanation.empty())
                out.push_back(Ask{.id = e.ask,
                                  .unit = e.unit,
                                  .noun = e.noun,
                                  .projections = e.projections,
                                  .kind = e.kind,
                                  .group = e.group,
                                  .needs = e.needs,
                                  .choices = e.choices,
                                  .shaped = !e.shape.empty(),
                                  .name = e.name,
                                  .entry = &e});
        return out;
    }();
    return rows;
}

} // namespace

std::span<const Ask> asks() { return built_in(); }

bool Answer::operator==(const Answer& other) const {
    return count == other.count && shape == other.shape && exact.has_value() == other.exact.has_value() &&
           (!exact || *exact == *other.exact);
}

std::strong_ordering Answer::operator<=>(const Answer& other) const {
    if (exact && other.exact) {
        const int c = cmp(*exact, *other.exact);
        return c < 0 ? std::strong_ordering::less
                     : (c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal);
    }
    if (exact.has_value() != other.exact.has_value())
        return exact.has_value() ? std::strong_ordering::greater : std::strong_ordering::less;
    if (const auto c = count <=> other.count; c != 0)
        return c;
    return shape <=> other.shape;
}

Answer Ask::evaluate(const SolvedProblem& solved) const {
    const Computation& c = *solved.computation;
    const int index = kind == "defined" ? c.find_visible(name) : c.find(name);
    if (!c.available(index))
        return Answer{};
    if (shaped)
        return Answer{formula::to_count(c.value(index)).value_or(0), c.shape(index), {}};
    const Number& value = c.value(index);
    if (!choices.empty()) // the chosen word's index, as the grader reads a word (a catalogue row's, built in or not)
        return Answer{formula::to_count(value).value_or(0), {}, {}};
    // A spec's own formula (or one redefining a built-in) may come to any value; the catalogue's counts are whole.
    if (kind == "defined" || c.slot(index).quantity || value.get_den() != 1 || !formula::to_count(value))
        return exact_answer(value);
    return Answer{*formula::to_count(value), {}, {}};
}

const Ask* find_ask(std::string_view id) {
    const auto rows = asks();
    const auto it = std::find_if(rows.begin(), rows.end(), [&](const Ask& a) { return a.id == id; });
    return it == rows.end() ? nullptr : &*it;
}

std::vector<std::string_view> ask_ids() {
    std::vector<std::string_view> ids;
    for (const Ask& a : asks())
        ids.push_back(a.id);
    return ids;
}

std::optional<std::string> cannot_ask(const Ask& ask, const spec::Problem& problem) {
    if (ask.kind == "transformer" && !problem.model)
        return fmt::format("ask '{}' is about a whole transformer; this problem is kind: {}", ask.id, problem.kind);
    if ((ask.needs & Ask::workload) && !problem.workload)
        return fmt::format("ask '{}' is about tensors over a sequence: give seq_len (and batch) in given", ask.id);
    if ((ask.needs & Ask::dtype) && !problem.precision)
        return fmt::format("ask '{}' is about memory: give dtype (fp64, fp32, fp16, bf16, int8) in given", ask.id);
    if ((ask.needs & Ask::one_stack) && problem.model && problem.model->decoder_layers > 0)
        return fmt::format("ask '{}' is about one stack of layers (decoder-only or one block); an encoder-decoder's "
                           "cache also holds cross-attention keys, which headcount does not model",
                           ask.id);
    if ((ask.needs & Ask::self_attention) && problem.workload && problem.workload->seq_len_kv)
        return fmt::format("ask '{}' is about a forward pass over the sequence itself; seq_len_kv (cross-attention, "
                           "or a cache) is not modelled for it",
                           ask.id);
    if ((ask.needs & Ask::encoder_decoder) && (!problem.model || problem.model->decoder_layers == 0))
        return fmt::format("ask '{}' needs encoder_layers and decoder_layers", ask.id);
    return std::nullopt;
}

std::optional<std::string> cannot_answer(const Ask& ask, const SolvedProblem& solved) {
    if (auto why = cannot_ask(ask, solved.problem))
        return why;
    const Computation& c = *solved.computation;
    const int index = ask.kind == "defined" ? c.find_visible(ask.name) : c.find(ask.name);
    if (index < 0)
        return fmt::format("ask '{}' has no value in this problem", ask.id);
    if (!c.available(index))
        return fmt::format("ask '{}': {}", ask.id, c.slot(index).unavailable);
    return std::nullopt;
}

namespace {

/// The spec's quantities that cannot be computed here because a built-in they use has no value in this problem,
/// as an error at the formula: the built-in's own reason, in the ask's words.
std::optional<Error> unanswerable_quantity(const SolvedProblem& solved) {
    const Computation& c = *solved.computation;
    const spec::Problem& problem = solved.problem;
    for (std::size_t i = 0; i < c.size(); ++i) {
        const Computation::Slot& s = c.slot(static_cast<int>(i));
        if (!s.quantity || s.unavailable.empty())
            continue;
        std::string message(s.unavailable);
        int column = 1;
        for (std::size_t k = 0; k < s.names.size(); ++k) {
            if (c.available(s.uses[k]))
                continue;
            const Ask* ask = nullptr;
            for (const Ask& a : asks())
                if (a.name == s.names[k])
                    ask = &a;
            const auto why = ask ? cannot_ask(*ask, problem) : std::nullopt;
            if (why && s.quantity->builtin)
                message = *why;
            else if (why)
                message = fmt::format("{} is not a quantity of this problem: {}", s.names[k], *why);
            else
                message = fmt::format("{} has no value in this problem: {}", s.names[k],
                                      s.uses[k] >= 0 ? c.slot(s.uses[k]).unavailable : "it is no quantity of it");
            break;
        }
        const spec::Quantity& q = *s.quantity;
        if (q.builtin) // headcount's own formula: its reason, at the part that asks for it
            for (const spec::Part& part : problem.parts)
                if (part.ask == q.ask)
                    return Error{problem.file, part.ask_mark.line, part.ask_mark.column,
                                 fmt::format("{}: {}", q.title, message)};
        return Error{problem.file, q.formula_mark.line, q.formula_mark.column + column - 1,
                     fmt::format("formula of {}: {}", q.name, message)};
    }
    return std::nullopt;
}

/// A part asking for a row whose `refused:` condition holds here (catalogue/*.yaml): batch.max where the model
/// states alone take more than memory_budget, batch.max_decode where the weights do (no batch fits, and a negative
/// number of sequences is no answer: issue 40), batch.compute_bound where one sequence's KV cache alone keeps the step
/// below the ridge point. Said at the part, with the row's message and its sizes, when the spec is read.
std::optional<Error> nothing_fits(const SolvedProblem& solved) {
    const Computation& c = *solved.computation;
    const spec::Problem& problem = solved.problem;
    // A value over the computation's slots by their catalogue names (cmake/catalogue_gen.cpp checked that a
    // message's formulas use no other), as Computation::holds reads a condition; nullopt where one has none.
    const auto value_of = [&](std::string_view text) -> std::optional<Number> {
        auto value = formula::evaluate(*catalogue_formula(text), [&](std::string_view name) -> const Number* {
            const int at = c.find(name);
            return c.available(at) ? &c.value(at) : nullptr;
        });
        return value ? std::optional<Number>(std::move(*value)) : std::nullopt;
    };
    // A row's `refused:` message with its {formula|bytes} and {formula|N} written out (cmake/catalogue_gen.cpp
    // checked their form when the program was built).
    const auto message = [&](std::string_view text) {
        std::string out;
        std::size_t from = 0;
        for (std::size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', from)) {
            const std::size_t bar = text.find('|', open);
            const std::size_t close = text.find('}', bar);
            out += text.substr(from, open - from);
            const auto value = value_of(text.substr(open + 1, bar - open - 1));
            const std::string_view how = text.substr(bar + 1, close - bar - 1);
            if (!value || (how == "bytes" && value->get_den() != 1))
                out += "?";
            else if (how == "bytes")
                out += (formula::to_count(*value) ? with_thousands(*formula::to_count(*value)) : value->get_str()) +
                       " bytes";
            else
                out += formula::rounded(*value, how[0] - '0');
            from = close + 1;
        }
        return out + std::string(text.substr(from));
    };
    for (int i = 0; i < static_cast<int>(c.size()); ++i) {
        const CatalogueEntry* e = c.slot(i).entry;
        if (!e || e->refused_when.empty() || !c.available(i))
            continue;
        if (!c.holds(e->refused_when))
            continue;
        for (const spec::Part& part : problem.parts)
            if (part.ask == e->ask)
                return Error{problem.file, part.ask_mark.line, part.ask_mark.column,
                             fmt::format("{}: {}", e->ask, message(e->refused))};
    }
    return std::nullopt;
}

/// The values of the readings `part` accepts besides its answer (`accept:`): a formula over the names the spec's
/// formulas use, or the quantity asked with some givens read another way. A reading that comes to the answer itself
/// is dropped; one that cannot be valued is an error at its entry.
Result<std::vector<AcceptedValue>> accepted_values(const SolvedProblem& solved, const spec::Part& part, const Ask& ask,
                                                   const Number& right) {
    std::vector<AcceptedValue> out;
    if (part.accept.empty())
        return out;
    const spec::Problem& problem = solved.problem;
    const auto error = [&](const spec::Accepted& a, std::string message) {
        return std::unexpected(
            Error{problem.file, a.mark.line, a.mark.column, fmt::format("part '{}' accept: {}", part.id, message)});
    };
    if (ask.type() != Ask::Type::count)
        return error(part.accept.front(), "only a part that asks for a number accepts other readings");
    const Computation& c = *solved.computation;
    const int target = ask.kind == "defined" ? c.find_visible(ask.name) : c.find(ask.name);
    for (const spec::Accepted& a : part.accept) {
        std::optional<Number> value;
        if (a.formula) {
            std::string unknown;
            const auto lookup = [&](std::string_view name) -> const Number* {
                const int slot = c.find_visible(name);
                if (!c.available(slot)) {
                    unknown = std::string(name);
                    return nullptr;
                }
                return &c.value(slot);
            };
            auto evaluated = formula::evaluate(*a.formula, lookup);
            if (!evaluated)
                return error(a, unknown.empty() ? evaluated.error().message
                                                : fmt::format("'{}' is no given or quantity of this problem", unknown));
            value = std::move(*evaluated);
        } else {
            Computation::Change change;
            for (const spec::Accepted::Given& g : a.givens) {
                auto node = std::make_shared<formula::Node>();
                node->op = formula::Node::Op::number;
                node->value = g.value;
                node->text = node->source = g.value.get_str();
                change.formulas.emplace_back(c.find_visible(g.name), std::move(node));
            }
            value = c.available(target) ? c.value_under(target, change) : std::nullopt;
            if (!value)
                return error(a, "the part's quantity cannot be computed with the givens read this way");
        }
        if (*value != right)
            out.push_back({std::move(*value), a.credit, a.feedback});
    }
    return out;
}

/// Answers every part of `solved`, whose computation is built.
Result<SolvedProblem> solve_parts(SolvedProblem solved) {
    const spec::Problem& problem = solved.problem;
    for (const spec::Part& part : problem.parts) {
        const Error at_ask{problem.file, part.ask_mark.line, part.ask_mark.column, ""};
        const Ask* ask = find_ask(part.ask);
        // A spec's quantity of the ask's name (or one redefining a built-in ask) is the part's quantity.
        if (const spec::Quantity* q = find_quantity(problem, part.ask); q && (!ask || q->redefines))
            ask = quantity_ask(*q);
        if (!ask) // the reader validates asks; this guards callers that build a Problem by hand
            return std::unexpected(Error{at_ask.file, at_ask.line, at_ask.column, "unknown ask '" + part.ask + "'"});
        if (const auto why = cannot_answer(*ask, solved))
            return std::unexpected(Error{at_ask.file, at_ask.line, at_ask.column, *why});
        Answer answer = ask->evaluate(solved);
        const Number value = answer.exact ? *answer.exact : formula::to_number(answer.count);
        // A built-in count is typed in its own unit, read exactly up to 10^36; a spec's quantity may be typed in
        // another (untypable() leaves room for it). A count that large comes from the givens: smaller ones are the
        // way out.
        const bool built_in = ask->kind != "defined" && !(answer.exact && value.get_den() != 1);
        std::optional<std::string> why;
        if (ask->type() == Ask::Type::count && built_in && abs(value) > formula::to_number(k_count_limit))
            why = fmt::format("which comes to about {} here: past 10^36, more than an answer can be typed as; give "
                              "smaller sizes",
                              formula::rounded(value, 3));
        else if (ask->type() == Ask::Type::count && !built_in)
            why = untypable(value);
        if (why)
            return std::unexpected(Error{at_ask.file, at_ask.line, at_ask.column,
                                         fmt::format("part '{}' asks for {}, {}", part.id, ask->id, *why)});
        // A crossover's root found by bisection, or a quadratic's with a discriminant that is no square, is known to
        // 256 bits, not exactly: no answer could match it to every digit.
        if (part.tolerance && part.tolerance->kind == spec::Tolerance::Kind::exact && ask->kind == "defined")
            if (const CrossoverWork* work =
                    solved.computation->crossover(solved.computation->find_visible(ask->name))) {
                const bool square = mpz_perfect_square_p(work->discriminant.get_num_mpz_t()) != 0 &&
                                    mpz_perfect_square_p(work->discriminant.get_den_mpz_t()) != 0;
                if (work->method == CrossoverWork::Method::bisection ||
                    (work->method == CrossoverWork::Method::quadratic && !square))
                    return std::unexpected(Error{
                        problem.file, part.tolerance_mark.line, part.tolerance_mark.column,
                        fmt::format(
                            "part '{}' cannot be graded exact: the root of {} is {} and computed to {} figures; "
                            "leave tolerance out for {{sigfigs: 3}}, or give {{sigfigs: n}} or {{rel: x}}",
                            part.id, ask->name,
                            work->method == CrossoverWork::Method::bisection ? "found by bisection" : "irrational",
                            formula::k_irrational_bits * 30103 / 100000)});
            }
        auto accepted = accepted_values(solved, part, *ask, value);
        if (!accepted)
            return std::unexpected(accepted.error());
        solved.parts.push_back({part, ask, std::move(answer), std::move(*accepted), {}, {}, {}});
        if (part.formula_answer) {
            const Computation& c = *solved.computation;
            const std::vector<std::string> names = stated_formula_names(c, problem);
            const int target = ask->kind == "defined" ? c.find_visible(ask->name) : c.find(ask->name);
            std::set<std::string> defaulted;
            for (const std::string& name : formula_answer_names(c, problem))
                if (std::find(names.begin(), names.end(), name) == names.end())
                    defaulted.insert(name);
            auto form = in_givens(c, target, std::set<std::string>(names.begin(), names.end()), defaulted);
            if (!form)
                return std::unexpected(
                    Error{problem.file, part.answer_mark.line, part.answer_mark.column,
                          fmt::format("part '{}' cannot take answer: formula: {} written in the givens alone is "
                                      "longer than {} terms and factors; ask for a smaller quantity, or leave "
                                      "answer: out",
                                      part.id, part.ask, formula::k_max_nodes)});
            solved.parts.back().formula_text = formula_text(*form);
            solved.parts.back().formula = std::make_shared<const formula::Node>(std::move(*form));
            solved.parts.back().formula_names = names;
        }
    }
    return solved;
}

/// `problem`'s computation (of what `only` needs, or everything), checked: every quantity of the spec can be
/// computed and a batch fits where one is asked.
/// With `like`, another variant's computation made with the same `only`: revalued at this problem's givens where
/// that gives the computation build() would (which it then keeps in `like` for the next), else built.
Result<SolvedProblem> computed(const spec::Problem& problem, std::span<const std::string_view> only,
                               const GivenValues* givens = nullptr,
                               std::shared_ptr<const Computation>* like = nullptr) {
    std::shared_ptr<const Computation> computation =
        like && *like ? (*like)->revalued(problem, givens ? *givens : given_values(problem)) : nullptr;
    if (!computation) {
        auto built = Computation::build(problem, only, givens);
        if (!built) {
            Error e = built.error();
            e.file = problem.file;
            return std::unexpected(std::move(e));
        }
        computation = std::move(*built);
        if (like)
            *like = computation;
    }
    SolvedProblem solved;
    solved.problem = problem;
    solved.computation = std::move(computation);
    if (const auto error = unanswerable_quantity(solved))
        return std::unexpected(*error);
    if (const auto error = nothing_fits(solved))
        return std::unexpected(*error);
    return solved;
}

} // namespace

Result<void> check_solvable(const spec::Problem& problem, std::shared_ptr<const Computation>* like) {
    // The parts' built-in asks; a spec's quantities are always computed. A reading of `accept:` may name any
    // quantity, so a part with one has the whole computation built, as solve_problem does.
    std::vector<std::string_view> only;
    for (const spec::Part& part : problem.parts) {
        if (!part.accept.empty()) {
            only.clear();
            break;
        }
        if (const Ask* ask = find_ask(part.ask))
            only.push_back(ask->name);
    }
    auto solved = computed(problem, only, nullptr, like);
    if (!solved)
        return std::unexpected(solved.error());
    auto parts = solve_parts(std::move(*solved));
    if (!parts)
        return std::unexpected(parts.error());
    return {};
}

Result<SolvedProblem> solve_problem(const spec::Problem& problem, const GivenValues* givens,
                                    std::shared_ptr<const Computation>* like) {
    auto computation = computed(problem, {}, givens, like);
    if (!computation)
        return std::unexpected(computation.error());
    SolvedProblem solved = std::move(*computation);
    const Computation& c = *solved.computation;
    if (problem.quantities)
        solved.values = c.visible_values();
    if (problem.kind == "quantities") // formulas alone: no architecture to read
        return solve_parts(std::move(solved));
    solved.mha = read_mha(c, problem.given);
    if (problem.model)
        solved.model = read_model(c, *problem.model, solved.mha);
    const auto& w = problem.workload;
    if (w) {
        solved.flops = read_flops(c);
        solved.shapes = read_shapes(c);
    }
    if (solved.model && w && !w->seq_len_kv && problem.model->decoder_layers == 0)
        solved.model_flops = read_model_flops(c);
    if (problem.precision)
        solved.memory = read_memory(c);
    if (solved.mha.square && !problem.model) {
        // The same block at twice the width, for how the count scales (the closed form of a square block).
        if (const Number* twice = c.value("doubled_total"); twice && formula::to_count(*twice)) {
            MhaSolution doubled;
            doubled.d_model = 2 * solved.mha.d_model;
            doubled.total = *formula::to_count(*twice);
            solved.doubled_width = doubled;
        }
    }
    return solve_parts(std::move(solved));
}

std::vector<const spec::Quantity*> redefinitions(const SolvedProblem& solved, const SolvedPart& part) {
    std::vector<const spec::Quantity*> out;
    if (!solved.computation || !part.ask)
        return out;
    const Computation& c = *solved.computation;
    const int target = part.ask->kind == "defined" ? c.find_visible(part.ask->name) : c.find(part.ask->name);
    if (target < 0)
        return out;
    std::vector<int> slots = c.cone(target);
    slots.push_back(target);
    for (const int i : slots) {
        const Computation::Slot& s = c.slot(i);
        // A training ask's quantity stands in its catalogue row's slot as the row itself (spec/training.hpp): only
        // the spec's own formula in a built-in's place is a redefinition.
        if (s.quantity && s.quantity->redefines)
            out.push_back(s.quantity);
    }
    return out;
}

} // namespace headcount::solve

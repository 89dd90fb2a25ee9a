#pragma once
// The one engine: every quantity of a problem is a formula, built-in (an entry of the catalogue, catalogue/*.yaml)
// or the spec's own (`quantities:`), evaluated exactly over the problem's givens; and every mistake is a change to
// some of those formulas, followed through every quantity that uses them, however deep.

#include <solve/catalogue.hpp>
#include <spec/problem.hpp>
#include <util/error.hpp>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace headcount::solve {

using formula::Number;

/// A tensor's shape, outermost axis first.
using Shape = std::vector<Count>;

/// The givens of a problem by the names the catalogue's formulas use (d_model, bias_q, seq_len, bits, ...) and its
/// own values (gpus, tokens, ...), each exact.
using GivenValues = std::map<std::string, Number, std::less<>>;

/// The givens of `problem`: its architecture, workload and dtype as the catalogue names them, flags as 1 or 0, and
/// its values. Defaults (d_k = d_model / h) are the catalogue's, filled in by the computation.
GivenValues given_values(const spec::Problem& problem);

/// How a crossover's root (spec::Crossover) was found, for its worked solution.
struct CrossoverWork {
    enum class Method { linear, quadratic, bisection };
    Method method = Method::bisection;
    Number a, b, c;            ///< linear and quadratic: A - B = a x^2 + b x + c in the given x
    Number discriminant;       ///< quadratic: b^2 - 4ac
    std::vector<Number> roots; ///< linear and quadratic: every real root, ascending (irrational ones to 256 bits)
    Number low, high;          ///< bisection: the last bracket, A - B changing sign between them
    Number value;              ///< the root in the range: the quantity's value
};

/// Every quantity of one problem (one variant), evaluated.
class Computation {
  public:
    /// One quantity: a given, a catalogue entry, or the spec's own.
    /// Its texts are views: of the catalogue (which lives as long as the program), of the spec's quantities (which
    /// the computation keeps), of its formula's nodes, or of the computation's own strings. A slot of the 250-odd
    /// of every problem then allocates nothing but its lists.
    struct Slot {
        std::string_view name;
        std::string_view title;                   ///< what it is, in words, for this problem's settings
        const CatalogueEntry* entry = nullptr;    ///< the catalogue's entry, or nullptr for the spec's own
        const spec::Quantity* quantity = nullptr; ///< the spec's definition, in place of the entry's when both are set
        bool given = false;
        bool visible = false; ///< a name the spec's formulas may use: a given, an ask's, the spec's own
        /// For this problem, conditions applied; null for a given, and for a catalogue row's formula, whose tree
        /// (of `text`) is made only when something reads it (Computation::formula): its value comes from the
        /// tables the build parsed the row into (`prebuilt`).
        std::shared_ptr<const formula::Node> formula;
        std::string_view text; ///< that formula as text: a row's with the if()s its givens settle resolved
        /// Where a catalogue row's formula as written begins in parsed_nodes(), or -1; a row with if()s is valued
        /// from it with each if() its givens settled taking that branch (Structure::decisions), as `text` does.
        int prebuilt = -1;
        std::vector<std::shared_ptr<const formula::Node>> axes; ///< a shape's axes
        std::vector<std::string_view> names;                    ///< the names its formula (or axes) use, once each
        std::vector<int> uses;                                  ///< the slot of each name
        std::string_view unavailable; ///< why it has no value here (a given the problem lacks), or ""
        /// Whether it is a shape: a tensor's axes, its value their product.
        [[nodiscard]] bool shaped() const { return entry && !quantity && !entry->shape.empty(); }
    };

    /// A change to the computation: slots given other formulas (a mistake).
    struct Change {
        std::vector<std::pair<int, std::shared_ptr<const formula::Node>>> formulas;
        [[nodiscard]] bool empty() const { return formulas.empty(); }
    };

    /// The computation of `problem`: the catalogue's entries for its givens and its own quantities, a quantity of
    /// the spec redefining the built-in of its name. Fails on a cycle, a value that cannot be computed (a division
    /// by zero in this variant), or a second method that disagrees (a bug, reported rather than hidden).
    /// With `only` (catalogue names), just what those entries and the spec's own quantities need: the entries they
    /// use under any conditions, directly or not; the other entries have no value. Whether a variant can be solved
    /// (generate::valid_variants) asks no more than its parts' cone.
    /// With `givens`, those values in place of the problem's (a formula answer's random points): a given it leaves
    /// out takes its default, d_k = d_model / h at the point.
    static Result<std::shared_ptr<const Computation>> build(const spec::Problem& problem,
                                                            std::span<const std::string_view> only = {},
                                                            const GivenValues* givens = nullptr);

    /// This computation with other given values (another variant of the same problem, built with the same `only`),
    /// sharing its structure: nullptr when those values would build another one (a condition settled the other way,
    /// a given with a value here and none there, a value that cannot be computed), for which build() is the way.
    [[nodiscard]] std::shared_ptr<const Computation> revalued(const spec::Problem& problem,
                                                              const GivenValues& givens) const;

    /// The formula of slot `index` (see Slot::formula), its tree made now if it was not; null for a given or a shape.
    [[nodiscard]] std::shared_ptr<const formula::Node> formula(int index) const;

    /// The slot named `name` as the catalogue's formulas see it, or -1.
    [[nodiscard]] int find(std::string_view name) const;
    /// The slot named `name` as the spec's formulas see it (givens, asks, its own quantities), or -1.
    [[nodiscard]] int find_visible(std::string_view name) const;
    [[nodiscard]] const Slot& slot(int index) const { return m_s->slots[static_cast<std::size_t>(index)]; }
    [[nodiscard]] std::size_t size() const { return m_s->slots.size(); }
    /// Whether slot `index` has a value here.
    [[nodiscard]] bool available(int index) const { return index >= 0 && slot(index).unavailable.empty(); }
    /// The right value of slot `index` (a shape's: its elements), which must be available.
    [[nodiscard]] const Number& value(int index) const {
        const std::optional<Number>& v = m_values[static_cast<std::size_t>(index)];
        return v ? *v : zero();
    }
    /// The right value of the quantity named `name` (as the catalogue names it), or nullptr.
    [[nodiscard]] const Number* value(std::string_view name) const;
    /// The right shape of a shape slot.
    [[nodiscard]] const Shape& shape(int index) const { return m_shapes[static_cast<std::size_t>(index)]; }
    /// The symbols of a shape slot's axes as a solution writes them, in the order of shape() (of shape_under()
    /// `change`, when one is given: the layout a mistake makes).
    [[nodiscard]] std::vector<std::string_view> axis_symbols(int index, const Change* change = nullptr) const;

    /// `a` and `b` made together, or nullopt when they give one slot two different formulas, unless one of the two
    /// builds on what the other changes (training counted as the forward pass, and the forward pass by the 2N
    /// rule: the training step by the rule's forward pass), which is then the slot's.
    [[nodiscard]] std::optional<Change> combine(const Change& a, const Change& b) const;

    /// What slot `target` comes to under `change`, or nullopt when it cannot be computed that way (a cycle, a
    /// division by zero, a value past the formulas' bounds). A change that `target` does not depend on leaves it.
    [[nodiscard]] std::optional<Number> value_under(int target, const Change& change) const;
    /// The same for a shape slot: its axes under the change.
    [[nodiscard]] std::optional<Shape> shape_under(int target, const Change& change) const;
    /// Whether `change` reaches `target`: it changes a slot that `target` uses, directly or not.
    [[nodiscard]] bool reaches(int target, const Change& change) const;

    /// The names the spec's formulas may use, with their values here (givens, asks' quantities, its own).
    [[nodiscard]] std::map<std::string, Number, std::less<>> visible_values() const;
    /// Whether `condition` (a formula over the givens, as the catalogue's `when:` are) holds for this problem; false
    /// when it names what the problem does not give.
    [[nodiscard]] bool holds(std::string_view condition) const;
    /// The slots `target` uses, directly or not (itself not included), each after those it uses.
    [[nodiscard]] std::vector<int> cone(int target) const;
    /// How the crossover of slot `index` (a spec quantity with `solve_for:`) was solved, or nullptr for another slot.
    [[nodiscard]] const CrossoverWork* crossover(int index) const {
        const auto it = m_crossovers.find(index);
        return it == m_crossovers.end() ? nullptr : &it->second;
    }

  private:
    /// What a computation is, apart from its values: its slots, their order and links, and the texts they view.
    /// Built once, never changed after, and shared by the computations revalued() from it.
    struct Structure {
        std::vector<Slot> slots;
        std::shared_ptr<const std::vector<spec::Quantity>> quantities; ///< the spec's, which slots view
        std::deque<std::string>
            texts;               ///< the texts slots view that are the computation's own (a deque never moves them)
        std::vector<int> order;  ///< available slots, each after those it uses
        std::vector<int> valued; ///< those of them with a value computed (not givens), as the build left them
        std::vector<std::vector<int>> users; ///< for each slot, the slots that use it
        /// Whether the first slots are the catalogue's entries, in its order (slot i is entry i): a problem with an
        /// architecture. Their names are found in one index made once per process, not per computation.
        bool catalogue = false;
        /// The spec's own names (values the catalogue does not name, its quantities), keyed by views of the slots'
        /// own names: slots is made at its full size and never grows after.
        std::unordered_map<std::string_view, int> own_names;
        /// What the given values decided while it was built, which revalued() asks again of other values: which
        /// givens have a value (stated, or by default), and each condition the givens settled (a title's, an
        /// availability's, an if() of a formula), with its outcome.
        std::vector<char> stated; ///< the givens with a value of their own
        /// The givens with a value by default (a catalogue entry's), in the order they were found.
        std::vector<int> defaults;
        /// Each condition by where its nodes begin in parsed_nodes().
        std::vector<std::pair<int, std::optional<bool>>> decisions;
        /// Whether its values decided more than that: a slot left without a value by the numbers themselves (a
        /// division by zero, an axis that is not whole), a crossover's root, a word. Such a computation is not
        /// revalued.
        bool numbers_decide = false;
    };
    std::shared_ptr<Structure> m_s;
    /// `text`, kept for the computation's life.
    std::string_view own(std::string text) { return m_s->texts.emplace_back(std::move(text)); }
    /// Each slot's value, made only where one is computed: a rational costs GMP an allocation to make, and most of
    /// a problem's 250-odd slots have none (an attention block has no training run).
    std::vector<std::optional<Number>> m_values;
    /// What value() gives for a slot without one, as a Number made for it would be.
    static const Number& zero() {
        static const Number value;
        return value;
    }
    std::vector<Shape> m_shapes;
    std::map<int, CrossoverWork> m_crossovers;

    /// The values of the given slots: each one `givens` states, then the defaults that follow from them, in rounds
    /// (d_k = d_model / h). Returns which have a value. Building, it keeps which were stated and the order the
    /// defaults were found in; revaluing, it finds the same defaults in that order, and returns an empty list when
    /// other givens are stated or a default cannot be computed.
    std::vector<char> settle_givens(const GivenValues& givens, bool revaluing);
    /// Whether the condition whose nodes begin at `first` in parsed_nodes(), a formula over the givens, holds with
    /// these values; nullopt when it names one without a value (`known`).
    [[nodiscard]] std::optional<bool> settled(int first, const std::vector<char>& known) const;
    /// Every other slot's value, in order. Building (`revaluing` false), a slot the numbers leave without a value
    /// is marked so; revaluing, it makes the result false (the structure would differ). An error is a spec's
    /// formula that fails here.
    Result<bool> compute_values(const spec::Problem& problem, bool revaluing);

    /// The values a change computes anew, over the computation's right ones.
    class Overlay {
      public:
        explicit Overlay(std::size_t slots) : m_position(slots, -1) {}
        [[nodiscard]] const Number* find(int slot) const {
            const int at = m_position[static_cast<std::size_t>(slot)];
            return at < 0 ? nullptr : &m_values[static_cast<std::size_t>(at)];
        }
        void set(int slot, Number value) {
            int& at = m_position[static_cast<std::size_t>(slot)];
            if (at < 0) {
                at = static_cast<int>(m_values.size());
                m_values.push_back(std::move(value));
            } else {
                m_values[static_cast<std::size_t>(at)] = std::move(value);
            }
        }

      private:
        std::vector<int> m_position;
        std::deque<Number> m_values; // a deque never moves what it holds: find()'s pointers stay valid
    };
    /// The value of `formula` (null: the slot's own) in the scope of slot `index`, over `overlay`'s values.
    std::optional<Number> evaluate(int index, const formula::Node* formula, const Overlay* overlay) const;
    /// A shape's axes as laid out under `overlay`'s batch_axis and heads_before_seq (the right ones without).
    Shape laid_out(int index, Shape shape, const Overlay* overlay) const;
    /// The slots `change` computes anew for `target`, each after those it uses, into `overlay`; false when they
    /// cannot be computed (a cycle, a division by zero).
    bool recompute(int target, const Change& change, Overlay& overlay) const;
};

/// `text` kept for the life of the program (a formula resolved for a problem's settings), for catalogue_formula().
std::string_view interned(std::string text);

/// The catalogue's entry named `name`, or nullptr.
const CatalogueEntry* find_entry(std::string_view name);
/// The index in catalogue_entries() of the entry named `name`, or -1: a computation's slot of that entry.
int catalogue_index(std::string_view name);

/// The formula `text` as cmake/catalogue_gen.cpp parsed it when the program was built (equal to formula::parse's
/// tree), or nullopt for a text the catalogue does not have.
std::optional<formula::Node> prebuilt_formula(std::string_view text);
/// Where the nodes of prebuilt formula `text` begin in parsed_nodes(), or -1 for a text the catalogue does not have.
int prebuilt_first(std::string_view text);
/// The value of the prebuilt formula whose nodes begin at `first`, when every step of it is whole and fits in a long
/// (formula/whole.hpp), else nullopt: formula::evaluate of its tree then gives the value, or the error.
std::optional<long> prebuilt_whole_value(int first, const formula::Lookup& lookup);
/// A slot's value by its index, as a catalogue formula's name reads it (ParsedNode::slot): nullptr where it has none.
struct SlotValues {
    const void* context = nullptr;
    const Number* (*value)(const void* context, int slot) = nullptr;
    /// The if()s the problem's givens settled, by where their conditions' nodes begin: each takes the branch it was
    /// settled to, as the resolved text does, whatever a change does to the givens the condition reads.
    const std::vector<std::pair<int, std::optional<bool>>>* decisions = nullptr;
};
/// prebuilt_whole_value with each name read through `slots` by its entry's index rather than by text.
std::optional<long> prebuilt_whole_value(int first, const SlotValues& slots);

/// The value of the prebuilt formula (or condition) whose nodes begin at `first`: its whole value from the tables,
/// else formula::evaluate's of its tree (made for this once), nullopt where that fails (a name `lookup` lacks).
std::optional<Number> prebuilt_value(int first, const formula::Lookup& lookup);

/// A catalogue formula with the conditions a problem settles applied, and the names that text uses.
struct ResolvedRow {
    std::string text;
    std::vector<std::string_view> names; ///< each once, in the order the text writes them first
};
/// formula::resolved of the prebuilt formula `text`, whose nodes begin at `first`, made over the build's tables
/// without its tree: `decide` is asked of each condition by where its nodes begin (as often as the resolving and the
/// names meet it: the build's keeps its answers).
ResolvedRow prebuilt_resolved(int first, std::string_view text, const std::function<std::optional<bool>(int)>& decide);

/// The parsed formula of a catalogue text (an entry's formula, an axis, a mistake's replacement), parsed once.
std::shared_ptr<const formula::Node> catalogue_formula(std::string_view text);

} // namespace headcount::solve

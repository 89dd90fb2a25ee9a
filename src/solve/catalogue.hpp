#pragma once
// The built-in catalogue as data: every quantity headcount counts and every mistake it names, written in the
// formula language in catalogue/*.yaml and compiled into the binary (cmake/catalogue_gen.cpp checks the files and
// writes them out as the tables below, as cmake/embed_templates.cmake does for templates/). Adding a quantity is
// adding an entry there; this header only says what an entry holds.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace headcount::solve {

/// One word a choice ask may be answered with, and other words a student may use for it.
struct Choice {
    std::string_view word;     ///< as printed in solutions and keys
    std::string_view synonyms; ///< space-separated, lower case: words and short phrases joined by '_'
};

/// What a problem must give for an ask to have an answer; flags, combined with |.
enum Needs : unsigned {
    needs_nothing = 0,
    needs_workload = 1,        ///< seq_len (compute, shapes)
    needs_encoder_decoder = 2, ///< decoder layers
    needs_dtype = 4,           ///< a dtype (memory)
    needs_one_stack = 8,       ///< not an encoder-decoder (a decoder's KV cache also holds cross-attention keys)
    needs_self_attention = 16, ///< no seq_len_kv (a model's forward pass attends over its own sequence)
};

/// The symbol a solution writes for one axis of a shape: `text`, or when `when` is set, `text` where the formula
/// `when` holds for the problem and `otherwise` where it does not (m for a key/value length of its own, else n).
struct AxisSymbol {
    std::string_view text;
    std::string_view when = {};
    std::string_view otherwise = {};
};

/// A listed mistake of one entry: the entry computed another way, and what feedback says (Markdown with $…$).
struct EntryMistake {
    std::string_view id;
    std::string_view formula;
    std::string_view feedback;
    std::string_view title; ///< "" for a title made of the id
    std::string_view when;  ///< a condition on the givens under which the mistake can be made ("": always)
};

/// What a training ask reads of the problem's workload (seq_len, batch) beyond its formula's givens.
enum class Workload {
    none,   ///< nothing: the model and the setup alone
    tokens, ///< the step's sequences, counted in bytes: count: macs changes nothing
    flops,  ///< the step's sequences, counted in FLOPs as a GPU's peak_flops is: count: macs is refused
};

/// One entry of the catalogue: a given, or a quantity with its formula; an entry with `ask` set is one a part may
/// ask for.
struct CatalogueEntry {
    std::string_view name; ///< what formulas call it (an ask's id with dots as underscores)
    std::string_view file; ///< the data file it is written in, and where
    int line = 0;
    bool given = false;                    ///< a value the spec states (conditions on givens are applied for a
                                           ///< problem before anything is counted: no named mistake changes a
                                           ///< given, and a change that does, a crossover's point or an accepted
                                           ///< reading, leaves the if()s as they were settled)
    std::string_view formula;              ///< a given's default ("" for none), else the formula ("" for a shape)
    std::string_view title;                ///< what it is, in words; where `title_when` holds for the givens ...
    std::string_view title_when = {};      ///< ... (a condition; "": always)
    std::string_view title_otherwise = {}; ///< ... and this where it does not
    bool derive = false;                   ///< its formula's structure gives derived mistakes, as a spec's own does
    std::string_view available_when = {};  ///< a condition on the givens for it to have a value ("": always)
    std::string_view unavailable = {};     ///< what an ask of it is told where that does not hold
    /// A condition on the computation's values (its own and others') under which a part asking for it is refused
    /// when the spec is read (no batch fits), and why: a message whose {formula|bytes} and {formula|N} are values
    /// written as bytes or to N figures. "" for none.
    std::string_view refused_when = {};
    std::string_view refused = {};
    std::span<const std::string_view> shape = {}; ///< a shape's axes, outermost first, as formulas
    std::span<const AxisSymbol> axes = {};        ///< and the symbols solutions write for them
    std::span<const std::string_view> uses = {};  ///< the names its formula (or its axes) use, once each, in order
    std::span<const short> use_slots = {};        ///< and their entries' indices in catalogue_entries()
    /// The givens without a default it needs under any conditions (through the entries it uses too): a problem
    /// that lacks one has no value for it.
    std::span<const std::string_view> required = {};
    std::span<const short> required_slots = {}; ///< and their entries' indices
    std::string_view missing = {};              ///< a given's: why what needs it has no value where it is not given
    int formula_first = -1;   ///< where its formula's nodes begin in parsed_nodes(), -1 for no formula
    bool conditional = false; ///< its formula has an if(), which a problem's givens may settle
    bool per_head = false;    ///< a per-head tensor: `heads_before_seq` 0 swaps its second and third axes
    std::string_view check;   ///< a formula that holds (is 1) for the right values: the second method's agreement
    // As an ask (ask empty: not askable).
    std::string_view ask;         ///< as written after `ask:` in a spec (q_params, flops.total)
    std::string_view unit;        ///< parameters, dimensions, FLOPs, bytes, shape, term, ...
    std::string_view noun;        ///< what it asks for, to follow "the answer for" in feedback
    std::string_view kind;        ///< mha (any problem) or transformer; its solution's template folder
    std::string_view group;       ///< the shared explanation its solution draws on, or ""
    std::string_view projections; ///< which of Q, K, V, O the answer counts
    unsigned needs = needs_nothing;
    Workload workload = Workload::none;
    std::string_view what = {};                  ///< the reference table's words for what it asks for ("" outside it)
    std::string_view convention = {};            ///< the reference table's words for the convention its solution states
    std::span<const Choice> choices = {};        ///< a choice ask's words; its formula is the chosen word's index
    std::span<const EntryMistake> mistakes = {}; ///< listed mistakes
    /// What its worked solution says beyond the formula: Markdown with $…$, a Mustache template over the problem's
    /// settings ("" for none).
    std::string_view explanation = {};
};

/// One entry's formula as a mistake changes it.
struct Replacement {
    std::string_view name;
    std::string_view formula;
};

/// One named mistake of the catalogue (catalogue/mistakes.yaml): a change to the computation, or (with no change) a
/// way of writing an answer that is tested on the answer itself.
struct CatalogueMistake {
    std::string_view id;
    std::string_view title;
    std::string_view aspect;  ///< two mistakes about the same aspect are never paired
    std::string_view answers; ///< the types of answer its template is written for: counts bytes shapes choices
    double credit = 0;
    bool whole_block = false; ///< not offered on a part about one projection
    std::span<const Replacement> change = {};
    std::span<const Replacement> alternative = {}; ///< a second way of making it, tried too
    std::string_view file;
    int line = 0;
};

/// Every entry, in the order of the data files (attention, model, compute, shapes, memory, training): asks are listed
/// in this order.
std::span<const CatalogueEntry> catalogue_entries();

/// The hash of an entry's name in catalogue_name_index(): FNV-1a, 32 bits.
constexpr std::uint32_t catalogue_name_hash(std::string_view name) {
    std::uint32_t hash = 2166136261u;
    for (const char c : name) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 16777619u;
    }
    return hash;
}

/// The entries by name, as an open-addressed table made when the program is compiled (catalogue_index() reads it;
/// a process then makes no index of its own): a name's entry is at or after slot hash & (size - 1), with wrap-around,
/// before the first empty slot (-1). Its size is a power of two at least twice the number of entries.
template <std::size_t Size, std::size_t Count>
constexpr std::array<short, Size> make_catalogue_name_index(const CatalogueEntry (&entries)[Count]) {
    static_assert((Size & (Size - 1)) == 0 && Size >= 2 * Count && Count < 32768);
    std::array<short, Size> table{};
    table.fill(-1);
    for (std::size_t i = 0; i < Count; ++i) {
        std::size_t at = catalogue_name_hash(entries[i].name) & (Size - 1);
        while (table[at] >= 0)
            at = (at + 1) & (Size - 1);
        table[at] = static_cast<short>(i);
    }
    return table;
}

/// catalogue_entries() by name (make_catalogue_name_index's table).
std::span<const short> catalogue_name_index();

/// Every named mistake, in the order the grader names them.
std::span<const CatalogueMistake> catalogue_mistakes();

/// A fact a worked solution's explanation may test (`{{#shards_weights}}`): a condition on the givens.
struct CatalogueFact {
    std::string_view name;
    std::string_view formula;
};

/// The facts of the catalogue's explanations.
std::span<const CatalogueFact> catalogue_facts();

/// One node of a catalogue formula as cmake/catalogue_gen.cpp parsed it, in pre-order (a node, then each child's
/// subtree): the fields of formula::Node, so that a process builds the tree without lexing and parsing it again.
struct ParsedNode {
    unsigned char op = 0; ///< formula::Node::Op
    bool parenthesized = false;
    unsigned short children = 0; ///< how many subtrees follow it
    int column = 1;
    unsigned begin = 0;
    unsigned end = 0;
    std::string_view text;
    std::string_view source;
    std::string_view value;   ///< a number's exact value as mpq writes it ("9/20"), "" for no value
    std::string_view inverse; ///< one '0' or '1' per child of a sum or product, "" where the node has none
    short slot = -1;          ///< a name's entry in catalogue_entries() (every name a catalogue formula uses is one)
    bool is_whole = false;    ///< a number whose value is whole and fits a long: `whole`
    long whole = 0;
};

/// A catalogue formula's text and its nodes' place in parsed_nodes().
struct ParsedFormula {
    std::string_view text;
    unsigned first = 0;
    unsigned count = 0;
};

/// Every formula text of the catalogue, parsed, sorted by text (bytewise), each once.
std::span<const ParsedFormula> parsed_formulas();
/// The nodes of parsed_formulas(), each formula's together.
std::span<const ParsedNode> parsed_nodes();

} // namespace headcount::solve

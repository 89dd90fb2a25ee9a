#pragma once
// Plain structs for a problem spec: what the YAML says, validated, with positions kept for later errors.

#include <formula/formula.hpp>
#include <util/checked.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::solve {
struct CatalogueEntry; // solve/catalogue.hpp: a row of the built-in catalogue, plain data
} // namespace headcount::solve

namespace headcount::spec {

/// A 1-based position in the spec file, for errors found after reading (e.g. an unknown ask).
struct Mark {
    int line = 0;
    int column = 0;
};

/// Which projections carry a bias vector. PyTorch's default is bias on all four.
struct BiasFlags {
    bool q = true;
    bool k = true;
    bool v = true;
    bool o = true;
};

/// The architecture of one multi-head attention block as the instructor gave it; unset optionals take defaults.
struct MhaGivens {
    Count d_model = 0;
    Count h = 0;
    std::optional<Count> d_k;        ///< per-head query/key width; default d_model / h
    std::optional<Count> d_v;        ///< per-head value width; default d_model / h
    std::optional<Count> kdim;       ///< key input width; default d_model
    std::optional<Count> vdim;       ///< value input width; default d_model
    std::optional<Count> n_kv_heads; ///< key/value heads (grouped-query attention); default h
    BiasFlags bias;
    bool bias_given_per_projection = false; ///< `bias:` was a map rather than one flag
    bool add_bias_kv = false;               ///< PyTorch's extra bias_k and bias_v
};

/// The rest of a whole transformer (kind: transformer), beyond its attention block (d_model, h, n_kv_heads and
/// the attention biases stay in MhaGivens). Counts default to 0 (absent); flags to PyTorch / Hugging Face habits.
struct ModelGivens {
    enum class Norm { layernorm, rmsnorm, none };
    enum class Ffn { mlp, gated };
    enum class Head { none, linear, mlm };
    Count d_ff = 0;
    Count layers = 0;         ///< one stack of self-attention layers (encoder-only or decoder-only)
    Count encoder_layers = 0; ///< encoder-decoder: encoder layers
    Count decoder_layers = 0; ///< encoder-decoder: decoder layers, each with cross-attention
    Count vocab = 0;          ///< token embedding rows; 0: no token embedding (nn.Transformer)
    Count max_positions = 0;  ///< learned position embedding rows; 0: none (sinusoidal, RoPE)
    Count type_vocab = 0;     ///< token type (segment) embedding rows (BERT)
    /// Mixture of experts: each layer's FFN is `experts` copies of the FFN d_ff describes, and a router (a
    /// d_model x experts matrix, no bias) sends each token to `top_k` of them. 0: a dense FFN.
    Count experts = 0;
    Count top_k = 0;
    Norm norm = Norm::layernorm;
    bool norm_bias = true; ///< LayerNorm's beta; RMSNorm has none
    Ffn ffn = Ffn::mlp;    ///< gated: three matrices (SwiGLU), mlp: two
    bool ffn_bias = true;
    bool embedding_norm = false; ///< a norm after the embeddings (BERT, RoBERTa)
    bool final_norm = false;     ///< a norm after each stack (GPT-2, LLaMA, nn.Transformer)
    bool pooler = false;         ///< BERT's pooler: a d_model x d_model linear with bias
    Head lm_head = Head::none;   ///< linear: vocab x d_model; mlm: BERT/RoBERTa's dense + norm + decoder
    bool lm_head_bias = false;   ///< a vocab-wide bias on a linear head (an mlm head always has one)
    bool tied_embeddings = true; ///< the head's vocab x d_model weight is the token embedding, counted once
};

/// What the block computes on, for compute (FLOP) asks, and the counting conventions, which tools disagree on
/// and every solution states.
struct Workload {
    Count batch = 1;
    Count seq_len = 0;               ///< n: query positions
    std::optional<Count> seq_len_kv; ///< key/value positions (cross-attention); default seq_len
    bool macs = false;               ///< count: macs counts a multiply-add once; flops (default) twice
    bool softmax = false;            ///< count the softmax: 3 FLOPs per score (exponential, sum, division)
    bool biases = false;             ///< count one addition per output element of a biased projection
    /// causal: true, a decoder's mask: QK^T, the softmax and AV count the unmasked half of the n^2 scores, as
    /// Megatron-LM's num_floating_point_operations and Kaplan et al. (2020) do (the exact unmasked count, the
    /// diagonal included, is n(n+1)/2 per head; the solutions say so).
    bool causal = false;
};

/// The number format a model's values are stored in, for memory asks.
struct Precision {
    std::string dtype; ///< fp64, fp32, fp16, bf16, fp8, int8 or int4, as written
    Count bits = 0;    ///< bits per value: a multiple of 8, or 4 (int4 packs two values to a byte)
};

/// How close an answer must be to count as right. Counts default to exact.
struct Tolerance {
    enum class Kind { exact, relative, sigfigs };
    Kind kind = Kind::exact;
    double relative = 0; ///< with Kind::relative: |answer - expected| <= relative * |expected|
    int sigfigs = 0;     ///< with Kind::sigfigs: the answer agrees with the expected value to this many figures
};

/// How much of the right answer feedback may show a student. Ordered: each level shows what the one before does.
enum class Reveal {
    hints, ///< the mistake named and explained in words and the problem's stated givens; no derived number
    gaps,  ///< also the difference from the right answer and the mistake's numbers (from which the answer follows)
    full,  ///< also the expected value
};

/// "hints", "gaps", "full": as written in specs and JSON.
std::string_view reveal_name(Reveal reveal);

/// Another reading of a part that a course accepts (`accept:`, issue 39 rule 7): a formula over the problem's names,
/// or some givens read another way (memory_budget: 80 GiB where the spec says 80 GB), each with its credit and the
/// sentence feedback shows when an answer matches it.
struct Accepted {
    struct Given {
        std::string name;
        formula::Number value; ///< read this way, in the given's base unit
        std::string text;      ///< as written under `accept:`
    };
    std::shared_ptr<const formula::Node> formula; ///< set for `formula:`
    std::vector<Given> givens;                    ///< set for `given:`
    double credit = 1;                            ///< of the part's points
    std::string feedback;                         ///< the sentence feedback shows
    Mark mark;                                    ///< where the entry stands
};

/// One question of a problem.
struct Part {
    std::string id;
    std::string ask;
    double points = 1.0;
    std::optional<std::string> text;      ///< the instructor's own wording of the question
    Mark ask_mark;                        ///< where `ask:` stands, for errors about it
    std::optional<Tolerance> tolerance;   ///< unset: the ask's default (exact for counts)
    std::map<std::string, double> credit; ///< partial credit per mistake id (0..1), overriding the catalogue's
    std::optional<Reveal> feedback;       ///< unset: the problem's policy
    std::optional<int> attempts;          ///< checks a student may make in serve; unset: the problem's
    Mark tolerance_mark;                  ///< where `tolerance:` stands, for errors about it
    /// It asks for a defined quantity whose value may be irrational (formula::inexact, itself or a quantity it uses):
    /// its default tolerance is {sigfigs: 3}, and `tolerance: exact` is refused.
    bool inexact = false;
    std::vector<Accepted> accept; ///< other readings the course accepts
    /// `answer: formula`: the answer is the quantity as a formula in the givens (12*layers*d_model^2), judged equal
    /// to the right one by its values at the spec's givens and at random points (grade/formula_answer.hpp).
    bool formula_answer = false;
    Mark answer_mark; ///< where `answer:` stands
};

/// One given that differs between students' variants, and the values it may take (flags as 0/1).
struct Variation {
    std::string key;
    std::vector<std::int64_t> values;
    Mark mark; ///< where the key stands in `vary:`
};

/// A given that is not part of an architecture, for the spec's own formulas (n_params, tokens, mfu: 0.45): an
/// exact number, as written.
struct Value {
    formula::Number value; ///< in the unit's base: bytes, seconds, FLOP/s, a fraction for %
    std::string text;      ///< as written in the spec
    Mark mark;             ///< where its key stands in `given`
    /// The unit it was written in (TB/s for `hbm_bandwidth: 3.35 TB/s`, as formula::known_unit spells it), "" for
    /// a bare number; `value` is the number times `scale`, the unit's size in its base.
    std::string unit;
    formula::Number scale = 1;
};

/// The givens a spec's formulas may use by name, beyond its architecture.
using Values = std::map<std::string, Value, std::less<>>;

/// A mistake an instructor lists for a defined quantity: what a student who made it would compute, and what to say.
struct ListedMistake {
    std::string id;
    formula::Node formula;
    std::string formula_text;
    std::string feedback; ///< Markdown with $…$, shown under every reveal policy: it must not give the answer away
    /// One line naming the slip (`title:`); when the spec gives none, its feedback's first sentence (mistake_title()).
    std::string title;
    Mark mark; ///< where the mistake's `id:` stands
};

/// The title of a listed mistake: its own, else the first sentence of its feedback (up to '.', ';' or ':', at most
/// 100 bytes, cut at a word), else its id in words ("weights only"), so that a report and a feedback file never show
/// a bare id ("Bubble over m").
std::string mistake_title(std::string_view title, std::string_view feedback, std::string_view id);

/// One word of a quantity answered with a word (`choices:`), and the condition under which it is the answer.
struct WordChoice {
    std::string word;                       ///< as written: what the solution names and a student types
    std::optional<formula::Node> condition; ///< nullopt for `otherwise`
    std::string condition_text;             ///< as written
    Mark mark;                              ///< where the condition (or `otherwise`) stands
};

/// A crossover (`solve_for:`): the value of a given at which two formulas over the problem's names are equal.
struct Crossover {
    std::string given;        ///< the given solved for
    formula::Node left;       ///< A of `equation: A = B`
    formula::Node right;      ///< B
    std::string equation;     ///< as written
    formula::Number low = 0;  ///< a root is looked for in (low, high]
    formula::Number high = 0; ///< (`range:`, else (0, 10^15])
    Mark given_mark;          ///< where `solve_for:` stands
    Mark equation_mark;       ///< where the equation's text starts
};

/// A quantity the spec defines (`quantities:`): a formula over the givens, the other defined quantities and the
/// built-in quantities of the problem's kind (an ask's id with dots as underscores: model_params).
struct Quantity {
    std::string name;
    /// What a part's `ask:` names it by: its name, or for one of headcount's own formulas (src/spec/training.hpp)
    /// the ask's id with its dots (memory.training, whose name in formulas is memory_training).
    std::string ask;
    bool builtin = false;   ///< one of headcount's own formulas, not the spec's
    bool redefines = false; ///< the spec's own formula, in place of headcount's built-in of the same name
    /// For one of headcount's own, the catalogue row it is made from (its choices, for an answer that is a word);
    /// nullptr for the spec's own.
    const solve::CatalogueEntry* row = nullptr;
    std::string title; ///< used in questions, solutions and feedback ("training compute")
    std::string unit;  ///< as written: FLOPs, parameters, bytes, GiB, days, FLOP/s, percent, "" ...
    formula::Node formula;
    std::string formula_text; ///< as written
    std::vector<ListedMistake> mistakes;
    std::optional<std::string> explanation; ///< Markdown with $…$, shown in the worked solution
    /// For one of headcount's own (a catalogue row's), the explanation is a Mustache template over these words:
    /// each fact of the catalogue ("1" where it holds, "" where not) and a few of the setup's (spec/training.cpp).
    std::vector<std::pair<std::string, std::string>> explanation_words;
    Mark mark;         ///< where the quantity's name stands
    Mark formula_mark; ///< where its formula's text starts (column 1 of the formula)
    /// `choices:`: the words it is answered with, in order; its formula is then the index of the word whose
    /// condition holds (if(c0, 0, if(c1, 1, 2))), and `row` an entry made for it that holds the words.
    std::vector<WordChoice> choices;
    /// `solve_for:`: its value is the given's at which the equation holds; its formula is A - B.
    std::optional<Crossover> crossover;
};

/// Everything a `vary:` may change, i.e. one student's variant: the attention block, the rest of a transformer
/// and the workload, laid out as in Problem (a variant shares every other field with its spec).
struct Givens {
    MhaGivens given;
    std::optional<ModelGivens> model;
    std::optional<Workload> workload;
    Values values; ///< the givens beyond the architecture
};

/// One problem spec file.
struct Problem {
    std::string file; ///< path as given on the command line, for messages
    std::string id;
    std::string title;
    std::string kind = "mha";           ///< mha, transformer, or quantities (only defined quantities, no architecture)
    MhaGivens given;                    ///< the attention block (for kind: transformer, that of every layer)
    std::optional<ModelGivens> model;   ///< set exactly when kind is transformer
    std::optional<Workload> workload;   ///< set when `given` has seq_len
    std::optional<Precision> precision; ///< set when `given` has dtype
    Values values;                      ///< givens beyond the architecture, for `quantities:`
    /// `model:`'s preset, when the architecture comes from one: its name (llama-2-7b) and title (LLaMA-2-7B).
    std::string model_preset, model_title;
    /// The training setup as numbers the catalogue's formulas read (mixed_precision, optimizer_moments, zero_stage,
    /// lora_q, ...): not shown as givens (`setup` says them in words); unset ones take the catalogue's defaults.
    std::map<std::string, formula::Number, std::less<>> settings;
    /// What a value means, for the givens a sheet lists (gpus: "GPUs"), where headcount knows; else its name.
    std::map<std::string, std::string, std::less<>> meanings;
    /// The training setup in words (a key as written, and what its value means), for the sheet's givens.
    std::vector<std::pair<std::string, std::string>> setup;
    /// `quantities:` in dependency order (a quantity after those it uses); shared by every variant, which changes
    /// only the values. Null when the spec defines none.
    std::shared_ptr<const std::vector<Quantity>> quantities;
    std::vector<Part> parts;
    std::vector<Variation> vary;    ///< empty: every student gets `given` as written
    bool distinct = false;          ///< every student of a class must get different answers to every part
    std::optional<Reveal> feedback; ///< unset: hints, the safe default
    std::optional<int> attempts;    ///< checks a student may make of each part in serve; unset: serve's default

    /// The reveal policy of `part` (one of this problem's): its own, else the problem's, else hints.
    [[nodiscard]] Reveal reveal_for(const Part& part) const {
        return part.feedback.value_or(feedback.value_or(Reveal::hints));
    }

    /// How many checks of `part` (one of this problem's) a student may make: its own limit, else the problem's,
    /// else nullopt (serve's --attempts, or none).
    [[nodiscard]] std::optional<int> attempts_for(const Part& part) const {
        return part.attempts ? part.attempts : attempts;
    }
};

} // namespace headcount::spec

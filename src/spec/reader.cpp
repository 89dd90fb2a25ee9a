#include <spec/reader.hpp>

#include <spec/givens.hpp>
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

constexpr std::array<std::string_view, 9> k_top_keys{"id",   "title",    "kind",     "given",   "parts",
                                                    "vary", "distinct", "feedback", "attempts"};
constexpr std::array<std::string_view, 16> k_given_keys{
    "d_model",    "h",     "d_k",   "d_v",     "kdim",    "vdim",       "bias", "n_kv_heads",
    "add_bias_kv", "batch", "seq_len", "seq_len_kv", "count", "softmax", "flop_biases", "dtype"};
constexpr std::array<std::string_view, 8> k_part_keys{"id",        "ask",    "points",   "text",
                                                     "tolerance", "credit", "feedback", "attempts"};
constexpr std::array<std::pair<std::string_view, Reveal>, 3> k_reveals{
    {{"hints", Reveal::hints}, {"gaps", Reveal::gaps}, {"full", Reveal::full}}};
constexpr std::array<std::string_view, 4> k_bias_keys{"q", "k", "v", "o"};
constexpr std::array<std::string_view, 2> k_kinds{"mha", "transformer"};
// A transformer's `given`: its attention block's keys, then the rest of the model.
constexpr std::array<std::string_view, 28> k_model_keys{
    "batch", "seq_len", "seq_len_kv", "count", "softmax", "flop_biases", "dtype",
    "d_model",   "h",          "n_kv_heads",    "bias",           "d_ff",        "layers",       "encoder_layers",
    "decoder_layers", "vocab", "max_positions", "type_vocab",     "norm",        "norm_bias",    "ffn",
    "ffn_bias",  "embedding_norm", "final_norm", "pooler",         "lm_head",     "lm_head_bias", "tied_embeddings"};

template <std::size_t N> bool listed(const std::array<std::string_view, N>& keys, std::string_view key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}

/// Where a key that is unknown in one mapping belongs instead, as a clause for the message, or "" when it belongs
/// nowhere: `distinct` written inside `vary:` is a misplaced key, not a misspelt given.
std::string where_it_belongs(std::string_view key, std::string_view where) {
    if (where != "the problem" && listed(k_top_keys, key))
        return fmt::format(": '{}' belongs at the top level of the spec, beside 'vary:' and 'parts:'", key);
    if (where != "part" && listed(k_part_keys, key))
        return fmt::format(": '{}' belongs in a part, under 'parts:'", key);
    if (where != "given" && (listed(k_given_keys, key) || listed(k_model_keys, key)))
        return fmt::format(": '{}' belongs under 'given:'", key);
    return {};
}

Mark mark_of(const YAML::Node& node) {
    const YAML::Mark m = node.Mark();
    return m.is_null() ? Mark{} : Mark{m.line + 1, m.column + 1};
}

/// Turns "what went wrong at this node" into a located Error.
class Reader {
  public:
    explicit Reader(std::string file) : m_file(std::move(file)) {}

    std::unexpected<Error> error_at(const YAML::Node& node, std::string message) const {
        return error_at(mark_of(node), std::move(message));
    }
    std::unexpected<Error> error_at(Mark mark, std::string message) const {
        return std::unexpected(Error{m_file, mark.line, mark.column, std::move(message)});
    }

    /// Checks a mapping's keys: each known, none repeated. `where` names the mapping in messages.
    Result<void> check_keys(const YAML::Node& map, std::span<const std::string_view> known,
                            std::string_view where) const {
        std::set<std::string> seen;
        for (const auto& entry : map) {
            const std::string key = entry.first.Scalar();
            if (std::find(known.begin(), known.end(), key) == known.end()) {
                const std::string elsewhere = where_it_belongs(key, where);
                return error_at(entry.first, fmt::format("unknown key '{}' in {}{}", key, where,
                                                         elsewhere.empty() ? did_you_mean(key, known) : elsewhere));
            }
            if (!seen.insert(key).second)
                return error_at(entry.first, fmt::format("duplicate key '{}' in {}", key, where));
        }
        return {};
    }

    Result<YAML::Node> required(const YAML::Node& map, const char* key, std::string_view where) const {
        YAML::Node value = map[key];
        if (!value)
            return error_at(map, fmt::format("missing required key '{}' in {}", key, where));
        return value;
    }

    Result<std::string> string_of(const YAML::Node& node, std::string_view key) const {
        if (!node.IsScalar() || node.Scalar().empty())
            return error_at(node, fmt::format("{} must be a non-empty string", key));
        return node.Scalar();
    }

    /// Ids end up in file names and CSV cells: letters, digits, '-', '_', '.', not starting with '.'.
    Result<std::string> id_of(const YAML::Node& node, std::string_view key) const {
        auto text = string_of(node, key);
        if (!text)
            return text;
        const bool safe = text->size() <= 64 && text->front() != '.' &&
                          std::all_of(text->begin(), text->end(), [](char c) {
                              return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
                          });
        if (!safe)
            return error_at(node, fmt::format("{} '{}' must be 1-64 letters, digits, '-', '_' or '.' (not starting "
                                              "with '.')",
                                              key, *text));
        return text;
    }

    Result<Count> positive_integer(const YAML::Node& node, std::string_view key) const {
        const std::string text = node.IsScalar() ? node.Scalar() : std::string();
        const bool digits = !text.empty() && std::all_of(text.begin(), text.end(),
                                                         [](char c) { return c >= '0' && c <= '9'; });
        if (!node.IsScalar() || !digits || node.Tag() == "!" ||
            text.find_first_not_of('0') == std::string::npos)
            return error_at(node, fmt::format("{} must be a positive integer, got {}", key, describe(node)));
        const std::string_view significant = std::string_view(text).substr(text.find_first_not_of('0'));
        if (significant.size() > 18) // 10^18 and up: products of such sizes overflow any 64-bit count
            return error_at(
                node, fmt::format("{} is too large: {} is over 10^18, the largest size headcount reads", key,
                                  significant.size() <= 24
                                      ? std::string(significant)
                                      : fmt::format("a {}-digit number",
                                                    with_thousands(static_cast<Count>(significant.size())))));
        return std::stoll(std::string(significant));
    }

    /// `attempts:`, the checks a student may make of a part in serve: 1 to 10,000.
    Result<int> attempts(const YAML::Node& node) const {
        auto value = positive_integer(node, "attempts");
        if (!value)
            return std::unexpected(value.error());
        if (*value > 10'000)
            return error_at(node, fmt::format("attempts must be at most 10,000, got {}",
                                              with_thousands(static_cast<Count>(*value))));
        return static_cast<int>(*value);
    }

    Result<bool> boolean(const YAML::Node& node, std::string_view key) const {
        if (node.IsScalar() && node.Tag() != "!") {
            if (node.Scalar() == "true")
                return true;
            if (node.Scalar() == "false")
                return false;
        }
        return error_at(node, fmt::format("{} must be true or false, got {}", key, describe(node)));
    }

    Result<double> points(const YAML::Node& node) const {
        if (node.IsScalar() && node.Tag() != "!") {
            std::istringstream in(node.Scalar());
            double value = 0;
            if (in >> value && in.eof() && value >= 0 && value <= 1e6)
                return value;
        }
        return error_at(node, fmt::format("points must be a number from 0 to 1000000, got {}", describe(node)));
    }

    /// A number from 0 to 1.
    Result<double> fraction(const YAML::Node& node, std::string_view key) const {
        if (node.IsScalar() && node.Tag() != "!") {
            std::istringstream in(node.Scalar());
            double value = 0;
            if (in >> value && in.eof() && value >= 0 && value <= 1)
                return value;
        }
        return error_at(node, fmt::format("{} must be a number from 0 to 1, got {}", key, describe(node)));
    }

    static std::string describe(const YAML::Node& node) {
        if (node.IsMap())
            return "a mapping";
        if (node.IsSequence())
            return "a list";
        if (node.IsNull())
            return "nothing";
        // Quoted in a message, so cut short and without control characters (printable).
        return node.Tag() == "!" ? fmt::format("the quoted string \"{}\"", printable(node.Scalar()))
                                 : fmt::format("'{}'", printable(node.Scalar()));
    }

  private:
    std::string m_file;
};

Result<BiasFlags> read_bias(const Reader& r, const YAML::Node& node, bool& per_projection) {
    BiasFlags flags;
    if (!node.IsMap()) {
        auto all = r.boolean(node, "bias");
        if (!all)
            return std::unexpected(all.error());
        flags.q = flags.k = flags.v = flags.o = *all;
        per_projection = false;
        return flags;
    }
    per_projection = true;
    if (auto ok = r.check_keys(node, k_bias_keys, "bias"); !ok)
        return std::unexpected(ok.error());
    // A projection left out of the map keeps PyTorch's default: it has a bias.
    for (auto [key, slot] : {std::pair{"q", &flags.q}, {"k", &flags.k}, {"v", &flags.v}, {"o", &flags.o}}) {
        if (const YAML::Node value = node[key]) {
            auto flag = r.boolean(value, fmt::format("bias.{}", key));
            if (!flag)
                return std::unexpected(flag.error());
            *slot = *flag;
        }
    }
    return flags;
}

Result<MhaGivens> read_mha_givens(const Reader& r, const YAML::Node& given,
                                  std::span<const std::string_view> keys = k_given_keys) {
    if (!given.IsMap())
        return r.error_at(given, "given must be a mapping of sizes, e.g. {d_model: 512, h: 8}");
    if (keys.data() == k_given_keys.data()) {
        // A whole model's key in an attention block's spec: the kind is missing, not the key misspelt.
        for (const auto& entry : given) {
            const std::string key = entry.first.Scalar();
            if (std::find(k_given_keys.begin(), k_given_keys.end(), key) == k_given_keys.end() &&
                std::find(k_model_keys.begin(), k_model_keys.end(), key) != k_model_keys.end())
                return r.error_at(entry.first, fmt::format("'{}' describes a whole transformer; add 'kind: "
                                                           "transformer' to the spec",
                                                           key));
        }
    }
    if (auto ok = r.check_keys(given, keys, "given"); !ok)
        return std::unexpected(ok.error());

    MhaGivens g;
    auto d_model = r.required(given, "d_model", "given");
    if (!d_model)
        return std::unexpected(d_model.error());
    auto h = r.required(given, "h", "given");
    if (!h)
        return std::unexpected(h.error());
    auto d_model_value = r.positive_integer(*d_model, "d_model");
    if (!d_model_value)
        return std::unexpected(d_model_value.error());
    auto h_value = r.positive_integer(*h, "h");
    if (!h_value)
        return std::unexpected(h_value.error());
    g.d_model = *d_model_value;
    g.h = *h_value;

    for (auto [key, slot] : {std::pair{"d_k", &g.d_k}, {"d_v", &g.d_v}, {"kdim", &g.kdim}, {"vdim", &g.vdim},
                             {"n_kv_heads", &g.n_kv_heads}}) {
        if (const YAML::Node value = given[key]) {
            auto number = r.positive_integer(value, key);
            if (!number)
                return std::unexpected(number.error());
            *slot = *number;
        }
    }
    if (const YAML::Node bias = given["bias"]) {
        auto flags = read_bias(r, bias, g.bias_given_per_projection);
        if (!flags)
            return std::unexpected(flags.error());
        g.bias = *flags;
    }
    if (const YAML::Node extra = given["add_bias_kv"]) {
        auto flag = r.boolean(extra, "add_bias_kv");
        if (!flag)
            return std::unexpected(flag.error());
        g.add_bias_kv = *flag;
    }

    if (const auto problem = check_givens(g))
        return r.error_at(given[problem->key], problem->message);
    return g;
}

Result<Tolerance> read_tolerance(const Reader& r, const YAML::Node& node) {
    if (node.IsScalar() && node.Scalar() == "exact")
        return Tolerance{};
    if (node.IsMap() && node.size() == 1) {
        if (const YAML::Node rel = node["rel"]) {
            auto value = r.fraction(rel, "tolerance rel");
            if (!value)
                return std::unexpected(value.error());
            return Tolerance{Tolerance::Kind::relative, *value, 0};
        }
        if (const YAML::Node sigfigs = node["sigfigs"]) {
            auto value = r.positive_integer(sigfigs, "tolerance sigfigs");
            if (!value)
                return std::unexpected(value.error());
            if (*value > 15)
                return r.error_at(sigfigs, "tolerance sigfigs must be at most 15");
            return Tolerance{Tolerance::Kind::sigfigs, 0, static_cast<int>(*value)};
        }
    }
    return r.error_at(node, "tolerance must be exact, {rel: 0.01} or {sigfigs: 3}");
}

Result<std::map<std::string, double>> read_credit(const Reader& r, const YAML::Node& node,
                                                  std::span<const std::string_view> mistakes) {
    if (!node.IsMap())
        return r.error_at(node, "credit must map mistake ids to a fraction of the points, e.g. {missing_biases: 0.5}");
    if (auto ok = r.check_keys(node, mistakes, "credit (mistake ids)"); !ok)
        return std::unexpected(ok.error());
    std::map<std::string, double> credit;
    for (const auto& entry : node) {
        auto value = r.fraction(entry.second, fmt::format("credit for {}", entry.first.Scalar()));
        if (!value)
            return std::unexpected(value.error());
        credit[entry.first.Scalar()] = *value;
    }
    return credit;
}

/// One of a fixed set of words (norm: layernorm), with a did-you-mean.
template <class Enum, std::size_t N>
Result<Enum> choice(const Reader& r, const YAML::Node& node, std::string_view key,
                    const std::array<std::pair<std::string_view, Enum>, N>& options) {
    std::vector<std::string_view> words;
    for (const auto& [word, value] : options) {
        if (node.IsScalar() && node.Scalar() == word)
            return value;
        words.push_back(word);
    }
    std::string list;
    for (std::string_view w : words)
        list += (list.empty() ? "" : ", ") + std::string(w);
    return r.error_at(node, fmt::format("{} must be one of {}, got {}{}", key, list, Reader::describe(node),
                                        node.IsScalar() ? did_you_mean(node.Scalar(), words) : std::string()));
}

Result<Part> read_part(const Reader& r, const YAML::Node& node, const Vocabulary& words) {
    const std::span<const std::string_view> known_asks = words.asks;
    if (!node.IsMap())
        return r.error_at(node, "each part must be a mapping with at least 'id' and 'ask'");
    if (auto ok = r.check_keys(node, k_part_keys, "part"); !ok)
        return std::unexpected(ok.error());
    Part part;
    auto id = r.required(node, "id", "part");
    if (!id)
        return std::unexpected(id.error());
    auto id_text = r.id_of(*id, "part id");
    if (!id_text)
        return std::unexpected(id_text.error());
    part.id = *id_text;

    auto ask = r.required(node, "ask", fmt::format("part '{}'", part.id));
    if (!ask)
        return std::unexpected(ask.error());
    auto ask_text = r.string_of(*ask, "ask");
    if (!ask_text)
        return std::unexpected(ask_text.error());
    if (std::find(known_asks.begin(), known_asks.end(), *ask_text) == known_asks.end())
        return r.error_at(*ask, fmt::format("unknown ask '{}' in part '{}'{}", *ask_text, part.id,
                                            did_you_mean(*ask_text, known_asks)));
    part.ask = *ask_text;
    part.ask_mark = mark_of(*ask);

    if (const YAML::Node points = node["points"]) {
        auto value = r.points(points);
        if (!value)
            return std::unexpected(value.error());
        part.points = *value;
    }
    if (const YAML::Node text = node["text"]) {
        auto value = r.string_of(text, "text");
        if (!value)
            return std::unexpected(value.error());
        part.text = *value;
    }
    if (const YAML::Node tolerance = node["tolerance"]) {
        auto value = read_tolerance(r, tolerance);
        if (!value)
            return std::unexpected(value.error());
        part.tolerance = *value;
    }
    if (const YAML::Node credit = node["credit"]) {
        auto value = read_credit(r, credit, words.mistakes);
        if (!value)
            return std::unexpected(value.error());
        part.credit = std::move(*value);
    }
    if (const YAML::Node feedback = node["feedback"]) {
        auto value = choice(r, feedback, "feedback", k_reveals);
        if (!value)
            return std::unexpected(value.error());
        part.feedback = *value;
    }
    if (const YAML::Node attempts = node["attempts"]) {
        auto value = r.attempts(attempts);
        if (!value)
            return std::unexpected(value.error());
        part.attempts = *value;
    }
    return part;
}

/// `dtype:` in a `given`, or nullopt when it has none.
Result<std::optional<Precision>> read_precision(const Reader& r, const YAML::Node& given) {
    const YAML::Node dtype = given["dtype"];
    if (!dtype)
        return std::optional<Precision>{};
    auto bytes = choice(r, dtype, "dtype",
                        std::array{std::pair{std::string_view("fp64"), Count{8}}, std::pair{std::string_view("fp32"), Count{4}},
                                   std::pair{std::string_view("fp16"), Count{2}}, std::pair{std::string_view("bf16"), Count{2}},
                                   std::pair{std::string_view("int8"), Count{1}}});
    if (!bytes)
        return std::unexpected(bytes.error());
    return std::optional<Precision>{Precision{dtype.Scalar(), *bytes}};
}

/// The model part of a transformer's `given` (its attention keys are read by read_mha_givens).
Result<ModelGivens> read_model_givens(const Reader& r, const YAML::Node& given) {
    using M = ModelGivens;
    M m;
    auto d_ff = r.required(given, "d_ff", "given");
    if (!d_ff)
        return std::unexpected(d_ff.error());
    auto d_ff_value = r.positive_integer(*d_ff, "d_ff");
    if (!d_ff_value)
        return std::unexpected(d_ff_value.error());
    m.d_ff = *d_ff_value;
    for (auto [key, slot] : {std::pair{"layers", &m.layers}, {"encoder_layers", &m.encoder_layers},
                             {"decoder_layers", &m.decoder_layers}, {"vocab", &m.vocab},
                             {"max_positions", &m.max_positions}, {"type_vocab", &m.type_vocab}}) {
        if (const YAML::Node value = given[key]) {
            // 0 is allowed: "no token embedding", "no learned positions".
            auto number = value.IsScalar() && value.Scalar() == "0" ? Result<Count>(0) : r.positive_integer(value, key);
            if (!number)
                return std::unexpected(number.error());
            *slot = *number;
        }
    }
    for (auto [key, slot] : {std::pair{"norm_bias", &m.norm_bias}, {"ffn_bias", &m.ffn_bias},
                             {"embedding_norm", &m.embedding_norm}, {"final_norm", &m.final_norm},
                             {"pooler", &m.pooler}, {"lm_head_bias", &m.lm_head_bias},
                             {"tied_embeddings", &m.tied_embeddings}}) {
        if (const YAML::Node value = given[key]) {
            auto flag = r.boolean(value, key);
            if (!flag)
                return std::unexpected(flag.error());
            *slot = *flag;
        }
    }
    if (const YAML::Node norm = given["norm"]) {
        auto value = choice(r, norm, "norm", std::array{std::pair{std::string_view("layernorm"), M::Norm::layernorm},
                                                        std::pair{std::string_view("rmsnorm"), M::Norm::rmsnorm}});
        if (!value)
            return std::unexpected(value.error());
        m.norm = *value;
    }
    if (const YAML::Node ffn = given["ffn"]) {
        auto value = choice(r, ffn, "ffn", std::array{std::pair{std::string_view("mlp"), M::Ffn::mlp},
                                                      std::pair{std::string_view("gated"), M::Ffn::gated}});
        if (!value)
            return std::unexpected(value.error());
        m.ffn = *value;
    }
    if (const YAML::Node head = given["lm_head"]) {
        auto value = choice(r, head, "lm_head", std::array{std::pair{std::string_view("none"), M::Head::none},
                                                           std::pair{std::string_view("linear"), M::Head::linear},
                                                           std::pair{std::string_view("mlm"), M::Head::mlm}});
        if (!value)
            return std::unexpected(value.error());
        m.lm_head = *value;
    }
    const bool stack = m.layers > 0, enc_dec = m.encoder_layers > 0 || m.decoder_layers > 0;
    if (stack == enc_dec)
        return r.error_at(given, "give either layers (one stack) or encoder_layers and decoder_layers, not both");
    if (enc_dec && (m.encoder_layers == 0 || m.decoder_layers == 0))
        return r.error_at(given, "an encoder-decoder needs both encoder_layers and decoder_layers");
    if (m.lm_head != M::Head::none && m.vocab == 0)
        return r.error_at(given["lm_head"], "an lm_head needs a vocab to predict");
    return m;
}

/// The workload keys of a `given` (batch, seq_len, ...), or nullopt when it has no seq_len.
Result<std::optional<Workload>> read_workload(const Reader& r, const YAML::Node& given) {
    const YAML::Node seq_len = given["seq_len"];
    if (!seq_len) {
        for (const char* key : {"batch", "seq_len_kv", "count", "softmax", "flop_biases"})
            if (given[key])
                return r.error_at(given[key], fmt::format("{} describes a workload; give seq_len too", key));
        return std::optional<Workload>{};
    }
    Workload w;
    auto n = r.positive_integer(seq_len, "seq_len");
    if (!n)
        return std::unexpected(n.error());
    w.seq_len = *n;
    if (const YAML::Node batch = given["batch"]) {
        auto b = r.positive_integer(batch, "batch");
        if (!b)
            return std::unexpected(b.error());
        w.batch = *b;
    }
    if (const YAML::Node kv = given["seq_len_kv"]) {
        auto m = r.positive_integer(kv, "seq_len_kv");
        if (!m)
            return std::unexpected(m.error());
        w.seq_len_kv = *m;
    }
    for (auto [key, slot] : {std::pair{"softmax", &w.softmax}, {"flop_biases", &w.biases}}) {
        if (const YAML::Node value = given[key]) {
            auto flag = r.boolean(value, key);
            if (!flag)
                return std::unexpected(flag.error());
            *slot = *flag;
        }
    }
    if (const YAML::Node count = given["count"]) {
        auto macs = choice(r, count, "count", std::array{std::pair{std::string_view("flops"), false},
                                                         std::pair{std::string_view("macs"), true}});
        if (!macs)
            return std::unexpected(macs.error());
        w.macs = *macs;
        if (w.macs && (w.softmax || w.biases))
            return r.error_at(count, "count: macs counts multiply-adds only; softmax and flop_biases count other "
                                     "operations, so use count: flops with them");
    }
    return std::optional<Workload>{w};
}

/// `vary:` maps givens to the values they take: a list, or for sizes {from, to, step}. `problem` holds the givens
/// already read, which decide the keys it may name (cannot_vary).
Result<std::vector<Variation>> read_vary(const Reader& r, const YAML::Node& node, const Problem& problem) {
    if (!node.IsMap() || node.size() == 0)
        return r.error_at(node, "vary must map givens to their values, e.g. {h: [4, 8, 16]}");
    if (auto ok = r.check_keys(node, varying_keys(), "vary"); !ok)
        return std::unexpected(ok.error());
    std::vector<Variation> out;
    for (const auto& entry : node) {
        Variation v{entry.first.Scalar(), {}, mark_of(entry.first)};
        if (const auto why = cannot_vary(problem, v.key))
            return r.error_at(entry.first, *why);
        const YAML::Node values = entry.second;
        const bool flag = is_flag_key(v.key);
        if (values.IsSequence() && values.size() > 0) {
            for (const auto& value : values) {
                if (flag) {
                    auto b = r.boolean(value, fmt::format("vary.{}", v.key));
                    if (!b)
                        return std::unexpected(b.error());
                    v.values.push_back(*b ? 1 : 0);
                } else {
                    auto n = r.positive_integer(value, fmt::format("vary.{}", v.key));
                    if (!n)
                        return std::unexpected(n.error());
                    v.values.push_back(*n);
                }
            }
        } else if (!flag && values.IsMap()) {
            constexpr std::array<std::string_view, 3> k_range_keys{"from", "to", "step"};
            if (auto ok = r.check_keys(values, k_range_keys, fmt::format("vary.{}", v.key)); !ok)
                return std::unexpected(ok.error());
            auto from = r.required(values, "from", fmt::format("vary.{}", v.key));
            auto to = from ? r.required(values, "to", fmt::format("vary.{}", v.key)) : from;
            if (!to)
                return std::unexpected(to.error());
            auto first = r.positive_integer(*from, "from");
            auto last = first ? r.positive_integer(*to, "to") : first;
            auto step = values["step"] ? r.positive_integer(values["step"], "step") : Result<Count>(1);
            for (const auto* ok : {&first, &last, &step})
                if (!*ok)
                    return std::unexpected(ok->error());
            if (*last < *first)
                return r.error_at(*to, fmt::format("vary.{}: to = {} is below from = {}", v.key, *last, *first));
            if ((*last - *first) / *step >= 10000)
                return r.error_at(values, fmt::format("vary.{} has more than 10,000 values; use a larger step", v.key));
            for (Count x = *first; x <= *last; x += *step)
                v.values.push_back(x);
        } else {
            return r.error_at(values, fmt::format("vary.{} must be a non-empty list{}", v.key,
                                                  flag ? " of true/false" : " or {from, to, step}"));
        }
        out.push_back(std::move(v));
    }
    return out;
}

Result<Problem> read_problem(const Reader& r, const YAML::Node& root, const Vocabulary& words) {
    if (!root.IsMap())
        return r.error_at(root, "a problem spec must be a mapping with id, title, given and parts");
    if (auto ok = r.check_keys(root, k_top_keys, "the problem"); !ok)
        return std::unexpected(ok.error());

    Problem problem;
    for (auto [key, slot, is_id] : {std::tuple{"id", &problem.id, true}, {"title", &problem.title, false}}) {
        auto node = r.required(root, key, "the problem");
        if (!node)
            return std::unexpected(node.error());
        auto text = is_id ? r.id_of(*node, "problem id") : r.string_of(*node, key);
        if (!text)
            return std::unexpected(text.error());
        *slot = *text;
    }
    if (const YAML::Node kind = root["kind"]) {
        auto text = r.string_of(kind, "kind");
        if (!text)
            return std::unexpected(text.error());
        if (std::find(k_kinds.begin(), k_kinds.end(), *text) == k_kinds.end())
            return r.error_at(kind, fmt::format("unknown kind '{}'; headcount knows: mha, transformer{}", *text,
                                                did_you_mean(*text, k_kinds)));
        problem.kind = *text;
    }

    auto given = r.required(root, "given", "the problem");
    if (!given)
        return std::unexpected(given.error());
    const bool transformer = problem.kind == "transformer";
    auto givens = transformer ? read_mha_givens(r, *given, k_model_keys) : read_mha_givens(r, *given);
    if (!givens)
        return std::unexpected(givens.error());
    problem.given = *givens;
    auto workload = read_workload(r, *given);
    if (!workload)
        return std::unexpected(workload.error());
    problem.workload = *workload;
    auto precision = read_precision(r, *given);
    if (!precision)
        return std::unexpected(precision.error());
    problem.precision = *precision;
    if (transformer) {
        auto model = read_model_givens(r, *given);
        if (!model)
            return std::unexpected(model.error());
        problem.model = *model;
    }

    if (const YAML::Node vary = root["vary"]) {
        auto variations = read_vary(r, vary, problem);
        if (!variations)
            return std::unexpected(variations.error());
        problem.vary = std::move(*variations);
    }
    if (const YAML::Node distinct = root["distinct"]) {
        auto flag = r.boolean(distinct, "distinct");
        if (!flag)
            return std::unexpected(flag.error());
        problem.distinct = *flag;
    }
    if (const YAML::Node feedback = root["feedback"]) {
        auto value = choice(r, feedback, "feedback", k_reveals);
        if (!value)
            return std::unexpected(value.error());
        problem.feedback = *value;
    }
    if (const YAML::Node attempts = root["attempts"]) {
        auto value = r.attempts(attempts);
        if (!value)
            return std::unexpected(value.error());
        problem.attempts = *value;
    }

    auto parts = r.required(root, "parts", "the problem");
    if (!parts)
        return std::unexpected(parts.error());
    if (!parts->IsSequence() || parts->size() == 0)
        return r.error_at(*parts, "parts must be a non-empty list of {id, ask} mappings");
    std::set<std::string> part_ids;
    for (const auto& node : *parts) {
        auto part = read_part(r, node, words);
        if (!part)
            return std::unexpected(part.error());
        if (!part_ids.insert(part->id).second)
            return r.error_at(node["id"], fmt::format("duplicate part id '{}'", part->id));
        problem.parts.push_back(std::move(*part));
    }
    return problem;
}

/// Every scalar of the document, keys included, must be text every output can carry
/// (unwritable_text_problem): specs are copied into Markdown, JSON and Moodle XML. Iterative, and each node
/// visited once even when aliases share it (a node is known by its kind and where it starts), so no document
/// can make this deep or slow.
Result<void> check_text(const Reader& r, const YAML::Node& root) {
    std::vector<YAML::Node> pending{root};
    std::set<std::pair<std::size_t, int>> visited;
    while (!pending.empty()) {
        const YAML::Node node = pending.back();
        pending.pop_back();
        if (!visited.emplace(node.Mark().pos, static_cast<int>(node.Type())).second)
            continue;
        if (node.IsScalar()) {
            if (const auto problem = unwritable_text_problem(node.Scalar()))
                return r.error_at(
                    node, fmt::format("this text {}; a spec holds printable UTF-8 text (tabs and line "
                                      "breaks allowed)",
                                      *problem));
        } else if (node.IsMap()) {
            for (const auto& entry : node) {
                pending.push_back(entry.first);
                pending.push_back(entry.second);
            }
        } else if (node.IsSequence()) {
            for (const auto& item : node)
                pending.push_back(item);
        }
    }
    return {};
}

} // namespace

Result<Problem> parse_problem(std::string_view yaml, std::string file, const Vocabulary& words) {
    const Reader reader(file);
    YAML::Node root;
    try {
        root = YAML::Load(std::string(yaml));
    } catch (const YAML::DeepRecursion& e) {
        return std::unexpected(
            Error{file, e.mark.line + 1, e.mark.column + 1,
                  fmt::format("lists and mappings nest more than {} levels deep here; a spec needs "
                              "a handful",
                              e.depth())});
    } catch (const YAML::ParserException& e) {
        return std::unexpected(Error{file, e.mark.line + 1, e.mark.column + 1, "YAML syntax error: " + e.msg});
    }
    try {
        if (auto ok = check_text(reader, root); !ok)
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

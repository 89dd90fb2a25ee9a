#pragma once
// Reading a spec's YAML, below the level of problems: the keys each mapping may hold, and a Reader that turns "what
// went wrong at this node" into a located Error and reads the scalars specs are made of (sizes, flags, ids, one of
// a set of words). Shared by reader.cpp (the problem) and givens_reader.cpp (its givens); the only other place that
// touches yaml-cpp.

#include <spec/problem.hpp>
#include <util/error.hpp>
#include <util/ids.hpp>
#include <util/text.hpp>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace headcount::spec::detail {

inline constexpr auto k_top_keys = std::to_array<std::string_view>(
    {"id", "title", "kind", "given", "quantities", "parts", "vary", "distinct", "feedback", "attempts"});
inline constexpr auto k_given_keys = std::to_array<std::string_view>(
    {"d_model", "h", "d_k", "d_v", "kdim", "vdim", "bias", "n_kv_heads", "add_bias_kv", "batch", "seq_len",
     "seq_len_kv", "count", "softmax", "flop_biases", "causal", "dtype"});
inline constexpr auto k_part_keys = std::to_array<std::string_view>(
    {"id", "ask", "points", "text", "tolerance", "credit", "feedback", "attempts", "accept", "answer"});
inline constexpr auto k_reveals = std::to_array<std::pair<std::string_view, Reveal>>(
    {{"hints", Reveal::hints}, {"gaps", Reveal::gaps}, {"full", Reveal::full}});
inline constexpr auto k_bias_keys = std::to_array<std::string_view>({"q", "k", "v", "o"});
inline constexpr auto k_kinds = std::to_array<std::string_view>({"mha", "transformer", "quantities"});
// A transformer's `given`: its attention block's keys, then the rest of the model.
inline constexpr auto k_model_keys = std::to_array<std::string_view>({"batch",
                                                                      "seq_len",
                                                                      "seq_len_kv",
                                                                      "count",
                                                                      "softmax",
                                                                      "flop_biases",
                                                                      "dtype",
                                                                      "d_model",
                                                                      "h",
                                                                      "n_kv_heads",
                                                                      "d_k",
                                                                      "d_v",
                                                                      "head_dim",
                                                                      "bias",
                                                                      "d_ff",
                                                                      "layers",
                                                                      "encoder_layers",
                                                                      "decoder_layers",
                                                                      "vocab",
                                                                      "max_positions",
                                                                      "type_vocab",
                                                                      "norm",
                                                                      "norm_bias",
                                                                      "ffn",
                                                                      "ffn_bias",
                                                                      "embedding_norm",
                                                                      "final_norm",
                                                                      "pooler",
                                                                      "lm_head",
                                                                      "lm_head_bias",
                                                                      "tied_embeddings",
                                                                      "causal",
                                                                      "experts",
                                                                      "top_k"});

template <std::size_t N> bool listed(const std::array<std::string_view, N>& keys, std::string_view key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}

/// Where a key that is unknown in one mapping belongs instead, as a clause for the message, or "" when it belongs
/// nowhere: `distinct` written inside `vary:` is a misplaced key, not a misspelt given.
std::string where_it_belongs(std::string_view key, std::string_view where);

/// Where `node` stands in the file, 1-based; 0 when yaml-cpp does not know.
Mark mark_of(const YAML::Node& node);

/// Turns "what went wrong at this node" into a located Error, and reads the scalars a spec is made of.
class Reader {
  public:
    /// `source` is the spec's text, which must outlive the Reader: messages about a key without its ':' quote it.
    explicit Reader(std::string file, std::string_view source = {}) : m_file(std::move(file)), m_source(source) {}

    std::unexpected<Error> error_at(const YAML::Node& node, std::string message) const {
        return error_at(mark_of(node), std::move(message));
    }
    std::unexpected<Error> error_at(Mark mark, std::string message) const {
        return std::unexpected(Error{m_file, mark.line, mark.column, std::move(message)});
    }

    /// The error for `node` where a mapping belongs: `message` (what to write), and the key that lacks its ':'
    /// when the node is one ("d_model 512": the error is where the ':' belongs).
    std::unexpected<Error> not_a_mapping(const YAML::Node& node, std::string message) const;

    /// Checks a mapping's keys: each known, none repeated. `where` names the mapping in messages.
    Result<void> check_keys(const YAML::Node& map, std::span<const std::string_view> known,
                            std::string_view where) const;
    /// Checks that `node` is a mapping (else the error is not_a_mapping(node, not_a_mapping)) and then its keys, as
    /// check_keys.
    Result<void> check_mapping(const YAML::Node& node, std::span<const std::string_view> known, std::string_view where,
                               std::string not_a_mapping) const;
    /// check_mapping, then the mapping's required `id` (id_of, named `id_name` in messages): a problem, a part, a
    /// mistake.
    Result<std::string> mapping_id(const YAML::Node& node, std::span<const std::string_view> known,
                                   std::string_view where, std::string_view id_name, std::string not_a_mapping) const;
    Result<YAML::Node> required(const YAML::Node& map, const char* key, std::string_view where) const;
    Result<std::string> string_of(const YAML::Node& node, std::string_view key) const;
    /// required(map, key, where), then string_of it.
    Result<std::string> required_string(const YAML::Node& map, const char* key, std::string_view where) const;
    /// Ids end up in file names and CSV cells: letters, digits, '-', '_', '.', not starting with '.'.
    Result<std::string> id_of(const YAML::Node& node, std::string_view key) const;
    /// A size: digits only, not 0, under 10^18.
    Result<Count> positive_integer(const YAML::Node& node, std::string_view key) const;
    /// required(map, key, where), then positive_integer of it.
    Result<Count> required_positive_integer(const YAML::Node& map, const char* key, std::string_view where) const;
    /// `attempts:`, the checks a student may make of a part in serve: 1 to 10,000.
    Result<int> attempts(const YAML::Node& node) const;
    Result<bool> boolean(const YAML::Node& node, std::string_view key) const;
    /// Points: a number from 0 to 1,000,000.
    Result<double> points(const YAML::Node& node) const;
    /// A number from 0 to 1.
    Result<double> fraction(const YAML::Node& node, std::string_view key) const;
    /// When `map` has `key`, its value read by `read` (&Reader::positive_integer, &Reader::boolean, ...) into
    /// `slot`; else `slot` is left as it is.
    template <class T, class Slot>
    Result<void> optional(const YAML::Node& map, std::string_view key,
                          Result<T> (Reader::*read)(const YAML::Node&, std::string_view) const, Slot& slot) const {
        const YAML::Node node = map[std::string(key)];
        if (!node)
            return {};
        auto value = (this->*read)(node, key);
        if (!value)
            return std::unexpected(value.error());
        slot = std::move(*value);
        return {};
    }
    /// When `node` is the plain text of a key without its ':' on one line of the spec ("d_model 512", or with
    /// `lone_word` a word alone: "vary"), where the ':' belongs and what to write; else nullopt.
    std::optional<std::pair<Mark, std::string>> missing_colon(const YAML::Node& node, bool lone_word) const;
    /// A node as a message quotes it: "a mapping", "a list", "nothing", or its text cut short and printable.
    static std::string describe(const YAML::Node& node);

  private:
    std::string m_file;
    std::string_view m_source;
};

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

/// When `given` has `key`, one of `options` read into `slot`; else `slot` is left as it is.
template <class Enum, std::size_t N>
Result<void> choice_into(const Reader& r, const YAML::Node& given, std::string_view key,
                         const std::array<std::pair<std::string_view, Enum>, N>& options, Enum& slot) {
    const YAML::Node node = given[std::string(key)];
    if (!node)
        return {};
    auto value = choice(r, node, key, options);
    if (!value)
        return std::unexpected(value.error());
    slot = *value;
    return {};
}

} // namespace headcount::spec::detail

#pragma once
// A key written without its ':' (`d_model 512`, `ask qkv_params`) is the commonest slip in a hand-written spec, and
// YAML reports it elsewhere or not at all: yaml-cpp reads the line on into the next and stops there ("illegal map
// value" at the next line's ':'), or, on the last line of a mapping, takes the whole line for a key with no value.
// These find the line that lacks its ':' in the spec's text and say so. Internal to the spec reader.

#include <spec/yaml_reader.hpp>
#include <util/error.hpp>

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace headcount::spec::detail {

/// What is wrong with a key's text, and where in it.
struct ColonSlip {
    std::size_t offset = 0; ///< in the text: where the ':' belongs, or the ':' that lacks its space
    std::string message;    ///< "missing ':' after 'd_model' (write 'd_model: 512')"
};

/// The slip in `text`, a plain key and what follows it on its line ("d_model 512", "ask qkv_params", "parts",
/// "d_model:512"), or nullopt when it has its ': ' (or ends with ':') or does not begin with a key's word.
std::optional<ColonSlip> colon_slip(std::string_view text);

/// Line `line` (1-based) of `source`, without its line break; empty past the end.
std::string_view source_line(std::string_view source, int line);

/// yaml-cpp's syntax error (`message` at `mark`) as the spec's error: at the line above that lacks its ':' when
/// that is the cause, else at yaml-cpp's position in its words, with what usually causes an illegal map value.
Error syntax_error(const std::string& file, std::string_view source, const YAML::Mark& mark,
                   const std::string& message);

/// Checks every node of the document, keys included: its text is printable (unwritable_text_problem; specs are
/// copied into Markdown, JSON and Moodle XML), and no key lacks its ':' (a key with no value whose line has no
/// ':' after it). The first text problem found, else the first slip in the file.
Result<void> check_document(const Reader& r, const YAML::Node& root);

} // namespace headcount::spec::detail

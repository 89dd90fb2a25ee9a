#pragma once
// headcount's Mustache engine: a template is parsed once into a tree and rendered any number of times straight
// from a View (no copy of the data per render), with bounds on everything an untrusted template controls:
// section nesting, partial depth, work and output size. Rendering follows kainjow/mustache 4.1, which rendered
// headcount's templates before, byte for byte: a line holding only section tags and blanks is dropped, partials
// are not indented, nothing is HTML-escaped (the output is Markdown).

#include <util/error.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::render {

/// The data a template sees: objects, lists, strings and booleans (numbers render as JSON writes them).
using View = nlohmann::ordered_json;

/// Deepest nesting of sections in one template file; deeper is a parse error.
inline constexpr int k_max_section_depth = 64;

/// One piece of a parsed template.
struct MustacheNode {
    enum class Kind { text, newline, variable, section, inverted, partial };
    Kind kind = Kind::text;
    std::string text;                   ///< the text, the line break ("\n", "\r\n", "\r") or the tag's name
    int line = 0;                       ///< where a tag starts (1-based)
    int column = 0;                     ///< in bytes from the line's start (1-based)
    std::vector<MustacheNode> children; ///< a section's content
};

/// A template file, parsed.
struct ParsedTemplate {
    std::string path; ///< the file, for messages
    std::vector<MustacheNode> nodes;
};

/// Parses Mustache text: {{name}}, {{{name}}} and {{&name}} (the same here: nothing is escaped), sections
/// {{#name}}…{{/name}}, inverted sections {{^name}}…{{/name}}, partials {{> name}}, comments {{! … }} and set
/// delimiters {{=<% %>=}} (which hold until the file's end or the next change; every file starts with {{ }}).
/// Errors name `path`, line and column: an unclosed tag, an invalid set-delimiter tag, a section closed with
/// another name or never closed, a close with no section, sections nested deeper than k_max_section_depth.
Result<ParsedTemplate> parse_mustache(std::string_view text, std::string path);

/// Returns the partial of this name, or nullptr when there is none.
using PartialLookup = std::function<const ParsedTemplate*(std::string_view name)>;

/// What one render may do at most; past a bound the render stops with an error saying which.
struct RenderLimits {
    int partial_depth = 16;       ///< partials inside partials
    std::size_t steps = 0;        ///< nodes visited, counting every item of every list a section repeats
    std::size_t output_bytes = 0; ///< the rendered text
};

/// Renders `tmpl` with `view`. A name the view does not provide where the tag stands, or an unknown partial, is
/// an error at the tag ("variable 'x' is not available at this point of the template (it belongs to another
/// section)"), never a blank. Looking a name up follows Mustache: the innermost section's item first, then
/// outwards; "a.b" is b inside a; "." is the current item. A string renders as itself, a number as JSON writes
/// it, anything else as nothing. A section repeats for each item of a non-empty list, renders once for any
/// other value except false, null and the empty list (which an inverted section renders for).
Result<std::string> render_mustache(const ParsedTemplate& tmpl, const View& view, const PartialLookup& partials,
                                    const RenderLimits& limits);

} // namespace headcount::render

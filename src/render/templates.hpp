#pragma once
// Mustache templates loaded from a directory and rendered strictly: a tag naming a variable or partial the view
// does not provide is an error naming the template file, line, column and variable, never a silent blank.

#include <util/error.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>

namespace headcount::render {

/// The data a template sees: objects, lists, strings and booleans (numbers are pre-formatted strings).
using View = nlohmann::ordered_json;

/// The templates of one directory: `NAME.mustache` anywhere below it is template "NAME" (e.g. "mha/q_params");
/// files under `partials/` are also partials, included as {{> NAME}} with their file name.
class TemplateSet {
  public:
    /// Loads every *.mustache file below `dir`. Errors: missing directory, unreadable file.
    static Result<TemplateSet> load(const std::filesystem::path& dir);

    /// The directory the shipped templates live in (set at build time).
    static std::filesystem::path default_dir();

    /// Whether a template of this name exists.
    [[nodiscard]] bool has(const std::string& name) const { return m_templates.contains(name); }

    /// Renders template `name` with `view`. Errors: no such template, a Mustache syntax error, or a tag whose
    /// variable or partial the view does not provide (checked over the whole template, rendered or not).
    [[nodiscard]] Result<std::string> render(const std::string& name, const View& view) const;

  private:
    struct Source {
        std::string path; ///< for messages
        std::string text;
    };
    std::map<std::string, Source> m_templates;
    std::map<std::string, Source> m_partials;

    [[nodiscard]] Result<void> check_tags(const Source& source, const View& view, int depth) const;
};

} // namespace headcount::render

#pragma once
// The Mustache templates headcount renders, built into the binary and optionally replaced from a directory, and
// rendered strictly: a tag naming a variable or partial the view does not provide is an error naming the template
// file, line, column and variable, never a silent blank. Each file is parsed once (on first use) and each template
// checked once per shape of view, so rendering one template many times costs only the rendering.

#include <render/builtin_templates.hpp>
#include <render/mustache.hpp>
#include <util/error.hpp>

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::render {

/// Largest template file read, in bytes (the shipped ones are under 8 KiB).
inline constexpr std::size_t k_max_template_bytes = 1024 * 1024;
/// Most template files one directory may hold.
inline constexpr std::size_t k_max_template_files = 4096;
/// Deepest chain of partials including partials.
inline constexpr int k_max_partial_depth = 16;
/// Largest text one render may produce.
inline constexpr std::size_t k_max_rendered_bytes = 256 * 1024 * 1024;

/// One template file: its name ("mha/q_params", "partials/heads"), its path for messages, and its text.
struct TemplateFile {
    std::string name;
    std::string path;
    std::string text;
};

/// A set of templates: template "NAME" is the file NAME.mustache; files under partials/ are also partials,
/// included as {{> NAME}} with their file name.
class TemplateSet {
  public:
    /// The templates built into the binary (generated from the repository's templates/ at build time).
    static TemplateSet builtin();

    /// Only the *.mustache files below `dir`. Errors: missing directory, an unreadable file, a file over
    /// k_max_template_bytes, more than k_max_template_files files.
    static Result<TemplateSet> load(const std::filesystem::path& dir);

    /// This set with the *.mustache files below `dir` added, replacing those of the same name: a directory
    /// may hold only the templates it changes. Errors as load().
    [[nodiscard]] Result<TemplateSet> overridden_by(const std::filesystem::path& dir) const;

    /// A set of the given files (later files replace earlier ones of the same name).
    static TemplateSet from_files(std::vector<TemplateFile> files);

    /// This set with `files` added, replacing those of the same name.
    [[nodiscard]] TemplateSet with_files(std::vector<TemplateFile> files) const;

    /// Whether a template of this name exists.
    [[nodiscard]] bool has(std::string_view name) const;

    /// Renders template `name` with `view`. Errors: no such template; a Mustache syntax error or text that is
    /// not UTF-8 in it or a partial it uses ("Mustache syntax error: ..."); a tag whose variable or partial the
    /// view does not provide (checked over the whole template and its partials, rendered or not, each partial
    /// once); partials nested deeper than k_max_partial_depth; a render that runs too long for the view's size
    /// or past k_max_rendered_bytes. Safe to call from several threads.
    [[nodiscard]] Result<std::string> render(const std::string& name, const View& view) const;

    /// Whether template `name`, or a partial it includes, has a tag that reads `key` (`{{#key}}`, `{{key.x}}`) or
    /// the whole context (`{{.}}`): where it does not, what it renders does not depend on `key`'s value (though
    /// render()'s check of its tags may, when one names a key that only `key` holds). True where that cannot be
    /// told (a template or partial that does not parse), so that the caller provides the key.
    [[nodiscard]] bool mentions(const std::string& name, std::string_view key) const;

  private:
    struct Cache; // parsed files and checked (template, view shape) pairs, filled on first use
    struct Found; // a template's text and the path its messages name
    /// The built-in templates are the binary's own bytes, looked up where they lie (no table is built when a
    /// process starts); files added from disk or given replace those of the same name.
    struct Index {
        std::span<const BuiltinTemplate> builtins; // sorted by name; empty for a set of files only
        std::map<std::string, TemplateFile, std::less<>> files;
    };
    std::shared_ptr<Index> m_index = std::make_shared<Index>(); // shared by copies; changed only while building
    std::shared_ptr<Cache> m_cache;

    void add(TemplateFile file);
    [[nodiscard]] std::optional<Found> find(std::string_view name) const;
    /// The file of partial `name` ({{> name}} is partials/name), if there is one.
    [[nodiscard]] std::optional<std::string> partial_file(std::string_view name) const;
    /// Every partial's name, for a did-you-mean.
    [[nodiscard]] std::vector<std::string> partial_names() const;
    Result<std::shared_ptr<const ParsedTemplate>> parsed(std::string_view name) const;
};

} // namespace headcount::render

#pragma once
// The templates of the repository's templates/ folder, compiled into the binary so that it needs no files beside
// it. The definition is generated at build time by cmake/embed_templates.cmake.

#include <span>
#include <string_view>

namespace headcount::render {

/// One built-in template: its name ("solution", "mha/q_params", "partials/heads") and its text, byte for byte.
struct BuiltinTemplate {
    std::string_view name;
    std::string_view text;
};

/// Every built-in template, sorted by name.
std::span<const BuiltinTemplate> builtin_templates();

/// The page files headcount serve sends along with its pages, by path below templates/ ("serve/static/headcount.css",
/// "serve/static/headcount.js"), sorted.
std::span<const BuiltinTemplate> builtin_static_files();

} // namespace headcount::render

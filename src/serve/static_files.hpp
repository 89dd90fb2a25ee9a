#pragma once
// The files the pages load (KaTeX, the page's own style sheet and script), read into memory when the server
// starts. A request is answered from this table or not at all: no request path ever reaches the file system, so
// "..", encoded "..", absolute paths and links planted later lead nowhere. Text files (style sheets, scripts, SVG,
// TrueType fonts) are also gzip-compressed here, once, so that no request costs a compression.

#include <util/error.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

namespace headcount::serve {

/// One file to serve.
struct StaticFile {
    std::string content;
    std::string mime; ///< Content-Type
    std::string gzip; ///< content gzip-compressed once, at startup; "" when that would not make it smaller
};

/// URL path -> file, fixed at startup.
class StaticFiles {
  public:
    /// KaTeX from a libjs-katex directory: katex.min.css, katex.min.js, contrib/auto-render.js and the fonts
    /// (fonts/*.woff2, *.woff, *.ttf), under /static/katex/. Debian links some of these into the fonts package,
    /// so these fixed names are followed. Errors name the missing file and the package to install.
    Result<void> add_katex(const std::filesystem::path& dir);

    /// The page's own style sheet and script built into the binary (templates/serve/static/), under /static/.
    void add_builtin();

    /// Every file directly in `dir` with a served type (.css .js .svg .png .ico .woff2), under `prefix`
    /// ("/static/"), replacing a built-in file of the same name. A symbolic link or a file of another type there is an
    /// error naming it.
    Result<void> add_directory(const std::filesystem::path& dir, const std::string& prefix);

    /// The file served at `path` (as decoded from the request), or nullptr.
    [[nodiscard]] const StaticFile* find(std::string_view path) const;

    /// Bytes held.
    [[nodiscard]] std::size_t bytes() const { return m_bytes; }

  private:
    std::map<std::string, StaticFile, std::less<>> m_files;
    std::size_t m_bytes = 0;

    Result<void> add(const std::filesystem::path& file, std::string url);
    void insert(std::string url, std::string content, std::string_view name);
};

/// The Content-Type for a file name by its extension, or "" for a type not served.
std::string_view static_mime(std::string_view name);

} // namespace headcount::serve

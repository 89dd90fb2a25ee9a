#include <render/katex.hpp>

#include <util/text.hpp>

#include <fmt/format.h>

#include <fstream>
#include <regex>
#include <sstream>

#ifndef HEADCOUNT_KATEX_DIR
#define HEADCOUNT_KATEX_DIR "/usr/share/javascript/katex"
#endif

namespace headcount::render {

namespace fs = std::filesystem;

namespace {

Result<std::string> read_katex_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::unexpected(
            Error{path.string(), 0, 0, "cannot read KaTeX, which HTML output needs (install Debian's libjs-katex)"});
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The stylesheet with its woff and truetype fallbacks dropped and each woff2 font named by `url`.
template <class Url> std::string rewrite_fonts(const std::string& css, Url url) {
    static const std::regex fallback(R"(,\s*url\(fonts/[^)]*\.(woff|ttf)\) format\('[a-z]+'\))");
    static const std::regex woff2(R"(url\(fonts/([A-Za-z0-9_-]+\.woff2)\))");
    const std::string without_fallbacks = std::regex_replace(css, fallback, "");
    std::string out;
    std::size_t at = 0;
    for (auto it = std::sregex_iterator(without_fallbacks.begin(), without_fallbacks.end(), woff2);
         it != std::sregex_iterator(); ++it) {
        out.append(without_fallbacks, at, static_cast<std::size_t>(it->position()) - at);
        out += "url(" + url((*it)[1].str()) + ")";
        at = static_cast<std::size_t>(it->position() + it->length());
    }
    out.append(without_fallbacks, at);
    return out;
}

} // namespace

fs::path default_katex_dir() { return HEADCOUNT_KATEX_DIR; }

Result<KatexAssets> load_katex(const fs::path& dir) {
    KatexAssets katex;
    auto css = read_katex_file(dir / "katex.min.css");
    if (!css)
        return std::unexpected(css.error());
    auto script = read_katex_file(dir / "katex.min.js");
    if (!script)
        return std::unexpected(script.error());
    katex.css = std::move(*css);
    katex.script = std::move(*script);
    // The script is embedded in a <script> element, which its own text must not close.
    if (katex.script.find("</script") != std::string::npos || katex.script.find("</SCRIPT") != std::string::npos)
        return std::unexpected(Error{(dir / "katex.min.js").string(), 0, 0, "contains </script>: cannot be embedded"});
    static const std::regex font(R"(fonts/([A-Za-z0-9_-]+\.woff2))");
    for (auto it = std::sregex_iterator(katex.css.begin(), katex.css.end(), font); it != std::sregex_iterator(); ++it) {
        const std::string name = (*it)[1].str();
        auto bytes = read_katex_file(dir / "fonts" / name);
        if (!bytes)
            return std::unexpected(bytes.error());
        katex.fonts.emplace_back(name, std::move(*bytes));
    }
    if (katex.fonts.empty())
        return std::unexpected(
            Error{(dir / "katex.min.css").string(), 0, 0, "names no woff2 font: not KaTeX's stylesheet?"});
    return katex;
}

std::string embedded_css(const KatexAssets& katex) {
    return rewrite_fonts(katex.css, [&](const std::string& name) {
        for (const auto& [font, bytes] : katex.fonts)
            if (font == name)
                return "data:font/woff2;base64," + base64(bytes);
        return "fonts/" + name; // not loaded: cannot happen, load_katex reads every font the stylesheet names
    });
}

OutputFiles katex_folder(const KatexAssets& katex, const fs::path& dir) {
    OutputFiles files;
    files.emplace_back(dir / "katex.min.css",
                       rewrite_fonts(katex.css, [](const std::string& name) { return "fonts/" + name; }));
    files.emplace_back(dir / "katex.min.js", katex.script);
    for (const auto& [name, bytes] : katex.fonts)
        files.emplace_back(dir / "fonts" / name, bytes);
    return files;
}

KatexMarkup katex_markup(const KatexLink& link) {
    KatexMarkup markup;
    if (link.embedded) {
        markup.head = fmt::format("<style>\n{}\n</style>\n<script>\n{}\n</script>", embedded_css(*link.embedded),
                                  link.embedded->script);
    } else {
        markup.head = fmt::format("<link rel=\"stylesheet\" href=\"{0}/katex.min.css\">\n"
                                  "<script src=\"{0}/katex.min.js\" charset=\"utf-8\"></script>",
                                  link.href);
    }
    // Typeset in place; a formula KaTeX cannot read is shown in red with its source (class katex-error). An inline
    // formula with no place to break that is wider than its line (a long substitution on a phone) becomes a box of
    // its own that scrolls sideways, as a display formula does, instead of widening the page; measured again when
    // the window changes width.
    markup.typeset = "<script>\n"
                     "if (window.katex) document.querySelectorAll('span.math').forEach(function (el) {\n"
                     "  katex.render(el.textContent, el, {displayMode: el.classList.contains('display'), "
                     "throwOnError: false});\n"
                     "});\n"
                     "function hcWide() {\n"
                     "  document.querySelectorAll('span.math:not(.display)').forEach(function (el) {\n"
                     "    el.classList.remove('wide');\n"
                     "    var line = el.closest('p, li, td, th, blockquote, article');\n"
                     "    if (line && el.getBoundingClientRect().right > line.getBoundingClientRect().right + 0.5)\n"
                     "      el.classList.add('wide');\n"
                     "  });\n"
                     "}\n"
                     "hcWide();\n"
                     "window.addEventListener('resize', hcWide);\n"
                     "</script>";
    return markup;
}

} // namespace headcount::render

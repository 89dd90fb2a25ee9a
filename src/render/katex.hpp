#pragma once
// KaTeX from Debian's libjs-katex (/usr/share/javascript/katex): the files a page needs to typeset its math in
// the browser, either embedded in the page or copied beside it. Nothing is fetched from the internet.

#include <util/error.hpp>
#include <util/files.hpp>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace headcount::render {

/// The KaTeX files a page uses: the stylesheet, the script and the woff2 fonts the stylesheet names.
struct KatexAssets {
    std::string css;                                        ///< katex.min.css as shipped
    std::string script;                                     ///< katex.min.js
    std::vector<std::pair<std::string, std::string>> fonts; ///< file name (KaTeX_Main-Regular.woff2), bytes
};

/// Where a page finds KaTeX: inside it (`embedded`), or in a folder beside it (`href`, e.g. "katex" or
/// "../katex").
struct KatexLink {
    const KatexAssets* embedded = nullptr; ///< set: the page carries the stylesheet, fonts and script itself
    std::string href;                      ///< otherwise: the folder, relative to the page
};

/// The directory libjs-katex was found in at build time.
std::filesystem::path default_katex_dir();

/// Reads KaTeX from `dir`. Errors name the missing file and the package to install.
Result<KatexAssets> load_katex(const std::filesystem::path& dir = default_katex_dir());

/// The stylesheet with each font as a data: URI (woff2 only: every browser that runs KaTeX reads it), so a page
/// needs no file beside it.
std::string embedded_css(const KatexAssets& katex);

/// The files to write into a folder `dir` that pages link as KatexLink::href: katex.min.css (naming only the
/// woff2 fonts), katex.min.js and fonts/*.woff2.
OutputFiles katex_folder(const KatexAssets& katex, const std::filesystem::path& dir);

/// What goes in a page's <head> for KaTeX (a stylesheet and a script, inline or linked), and the script at the end
/// of its <body> that typesets every <span class="math">. Errors in a formula are shown in the page in red
/// (KaTeX's class katex-error), never thrown.
struct KatexMarkup {
    std::string head;
    std::string typeset;
};
KatexMarkup katex_markup(const KatexLink& link);

} // namespace headcount::render

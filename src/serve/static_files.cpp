#include <serve/static_files.hpp>

#include <render/builtin_templates.hpp>
#include <util/text.hpp>
#include <util/zip.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

namespace headcount::serve {

namespace {
constexpr std::size_t k_max_file_bytes = 4 * 1024 * 1024;
constexpr std::size_t k_max_total_bytes = 32 * 1024 * 1024;
} // namespace

std::string_view static_mime(std::string_view name) {
    static constexpr std::pair<std::string_view, std::string_view> k_types[] = {
        {".css", "text/css; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".woff2", "font/woff2"},
        {".woff", "font/woff"},
        {".ttf", "font/ttf"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".ico", "image/x-icon"}};
    for (const auto& [extension, mime] : k_types)
        if (name.ends_with(extension))
            return mime;
    return {};
}

Result<void> StaticFiles::add(const std::filesystem::path& file, std::string url) {
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return std::unexpected(Error{file.string(), 0, 0, "cannot read this file"});
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    if (ec || size > k_max_file_bytes)
        return std::unexpected(
            Error{file.string(), 0, 0,
                  fmt::format("larger than {}: not a file for a web page", byte_size(k_max_file_bytes))});
    if (m_bytes + size > k_max_total_bytes)
        return std::unexpected(
            Error{file.string(), 0, 0, fmt::format("static files over {} in all", byte_size(k_max_total_bytes))});
    std::ostringstream content;
    content << in.rdbuf();
    insert(std::move(url), content.str(), file.filename().string());
    return {};
}

void StaticFiles::insert(std::string url, std::string content, std::string_view name) {
    StaticFile file{std::move(content), std::string(static_mime(name)), {}};
    // woff and woff2 fonts and PNGs are compressed already.
    if (name.ends_with(".css") || name.ends_with(".js") || name.ends_with(".svg") || name.ends_with(".ttf")) {
        auto compressed = gzipped(file.content);
        if (compressed && compressed->size() < file.content.size() * 9 / 10)
            file.gzip = std::move(*compressed);
    }
    m_bytes += file.content.size() + file.gzip.size();
    m_files.insert_or_assign(std::move(url), std::move(file));
}

void StaticFiles::add_builtin() {
    for (const render::BuiltinTemplate& file : render::builtin_static_files()) {
        const std::string_view name = file.name.substr(file.name.rfind('/') + 1);
        insert("/static/" + std::string(name), std::string(file.text), name);
    }
}

Result<void> StaticFiles::add_katex(const std::filesystem::path& dir) {
    for (const char* name : {"katex.min.css", "katex.min.js", "contrib/auto-render.js"}) {
        if (!std::filesystem::is_regular_file(dir / name))
            return std::unexpected(Error{(dir / name).string(), 0, 0,
                                         "KaTeX is missing (install Debian's libjs-katex, or pass --katex DIR)"});
        if (auto ok = add(dir / name, std::string("/static/katex/") + name); !ok)
            return ok;
    }
    std::error_code ec;
    std::vector<std::filesystem::path> fonts;
    for (const auto& entry : std::filesystem::directory_iterator(dir / "fonts", ec))
        if (entry.is_regular_file() && entry.path().filename().string().starts_with("KaTeX_") &&
            !static_mime(entry.path().filename().string()).empty())
            fonts.push_back(entry.path());
    if (ec || fonts.empty())
        return std::unexpected(Error{(dir / "fonts").string(), 0, 0, "KaTeX's fonts are missing"});
    std::sort(fonts.begin(), fonts.end());
    for (const auto& font : fonts)
        if (auto ok = add(font, "/static/katex/fonts/" + font.filename().string()); !ok)
            return ok;
    return {};
}

Result<void> StaticFiles::add_directory(const std::filesystem::path& dir, const std::string& prefix) {
    std::error_code ec;
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_symlink())
            return std::unexpected(
                Error{entry.path().string(), 0, 0, "a symbolic link: copy the file into the folder instead"});
        if (!entry.is_regular_file() || static_mime(name).empty())
            return std::unexpected(
                Error{entry.path().string(), 0, 0, "not a file served to browsers (.css .js .svg .png .ico .woff2)"});
        files.push_back(entry.path());
    }
    if (ec)
        return std::unexpected(Error{dir.string(), 0, 0, "cannot read this folder: " + ec.message()});
    std::sort(files.begin(), files.end());
    for (const auto& file : files)
        if (auto ok = add(file, prefix + file.filename().string()); !ok)
            return ok;
    return {};
}

const StaticFile* StaticFiles::find(std::string_view path) const {
    const auto it = m_files.find(path);
    return it == m_files.end() ? nullptr : &it->second;
}

} // namespace headcount::serve

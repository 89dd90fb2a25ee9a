#include <render/templates.hpp>

#include <util/text.hpp>

#include <fmt/format.h>
#include <kainjow/mustache.hpp>

#include <fstream>
#include <set>
#include <sstream>

#ifndef HEADCOUNT_TEMPLATE_DIR
#define HEADCOUNT_TEMPLATE_DIR "templates"
#endif

namespace headcount::render {

namespace fs = std::filesystem;
namespace mustache = kainjow::mustache;

namespace {

mustache::data to_data(const View& view) {
    if (view.is_object()) {
        mustache::data out{mustache::data::type::object};
        for (const auto& [key, value] : view.items())
            out.set(key, to_data(value));
        return out;
    }
    if (view.is_array()) {
        mustache::data out{mustache::data::type::list};
        for (const auto& item : view)
            out.push_back(to_data(item));
        return out;
    }
    if (view.is_boolean())
        return mustache::data{view.get<bool>()};
    if (view.is_string())
        return mustache::data{view.get<std::string>()};
    if (view.is_null())
        return mustache::data{false};
    return mustache::data{view.dump()};
}

/// Every key of the view, and those whose value is an empty list wherever they occur: a section over such a
/// list cannot render, and the names inside it exist only in the list's (absent) items.
struct Keys {
    std::set<std::string> all;
    std::set<std::string> empty_lists;
};

/// The last name of a dotted path: "model.breakdown" -> "breakdown", as empty lists are recorded.
std::string leaf(std::string_view name) {
    const auto dot = name.rfind('.');
    return std::string(dot == std::string_view::npos ? name : name.substr(dot + 1));
}

void collect_keys(const View& view, Keys& keys, std::set<std::string>& filled_lists) {
    if (view.is_object()) {
        for (const auto& [key, value] : view.items()) {
            keys.all.insert(key);
            if (value.is_array())
                (value.empty() ? keys.empty_lists : filled_lists).insert(key);
            collect_keys(value, keys, filled_lists);
        }
    } else if (view.is_array()) {
        for (const auto& item : view)
            collect_keys(item, keys, filled_lists);
    }
}

Keys collect_keys(const View& view) {
    Keys keys;
    std::set<std::string> filled;
    collect_keys(view, keys, filled);
    for (const std::string& key : filled)
        keys.empty_lists.erase(key);
    return keys;
}

/// A tag found by scanning template text: its sigil ('\0' for a plain variable), name and position.
struct Tag {
    char sigil = '\0';
    std::string name;
    int line = 1;
    int column = 1;
};

std::vector<Tag> scan_tags(const std::string& text) {
    std::vector<Tag> tags;
    int line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            line_start = i + 1;
            continue;
        }
        if (text.compare(i, 2, "{{") != 0)
            continue;
        const bool triple = text.compare(i, 3, "{{{") == 0;
        const std::size_t open = i + (triple ? 3 : 2);
        const std::size_t close = text.find(triple ? "}}}" : "}}", open);
        if (close == std::string::npos)
            break; // kainjow reports the unclosed tag
        std::string body = text.substr(open, close - open);
        Tag tag{'\0', {}, line, static_cast<int>(i - line_start) + 1};
        if (!body.empty() && std::string_view("#^/&>!=").find(body.front()) != std::string_view::npos) {
            tag.sigil = body.front();
            body.erase(0, 1);
        }
        const auto first = body.find_first_not_of(" \t");
        const auto last = body.find_last_not_of(" \t");
        tag.name = first == std::string::npos ? std::string() : body.substr(first, last - first + 1);
        tags.push_back(tag);
        for (std::size_t j = i; j < close; ++j) // tags may span lines (comments); keep the count right
            if (text[j] == '\n') {
                ++line;
                line_start = j + 1;
            }
        i = close + (triple ? 2 : 1);
    }
    return tags;
}

/// kainjow's context, recording every name it was asked for and could not find.
class StrictContext : public mustache::basic_context<std::string> {
  public:
    StrictContext(const mustache::data* root, const std::map<std::string, mustache::data>& partials)
        : m_inner(root), m_partials(partials) {}
    void push(const mustache::data* data) override { m_inner.push(data); }
    void pop() override { m_inner.pop(); }
    const mustache::data* get(const std::string& name) const override {
        const mustache::data* found = m_inner.get(name);
        if (!found)
            m_missing.insert(name);
        return found;
    }
    const mustache::data* get_partial(const std::string& name) const override {
        const auto it = m_partials.find(name);
        if (it == m_partials.end()) {
            m_missing.insert(name);
            return nullptr;
        }
        return &it->second;
    }
    [[nodiscard]] const std::set<std::string>& missing() const { return m_missing; }

  private:
    mustache::context<std::string> m_inner;
    const std::map<std::string, mustache::data>& m_partials;
    mutable std::set<std::string> m_missing;
};

Result<std::string> read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::unexpected(Error{path.string(), 0, 0, "cannot read the template"});
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

fs::path TemplateSet::default_dir() { return HEADCOUNT_TEMPLATE_DIR; }

Result<TemplateSet> TemplateSet::load(const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return std::unexpected(Error{dir.string(), 0, 0, "templates directory not found"});
    TemplateSet set;
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir, ec))
        if (entry.is_regular_file() && entry.path().extension() == ".mustache")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
        auto text = read_file(file);
        if (!text)
            return std::unexpected(text.error());
        fs::path name = fs::relative(file, dir).replace_extension();
        Source source{file.string(), *text};
        if (name.parent_path() == "partials")
            set.m_partials[name.filename().string()] = source;
        set.m_templates[name.generic_string()] = std::move(source);
    }
    return set;
}

Result<void> TemplateSet::check_tags(const Source& source, const View& view, int depth) const {
    if (depth > 16)
        return std::unexpected(Error{source.path, 0, 0, "partials nest more than 16 deep (a partial includes itself?)"});
    const Keys keys = collect_keys(view);
    const std::vector<std::string_view> key_list(keys.all.begin(), keys.all.end());
    std::vector<bool> sections; // open sections, innermost last: whether each iterates over an always-empty list
    int unrenderable = 0;       // how many open sections do
    for (const Tag& tag : scan_tags(source.text)) {
        if (tag.sigil == '!' || tag.sigil == '=' || tag.name == ".")
            continue;
        if (tag.sigil == '/') {
            if (!sections.empty()) {
                unrenderable -= sections.back() ? 1 : 0;
                sections.pop_back();
            }
            continue;
        }
        if (unrenderable > 0) { // checked whenever the list has items; here it cannot render
            if (tag.sigil == '#' || tag.sigil == '^') // keep nesting, so its closing tag closes it, not ours
                sections.push_back(false);
            continue;
        }
        if (tag.sigil == '>') {
            const auto partial = m_partials.find(tag.name);
            if (partial == m_partials.end()) {
                std::vector<std::string_view> names;
                for (const auto& [name, _] : m_partials)
                    names.push_back(name);
                return std::unexpected(Error{source.path, tag.line, tag.column,
                                             fmt::format("unknown partial '{}'{}", tag.name, did_you_mean(tag.name, names))});
            }
            if (auto ok = check_tags(partial->second, view, depth + 1); !ok)
                return ok;
            continue;
        }
        std::string_view rest = tag.name;
        while (!rest.empty()) {
            const std::string part(rest.substr(0, rest.find('.')));
            if (!keys.all.contains(part))
                return std::unexpected(Error{source.path, tag.line, tag.column,
                                             fmt::format("unknown variable '{}': headcount provides no such value{}",
                                                         tag.name, did_you_mean(part, key_list))});
            rest = rest.find('.') == std::string_view::npos ? std::string_view() : rest.substr(rest.find('.') + 1);
        }
        if (tag.sigil == '#' || tag.sigil == '^') {
            const bool empty = tag.sigil == '#' && keys.empty_lists.contains(leaf(tag.name));
            sections.push_back(empty);
            unrenderable += empty ? 1 : 0;
        }
    }
    return {};
}

Result<std::string> TemplateSet::render(const std::string& name, const View& view) const {
    const auto it = m_templates.find(name);
    if (it == m_templates.end())
        return fail(fmt::format("no template '{}.mustache' in the templates directory", name));
    const Source& source = it->second;
    if (auto ok = check_tags(source, view, 0); !ok)
        return std::unexpected(ok.error());

    std::map<std::string, mustache::data> partials;
    for (const auto& [partial_name, partial] : m_partials)
        partials.emplace(partial_name, mustache::data{partial.text});
    const mustache::data data = to_data(view);
    StrictContext context(&data, partials);
    mustache::mustache tmpl{source.text};
    tmpl.set_custom_escape([](const std::string& s) { return s; }); // Markdown, not HTML
    if (!tmpl.is_valid())
        return std::unexpected(Error{source.path, 0, 0, "Mustache syntax error: " + tmpl.error_message()});
    std::string out = tmpl.render(context);
    if (!tmpl.is_valid())
        return std::unexpected(Error{source.path, 0, 0, "Mustache error: " + tmpl.error_message()});
    if (!context.missing().empty()) {
        // Every name exists somewhere in the view (check_tags passed), but not where this tag stands.
        const std::string missing = *context.missing().begin();
        for (const Tag& tag : scan_tags(source.text))
            if (tag.name == missing)
                return std::unexpected(Error{source.path, tag.line, tag.column,
                                             fmt::format("variable '{}' is not available at this point of the "
                                                         "template (it belongs to another section)",
                                                         missing)});
        return std::unexpected(Error{source.path, 0, 0,
                                     fmt::format("variable '{}' is not available where a partial uses it", missing)});
    }
    return out;
}

} // namespace headcount::render

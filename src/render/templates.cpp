#include <render/templates.hpp>

#include <render/builtin_templates.hpp>
#include <util/files.hpp>
#include <util/text.hpp>
#include <util/utf8.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <mutex>
#include <set>

namespace headcount::render {

namespace fs = std::filesystem;

struct TemplateSet::Cache {
    std::mutex mutex;
    std::map<std::string, std::shared_ptr<const ParsedTemplate>, std::less<>> parsed;
    std::set<std::string> checked; ///< template name + view shape (Keys::fingerprint) that passed the check
};

namespace {

/// Every key of the view, and those whose value is an empty list wherever they occur: a section over such a
/// list cannot render, and the names inside it exist only in the list's (absent) items.
struct Keys {
    std::set<std::string> all;
    std::set<std::string> empty_lists;
    std::size_t values = 0; ///< how many values the view holds, which bounds how much work a render may do

    /// The keys as one string: two views with the same fingerprint pass or fail the same checks.
    [[nodiscard]] std::string fingerprint() const {
        std::string out;
        for (const std::string& key : all)
            out += key + '\0';
        out += '\1';
        for (const std::string& key : empty_lists)
            out += key + '\0';
        return out;
    }
};

void collect_keys(const View& view, Keys& keys, std::set<std::string>& filled_lists) {
    ++keys.values;
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

/// The last name of a dotted path: "model.breakdown" -> "breakdown", as empty lists are recorded.
std::string leaf(std::string_view name) {
    const auto dot = name.rfind('.');
    return std::string(dot == std::string_view::npos ? name : name.substr(dot + 1));
}

/// Where the first byte of `text` that is not printable UTF-8 (or a tab or line break) stands, and why.
std::optional<Error> unprintable(const std::string& path, std::string_view text) {
    // The first byte that begins no valid character, found without copying the text (every command reads a few
    // templates).
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t length = static_cast<unsigned char>(text[at]) < 0x80 ? 1 : decode_utf8_at(text, at).second;
        if (length == 0)
            break;
        at += length;
    }
    std::string why;
    if (at < text.size()) {
        why = "this template is not valid UTF-8 here";
    } else {
        const auto control = std::find_if(text.begin(), text.end(), [](char c) {
            const auto byte = static_cast<unsigned char>(c);
            return (byte < 0x20 && c != '\t' && c != '\n' && c != '\r') || byte == 0x7F;
        });
        if (control == text.end())
            return std::nullopt;
        at = static_cast<std::size_t>(control - text.begin());
        why = fmt::format("this template contains a control character (U+{:04X}); templates hold printable text",
                          static_cast<unsigned>(static_cast<unsigned char>(*control)));
    }
    const std::string_view before = text.substr(0, at);
    const auto line_start = before.rfind('\n');
    return Error{path, static_cast<int>(std::count(before.begin(), before.end(), '\n')) + 1,
                 static_cast<int>(at - (line_start == std::string_view::npos ? 0 : line_start + 1)) + 1, why};
}

/// Checks every tag of a template (and of each partial it uses, once) against the view's keys, rendered or
/// not, so a typo in a branch this view does not take is still an error.
class Checker {
  public:
    using Parse = std::function<Result<std::shared_ptr<const ParsedTemplate>>(std::string_view)>;
    using PartialFile = std::function<std::optional<std::string>(std::string_view)>;
    using PartialNames = std::function<std::vector<std::string>()>;
    Checker(const Keys& keys, PartialFile partial_file, PartialNames partial_names, Parse parse)
        : m_keys(keys), m_key_list(keys.all.begin(), keys.all.end()), m_partial_file(std::move(partial_file)),
          m_partial_names(std::move(partial_names)), m_parse(std::move(parse)) {}

    Result<void> check(const ParsedTemplate& tmpl, const std::vector<MustacheNode>& nodes, int depth) {
        using Kind = MustacheNode::Kind;
        for (const MustacheNode& node : nodes) {
            if (node.kind == Kind::text || node.kind == Kind::newline)
                continue;
            if (node.kind == Kind::partial) {
                if (auto ok = check_partial(tmpl, node, depth); !ok)
                    return ok;
                continue;
            }
            if (node.text != ".") {
                std::string_view rest = node.text;
                while (!rest.empty()) {
                    const std::string part(rest.substr(0, rest.find('.')));
                    if (!m_keys.all.contains(part))
                        return std::unexpected(Error{tmpl.path, node.line, node.column,
                                                     fmt::format("unknown variable '{}': headcount provides no such "
                                                                 "value{}",
                                                                 node.text, did_you_mean(part, m_key_list))});
                    rest =
                        rest.find('.') == std::string_view::npos ? std::string_view() : rest.substr(rest.find('.') + 1);
                }
            }
            // A section over a list that is empty wherever it occurs never renders: its names need not exist.
            if (node.kind == Kind::section && m_keys.empty_lists.contains(leaf(node.text)))
                continue;
            if (auto ok = check(tmpl, node.children, depth); !ok)
                return ok;
        }
        return {};
    }

  private:
    const Keys& m_keys;
    std::vector<std::string_view> m_key_list;
    PartialFile m_partial_file;
    PartialNames m_partial_names;
    Parse m_parse;
    std::set<std::string, std::less<>> m_checked; // partials already checked (or being checked) for this view

    Result<void> check_partial(const ParsedTemplate& tmpl, const MustacheNode& node, int depth) {
        const std::optional<std::string> file = m_partial_file(node.text);
        if (!file) {
            const std::vector<std::string> names = m_partial_names();
            const std::vector<std::string_view> views(names.begin(), names.end());
            return std::unexpected(
                Error{tmpl.path, node.line, node.column,
                      fmt::format("unknown partial '{}'{}", node.text, did_you_mean(node.text, views))});
        }
        if (!m_checked.insert(node.text).second) // its result does not depend on where it is included
            return {};
        if (depth + 1 > k_max_partial_depth)
            return std::unexpected(Error{tmpl.path, node.line, node.column,
                                         fmt::format("partials nest more than {} deep", k_max_partial_depth)});
        auto parsed = m_parse(*file);
        if (!parsed)
            return std::unexpected(parsed.error());
        return check(**parsed, (*parsed)->nodes, depth + 1);
    }
};

Result<std::vector<TemplateFile>> read_directory(const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return std::unexpected(Error{dir.string(), 0, 0, "templates directory not found"});
    std::vector<fs::path> paths;
    for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec) && it->path().extension() == ".mustache")
            paths.push_back(it->path());
        if (paths.size() > k_max_template_files)
            return std::unexpected(Error{
                dir.string(), 0, 0, fmt::format("more than {} templates in this directory", k_max_template_files)});
    }
    if (ec)
        return std::unexpected(Error{dir.string(), 0, 0, "cannot list the templates directory: " + ec.message()});
    std::sort(paths.begin(), paths.end());
    std::vector<TemplateFile> files;
    for (const fs::path& path : paths) {
        auto text = read_file_capped(path, k_max_template_bytes, "the template");
        if (!text)
            return std::unexpected(text.error());
        files.push_back(
            {fs::relative(path, dir).replace_extension().generic_string(), path.string(), std::move(*text)});
    }
    return files;
}

/// The template of `builtins` (sorted by name) named `name`, or null.
const BuiltinTemplate* find_builtin(std::span<const BuiltinTemplate> builtins, std::string_view name) {
    const auto it = std::lower_bound(builtins.begin(), builtins.end(), name,
                                     [](const BuiltinTemplate& t, std::string_view n) { return t.name < n; });
    return it != builtins.end() && it->name == name ? &*it : nullptr;
}

} // namespace

struct TemplateSet::Found {
    std::string_view text;
    std::string path;
};

TemplateSet TemplateSet::from_files(std::vector<TemplateFile> files) {
    TemplateSet set;
    set.m_cache = std::make_shared<Cache>();
    for (TemplateFile& file : files)
        set.add(std::move(file));
    return set;
}

TemplateSet TemplateSet::builtin() {
    // Copies share the cache, so each template is parsed once per process. Nothing is built here: the templates are
    // found in the binary's sorted table when they are used.
    static const TemplateSet set = [] {
        TemplateSet builtins;
        builtins.m_index->builtins = builtin_templates();
        builtins.m_cache = std::make_shared<Cache>();
        return builtins;
    }();
    return set;
}

Result<TemplateSet> TemplateSet::load(const fs::path& dir) {
    auto files = read_directory(dir);
    if (!files)
        return std::unexpected(files.error());
    return from_files(std::move(*files));
}

Result<TemplateSet> TemplateSet::overridden_by(const fs::path& dir) const {
    auto files = read_directory(dir);
    if (!files)
        return std::unexpected(files.error());
    return with_files(std::move(*files));
}

TemplateSet TemplateSet::with_files(std::vector<TemplateFile> files) const {
    TemplateSet set = *this;
    set.m_index = std::make_shared<Index>(*m_index);
    // Checks are redone (a partial may have changed); a file's parse depends on its text only, so the parses of
    // the files not replaced are kept.
    set.m_cache = std::make_shared<Cache>();
    {
        const std::lock_guard lock(m_cache->mutex);
        set.m_cache->parsed = m_cache->parsed;
    }
    for (TemplateFile& file : files) {
        set.m_cache->parsed.erase(file.name);
        set.add(std::move(file));
    }
    return set;
}

void TemplateSet::add(TemplateFile file) {
    std::string name = file.name;
    m_index->files.insert_or_assign(std::move(name), std::move(file));
}

std::optional<TemplateSet::Found> TemplateSet::find(std::string_view name) const {
    if (const auto file = m_index->files.find(name); file != m_index->files.end())
        return Found{file->second.text, file->second.path};
    if (const BuiltinTemplate* builtin = find_builtin(m_index->builtins, name))
        return Found{builtin->text, fmt::format("templates/{}.mustache", name)};
    return std::nullopt;
}

bool TemplateSet::has(std::string_view name) const {
    return m_index->files.contains(name) || find_builtin(m_index->builtins, name) != nullptr;
}

std::optional<std::string> TemplateSet::partial_file(std::string_view name) const {
    if (name.empty() || name.find('/') != std::string_view::npos)
        return std::nullopt;
    std::string file = "partials/" + std::string(name);
    if (!has(file))
        return std::nullopt;
    return file;
}

std::vector<std::string> TemplateSet::partial_names() const {
    std::set<std::string> names;
    const auto add_name = [&](std::string_view file) {
        if (file.starts_with("partials/") && file.find('/', 9) == std::string_view::npos)
            names.emplace(file.substr(9));
    };
    for (const BuiltinTemplate& builtin : m_index->builtins)
        add_name(builtin.name);
    for (const auto& [file, _] : m_index->files)
        add_name(file);
    return {names.begin(), names.end()};
}

Result<std::shared_ptr<const ParsedTemplate>> TemplateSet::parsed(std::string_view name) const {
    {
        const std::lock_guard lock(m_cache->mutex);
        if (const auto it = m_cache->parsed.find(name); it != m_cache->parsed.end())
            return it->second;
    }
    const std::optional<Found> file = find(name);
    if (!file)
        return fail(fmt::format("no template '{}.mustache' in the templates directory", name));
    if (auto bad = unprintable(file->path, file->text))
        return std::unexpected(*bad);
    auto tree = parse_mustache(file->text, file->path);
    if (!tree)
        return std::unexpected(tree.error());
    auto shared = std::make_shared<const ParsedTemplate>(std::move(*tree));
    const std::lock_guard lock(m_cache->mutex);
    return m_cache->parsed.emplace(std::string(name), std::move(shared)).first->second;
}

bool TemplateSet::mentions(const std::string& name, std::string_view key) const {
    std::set<std::string, std::less<>> seen; // partials already read
    const std::function<bool(const std::vector<MustacheNode>&, int)> in = [&](const std::vector<MustacheNode>& nodes,
                                                                              int depth) {
        for (const MustacheNode& node : nodes) {
            switch (node.kind) {
            case MustacheNode::Kind::text:
            case MustacheNode::Kind::newline:
                break;
            case MustacheNode::Kind::partial: {
                if (!seen.insert(node.text).second)
                    break;
                const std::optional<std::string> file = partial_file(node.text);
                auto tree = file && depth < k_max_partial_depth ? parsed(*file) : std::unexpected(Error{});
                if (!tree || in((*tree)->nodes, depth + 1))
                    return true;
                break;
            }
            default: {
                const std::string_view tag = node.text;
                if (tag == "." || (tag.starts_with(key) && (tag.size() == key.size() || tag[key.size()] == '.')))
                    return true;
                if (in(node.children, depth))
                    return true;
            }
            }
        }
        return false;
    };
    auto tree = has(name) ? parsed(name) : std::unexpected(Error{});
    return !tree || in((*tree)->nodes, 0);
}

Result<std::string> TemplateSet::render(const std::string& name, const View& view) const {
    if (!has(name))
        return fail(fmt::format("no template '{}.mustache' in the templates directory", name));
    auto tmpl = parsed(name);
    if (!tmpl)
        return std::unexpected(tmpl.error());
    const Keys keys = collect_keys(view);
    const std::string shape = name + '\0' + keys.fingerprint();
    bool checked = false;
    {
        const std::lock_guard lock(m_cache->mutex);
        checked = m_cache->checked.contains(shape);
    }
    const auto parse = [this](std::string_view file) { return parsed(file); };
    if (!checked) {
        Checker checker(
            keys, [this](std::string_view partial) { return partial_file(partial); },
            [this] { return partial_names(); }, parse);
        if (auto ok = checker.check(**tmpl, (*tmpl)->nodes, 0); !ok)
            return std::unexpected(ok.error());
        const std::lock_guard lock(m_cache->mutex);
        if (m_cache->checked.size() >= 4096) // views of many shapes: keep the cache bounded
            m_cache->checked.clear();
        m_cache->checked.insert(shape);
    }
    // Every partial a render can reach was parsed by the check; one that fails to parse now is not reachable.
    const PartialLookup partials = [this](std::string_view partial) -> const ParsedTemplate* {
        const std::optional<std::string> file = partial_file(partial);
        if (!file)
            return nullptr;
        auto tree = parsed(*file);
        return tree ? tree->get() : nullptr;
    };
    // Legitimate work grows with the data (a row per student); what a hostile template adds is stopped.
    const RenderLimits limits{k_max_partial_depth, 4'000'000 + 64 * keys.values, k_max_rendered_bytes};
    return render_mustache(**tmpl, view, partials, limits);
}

} // namespace headcount::render

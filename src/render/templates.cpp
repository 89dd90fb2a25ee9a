#include <render/templates.hpp>

#include <render/builtin_templates.hpp>
#include <util/files.hpp>
#include <util/text.hpp>
#include <util/utf8.hpp>

#include <fmt/format.h>

#include <algorithm>
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
    const std::string valid = repair_utf8(text);
    std::size_t at = 0;
    std::string why;
    if (valid != text) {
        at = static_cast<std::size_t>(std::mismatch(valid.begin(), valid.end(), text.begin()).first - valid.begin());
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
    Checker(const Keys& keys, const std::map<std::string, std::string, std::less<>>& partials, Parse parse)
        : m_keys(keys), m_key_list(keys.all.begin(), keys.all.end()), m_partials(partials),
          m_parse(std::move(parse)) {}

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
                    rest = rest.find('.') == std::string_view::npos ? std::string_view() : rest.substr(rest.find('.') + 1);
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
    const std::map<std::string, std::string, std::less<>>& m_partials;
    Parse m_parse;
    std::set<std::string, std::less<>> m_checked; // partials already checked (or being checked) for this view

    Result<void> check_partial(const ParsedTemplate& tmpl, const MustacheNode& node, int depth) {
        const auto partial = m_partials.find(node.text);
        if (partial == m_partials.end()) {
            std::vector<std::string_view> names;
            for (const auto& [name, _] : m_partials)
                names.push_back(name);
            return std::unexpected(Error{tmpl.path, node.line, node.column,
                                         fmt::format("unknown partial '{}'{}", node.text, did_you_mean(node.text, names))});
        }
        if (!m_checked.insert(node.text).second) // its result does not depend on where it is included
            return {};
        if (depth + 1 > k_max_partial_depth)
            return std::unexpected(Error{tmpl.path, node.line, node.column,
                                         fmt::format("partials nest more than {} deep", k_max_partial_depth)});
        auto parsed = m_parse(partial->second);
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
            return std::unexpected(Error{dir.string(), 0, 0,
                                         fmt::format("more than {} templates in this directory", k_max_template_files)});
    }
    if (ec)
        return std::unexpected(Error{dir.string(), 0, 0, "cannot list the templates directory: " + ec.message()});
    std::sort(paths.begin(), paths.end());
    std::vector<TemplateFile> files;
    for (const fs::path& path : paths) {
        auto text = read_file_capped(path, k_max_template_bytes, "the template");
        if (!text)
            return std::unexpected(text.error());
        files.push_back({fs::relative(path, dir).replace_extension().generic_string(), path.string(), std::move(*text)});
    }
    return files;
}

} // namespace

TemplateSet TemplateSet::from_files(std::vector<TemplateFile> files) {
    TemplateSet set;
    set.m_cache = std::make_shared<Cache>();
    for (TemplateFile& file : files)
        set.add(std::move(file));
    return set;
}

TemplateSet TemplateSet::builtin() {
    // Parsed once per process: copies share the cache. The texts are not copied: they are the binary's bytes.
    static const TemplateSet set = [] {
        TemplateSet builtins;
        builtins.m_cache = std::make_shared<Cache>();
        for (const BuiltinTemplate& t : builtin_templates())
            builtins.add(std::string(t.name), Stored{fmt::format("templates/{}.mustache", t.name), t.text, nullptr});
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
    auto owner = std::make_shared<const std::string>(std::move(file.text));
    const std::string_view text = *owner;
    add(std::move(file.name), Stored{std::move(file.path), text, std::move(owner)});
}

void TemplateSet::add(std::string name, Stored stored) {
    if (name.starts_with("partials/") && name.find('/', 9) == std::string::npos)
        m_index->partials[name.substr(9)] = name;
    m_index->files.insert_or_assign(std::move(name), std::move(stored));
}

Result<std::shared_ptr<const ParsedTemplate>> TemplateSet::parsed(std::string_view name) const {
    {
        const std::lock_guard lock(m_cache->mutex);
        if (const auto it = m_cache->parsed.find(name); it != m_cache->parsed.end())
            return it->second;
    }
    const Stored& file = m_index->files.find(name)->second;
    if (auto bad = unprintable(file.path, file.text))
        return std::unexpected(*bad);
    auto tree = parse_mustache(file.text, file.path);
    if (!tree)
        return std::unexpected(tree.error());
    auto shared = std::make_shared<const ParsedTemplate>(std::move(*tree));
    const std::lock_guard lock(m_cache->mutex);
    return m_cache->parsed.emplace(std::string(name), std::move(shared)).first->second;
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
        Checker checker(keys, m_index->partials, parse);
        if (auto ok = checker.check(**tmpl, (*tmpl)->nodes, 0); !ok)
            return std::unexpected(ok.error());
        const std::lock_guard lock(m_cache->mutex);
        if (m_cache->checked.size() >= 4096) // views of many shapes: keep the cache bounded
            m_cache->checked.clear();
        m_cache->checked.insert(shape);
    }
    // Every partial a render can reach was parsed by the check; one that fails to parse now is not reachable.
    const PartialLookup partials = [this](std::string_view partial) -> const ParsedTemplate* {
        const auto it = m_index->partials.find(partial);
        if (it == m_index->partials.end())
            return nullptr;
        auto tree = parsed(it->second);
        return tree ? tree->get() : nullptr;
    };
    // Legitimate work grows with the data (a row per student); what a hostile template adds is stopped.
    const RenderLimits limits{k_max_partial_depth, 4'000'000 + 64 * keys.values, k_max_rendered_bytes};
    return render_mustache(**tmpl, view, partials, limits);
}

} // namespace headcount::render

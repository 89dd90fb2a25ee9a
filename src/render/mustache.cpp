#include <render/mustache.hpp>

#include <util/files.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <tuple>

namespace headcount::render {

namespace {

using Kind = MustacheNode::Kind;

// std::isspace in the "C" locale, without its undefined behaviour for bytes past 0x7F.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view s) { return trimmed(s, " \t\n\r\f\v"); }

/// A set-delimiter tag's body ("=<% %>=") as the two delimiters, or nullopt when it is not one: they are
/// separated by spaces and contain neither whitespace nor '='.
std::optional<std::pair<std::string, std::string>> delimiters_of(std::string_view contents) {
    if (contents.size() < 5 || contents.back() != '=')
        return std::nullopt;
    const std::string_view inner = trim(contents.substr(1, contents.size() - 2));
    const auto space = inner.find(' ');
    if (space == std::string_view::npos)
        return std::nullopt;
    const std::string_view open = inner.substr(0, space), close = trim(inner.substr(space));
    const auto valid = [](std::string_view d) {
        return !d.empty() && d.find('=') == std::string_view::npos &&
               std::none_of(d.begin(), d.end(), [](char c) { return is_space(c); });
    };
    if (!valid(open) || !valid(close))
        return std::nullopt;
    return std::pair{std::string(open), std::string(close)};
}

class Parser {
  public:
    Parser(std::string_view text, std::string path) : m_text(text), m_path(std::move(path)) {}

    Result<ParsedTemplate> parse() {
        ParsedTemplate out{m_path, {}};
        std::vector<MustacheNode*> open{};                         // open sections, innermost last
        std::vector<std::vector<MustacheNode>*> lists{&out.nodes}; // where the next node goes
        std::string text;
        const auto flush_text = [&] {
            if (!text.empty())
                lists.back()->push_back(MustacheNode{Kind::text, std::move(text), 0, 0, {}});
            text.clear();
        };
        while (m_pos < m_text.size()) {
            if (m_text.compare(m_pos, m_open.size(), m_open) == 0) {
                const int line = m_line, column = column_here();
                auto tag = read_tag(line, column);
                if (!tag)
                    return std::unexpected(tag.error());
                if (tag->role == Tag::Role::silent) // a comment or a change of delimiters: no node
                    continue;
                flush_text();
                if (tag->role == Tag::Role::close) {
                    if (open.empty())
                        return fail_at(line, column, fmt::format("'{}' closes no open section", tag->written));
                    if (open.back()->text != tag->node.text)
                        return fail_at(line, column,
                                       fmt::format("'{}' closes section '{}', opened at line {}; close that one "
                                                   "first",
                                                   tag->written, open.back()->text, open.back()->line));
                    open.pop_back();
                    lists.pop_back();
                    continue;
                }
                lists.back()->push_back(std::move(tag->node));
                MustacheNode& node = lists.back()->back();
                if (node.kind == Kind::section || node.kind == Kind::inverted) {
                    if (static_cast<int>(open.size()) >= k_max_section_depth)
                        return fail_at(line, column,
                                       fmt::format("sections nest more than {} deep", k_max_section_depth));
                    open.push_back(&node);
                    lists.push_back(&node.children);
                }
                continue;
            }
            const char c = m_text[m_pos];
            if (c == '\n' || c == '\r') {
                flush_text();
                const std::size_t length = c == '\r' && m_text.compare(m_pos, 2, "\r\n") == 0 ? 2 : 1;
                lists.back()->push_back(
                    MustacheNode{Kind::newline, std::string(m_text.substr(m_pos, length)), 0, 0, {}});
                advance(m_pos + length);
                continue;
            }
            // Plain text up to the next line break or possible tag, in one piece.
            const char open_first = m_open.front();
            std::size_t end = m_pos + 1;
            while (end < m_text.size() && m_text[end] != '\n' && m_text[end] != '\r' && m_text[end] != open_first)
                ++end;
            text.append(m_text.substr(m_pos, end - m_pos));
            m_pos = end;
        }
        flush_text();
        if (!open.empty())
            return fail_at(
                open.back()->line, open.back()->column,
                fmt::format("section '{}' is never closed (no {{{{/{}}}}})", open.back()->text, open.back()->text));
        return out;
    }

  private:
    std::string_view m_text;
    std::string m_path;
    std::size_t m_pos = 0;
    int m_line = 1;
    std::size_t m_line_start = 0;
    std::string m_open = "{{", m_close = "}}";

    int column_here() const { return static_cast<int>(m_pos - m_line_start) + 1; }

    void advance(std::size_t to) {
        for (; m_pos < to; ++m_pos)
            if (m_text[m_pos] == '\n')
                ++m_line, m_line_start = m_pos + 1;
    }

    std::unexpected<Error> fail_at(int line, int column, std::string message) const {
        return std::unexpected(Error{m_path, line, column, "Mustache syntax error: " + std::move(message)});
    }

    /// A tag as read: a node, a close (its name in node.text) or one that renders nothing.
    struct Tag {
        enum class Role { node, close, silent };
        Role role = Role::node;
        MustacheNode node;
        std::string_view written; ///< the tag as it stands in the file, for messages
    };

    /// The tag at m_pos, moving past it.
    Result<Tag> read_tag(int line, int column) {
        const bool braces = m_open == "{{" && m_close == "}}";
        std::size_t contents = m_pos + m_open.size();
        const bool triple = braces && contents < m_text.size() && m_text[contents] == '{';
        const std::string_view close = triple ? std::string_view("}}}") : std::string_view(m_close);
        contents += triple ? 1 : 0;
        const std::size_t end = m_text.find(close, contents);
        if (end == std::string_view::npos)
            return fail_at(line, column,
                           fmt::format("unclosed tag (no '{}' after '{}')", close, triple ? "{{{" : m_open));
        const std::string_view body = trim(m_text.substr(contents, end - contents));
        // A plain variable's name is the whole body; any other tag's follows its sigil.
        const bool sigil =
            !triple && !body.empty() && std::string_view("=!#^/>&").find(body.front()) != std::string_view::npos;
        Tag tag{Tag::Role::node,
                MustacheNode{Kind::variable, std::string(sigil ? trim(body.substr(1)) : body), line, column, {}},
                m_text.substr(m_pos, end + close.size() - m_pos)};
        advance(end + close.size());
        if (triple || body.empty())
            return tag;
        switch (body.front()) {
        case '=': {
            const auto delimiters = delimiters_of(body);
            if (!delimiters)
                return fail_at(line, column,
                               fmt::format("invalid set-delimiter tag '{}'; write e.g. {{{{=<% %>=}}}}", tag.written));
            std::tie(m_open, m_close) = *delimiters;
            tag.role = Tag::Role::silent;
            break;
        }
        case '!':
            tag.role = Tag::Role::silent;
            break;
        case '#':
            tag.node.kind = Kind::section;
            break;
        case '^':
            tag.node.kind = Kind::inverted;
            break;
        case '/':
            tag.role = Tag::Role::close;
            break;
        case '>':
            tag.node.kind = Kind::partial;
            break;
        case '&':
        default:
            break;
        }
        return tag;
    }
};

/// The state of one render: the section stack, the line being built and the budget left.
class Renderer {
  public:
    Renderer(const View& root, const PartialLookup& partials, const RenderLimits& limits)
        : m_partials(partials), m_limits(limits), m_stack{&root} {}

    Result<std::string> run(const ParsedTemplate& tmpl) {
        if (auto ok = render(tmpl, tmpl.nodes, 0); !ok)
            return std::unexpected(ok.error());
        end_line("");
        return std::move(m_out);
    }

  private:
    const PartialLookup& m_partials;
    RenderLimits m_limits;
    std::vector<const View*> m_stack; // innermost last
    std::string m_out, m_line;
    bool m_line_has_section = false;
    std::size_t m_steps = 0;

    /// The value `name` stands for where the tag is, or nullptr.
    const View* lookup(const std::string& name) const {
        if (name == ".")
            return m_stack.back();
        for (auto item = m_stack.rbegin(); item != m_stack.rend(); ++item) {
            const View* value = *item;
            std::size_t start = 0;
            while (value) { // "a.b.c": each part inside the last; "a." is "a"
                const std::size_t dot = name.find('.', start);
                const std::string_view part = std::string_view(name).substr(start, dot - start);
                const auto found = value->is_object() ? value->find(part) : value->end();
                value = value->is_object() && found != value->end() ? &*found : nullptr;
                if (dot == std::string::npos || dot + 1 == name.size())
                    break;
                start = dot + 1;
            }
            if (value)
                return value;
        }
        return nullptr;
    }

    /// A line ends: dropped when it held a section tag and nothing but blanks (a "standalone" tag line).
    void end_line(std::string_view line_break) {
        if (!m_line_has_section || m_line.find_first_not_of(" \t") != std::string::npos) {
            m_out += m_line;
            m_out += line_break;
        }
        m_line.clear();
        m_line_has_section = false;
    }

    Result<void> within_budget(const ParsedTemplate& tmpl) {
        if (++m_steps > m_limits.steps)
            return std::unexpected(Error{tmpl.path, 0, 0,
                                         fmt::format("rendering stopped after {} steps: sections and partials repeat "
                                                     "each other too often for this data",
                                                     m_limits.steps)});
        if (m_out.size() + m_line.size() > m_limits.output_bytes)
            return std::unexpected(Error{tmpl.path, 0, 0,
                                         fmt::format("rendering stopped: the text would be larger than {}",
                                                     describe_cap(m_limits.output_bytes))});
        return {};
    }

    Result<void> render_section(const ParsedTemplate& tmpl, const MustacheNode& node, const View& value, int depth) {
        const bool repeat = value.is_array() && !value.empty();
        const std::size_t times = repeat ? value.size() : 1;
        for (std::size_t i = 0; i < times; ++i) {
            if (auto ok = within_budget(tmpl); !ok)
                return ok;
            m_line_has_section = true;
            m_stack.push_back(repeat ? &value[i] : &value);
            auto ok = render(tmpl, node.children, depth);
            m_stack.pop_back();
            if (!ok)
                return ok;
            m_line_has_section = true;
        }
        return {};
    }

    Result<void> render(const ParsedTemplate& tmpl, const std::vector<MustacheNode>& nodes, int depth) {
        for (const MustacheNode& node : nodes) {
            if (auto ok = within_budget(tmpl); !ok)
                return ok;
            if (node.kind == Kind::text) {
                m_line += node.text;
                continue;
            }
            if (node.kind == Kind::newline) {
                end_line(node.text);
                continue;
            }
            if (node.kind == Kind::partial) {
                const ParsedTemplate* partial = m_partials(node.text);
                if (!partial)
                    return std::unexpected(
                        Error{tmpl.path, node.line, node.column, fmt::format("unknown partial '{}'", node.text)});
                if (depth >= m_limits.partial_depth)
                    return std::unexpected(Error{tmpl.path, node.line, node.column,
                                                 fmt::format("partials nest more than {} deep (a partial includes "
                                                             "itself?)",
                                                             m_limits.partial_depth)});
                if (auto ok = render(*partial, partial->nodes, depth + 1); !ok)
                    return ok;
                continue;
            }
            const View* value = lookup(node.text);
            if (!value)
                return std::unexpected(Error{tmpl.path, node.line, node.column,
                                             fmt::format("variable '{}' is not available at this point of the "
                                                         "template (it belongs to another section)",
                                                         node.text)});
            const bool falsy = value->is_null() || (value->is_boolean() && !value->get<bool>()) ||
                               (value->is_array() && value->empty());
            if (node.kind == Kind::variable) {
                if (value->is_string())
                    m_line += value->get_ref<const std::string&>();
                else if (value->is_number())
                    m_line += value->dump();
            } else if (falsy == (node.kind == Kind::inverted)) {
                if (auto ok = render_section(tmpl, node, *value, depth); !ok)
                    return ok;
            }
        }
        return {};
    }
};

} // namespace

Result<ParsedTemplate> parse_mustache(std::string_view text, std::string path) {
    return Parser(text, std::move(path)).parse();
}

Result<std::string> render_mustache(const ParsedTemplate& tmpl, const View& view, const PartialLookup& partials,
                                    const RenderLimits& limits) {
    return Renderer(view, partials, limits).run(tmpl);
}

} // namespace headcount::render

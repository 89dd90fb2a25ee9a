// Shapes and words: the answers that are not one number.
#include <answer/answer.hpp>

#include <util/ids.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace headcount::answer {

namespace {

constexpr std::string_view k_shape_hint = "write the shape with one whole number per axis, e.g. (2, 4, 16, 8)";

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

/// `s` without one pair of matching outer brackets, or nullopt when it has none.
std::optional<std::string_view> unwrap(std::string_view s, char open, char close) {
    if (s.size() >= 2 && s.front() == open && s.back() == close)
        return trim(s.substr(1, s.size() - 2));
    return std::nullopt;
}

/// Splits on every occurrence of `separator` (a byte sequence).
std::vector<std::string_view> split(std::string_view s, std::string_view separator) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    for (std::size_t at; (at = s.find(separator, start)) != std::string_view::npos; start = at + separator.size())
        out.push_back(s.substr(start, at - start));
    out.push_back(s.substr(start));
    return out;
}

/// The axes of a shape written with "x", "X" or "×" between them (32x8x128), or one item when there is none.
std::vector<std::string_view> split_by_times(std::string_view s) {
    constexpr std::string_view k_times = "×";
    std::vector<std::string_view> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const bool times = s.substr(i).starts_with(k_times);
        if (times || s[i] == 'x' || s[i] == 'X') {
            out.push_back(s.substr(start, i - start));
            if (times)
                i += k_times.size() - 1;
            start = i + 1;
        }
    }
    out.push_back(s.substr(start));
    return out;
}

} // namespace

std::expected<solve::Shape, std::string> parse_shape(std::string_view text) {
    if (text.size() > k_max_answer_bytes)
        return std::unexpected(fmt::format("answer longer than {} bytes", k_max_answer_bytes));
    if (!is_valid_utf8(text))
        return std::unexpected(std::string("the answer is not valid UTF-8 text"));
    std::string_view s = trim(text);
    if (s.empty())
        return std::unexpected(std::string("empty answer"));
    if (ascii_lowered(s).starts_with("torch.size(") && s.back() == ')')
        s = trim(s.substr(11, s.size() - 12));
    bool bracketed = false;
    for (auto [open, close] : std::array{std::pair{'(', ')'}, std::pair{'[', ']'}})
        if (auto inner = unwrap(s, open, close)) {
            s = *inner;
            bracketed = true;
            break;
        }
    std::vector<std::string_view> items;
    if (s.find(',') != std::string_view::npos) {
        items = split(s, ",");
        if (items.size() >= 2 && trim(items.back()).empty()) // Python's trailing comma: (4096,), (32, 8,)
            items.pop_back();
    } else {
        items = split_by_times(s);
        if (items.size() == 1 && !bracketed)
            return std::unexpected(
                parse_answer(s, AnswerUnit::count)
                    ? fmt::format("this is one number, not a shape; {}", k_shape_hint)
                    : fmt::format("no axes found: separate them with commas or x; {}", k_shape_hint));
    }
    solve::Shape shape;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string_view item = trim(items[i]);
        if (item.empty())
            return std::unexpected(fmt::format("axis {} is empty; {}", i + 1, k_shape_hint));
        if (std::all_of(item.begin(), item.end(),
                        [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }))
            return std::unexpected(fmt::format("axis {} is the symbol '{}'; {}", i + 1, printable(item), k_shape_hint));
        auto axis = parse_answer(item, AnswerUnit::count);
        if (!axis || !axis->integer || *axis->integer <= 0)
            return std::unexpected(fmt::format("axis {} ('{}') is not a whole number of at least 1; {}", i + 1,
                                               printable(item), k_shape_hint));
        shape.push_back(*axis->integer);
    }
    return shape;
}

std::expected<std::size_t, std::string> parse_choice(std::string_view text, std::span<const solve::Choice> choices) {
    std::string listed;
    for (const solve::Choice& c : choices)
        listed += (listed.empty() ? "" : ", ") + std::string(c.word);
    if (text.size() > k_max_answer_bytes)
        return std::unexpected(fmt::format("answer longer than {} bytes", k_max_answer_bytes));
    if (!is_valid_utf8(text))
        return std::unexpected(std::string("the answer is not valid UTF-8 text"));
    // Words of ASCII letters and digits; anything else separates them.
    std::vector<std::string> words;
    std::string word;
    for (char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80)
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        else if (!word.empty())
            words.push_back(std::exchange(word, {}));
    }
    if (!word.empty())
        words.push_back(word);
    if (words.empty())
        return std::unexpected(fmt::format("empty answer; answer with one of: {}", listed));
    // A negation or a comparison turns a word around ("not attention", "attention is smaller"): ask for the word.
    for (std::string_view turn : {"not", "no", "isn", "doesn", "don", "never", "less", "smaller", "fewer", "than"})
        if (std::find(words.begin(), words.end(), turn) != words.end())
            return std::unexpected(
                fmt::format("'{}' makes the answer hard to read for sure; answer with one of: {}", turn, listed));
    std::string joined = "_";
    for (const std::string& w : words)
        joined += w + "_";

    std::vector<std::size_t> named;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        std::vector<std::string_view> phrases{choices[i].word};
        for (std::string_view synonym : split(choices[i].synonyms, " "))
            if (!synonym.empty())
                phrases.push_back(synonym);
        for (std::string_view phrase : phrases)
            if (joined.find("_" + std::string(phrase) + "_") != std::string::npos) {
                named.push_back(i);
                break;
            }
    }
    if (named.size() == 1)
        return named.front();
    if (named.empty())
        return std::unexpected(fmt::format("it names none of the expected words; answer with one of: {}", listed));
    return std::unexpected(fmt::format("it names more than one of: {}; answer with one", listed));
}

} // namespace headcount::answer

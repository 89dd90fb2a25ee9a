#include <spec/choices_reader.hpp>

#include <spec/quantities_reader.hpp>

#include <solve/catalogue.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <mutex>

namespace headcount::spec::detail {

namespace {

/// Most words one quantity may be answered with.
constexpr std::size_t k_max_choices = 16;

/// A word a student types: letters, digits, '-' and '_', starting with a letter.
bool is_word(std::string_view text) {
    if (text.empty() || text.size() > 40 || !std::isalpha(static_cast<unsigned char>(text.front())))
        return false;
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (std::isalnum(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80) || c == '_' ||
               c == '-';
    });
}

/// The word as answer::parse_choice matches it: lower case, its '-' and '_' joining words as '_'.
std::string matched_form(std::string_view word) {
    std::string out;
    for (char c : word)
        out += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// The ask row's words for a spec's choices, kept for the program's life (a deque never moves what it holds) and
/// shared by every spec with the same words.
struct InternedChoices {
    std::vector<std::string> words;
    std::vector<std::string> matched;
    std::vector<solve::Choice> choices;
    solve::CatalogueEntry entry;
};

} // namespace

const solve::CatalogueEntry* choice_row(const std::vector<WordChoice>& choices) {
    static std::mutex mutex;
    static std::deque<InternedChoices> rows;
    const std::lock_guard lock(mutex);
    std::vector<std::string> words;
    for (const WordChoice& c : choices)
        words.push_back(c.word);
    for (const InternedChoices& row : rows)
        if (row.words == words)
            return &row.entry;
    InternedChoices& row = rows.emplace_back();
    row.words = std::move(words);
    for (const std::string& word : row.words)
        row.matched.push_back(matched_form(word));
    for (std::size_t i = 0; i < row.words.size(); ++i)
        row.choices.push_back(solve::Choice{row.words[i], row.matched[i]});
    row.entry.choices = row.choices;
    return &row.entry;
}

Result<std::vector<WordChoice>> read_choices(const Reader& r, const YAML::Node& node, std::string_view quantity) {
    if (!node.IsMap() || node.size() < 2)
        return r.error_at(node, fmt::format("choices of {} must map two or more words to their conditions, e.g. "
                                            "{{memory: \"memory_time > compute_time\", compute: otherwise}}",
                                            quantity));
    if (node.size() > k_max_choices)
        return r.error_at(node, fmt::format("choices of {}: more than {} words", quantity, k_max_choices));
    std::vector<WordChoice> out;
    for (const auto& entry : node) {
        WordChoice c;
        c.word = entry.first.Scalar();
        if (!is_word(c.word))
            return r.error_at(entry.first, fmt::format("choices of {}: '{}' is not a word a student can type: "
                                                       "letters, digits, '-' and '_', starting with a letter",
                                                       quantity, c.word));
        for (const WordChoice& before : out)
            if (matched_form(before.word) == matched_form(c.word))
                return r.error_at(entry.first, fmt::format("choices of {}: '{}' twice (words are read without "
                                                           "regard to case)",
                                                           quantity, c.word));
        if (!out.empty() && !out.back().condition)
            return r.error_at(out.back().mark, fmt::format("choices of {}: otherwise must be the last word's "
                                                           "condition",
                                                           quantity));
        const YAML::Node condition = entry.second;
        c.mark = mark_of(condition);
        if (condition.IsScalar() && condition.Tag() != "!" && condition.Scalar() == "otherwise") {
            out.push_back(std::move(c));
            continue;
        }
        auto parsed = read_formula(r, condition, fmt::format("condition of {} in {}", c.word, quantity));
        if (!parsed)
            return std::unexpected(parsed.error());
        c.condition = std::move(*parsed);
        c.condition_text = condition.Scalar();
        c.mark = formula_mark(condition);
        out.push_back(std::move(c));
    }
    return out;
}

std::string choices_formula(const std::vector<WordChoice>& choices) {
    // if((c0), 0, if((c1), 1, ... n-1)): the last word is the one no earlier condition takes (its own condition,
    // when it has one, is checked with the others where the spec is read: spec::choice_problem).
    // Without `otherwise`, the last word's condition stands in the formula too, for the names it uses.
    const std::size_t last = choices.size() - 1;
    std::string text = choices.back().condition
                           ? fmt::format("if(({}), {}, {})", choices.back().condition_text, last, last)
                           : std::to_string(last);
    for (std::size_t i = last; i-- > 0;)
        text = fmt::format("if(({}), {}, {})", choices[i].condition_text, i, text);
    return text;
}

} // namespace headcount::spec::detail

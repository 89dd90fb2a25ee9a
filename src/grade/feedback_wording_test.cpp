// The seams of feedback text: every ask's question and every verdict a part can get (right, rounded, each mistake
// and pair the catalogue finds for it, each other quantity, an unexplained number, an unreadable answer), with and
// without biases, under each tolerance form and each reveal policy, checked for the marks of text glued together
// badly: doubled spaces, a space before punctuation, a word run into the next one. What `check` prints is the
// verdict's text unchanged, and its JSON the mistakes' notes (src/cli/check_command.cpp): both are checked here.
#include <grade/feedback.hpp>

#include <grade/mistakes.hpp>
#include <render/answers.hpp>
#include <render/builtin_templates.hpp>
#include <render/hints.hpp>
#include <render/solution.hpp>
#include <spec/reader.hpp>

#include <util/test_catch.hpp>

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace headcount;

namespace {

using Words = std::set<std::string>;

/// The runs of ASCII letters in `text`, lower-cased.
std::vector<std::string> words_of(std::string_view text) {
    std::vector<std::string> words;
    std::string word;
    for (const char c : std::string(text) + ' ') {
        if (std::isalpha(static_cast<unsigned char>(c))) {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!word.empty()) {
            words.push_back(word);
            word.clear();
        }
    }
    return words;
}

void add_words(Words& vocabulary, std::string_view text) {
    for (const std::string& word : words_of(text)) {
        vocabulary.insert(word);
        vocabulary.insert(word + "s"); // the plurals templates spell as word{{^one}}s{{/one}}
        vocabulary.insert(word + "es");
    }
}

/// Every string a view holds.
void add_view_words(Words& vocabulary, const render::View& view) {
    if (view.is_string())
        add_words(vocabulary, view.get<std::string>());
    else if (view.is_structured())
        for (const render::View& item : view)
            add_view_words(vocabulary, item);
}

/// The words the text may use: those of the templates (their tags taken for spaces) and of the catalogues, so
/// that a word made of two glued together ("biasesthe") is none of them.
Words base_vocabulary() {
    Words vocabulary{"math", "code"}; // what math and code spans are replaced by
    for (const render::BuiltinTemplate& file : render::builtin_templates()) {
        std::string text(file.text);
        for (std::size_t open = text.find("{{"); open != std::string::npos; open = text.find("{{", open)) {
            const std::size_t close = text.find("}}", open);
            text.replace(open, close == std::string::npos ? text.size() - open : close + 2 - open, " ");
        }
        add_words(vocabulary, text);
    }
    for (const solve::Ask& ask : solve::asks()) {
        add_words(vocabulary, ask.noun);
        add_words(vocabulary, ask.unit);
        for (const solve::Choice& choice : ask.choices)
            add_words(vocabulary, choice.word);
    }
    for (const grade::Mistake& mistake : grade::mistake_catalogue())
        add_words(vocabulary, mistake.title);
    return vocabulary;
}

/// `text` with its $math$ and `code` spans replaced by a word: they are not prose, and a student's answer in a
/// code span may hold anything.
std::string prose(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const std::size_t close = c == '$' || c == '`' ? text.find(c, i + 1) : std::string_view::npos;
        if (close != std::string_view::npos && text.substr(i, close - i).find('\n') == std::string_view::npos) {
            out += c == '$' ? "math" : "code";
            i = close;
        } else {
            out += c;
        }
    }
    return out;
}

/// A seam: what is wrong, and the line of prose it is on.
struct Seam {
    std::string what;
    std::string line;
};

/// The seams in `text`.
std::vector<Seam> seams(std::string_view text, const Words& vocabulary) {
    std::vector<Seam> found;
    std::istringstream lines(prose(text));
    for (std::string line; std::getline(lines, line);) {
        const std::size_t first = line.find_first_not_of(' ');
        if (first == std::string::npos)
            continue;
        line.erase(0, first);
        const auto seam = [&](std::string what) { found.push_back({std::move(what), line}); };
        if (line.ends_with(' '))
            seam("a space at the end of the line");
        if (line.find("  ") != std::string::npos)
            seam("a doubled space");
        for (const char mark : {',', '.', ';', ':', ')', '?', '!'})
            if (line.find({' ', mark}) != std::string::npos)
                seam(fmt::format("a space before '{}'", mark));
        if (line.find("( ") != std::string::npos)
            seam("a space after '('");
        for (std::size_t i = 0; i + 1 < line.size(); ++i)
            if (std::string_view(",;)").find(line[i]) != std::string_view::npos &&
                std::isalpha(static_cast<unsigned char>(line[i + 1])))
                seam(fmt::format("no space after '{}'", line[i]));
        for (const std::string& word : words_of(line))
            if (!vocabulary.contains(word))
                seam(fmt::format("'{}', no word of the templates or catalogues (two run together?)", word));
    }
    return found;
}

/// A problem asking every ask its givens can answer, one part each, with `biases` (a spec's `bias:` value).
solve::SolvedProblem every_ask(const std::string& yaml, std::string_view biases,
                               const std::optional<spec::Tolerance>& tolerance) {
    const std::vector<std::string_view> asks = solve::ask_ids(), mistakes = grade::mistake_ids();
    auto problem =
        spec::parse_problem(fmt::format(fmt::runtime(yaml), biases), "wording.yaml", spec::Vocabulary{asks, mistakes});
    INFO((problem ? std::string() : problem.error().to_string()));
    REQUIRE(problem.has_value());
    problem->parts.clear();
    for (const solve::Ask& ask : solve::asks()) {
        if (solve::cannot_ask(ask, *problem))
            continue;
        spec::Part part;
        part.id = fmt::format("p{}", problem->parts.size() + 1);
        part.ask = ask.id;
        if (ask.type() == solve::Ask::Type::count)
            part.tolerance = tolerance;
        problem->parts.push_back(part);
    }
    auto solved = solve::solve_problem(*problem);
    REQUIRE(solved.has_value());
    return *solved;
}

/// What students type that reaches each kind of verdict on `part`, each once.
std::set<std::string> answers_for(const grade::MistakeTable& table) {
    const solve::Ask& ask = *table.part->ask;
    const solve::Answer& right = table.part->answer;
    std::set<std::string> answers{render::answer_text(ask, right), "banana"};
    // Every single mistake and other quantity; of the pairs, which only put two singles' words together, the
    // first few (the texts of pairs and of collisions are still reached; all of them would triple the time).
    std::size_t pairs = 0;
    for (const auto* list : {&table.explanations, &table.others})
        for (const grade::Explanation& e : *list)
            if (e.mistakes.size() < 2 || ++pairs <= 3)
                answers.insert(render::answer_text(ask, e.value));
    if (ask.type() == solve::Ask::Type::count && right.count >= 100) {
        // Two significant figures with a scale (a rounding), and a number no mistake gives (7,919 is prime).
        const int exponent = static_cast<int>(std::floor(std::log10(static_cast<double>(right.count))));
        answers.insert(fmt::format("{:.1f}e{}", static_cast<double>(right.count) / std::pow(10.0, exponent), exponent));
        answers.insert(fmt::format("{}", right.count + 7919));
    } else if (ask.type() == solve::Ask::Type::shape) {
        solve::Shape reversed(right.shape.rbegin(), right.shape.rend()), longer = right.shape;
        longer.push_back(3);
        answers.insert(render::answer_text(ask, solve::Answer{0, reversed, {}}));
        answers.insert(render::answer_text(ask, solve::Answer{0, longer, {}}));
    } else if (ask.type() == solve::Ask::Type::choice) {
        for (const solve::Choice& choice : ask.choices)
            answers.emplace(choice.word);
    }
    return answers;
}

// {} is the biases' setting. The blocks have a workload and a dtype, so compute, shape and memory asks apply too;
// the second has what changes the words most: grouped-query attention, cross-attention, d_k != d_v, add_bias_kv.
constexpr const char* k_block = R"(id: wording-block
title: Wording
given: {{d_model: 512, h: 8, bias: {}, batch: 4, seq_len: 128, dtype: fp16}}
parts: [{{id: a, ask: d_k}}]
)";
constexpr const char* k_unusual_block = R"(id: wording-gqa
title: Wording
given: {{d_model: 512, h: 8, n_kv_heads: 2, d_k: 32, d_v: 48, kdim: 256, vdim: 384, add_bias_kv: true, bias: {},
        batch: 2, seq_len: 64, seq_len_kv: 96, dtype: bf16}}
parts: [{{id: a, ask: d_k}}]
)";
constexpr const char* k_model = R"(id: wording-model
title: Wording
kind: transformer
given: {{d_model: 256, h: 4, bias: {}, d_ff: 1024, layers: 2, vocab: 1000, max_positions: 128, final_norm: true,
        lm_head: linear, tied_embeddings: true, batch: 2, seq_len: 64, dtype: fp16}}
parts: [{{id: a, ask: d_k}}]
)";
constexpr const char* k_encoder_decoder = R"(id: wording-seq2seq
title: Wording
kind: transformer
given: {{d_model: 256, h: 4, bias: {}, d_ff: 1024, encoder_layers: 2, decoder_layers: 2, vocab: 1000}}
parts: [{{id: a, ask: d_k}}]
)";

/// Every question and verdict text of the problem `yaml` describes, under every bias setting, tolerance form and
/// reveal policy: each kind of seam found once, with the first text it was found in; "" when there are none.
std::string seams_in_every_text(const char* yaml) {
    const render::TemplateSet templates = render::TemplateSet::builtin();
    const Words base = base_vocabulary();
    const std::optional<spec::Tolerance> tolerances[] = {std::nullopt,
                                                         spec::Tolerance{spec::Tolerance::Kind::relative, 0.01, 0},
                                                         spec::Tolerance{spec::Tolerance::Kind::sigfigs, 0, 3}};
    std::map<std::string, std::string> failures;
    for (const std::string_view biases : {"true", "false", "{q: true, k: false, v: true, o: false}"})
        for (const auto& tolerance : tolerances) {
            const solve::SolvedProblem solved = every_ask(yaml, biases, tolerance);
            const render::View view = render::problem_view(solved);
            Words vocabulary = base;
            add_view_words(vocabulary, view);
            add_view_words(vocabulary, render::hint_view(solved));
            const auto audit = [&](const std::string& what, const std::string& text) {
                for (const Seam& seam : seams(text, vocabulary))
                    failures.emplace(seam.what, fmt::format("{}\n    ({}, bias: {})", seam.line, what, biases));
            };
            for (const solve::SolvedPart& part : solved.parts) {
                if (tolerance && part.ask->type() != solve::Ask::Type::count)
                    continue; // a tolerance is a count's; other parts were seen with none
                auto question = render::part_question(part, templates, view);
                REQUIRE(question.has_value());
                audit(fmt::format("{}: the question", part.ask->id), *question);
                const grade::MistakeTable table = grade::mistake_table(solved, part);
                // A formula's mistakes (advertised_size, derived ones) bring their words as templates do.
                for (const grade::Explanation& e : table.explanations)
                    for (const grade::Mistake* m : e.mistakes) {
                        add_words(vocabulary, m->title);
                        add_words(vocabulary, m->feedback);
                    }
                for (const std::string& answer : answers_for(table)) {
                    const grade::Verdict verdict = grade::grade_answer(table, answer);
                    add_words(vocabulary, verdict.unreadable_reason);
                    add_words(vocabulary, answer);
                    for (const auto reveal : {spec::Reveal::hints, spec::Reveal::gaps, spec::Reveal::full}) {
                        auto feedback = grade::explain(solved, part, verdict, templates, reveal);
                        REQUIRE(feedback.has_value());
                        const std::string what =
                            fmt::format("{}: '{}' under {}", part.ask->id, answer, spec::reveal_name(reveal));
                        audit(what, feedback->text);
                        for (const grade::MistakeNote& note : feedback->notes)
                            audit(what + ", note " + note.id, note.feedback);
                    }
                }
            }
        }
    std::string list;
    for (const auto& [seam, where] : failures)
        list += fmt::format("{} in: {}\n", seam, where);
    return list;
}

} // namespace

// One test case per kind of problem, so that ctest runs them side by side.
TEST_CASE("feedback and questions read without seams: an attention block", "[feedback][wording]") {
    CHECK(seams_in_every_text(k_block) == "");
}

TEST_CASE("feedback and questions read without seams: grouped-query cross-attention with add_bias_kv",
          "[feedback][wording]") {
    CHECK(seams_in_every_text(k_unusual_block) == "");
}

TEST_CASE("feedback and questions read without seams: a transformer", "[feedback][wording]") {
    CHECK(seams_in_every_text(k_model) == "");
}

TEST_CASE("feedback and questions read without seams: an encoder-decoder", "[feedback][wording]") {
    CHECK(seams_in_every_text(k_encoder_decoder) == "");
}

TEST_CASE("the seam detector finds the seams issue 24 quoted", "[feedback][wording]") {
    const Words vocabulary = base_vocabulary();
    const auto found = [&](std::string_view text) {
        std::string kinds;
        for (const Seam& seam : seams(text, vocabulary))
            kinds += seam.what + "\n";
        return kinds;
    };
    CHECK(found("Your number is the answer for the weight matrices alone, without the biases, and also for the "
                "whole block, $W_O$ and every bias included.") == "");
    CHECK(found("Your number is the answer for the weight matrices alone, without the biasesthe whole block.") ==
          "'biasesthe', no word of the templates or catalogues (two run together?)\n");
    CHECK(found("($W_Q$, $W_K$, $W_V$ and the biases ) have together?") == "a space before ')'\n");
    CHECK(found("as wide as its output:  here.") == "a doubled space\n");
    CHECK(found("Your answer: `1 ,  2 )` (read as 12).") == ""); // a student's text is theirs
}

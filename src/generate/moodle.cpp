#include <generate/moodle.hpp>

#include <solve/defined.hpp>

#include <generate/lms_answers.hpp>
#include <generate/lms_html.hpp>
#include <generate/moodle_numbers.hpp>
#include <render/solution.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

namespace headcount::generate {

namespace {

/// The smallest factor (1 to 100) that makes every part's points a whole number: Cloze weights are integers, and
/// only their ratios matter (the quiz scales a question to its slot's mark).
int weight_scale(const solve::SolvedProblem& variant) {
    for (int scale = 1; scale <= 100; ++scale) {
        bool whole = true;
        for (const solve::SolvedPart& part : variant.parts) {
            const double w = part.part.points * scale;
            whole = whole && std::abs(w - std::round(w)) < 1e-9;
        }
        if (whole)
            return scale;
    }
    return 100;
}

/// What a Cloze answer says when nothing grade knows matches (the '*' answer).
std::string catch_all(const solve::Ask& ask) {
    switch (ask.type()) {
    case solve::Ask::Type::shape:
        return "No known mistake gives this shape. Write it as its sizes in order, such as (2, 3, 4), then follow the "
               "tensor through the block one step at a time and compare with the worked solution.";
    case solve::Ask::Type::choice:
        return "Not this one.";
    case solve::Ask::Type::count:
        break;
    }
    return "No known mistake gives this number. Moodle reads digits only (no commas or spaces) or e-notation such "
           "as 1.23e6, not M, million or arithmetic: check how you typed it, then recount each piece and compare "
           "with the worked solution.";
}

/// What each of a part's answers says in Cloze (Markdown), `order` being the entries in the order the box lists
/// them: "Right." for the right value; grade's words when they name one mistake (or a rounding); when they name
/// several, each by its title, explained only if no answer of the box explains it already. Cloze keeps a feedback
/// with every answer and Moodle has no text that answers share, so explaining every mistake again in each pair
/// that holds it filled a question with the same paragraphs about eight times over (docs/platforms.md): now
/// each is explained once per box, in the answer that names it alone or else the first that names it.
std::vector<std::string> cloze_feedback(const std::vector<PlatformAnswer>& answers,
                                        const std::vector<std::size_t>& order) {
    std::set<std::string_view> explained;
    for (const std::size_t i : order)
        if (answers[i].notes.size() == 1)
            explained.insert(answers[i].notes.front().text);
    std::vector<std::string> out(answers.size());
    for (const std::size_t i : order) {
        const PlatformAnswer& a = answers[i];
        if (a.status == grade::Status::correct) { // the right value, or a reading the part accepts: its sentence
            out[i] = a.feedback.empty() ? std::string("Right.") : a.feedback;
            continue;
        }
        if (a.notes.size() < 2) {
            out[i] = a.feedback;
            continue;
        }
        for (const PlatformNote& note : a.notes)
            out[i] += (out[i].empty() ? "" : "\n\n") +
                      (explained.insert(note.text).second ? note.text : fmt::format("**{}.**", note.title));
    }
    return out;
}

/// What the '*' answer of a count matched as text says: the texts it knows are digits and e-notation, and a number
/// inside an interval typed with other figures (3.152e23 for 3.15e23 at three figures) is none of them.
constexpr std::string_view k_catch_all_text =
    "No known mistake gives this number, or it is typed in a way this box does not list. This box matches text, not "
    "a range of numbers: type the digits alone (1234567), or e-notation with as many figures as the part asks for "
    "(1.23e6 for three), with no spaces, M or arithmetic; a number written with more figures is not listed, even "
    "one that would be right. Then recount each piece and compare with the worked solution.";

/// One subquestion: {weight:TYPE:answer~answer~...}, each answer [=|%percent%]text[:tolerance]#feedback.
/// `label` names the variant in `notes`, which gets a line for each value Moodle cannot tell apart.
Result<std::string> subquestion(const solve::SolvedProblem& variant, const solve::SolvedPart& part, int weight,
                                const render::TemplateSet& templates, std::string_view label,
                                std::vector<std::string>& notes) {
    auto answers = platform_answers(variant, part, templates);
    if (!answers)
        return std::unexpected(answers.error());
    const solve::Ask& ask = *part.ask;
    // A count Moodle's float intervals cannot hold as rule 1 does (past 2^53, or an exact count whose allowance
    // passes a unit) is matched as text, each way of typing it an answer with grade's verdict on that text.
    const bool as_text = ask.type() == solve::Ask::Type::count && needs_text(*answers, solve::tolerance_of(part));
    if (as_text) {
        auto texts = text_answers(variant, part, *answers, templates);
        if (!texts)
            return std::unexpected(texts.error());
        *answers = std::move(*texts);
    }
    // Each answer the box lists, as its entry and text; its feedback is decided once the order is known.
    std::vector<std::pair<std::size_t, std::string>> listed;
    if (as_text) {
        for (std::size_t i = 0; i < answers->size(); ++i)
            listed.emplace_back(i, cloze_escape((*answers)[i].typed));
    } else if (ask.type() == solve::Ask::Type::count) {
        // Numbers in intervals (moodle_numbers.hpp): one entry may take two answers, or none when left out.
        const ClozeNumbers numbers = cloze_numbers(*answers, solve::tolerance_of(part));
        for (const ClozeNumber& n : numbers.answers)
            listed.emplace_back(n.entry, number_text(n.number.value) + ":" + number_text(n.number.tolerance));
        for (const std::size_t entry : numbers.dropped)
            notes.push_back(
                fmt::format("{} ({}): {}", label, part.part.id, with_thousands((*answers)[entry].value.count)));
    }
    for (std::size_t i = 0; i < answers->size(); ++i) {
        const PlatformAnswer& a = (*answers)[i];
        if (ask.type() == solve::Ask::Type::shape)
            for (const std::string& form : shape_forms(a.value.shape))
                listed.emplace_back(i, cloze_escape(form)); // stored as typed text, not HTML
        else if (ask.type() == solve::Ask::Type::choice)
            listed.emplace_back(i, cloze_escape(escape_xml(ask.choices[static_cast<std::size_t>(a.value.count)].word)));
    }
    std::vector<std::size_t> order;
    std::vector<bool> seen(answers->size(), false);
    for (const auto& [entry, text] : listed)
        if (!seen[entry]) {
            seen[entry] = true;
            order.push_back(entry);
        }
    const std::vector<std::string> feedback = cloze_feedback(*answers, order);

    std::vector<std::string> alternatives;
    const auto alternative = [&](double credit, const std::string& text, const std::string& feedback_markdown) {
        const std::string grade = credit >= 1 ? "=" : fmt::format("%{}%", cloze_percent(credit));
        std::string html = lms_html(feedback_markdown);
        // Moodle's feedback pattern ends at '~', '}' or the end of the text, which PCRE's $ also finds before a
        // final line break: that break would be read as one more (empty) answer.
        while (!html.empty() && html.back() == '\n')
            html.pop_back();
        alternatives.push_back(grade + text + "#" + cloze_escape(html));
    };
    for (const auto& [entry, text] : listed)
        alternative((*answers)[entry].credit, text, feedback[entry]);
    if (ask.type() == solve::Ask::Type::choice) {
        // Every word is offered in the menu; those grade has nothing to say about get a plain "not this one".
        for (std::size_t i = 0; i < ask.choices.size(); ++i) {
            const solve::Answer value{static_cast<Count>(i), {}, {}};
            if (std::none_of(answers->begin(), answers->end(),
                             [&](const PlatformAnswer& a) { return a.value == value; }))
                alternative(0, cloze_escape(escape_xml(ask.choices[i].word)), catch_all(ask));
        }
    } else {
        alternative(0, "*", as_text ? std::string(k_catch_all_text) : catch_all(ask));
    }
    const std::string_view type = as_text                                 ? "SHORTANSWER"
                                  : ask.type() == solve::Ask::Type::count ? "NUMERICAL"
                                  : ask.type() == solve::Ask::Type::shape ? "SHORTANSWER"
                                                                          : "MULTICHOICE";
    std::string out = fmt::format("{{{}:{}:", weight, type);
    for (std::size_t i = 0; i < alternatives.size(); ++i)
        out += (i == 0 ? "" : "~") + alternatives[i];
    return out + "}";
}

/// The question text: the variant's sheet, then a line per part with its answer box.
Result<std::string> question_html(const solve::SolvedProblem& variant, const render::TemplateSet& templates,
                                  std::string_view label, std::vector<std::string>& notes) {
    auto sheet = render::markdown_problem_sheet(variant, templates, "");
    if (!sheet)
        return std::unexpected(sheet.error());
    std::string html = cloze_text(lms_html(*sheet));
    const bool has_count = std::any_of(variant.parts.begin(), variant.parts.end(), [](const solve::SolvedPart& p) {
        return p.ask->type() == solve::Ask::Type::count;
    });
    html += has_count ? "<p><strong>Your answers.</strong> Type numbers as digits without separators (1234567) or "
                        "in e-notation (1.23e6).</p>\n"
                      : "<p><strong>Your answers.</strong></p>\n";
    const int scale = weight_scale(variant);
    for (const solve::SolvedPart& part : variant.parts) {
        auto box = subquestion(variant, part, static_cast<int>(std::lround(part.part.points * scale)), templates, label,
                               notes);
        if (!box)
            return std::unexpected(box.error());
        const std::string unit = part.ask->type() == solve::Ask::Type::count ? " " + std::string(part.ask->unit) : "";
        html +=
            fmt::format("<p>({}) {}{}</p>\n", cloze_text(escape_xml(part.part.id)), *box, cloze_text(escape_xml(unit)));
    }
    return html;
}

/// Every <text> is one CDATA section, as Moodle's own exporter writes it: its XML reader keeps a piece of text only
/// if it is not all white space, and escaped text reaches it cut at each reference ("</strong> &#92;(" as "<",
/// "/strong", ">", " ", ...), so the space between two references would be lost.
std::string text_element(std::string_view tag, std::string_view html, std::string_view indent) {
    return fmt::format("{0}<{1} format=\"html\">\n{0}  <text>{2}</text>\n{0}</{1}>\n", indent, tag, xml_cdata(html));
}

} // namespace

std::string cloze_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '}':
            out += "&#125;";
            break;
        case '{':
            out += "&#123;";
            break;
        case '~':
            out += "&#126;";
            break;
        case '#':
            out += "&#35;";
            break;
        case '\\':
            out += "&#92;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string cloze_text(std::string_view html) {
    std::string out;
    out.reserve(html.size());
    for (char c : html)
        out += c == '{' ? "&#123;" : c == '}' ? "&#125;" : std::string(1, c);
    return out;
}

std::string cloze_percent(double credit) {
    const double percent = std::round(credit * 100 * 1e5) / 1e5;
    std::string text = fmt::format("{:.5f}", percent);
    while (text.back() == '0')
        text.pop_back();
    if (text.back() == '.')
        text.pop_back();
    return text;
}

Result<MoodleBank> moodle_question_bank(const std::vector<ProblemBank>& banks, const render::TemplateSet& templates) {
    MoodleBank out;
    std::string& xml = out.xml;
    xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n";
    for (const ProblemBank& bank : banks) {
        const spec::Problem& problem = bank.problem->problem;
        xml += fmt::format("  <question type=\"category\">\n    <category>\n      <text>{}</text>\n"
                           "    </category>\n{}  </question>\n",
                           xml_cdata("$course$/top/headcount/" + problem.id),
                           text_element("info",
                                        fmt::format("<p>{}: {} variant{} from headcount. Add one random question from "
                                                    "this category to a quiz.</p>",
                                                    escape_xml(problem.title), bank.variants.size(),
                                                    bank.variants.size() == 1 ? "" : "s"),
                                        "    "));
        for (const BankVariant& variant : bank.variants) {
            auto text = question_html(variant.solved, templates, fmt::format("{} v{}", problem.id, variant.number),
                                      out.left_out);
            if (!text)
                return std::unexpected(text.error());
            auto solution = render::markdown_solution(variant.solved, templates);
            if (!solution)
                return std::unexpected(solution.error());
            const std::string givens = varying_givens_text(variant.solved);
            xml += fmt::format(
                "  <question type=\"cloze\">\n    <name>\n      <text>{}</text>\n    </name>\n"
                "{}{}    <penalty>0</penalty>\n    <hidden>0</hidden>\n"
                "    <idnumber>{}-v{}</idnumber>\n  </question>\n",
                xml_cdata(fmt::format("{} v{}{}", problem.id, variant.number, givens.empty() ? "" : ": " + givens)),
                text_element("questiontext", *text, "    "),
                text_element("generalfeedback", lms_html(*solution), "    "), escape_xml(problem.id), variant.number);
        }
    }
    xml += "</quiz>\n";
    return out;
}

} // namespace headcount::generate

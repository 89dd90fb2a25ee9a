#include <generate/qti.hpp>

#include <generate/lms_answers.hpp>
#include <generate/lms_html.hpp>
#include <generate/qti_text.hpp>
#include <generate/variants.hpp>
#include <grade/mistakes.hpp>
#include <render/answers.hpp>
#include <render/solution.hpp>
#include <util/text.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace headcount::generate {

namespace {

/// A stable identifier: a letter and 16 hex digits of the FNV-1a hash of what it names.
std::string ident(std::string_view kind, std::string_view name) {
    return fmt::format("{}{:016x}", kind.front(), fnv1a64(std::string(kind) + '\0' + std::string(name)));
}

std::string grouped(Count value, char separator) {
    std::string text = with_thousands(value);
    std::replace(text.begin(), text.end(), ',', separator);
    return text;
}

/// The blank's name in the question text ([part_a]); Canvas wants a word, so other part ids are numbered.
std::string blank_id(const solve::SolvedPart& part, std::size_t index) {
    const bool word = !part.part.id.empty() && std::all_of(part.part.id.begin(), part.part.id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
    return word ? "part_" + part.part.id : fmt::format("part_{}", index + 1);
}

std::string metadata_field(std::string_view label, std::string_view entry) {
    return fmt::format("            <qtimetadatafield>\n              <fieldlabel>{}</fieldlabel>\n"
                       "              <fieldentry>{}</fieldentry>\n            </qtimetadatafield>\n",
                       label, escape_xml(entry));
}

std::string html_material(std::string_view html, std::string_view indent) {
    return fmt::format("{0}<material>\n{0}  <mattext texttype=\"text/html\">{1}</mattext>\n{0}</material>\n", indent,
                       escape_xml(html));
}

std::string item_feedback(std::string_view id, std::string_view html) {
    return fmt::format("        <itemfeedback ident=\"{}\">\n          <flow_mat>\n{}          </flow_mat>\n"
                       "        </itemfeedback>\n",
                       id, html_material(html, "            "));
}

/// The wrong-answer comment: per part, the mistakes grade knows for it, by title (words only, under every policy).
Result<std::string> mistakes_comment(const solve::SolvedProblem& variant, const render::TemplateSet& templates) {
    std::string markdown =
        "Not all right yet. Canvas accepts the right value typed as digits (or a rounding of it that "
        "the part's figures allow), and gives nothing for a coarser rounding or a mistake here. The "
        "mistakes headcount knows for each part:\n\n";
    for (const solve::SolvedPart& part : variant.parts) {
        auto answers = platform_answers(variant, part, templates);
        if (!answers)
            return std::unexpected(answers.error());
        std::vector<std::string> titles;
        for (const PlatformAnswer& a : *answers)
            for (const std::string& id : a.mistakes)
                if (const grade::Mistake* m = grade::find_mistake(id); m && id != grade::k_rounded) {
                    const std::string title(m->title);
                    if (std::find(titles.begin(), titles.end(), title) == titles.end())
                        titles.push_back(title);
                }
        markdown += fmt::format("- ({}): {}\n", part.part.id,
                                titles.empty() ? std::string("none catalogued; compare with the worked solution")
                                               : fmt::format("{}", fmt::join(titles, "; ")));
    }
    return lms_html(markdown);
}

struct Item {
    std::string xml;
    double points = 0;
};

/// One variant as a question; with `solution`, its worked solution is the general comment.
Result<Item> fimb_item(const std::string& problem_id, const BankVariant& variant, const render::TemplateSet& templates,
                       bool solution) {
    const solve::SolvedProblem& solved = variant.solved;
    const std::string name = fmt::format("{}/v{}", problem_id, variant.number);
    auto sheet = render::markdown_problem_sheet(solved, templates, "");
    if (!sheet)
        return std::unexpected(sheet.error());
    auto wrong = mistakes_comment(solved, templates);
    if (!wrong)
        return std::unexpected(wrong.error());

    std::string html =
        canvas_text(lms_html(*sheet)) + "<p><strong>Your answers.</strong> Type whole numbers as digits.</p>\n";
    std::string responses, conditions, answer_ids;
    double points = 0;
    for (std::size_t i = 0; i < solved.parts.size(); ++i) {
        const solve::SolvedPart& part = solved.parts[i];
        points += part.part.points;
        const std::string blank = blank_id(part, i);
        const std::string unit = part.ask->type() == solve::Ask::Type::count ? " " + std::string(part.ask->unit) : "";
        html += fmt::format("<p>({}) [{}]{}</p>\n", canvas_text(escape_xml(part.part.id)), blank,
                            canvas_text(escape_xml(unit)));
        std::string labels;
        std::string first;
        std::vector<std::string> forms = canvas_forms(*part.ask, part.answer);
        if (part.ask->type() == solve::Ask::Type::count) {
            // As in Moodle's text boxes: every way of typing a number that grade takes as right here (1.05e6 and
            // 1050000 for 1,050,624 at three figures; 3.15e23 for 315,000,000,000,000,000,000,000).
            auto answers = platform_answers(solved, part, templates);
            if (!answers)
                return std::unexpected(answers.error());
            auto texts = text_answers(solved, part, *answers, templates);
            if (!texts)
                return std::unexpected(texts.error());
            for (const PlatformAnswer& a : *texts)
                if (a.status == grade::Status::correct && std::find(forms.begin(), forms.end(), a.typed) == forms.end())
                    forms.push_back(a.typed);
        }
        for (const std::string& form : forms) {
            const std::string id = ident("answer", name + '\0' + part.part.id + '\0' + form);
            if (first.empty())
                first = id;
            answer_ids += (answer_ids.empty() ? "" : ",") + id;
            labels += fmt::format("              <response_label ident=\"{}\">\n                <material>\n"
                                  "                  <mattext texttype=\"text/plain\">{}</mattext>\n"
                                  "                </material>\n              </response_label>\n",
                                  id, escape_xml(form));
        }
        responses += fmt::format("          <response_lid ident=\"response_{0}\">\n            <material>\n"
                                 "              <mattext>{0}</mattext>\n            </material>\n"
                                 "            <render_choice>\n{1}            </render_choice>\n"
                                 "          </response_lid>\n",
                                 blank, labels);
        conditions += fmt::format("          <respcondition>\n            <conditionvar>\n"
                                  "              <varequal respident=\"response_{}\">{}</varequal>\n"
                                  "            </conditionvar>\n"
                                  "            <setvar varname=\"SCORE\" action=\"Add\">{:.2f}</setvar>\n"
                                  "          </respcondition>\n",
                                  blank, first, 100.0 / static_cast<double>(solved.parts.size()));
    }
    const std::string givens = varying_givens_text(solved);
    std::string xml = fmt::format(
        "      <item ident=\"{}\" title=\"{}\">\n        <itemmetadata>\n          <qtimetadata>\n",
        ident("item", name),
        escape_xml(fmt::format("{} v{}{}", problem_id, variant.number, givens.empty() ? "" : ": " + givens)));
    xml += metadata_field("question_type", "fill_in_multiple_blanks_question");
    xml += metadata_field("points_possible", fmt::format("{}", points));
    xml += metadata_field("original_answer_ids", answer_ids);
    xml += metadata_field("assessment_question_identifierref", ident("question", name));
    xml += "          </qtimetadata>\n        </itemmetadata>\n        <presentation>\n";
    xml += html_material(html, "          ") + responses + "        </presentation>\n";
    xml += "        <resprocessing>\n          <outcomes>\n            <decvar maxvalue=\"100\" minvalue=\"0\" "
           "varname=\"SCORE\" vartype=\"Decimal\"/>\n          </outcomes>\n";
    // Canvas files "general_fb" as the question's neutral comment, which a student sees after every submission
    // whatever the quiz says about correct answers: the worked solution goes there only when asked for.
    std::string general;
    if (solution) {
        auto worked = render::markdown_solution(solved, templates);
        if (!worked)
            return std::unexpected(worked.error());
        xml += "          <respcondition continue=\"Yes\">\n            <conditionvar>\n              <other/>\n"
               "            </conditionvar>\n"
               "            <displayfeedback feedbacktype=\"Response\" linkrefid=\"general_fb\"/>\n"
               "          </respcondition>\n";
        general = item_feedback("general_fb", lms_html(*worked));
    }
    xml += conditions + "        </resprocessing>\n";
    xml += general;
    xml += item_feedback("general_incorrect_fb", *wrong);
    xml += "      </item>\n";
    return Item{xml, points};
}

std::string manifest(const std::string& manifest_id, const std::string& assessment, const std::string& meta_id,
                     const std::string& title) {
    return fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<manifest identifier=\"{0}\" xmlns=\"http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1\" "
        "xmlns:imsmd=\"http://www.imsglobal.org/xsd/imsmd_v1p2\">\n"
        "  <metadata>\n    <schema>IMS Content</schema>\n    <schemaversion>1.1.3</schemaversion>\n"
        "    <imsmd:lom>\n      <imsmd:general>\n        <imsmd:title>\n"
        "          <imsmd:string>{3}</imsmd:string>\n        </imsmd:title>\n      </imsmd:general>\n"
        "    </imsmd:lom>\n  </metadata>\n  <organizations/>\n  <resources>\n"
        "    <resource identifier=\"{1}\" type=\"imsqti_xmlv1p2\">\n      <file href=\"{1}/{1}.xml\"/>\n"
        "      <dependency identifierref=\"{2}\"/>\n    </resource>\n"
        "    <resource identifier=\"{2}\" type=\"associatedcontent/imscc_xmlv1p1/learning-application-resource\" "
        "href=\"{1}/assessment_meta.xml\">\n      <file href=\"{1}/assessment_meta.xml\"/>\n    </resource>\n"
        "  </resources>\n</manifest>\n",
        manifest_id, assessment, meta_id, escape_xml(title));
}

std::string assessment_meta(const std::string& assessment, const std::string& title, double points) {
    const std::string total = fmt::format("{:.1f}", points);
    return fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<quiz identifier=\"{0}\" xmlns=\"http://canvas.instructure.com/xsd/cccv1p0\">\n"
        "  <title>{1}</title>\n  <description></description>\n  <shuffle_answers>false</shuffle_answers>\n"
        "  <scoring_policy>keep_highest</scoring_policy>\n  <hide_results></hide_results>\n"
        "  <quiz_type>assignment</quiz_type>\n  <points_possible>{2}</points_possible>\n"
        "  <show_correct_answers>false</show_correct_answers>\n  <anonymous_submissions>false</anonymous_submissions>\n"
        "  <could_be_locked>false</could_be_locked>\n  <allowed_attempts>1</allowed_attempts>\n"
        "  <one_question_at_a_time>false</one_question_at_a_time>\n  <cant_go_back>false</cant_go_back>\n"
        "  <available>false</available>\n  <one_time_results>false</one_time_results>\n"
        "  <show_correct_answers_last_attempt>false</show_correct_answers_last_attempt>\n"
        "  <only_visible_to_overrides>false</only_visible_to_overrides>\n  <module_locked>false</module_locked>\n"
        "  <assignment identifier=\"{3}\">\n    <title>{1}</title>\n    <workflow_state>unpublished</workflow_state>\n"
        "    <quiz_identifierref>{0}</quiz_identifierref>\n    <points_possible>{2}</points_possible>\n"
        "    <grading_type>points</grading_type>\n    <submission_types>online_quiz</submission_types>\n"
        "  </assignment>\n  <assignment_group_identifierref>{4}</assignment_group_identifierref>\n</quiz>\n",
        assessment, escape_xml(title), total, ident("assignment", assessment), ident("group", assessment));
}

} // namespace

std::vector<std::string> canvas_forms(const solve::Ask& ask, const solve::Answer& answer) {
    std::vector<std::string> forms;
    switch (ask.type()) {
    case solve::Ask::Type::count:
        if (answer.exact) { // a defined quantity: its digits, or a fraction to three and four figures
            const std::string digits = render::plain_exact(*answer.exact);
            const std::string commas = render::exact_text(*answer.exact);
            if (answer.exact->get_den() == 1) {
                std::string spaces = commas;
                std::replace(spaces.begin(), spaces.end(), ',', ' ');
                forms = {digits, commas, spaces};
            } else {
                forms = {formula::rounded(*answer.exact, 3), formula::rounded(*answer.exact, 4), digits};
            }
            forms.erase(std::unique(forms.begin(), forms.end()), forms.end());
            break;
        }
        forms = {fmt::format("{}", answer.count), grouped(answer.count, ','), grouped(answer.count, ' ')};
        break;
    case solve::Ask::Type::shape:
        forms = shape_forms(answer.shape);
        break;
    case solve::Ask::Type::choice: {
        const solve::Choice& choice = ask.choices[static_cast<std::size_t>(answer.count)];
        forms.emplace_back(choice.word);
        std::string_view rest = choice.synonyms;
        while (!rest.empty()) {
            const std::size_t space = rest.find(' ');
            std::string synonym(rest.substr(0, space));
            std::replace(synonym.begin(), synonym.end(), '_', ' ');
            forms.push_back(synonym);
            rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
        }
        break;
    }
    }
    std::vector<std::string> unique;
    for (std::string& form : forms)
        if (!form.empty() && std::find(unique.begin(), unique.end(), form) == unique.end())
            unique.push_back(std::move(form));
    return unique;
}

Result<std::vector<ZipEntry>> qti_package(const std::vector<ProblemBank>& banks, const std::string& title,
                                          const render::TemplateSet& templates, bool solutions) {
    std::string names;
    for (const ProblemBank& bank : banks)
        for (const BankVariant& v : bank.variants)
            names += fmt::format("{}/v{};", bank.problem->problem.id, v.number);
    const std::string assessment = ident("assessment", names);
    double total = 0;
    std::string sections;
    for (const ProblemBank& bank : banks) {
        const std::string& id = bank.problem->problem.id;
        std::string items;
        double points = 0;
        for (const BankVariant& variant : bank.variants) {
            auto item = fimb_item(id, variant, templates, solutions);
            if (!item)
                return std::unexpected(item.error());
            items += item->xml;
            points = item->points;
        }
        total += points;
        sections +=
            fmt::format("    <section ident=\"{}\" title=\"{}\">\n      <selection_ordering>\n"
                        "        <selection>\n          <selection_number>1</selection_number>\n"
                        "          <selection_extension>\n            <points_per_item>{}</points_per_item>\n"
                        "          </selection_extension>\n        </selection>\n"
                        "      </selection_ordering>\n{}    </section>\n",
                        ident("group", assessment + '\0' + id), escape_xml(bank.problem->problem.title), points, items);
    }
    const std::string xml =
        fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<questestinterop xmlns=\"http://www.imsglobal.org/xsd/ims_qtiasiv1p2\">\n"
                    "  <assessment ident=\"{}\" title=\"{}\">\n    <qtimetadata>\n      <qtimetadatafield>\n"
                    "        <fieldlabel>cc_maxattempts</fieldlabel>\n        <fieldentry>1</fieldentry>\n"
                    "      </qtimetadatafield>\n    </qtimetadata>\n  <section ident=\"root_section\">\n{}"
                    "  </section>\n  </assessment>\n</questestinterop>\n",
                    assessment, escape_xml(title), sections);
    const std::string meta_id = ident("meta", assessment);
    return std::vector<ZipEntry>{
        {"imsmanifest.xml", manifest(ident("manifest", assessment), assessment, meta_id, title), false},
        {assessment + "/" + assessment + ".xml", xml, false},
        {assessment + "/assessment_meta.xml", assessment_meta(assessment, title, total), false},
    };
}

} // namespace headcount::generate

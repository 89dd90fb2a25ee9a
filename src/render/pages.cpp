#include <render/pages.hpp>

#include <render/solution.hpp>

namespace headcount::render {

Result<std::string> html_solutions(const std::vector<const solve::SolvedProblem*>& problems,
                                   const TemplateSet& templates, const KatexLink& katex) {
    std::vector<std::string> documents;
    std::vector<HtmlBlock> figures;
    for (const solve::SolvedProblem* problem : problems) {
        auto markdown = markdown_solution(*problem, templates, &figures);
        if (!markdown)
            return markdown;
        documents.push_back(std::move(*markdown));
    }
    const std::string title = problems.size() == 1 ? problems.front()->problem.title : "Worked solutions";
    return html_page(title, documents, katex, templates, figures);
}

Result<std::string> html_problem_sheets(const std::vector<const solve::SolvedProblem*>& problems,
                                        const TemplateSet& templates, const KatexLink& katex,
                                        const std::string& student, const std::string& preface) {
    std::vector<std::string> documents;
    for (const solve::SolvedProblem* problem : problems) {
        auto markdown = markdown_problem_sheet(*problem, templates, student);
        if (!markdown)
            return markdown;
        documents.push_back(std::move(*markdown));
    }
    if (!preface.empty() && !documents.empty())
        documents.front() = preface + "\n" + documents.front(); // on the first sheet, not a page of its own
    std::string title = problems.size() == 1 ? problems.front()->problem.title : "Problems";
    if (!student.empty())
        title += " (" + student + ")";
    return html_page(title, documents, katex, templates);
}

} // namespace headcount::render

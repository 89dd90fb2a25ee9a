#pragma once
// serve's routes over the HTTP server:
//   GET  /                      the problem list          GET  /p/<id>          a problem page with answer forms
//   POST /p/<id>/check          a form's answer (the page again, or with fragment=1 only the feedback box)
//   POST /api/check             {problem, part, answer, student?, token?} -> check --format json's object
//   GET  /api/problems          ids, titles and parts      GET  /healthz         {"status": "ok"}
//   GET  /static/...            KaTeX and the page's style sheet and script, from memory
// HEAD answers as GET without the body. Errors are JSON under /api/ (and for requests that could not be read),
// a page elsewhere.

#include <serve/checker.hpp>
#include <serve/classroom.hpp>
#include <serve/http_server.hpp>
#include <serve/pages.hpp>
#include <serve/static_files.hpp>

#include <render/templates.hpp>

#include <optional>

namespace headcount::serve {

/// The pages, the API and the static files. Thread-safe: the checker is, and the rest is read-only.
class Site {
  public:
    /// `book` (may be null) is the checker's count of students' checks, shown on the problem pages.
    Site(const Classroom& classroom, const render::TemplateSet& templates, Checker& checker, const StaticFiles& files,
         const ConnectionLimits& limits, const AttemptBook* book = nullptr);

    /// Renders every page once, so that a broken template stops the server at startup rather than a student.
    [[nodiscard]] Result<void> self_test() const;

    /// The handlers to give HttpServer.
    [[nodiscard]] HttpHandlers handlers();

    /// Fields every response carries: no framing, no sniffing, no referrer (links carry tokens), scripts and
    /// styles only from this server (KaTeX sets inline styles).
    [[nodiscard]] static HttpFields security_fields();

    /// Before a POST's body is read: a refusal of a body that is compressed, too large or of the wrong type.
    [[nodiscard]] std::optional<HttpRefusal> screen(const RequestHead& head) const;
    [[nodiscard]] HttpResponse handle(const HttpRequest& request);
    /// The response to a request the HTTP server refused (`head` null when it could not be read).
    [[nodiscard]] HttpResponse refusal(const HttpRefusal& refusal, const RequestHead* head) const;

  private:
    const Classroom& m_classroom;
    Pages m_pages;
    Checker& m_checker;
    const StaticFiles& m_files;
    const ConnectionLimits& m_limits;

    [[nodiscard]] HttpResponse error(int status, const std::string& path, const std::string& reason) const;
    [[nodiscard]] std::optional<Visitor> visitor(const std::string& student, const std::string& token) const;
    [[nodiscard]] std::optional<Visitor> page_visitor(const HttpRequest& request, HttpResponse& response) const;
    [[nodiscard]] HttpResponse render_page(int status, const Result<std::string>& page) const;
    [[nodiscard]] HttpResponse index(const HttpRequest& request) const;
    [[nodiscard]] HttpResponse problem(const HttpRequest& request, const std::string& id) const;
    [[nodiscard]] HttpResponse form_check(const HttpRequest& request, const std::string& id);
    [[nodiscard]] HttpResponse api_check(const HttpRequest& request);
    [[nodiscard]] HttpResponse api_problems() const;
    [[nodiscard]] HttpResponse static_file(const HttpRequest& request) const;
};

} // namespace headcount::serve

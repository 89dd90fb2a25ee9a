#include <serve/site.hpp>

#include <util/json_input.hpp>

#include <grade/verdict_json.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <cstdio>

namespace headcount::serve {

namespace {

/// What a 404 page and its log line say (every other error's reason comes from where it was refused).
constexpr const char* k_not_found = "There is no such page here.";

/// A page heading for an error status.
std::string status_title(int status) {
    switch (status) {
    case 403:
        return "This link is not valid";
    case 404:
        return "Not found";
    case 413:
        return "Too large";
    case 429:
        return "Too many checks";
    default:
        return status >= 500 ? "Something went wrong" : "This request could not be answered";
    }
}

bool is_api(std::string_view path) { return path.empty() || path.starts_with("/api/") || path == "/healthz"; }

HttpResponse json_response(int status, const nlohmann::ordered_json& body) {
    return make_response(status, {{"Cache-Control", "no-store"}, {"Content-Type", "application/json"}},
                         body.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
}

HttpResponse html_response(int status, std::string html) {
    return make_response(status, {{"Cache-Control", "no-store"}, {"Content-Type", "text/html; charset=utf-8"}},
                         std::move(html));
}

/// The problem id of a path "/p/<id>" (`suffix` "") or "/p/<id>/check" (`suffix` "/check"), or nullopt.
std::optional<std::string> problem_id(std::string_view path, std::string_view suffix) {
    if (!path.starts_with("/p/") || !path.ends_with(suffix))
        return std::nullopt;
    const std::string_view id = path.substr(3, path.size() - 3 - suffix.size());
    if (id.empty() || id.size() > 200)
        return std::nullopt;
    for (const char c : id)
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
              c == '-'))
            return std::nullopt;
    return std::string(id);
}

} // namespace

Site::Site(const Classroom& classroom, const render::TemplateSet& templates, Checker& checker, const StaticFiles& files,
           const ConnectionLimits& limits, const AttemptBook* book)
    : m_classroom(classroom), m_pages(classroom, templates, book), m_checker(checker), m_files(files),
      m_limits(limits) {}

HttpFields Site::security_fields() {
    return {{"Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                                        "font-src 'self'; img-src 'self' data:; connect-src 'self'; "
                                        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"},
            {"X-Content-Type-Options", "nosniff"},
            {"X-Frame-Options", "DENY"},
            {"Referrer-Policy", "no-referrer"}};
}

HttpHandlers Site::handlers() {
    return {[this](const RequestHead& head) { return screen(head); },
            [this](const HttpRequest& request) { return handle(request); },
            [this](const HttpRefusal& refused, const RequestHead* head) { return refusal(refused, head); }};
}

Result<void> Site::self_test() const {
    if (auto page = m_pages.index(Visitor{}); !page)
        return std::unexpected(page.error());
    for (const solve::SolvedProblem& problem : m_classroom.problems()) {
        ShownFeedback shown{problem.parts.front().part.id, "1", m_pages.notice("A test.")};
        if (auto page = m_pages.problem(problem, Visitor{"s", "t"}, &shown); !page)
            return std::unexpected(page.error());
    }
    return {};
}

HttpResponse Site::error(int status, const std::string& path, const std::string& reason) const {
    if (is_api(path))
        return json_response(status, {{"error", reason}});
    return html_response(status, m_pages.message(status_title(status), reason, Visitor{}));
}

HttpResponse Site::refusal(const HttpRefusal& refused, const RequestHead* head) const {
    return error(refused.status, head == nullptr ? std::string() : head->path, refused.reason);
}

std::optional<HttpRefusal> Site::screen(const RequestHead& head) const {
    if (head.field("Content-Encoding") != nullptr)
        return HttpRefusal{415, "Compressed request bodies are not accepted."};
    const std::uint64_t bytes = head.content_length.value_or(0);
    if (bytes > m_limits.max_body_bytes)
        return HttpRefusal{
            413, fmt::format("The request body is {} bytes; requests are at most {} bytes (an answer "
                             "at most {}).",
                             with_thousands(static_cast<std::int64_t>(std::min<std::uint64_t>(bytes, INT64_MAX))),
                             with_thousands(static_cast<std::int64_t>(m_limits.max_body_bytes)),
                             with_thousands(k_max_answer_bytes))};
    const std::string* type = head.field("Content-Type");
    const std::string_view content_type = type == nullptr ? std::string_view() : std::string_view(*type);
    if (head.path == "/api/check" && !starts_with_ignoring_case(content_type, "application/json"))
        return HttpRefusal{415, "Send the check as JSON (Content-Type: application/json)."};
    if (head.path != "/api/check" && !starts_with_ignoring_case(content_type, "application/x-www-form-urlencoded"))
        return HttpRefusal{415, "Send the form as application/x-www-form-urlencoded."};
    return std::nullopt;
}

HttpResponse Site::handle(const HttpRequest& request) {
    const std::string& path = request.head.path;
    if (request.head.method == "POST") {
        if (path == "/api/check")
            return api_check(request);
        if (const auto id = problem_id(path, "/check"))
            return form_check(request, *id);
        return error(404, path, k_not_found);
    }
    if (path == "/")
        return index(request);
    if (const auto id = problem_id(path, ""))
        return problem(request, *id);
    if (path == "/api/problems")
        return api_problems();
    if (path == "/healthz")
        return json_response(200, {{"status", "ok"}});
    if (path.starts_with("/static/"))
        return static_file(request);
    return error(404, path, k_not_found);
}

std::optional<Visitor> Site::visitor(const std::string& student, const std::string& token) const {
    if (!m_classroom.has_roster())
        return Visitor{};
    if (!m_classroom.authenticate(student, token))
        return std::nullopt;
    return Visitor{student, token};
}

std::optional<Visitor> Site::page_visitor(const HttpRequest& request, HttpResponse& response) const {
    auto who = visitor(request.param("student"), request.param("token"));
    if (!who)
        response = html_response(403, m_pages.message("This link is not valid",
                                                      "Open the link printed on your problem sheet: it carries your "
                                                      "id and the token that lets you see your own numbers.",
                                                      Visitor{}));
    return who;
}

HttpResponse Site::render_page(int status, const Result<std::string>& page) const {
    if (page)
        return html_response(status, *page);
    std::fprintf(stderr, "headcount serve: %s\n", page.error().to_string().c_str());
    return html_response(500,
                         m_pages.message("Something went wrong",
                                         "This page could not be written; please tell your instructor.", Visitor{}));
}

HttpResponse Site::index(const HttpRequest& request) const {
    if (m_classroom.has_roster() && !request.has_param("student") && !request.has_param("token"))
        return html_response(200, m_pages.message("Homework self-check",
                                                  "Open the link printed on your problem sheet to see your problems "
                                                  "with your own numbers and check your answers.",
                                                  Visitor{}));
    HttpResponse response;
    const auto who = page_visitor(request, response);
    if (!who)
        return response;
    return render_page(200, m_pages.index(*who));
}

HttpResponse Site::problem(const HttpRequest& request, const std::string& id) const {
    HttpResponse response;
    const auto who = page_visitor(request, response);
    if (!who)
        return response;
    const solve::SolvedProblem* problem = m_classroom.problem(id, who->student);
    if (problem == nullptr)
        return error(404, request.head.path, k_not_found);
    return render_page(200, m_pages.problem(*problem, *who, nullptr));
}

HttpResponse Site::form_check(const HttpRequest& request, const std::string& id) {
    CheckRequest check{id, request.param("part"), request.param("answer"), {}, request.address};
    if (!is_valid_utf8(check.part) || !is_valid_utf8(check.answer) || !is_valid_utf8(request.param("student")) ||
        !is_valid_utf8(request.param("token")))
        return html_response(
            400, m_pages.message("This answer could not be read", "The form was not sent as UTF-8 text.", Visitor{}));
    HttpResponse response;
    const auto who = page_visitor(request, response);
    if (!who)
        return response;
    check.student = who->student;
    const solve::SolvedProblem* problem = m_classroom.problem(id, who->student);
    if (problem == nullptr)
        return error(404, request.head.path, k_not_found);
    int status = 200;
    std::string fragment;
    HttpFields extra;
    auto result = m_checker.check(check);
    if (result) {
        auto html = m_pages.verdict(*result);
        if (!html)
            return render_page(500, html);
        fragment = *html;
    } else {
        status = result.error().status;
        fragment = m_pages.notice(result.error().message);
        if (status == 429)
            extra.emplace_back("Retry-After", std::to_string(result.error().retry_after));
    }
    HttpResponse page;
    if (request.param("fragment") == "1") {
        page = html_response(status, fragment);
    } else {
        // Without JavaScript: the page again, with the answer and its feedback in the part's box.
        const ShownFeedback shown{check.part, check.answer.size() <= k_max_answer_bytes ? check.answer : "", fragment};
        page = render_page(status, m_pages.problem(*problem, *who, &shown));
    }
    page.fields.insert(page.fields.end(), extra.begin(), extra.end());
    return page;
}

HttpResponse Site::api_check(const HttpRequest& request) {
    auto body = parse_json_object(request.body, m_limits.max_body_bytes);
    if (!body)
        return json_response(400, {{"error", "The request body " + body.error() + "."}});
    std::string fields[5];
    const char* names[5] = {"problem", "part", "answer", "student", "token"};
    for (int i = 0; i < 5; ++i) {
        auto value = string_member(*body, names[i]);
        if (!value)
            return json_response(400, {{"error", value.error() + "."}});
        if (!*value && i < 3)
            return json_response(400,
                                 {{"error", fmt::format("'{}' is missing: send problem, part and answer.", names[i])}});
        fields[i] = value->value_or("");
    }
    const auto who = visitor(fields[3], fields[4]);
    if (!who)
        return json_response(403,
                             {{"error", "This student and token do not match: use the link on your problem sheet."}});
    auto result = m_checker.check(CheckRequest{fields[0], fields[1], fields[2], who->student, request.address});
    if (!result) {
        nlohmann::ordered_json error{{"error", result.error().message}};
        if (const auto& attempts = result.error().attempts) {
            error["checks_left"] = attempts->left();
            error["checks_allowed"] = attempts->allowed;
        }
        HttpResponse response;
        if (result.error().status == 429) {
            error["retry_after"] = result.error().retry_after;
            response = json_response(429, error);
            response.fields.emplace_back("Retry-After", std::to_string(result.error().retry_after));
            return response;
        }
        return json_response(result.error().status, error);
    }
    auto json = grade::verdict_json(*result->problem, *result->part, result->graded->verdict, result->graded->feedback,
                                    result->reveal);
    if (!who->student.empty())
        json["student"] = who->student;
    if (result->attempts) {
        json["checks_left"] = result->attempts->left();
        json["checks_allowed"] = result->attempts->allowed;
    }
    return json_response(200, json);
}

HttpResponse Site::api_problems() const {
    nlohmann::ordered_json problems = nlohmann::ordered_json::array();
    for (const solve::SolvedProblem& problem : m_classroom.problems()) {
        nlohmann::ordered_json parts = nlohmann::ordered_json::array();
        for (const solve::SolvedPart& part : problem.parts)
            parts.push_back({{"id", part.part.id},
                             {"ask", part.ask->id},
                             {"unit", part.ask->unit},
                             {"points", part.part.points},
                             {"feedback_policy", spec::reveal_name(problem.problem.reveal_for(part.part))}});
        problems.push_back({{"id", problem.problem.id},
                            {"title", problem.problem.title},
                            {"page", "/p/" + problem.problem.id},
                            {"parts", parts}});
    }
    return json_response(200, {{"problems", problems}, {"identified", m_classroom.has_roster()}});
}

HttpResponse Site::static_file(const HttpRequest& request) const {
    const StaticFile* file = m_files.find(request.head.path);
    if (file == nullptr)
        return error(404, request.head.path, k_not_found);
    HttpResponse response =
        make_response(200, {{"Content-Type", file->mime}, {"Cache-Control", "public, max-age=3600"}});
    // Compressed once at startup (StaticFiles), never per request.
    const std::string* accepted = request.head.field("Accept-Encoding");
    if (!file->gzip.empty()) {
        response.fields.emplace_back("Vary", "Accept-Encoding");
        if (accepted != nullptr && accepts_gzip(*accepted)) {
            response.fields.emplace_back("Content-Encoding", "gzip");
            response.shared_body = file->gzip;
            return response;
        }
    }
    response.shared_body = file->content;
    return response;
}

} // namespace headcount::serve

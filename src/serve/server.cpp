#include <serve/server.hpp>

#include <serve/attempt_log.hpp>
#include <serve/html.hpp>
#include <serve/json_input.hpp>
#include <serve/pages.hpp>
#include <serve/static_files.hpp>

#include <grade/verdict_json.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <charconv>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <csignal>
#include <pthread.h>
#include <thread>

namespace headcount::serve {

namespace {

using httplib::Request;
using httplib::Response;
using Handled = httplib::Server::HandlerResponse;

/// What a handler may tell the connection loop about the connection it runs on.
struct ConnectionState {
    ConnectionStream* stream = nullptr;
    bool routed = false; ///< the request was read far enough to be routed
    bool close = false;  ///< close after this response
    bool linger = false; ///< the body was not read: drain it before closing
};
thread_local ConnectionState* t_connection = nullptr;

/// Closes the connection after this response, draining an unread body first.
void close_after(Response& res, bool unread_body) {
    res.set_header("Connection", "close");
    if (t_connection != nullptr) {
        t_connection->close = true;
        t_connection->linger = t_connection->linger || unread_body;
    }
}

/// cpp-httplib's server with serve's connection loop (connection.hpp) in place of the library's.
class HttpServer final : public httplib::Server {
  public:
    HttpServer(const ConnectionLimits& limits, std::size_t threads, const std::atomic<bool>& stopping)
        : m_limits(limits), m_stopping(stopping) {
        // Only for the Keep-Alive header the library writes: the connection loop below applies them.
        set_keep_alive_max_count(limits.max_requests);
        set_keep_alive_timeout(std::chrono::duration_cast<std::chrono::seconds>(limits.idle_timeout).count());
        // A response written while the server drains tells the client the connection ends with it.
        set_post_routing_handler([this](const httplib::Request&, httplib::Response& res) {
            if (m_stopping.load())
                res.set_header("Connection", "close");
        });
        // The library's default is SO_REUSEPORT, which lets a second server take the same port and half the
        // students' requests; SO_REUSEADDR alone allows a quick restart and refuses a port in use.
        set_socket_options([](socket_t sock) {
            const int yes = 1;
            ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        });
        new_task_queue = [this, threads] {
            auto* pool = new BoundedPool(threads, threads * 4);
            m_pool = pool;
            return pool;
        };
    }

    /// The listening socket, to give it a longer backlog than the library's 5.
    [[nodiscard]] socket_t listening_socket() const { return svr_sock_; }

  private:
    ConnectionLimits m_limits;
    const std::atomic<bool>& m_stopping;
    std::atomic<BoundedPool*> m_pool{nullptr};

    bool process_and_close_socket(socket_t sock) override {
        // The library writes a response's headers and body in two writes: without TCP_NODELAY the second waits
        // for the client's delayed ACK (40 ms).
        const int on = 1;
        ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        ConnectionStream stream(sock, m_limits);
        ConnectionState state;
        t_connection = &state;
        bool ok = true;
        for (std::size_t served = 0; served < m_limits.max_requests; ++served) {
            // The first request of a connection accepted before a stop is served; an idle kept-alive connection
            // gives its thread up when the server stops or other connections are waiting for one.
            const auto wait = served == 0 ? m_limits.read_timeout : m_limits.idle_timeout;
            const bool waiting = stream.wait_for_request(wait, [&] {
                const BoundedPool* pool = m_pool.load();
                return served > 0 && (m_stopping.load() || (pool != nullptr && pool->waiting() > 0));
            });
            if (!waiting)
                break;
            stream.begin_request();
            state = ConnectionState{&stream};
            const bool last = served + 1 == m_limits.max_requests || m_stopping.load();
            bool closed = false;
            ok = process_request(stream, last, closed, nullptr);
            if (!ok && stream.over_budget() && stream.written() == 0) {
                // A request line with no end: the library gives up without a word.
                static constexpr std::string_view k_refusal =
                    "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain\r\n"
                    "Content-Length: 37\r\nConnection: close\r\n\r\nThe request's headers are too large.\n";
                stream.write(k_refusal.data(), k_refusal.size());
                state.linger = true;
            }
            if (!ok || closed || last || state.close || stream.over_budget() || stream.timed_out())
                break;
        }
        if (state.linger)
            stream.linger();
        t_connection = nullptr;
        ::shutdown(sock, SHUT_RDWR);
        ::close(sock);
        return ok;
    }
};

/// Headers on every response: no framing, no sniffing, no referrer (links carry tokens), scripts and styles
/// only from this server (KaTeX sets inline styles).
httplib::Headers security_headers() {
    return {{"Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                                        "font-src 'self'; img-src 'self' data:; connect-src 'self'; "
                                        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"},
            {"X-Content-Type-Options", "nosniff"},
            {"X-Frame-Options", "DENY"},
            {"Referrer-Policy", "no-referrer"}};
}

std::string reason_for(int status) {
    switch (status) {
    case 400: return "The request could not be read.";
    case 403: return "This link is not valid.";
    case 404: return "There is no such page here.";
    case 405: return "This address only answers GET, HEAD and POST.";
    case 408: return "The request took too long to arrive.";
    case 411: return "Send the request body with a Content-Length.";
    case 413: return "The request is too large.";
    case 414: return "The address is too long.";
    case 415: return "This kind of request body is not accepted here.";
    case 416: return "Ranges are not served.";
    case 429: return "Too many requests.";
    case 431: return "The request's headers are too large.";
    default: return "The server could not answer this request.";
    }
}

/// A page heading for an error status.
std::string status_title(int status) {
    switch (status) {
    case 403: return "This link is not valid";
    case 404: return "Not found";
    case 413: return "Too large";
    case 429: return "Too many checks";
    default: return status >= 500 ? "Something went wrong" : "This request could not be answered";
    }
}

bool is_api(const Request& req) { return req.path.starts_with("/api/") || req.path == "/healthz"; }

void send_json(Response& res, int status, const nlohmann::ordered_json& body) {
    res.status = status;
    res.set_header("Cache-Control", "no-store");
    res.set_content(body.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n",
                    "application/json");
}

void send_html(Response& res, int status, const std::string& html) {
    res.status = status;
    res.set_header("Cache-Control", "no-store");
    res.set_content(html, "text/html; charset=utf-8");
}

/// The routes, over the classroom and what serves it.
class Site {
  public:
    Site(const Classroom& classroom, const render::TemplateSet& templates, Checker& checker, const StaticFiles& files,
         const ConnectionLimits& limits)
        : m_classroom(classroom), m_pages(classroom, templates), m_checker(checker), m_files(files), m_limits(limits) {}

    void install(HttpServer& server) {
        server.set_default_headers(security_headers());
        server.set_pre_routing_handler([this](const Request& req, Response& res) { return screen(req, res); });
        server.set_expect_100_continue_handler([this](const Request& req, Response& res) {
            return screen(req, res) == Handled::Handled ? res.status : 100;
        });
        server.set_error_handler(httplib::Server::HandlerWithResponse(
            [this](const Request& req, Response& res) { return error(req, res); }));
        server.set_exception_handler([](const Request&, Response& res, std::exception_ptr) {
            res.status = 500;
            res.body.clear();
        });
        server.Get("/", [this](const Request& req, Response& res) { index(req, res); });
        server.Get(R"(/p/([A-Za-z0-9._-]{1,200}))", [this](const Request& req, Response& res) { problem(req, res); });
        server.Post(R"(/p/([A-Za-z0-9._-]{1,200})/check)",
                    [this](const Request& req, Response& res) { form_check(req, res); });
        server.Post("/api/check", [this](const Request& req, Response& res) { api_check(req, res); });
        server.Get("/api/problems", [this](const Request& req, Response& res) { api_problems(req, res); });
        server.Get("/healthz", [](const Request&, Response& res) { send_json(res, 200, {{"status", "ok"}}); });
        server.Get(R"(/static/.*)", [this](const Request& req, Response& res) { serve_file(req, res); });
    }

    /// Renders every page once, so that a broken template stops the server at startup rather than a student.
    Result<void> self_test() const {
        if (auto page = m_pages.index(Visitor{}); !page)
            return std::unexpected(page.error());
        for (const solve::SolvedProblem& problem : m_classroom.problems()) {
            ShownFeedback shown{problem.parts.front().part.id, "1", m_pages.notice("A test.")};
            if (auto page = m_pages.problem(problem, Visitor{"s", "t"}, &shown); !page)
                return std::unexpected(page.error());
        }
        return {};
    }

  private:
    const Classroom& m_classroom;
    Pages m_pages;
    Checker& m_checker;
    const StaticFiles& m_files;
    const ConnectionLimits& m_limits;

    /// Before routing (the body is not read yet): methods, and bodies that are refused unread.
    Handled screen(const Request& req, Response& res) const {
        if (t_connection != nullptr)
            t_connection->routed = true;
        if (req.method != "GET" && req.method != "HEAD" && req.method != "POST") {
            res.status = 405;
            res.set_header("Allow", "GET, HEAD, POST");
            close_after(res, true);
            return Handled::Handled;
        }
        if (req.method != "POST")
            return Handled::Unhandled;
        const auto refuse = [&](int status, std::string reason) {
            res.status = status;
            error_body(req, res, reason);
            close_after(res, true);
            return Handled::Handled;
        };
        if (req.has_header("Content-Encoding"))
            return refuse(415, "Compressed request bodies are not accepted.");
        if (req.has_header("Transfer-Encoding"))
            return refuse(411, "Send the request body with a Content-Length, not in chunks.");
        if (!req.has_header("Content-Length"))
            return refuse(411, reason_for(411));
        const std::string length = req.get_header_value("Content-Length");
        std::size_t bytes = 0;
        const auto [end, ec] = std::from_chars(length.data(), length.data() + length.size(), bytes);
        if (ec != std::errc{} || end != length.data() + length.size())
            return refuse(400, "The Content-Length is not a number.");
        if (bytes > m_limits.max_body_bytes)
            return refuse(413, fmt::format("The request body is {} bytes; requests are at most {} bytes (an answer "
                                           "at most {}).", with_thousands(static_cast<std::int64_t>(bytes)),
                                           with_thousands(static_cast<std::int64_t>(m_limits.max_body_bytes)),
                                           with_thousands(k_max_answer_bytes)));
        const std::string type = req.get_header_value("Content-Type");
        const bool form = type.starts_with("application/x-www-form-urlencoded");
        const bool json = type.starts_with("application/json");
        if (req.path == "/api/check" ? !json : !form)
            return refuse(415, req.path == "/api/check" ? "Send the check as JSON (Content-Type: application/json)."
                                                        : "Send the form as application/x-www-form-urlencoded.");
        return Handled::Unhandled;
    }

    void error_body(const Request& req, Response& res, const std::string& reason) const {
        if (is_api(req) || req.path.empty())
            send_json(res, res.status, {{"error", reason}});
        else
            send_html(res, res.status, m_pages.message(status_title(res.status), reason, Visitor{}));
    }

    /// Errors the library found (a request it could not read, a path no route takes) get a body saying why.
    Handled error(const Request& req, Response& res) const {
        if (t_connection != nullptr && t_connection->stream != nullptr) {
            if (t_connection->stream->over_budget()) {
                res.status = req.path.empty() ? 431 : 413;
                close_after(res, false);
            } else if (t_connection->stream->timed_out()) {
                res.status = 408;
                close_after(res, false);
            } else if (!t_connection->routed) {
                // The library could not read the request: a header line over its 8 KiB, or no HTTP at all.
                if (res.status == 400 && t_connection->stream->consumed() > 8192)
                    res.status = 431;
                close_after(res, false);
            }
        }
        if (!res.body.empty())
            return Handled::Unhandled;
        error_body(req, res, res.status == 413 ? fmt::format("The request is larger than {} bytes.",
                                                             with_thousands(static_cast<std::int64_t>(
                                                                 m_limits.max_header_bytes + m_limits.max_body_bytes)))
                                               : reason_for(res.status));
        return Handled::Handled;
    }

    /// The visitor a request's student and token name: nobody without a roster; with one, a student whose token
    /// matches. nullopt: a roster and no valid pair (status 403, or 200 for no pair at all on the home page).
    std::optional<Visitor> visitor(const std::string& student, const std::string& token) const {
        if (!m_classroom.has_roster())
            return Visitor{};
        if (!m_classroom.authenticate(student, token))
            return std::nullopt;
        return Visitor{student, token};
    }

    std::optional<Visitor> page_visitor(const Request& req, Response& res) const {
        const std::string student = req.get_param_value("student");
        const std::string token = req.get_param_value("token");
        auto who = visitor(student, token);
        if (!who)
            send_html(res, 403, m_pages.message("This link is not valid",
                                                "Open the link printed on your problem sheet: it carries your id and "
                                                "the token that lets you see your own numbers.",
                                                Visitor{}));
        return who;
    }

    void index(const Request& req, Response& res) const {
        if (m_classroom.has_roster() && !req.has_param("student") && !req.has_param("token")) {
            send_html(res, 200, m_pages.message("Homework self-check",
                                                "Open the link printed on your problem sheet to see your problems "
                                                "with your own numbers and check your answers.",
                                                Visitor{}));
            return;
        }
        const auto who = page_visitor(req, res);
        if (!who)
            return;
        render_page(res, 200, m_pages.index(*who));
    }

    void render_page(Response& res, int status, const Result<std::string>& page) const {
        if (page) {
            send_html(res, status, *page);
            return;
        }
        std::fprintf(stderr, "headcount serve: %s\n", page.error().to_string().c_str());
        send_html(res, 500, m_pages.message("Something went wrong", "This page could not be written; please tell "
                                                                    "your instructor.", Visitor{}));
    }

    void problem(const Request& req, Response& res) const {
        const auto who = page_visitor(req, res);
        if (!who)
            return;
        const solve::SolvedProblem* problem = m_classroom.problem(req.matches[1].str(), who->student);
        if (problem == nullptr) {
            res.status = 404;
            return;
        }
        render_page(res, 200, m_pages.problem(*problem, *who, nullptr));
    }

    void form_check(const Request& req, Response& res) {
        const std::string id = req.matches[1].str();
        CheckRequest check{id, req.get_param_value("part"), req.get_param_value("answer"), {}, req.remote_addr};
        if (!is_valid_utf8(check.part) || !is_valid_utf8(check.answer) ||
            !is_valid_utf8(req.get_param_value("student")) || !is_valid_utf8(req.get_param_value("token"))) {
            send_html(res, 400, m_pages.message("This answer could not be read", "The form was not sent as UTF-8 text.",
                                                Visitor{}));
            return;
        }
        const auto who = page_visitor(req, res);
        if (!who)
            return;
        check.student = who->student;
        const solve::SolvedProblem* problem = m_classroom.problem(id, who->student);
        if (problem == nullptr) {
            res.status = 404;
            return;
        }
        int status = 200;
        std::string fragment;
        auto result = m_checker.check(check);
        if (result) {
            auto html = m_pages.verdict(*result);
            if (!html) {
                render_page(res, 500, html);
                return;
            }
            fragment = *html;
        } else {
            status = result.error().status;
            fragment = m_pages.notice(result.error().message);
            if (status == 429)
                res.set_header("Retry-After", std::to_string(result.error().retry_after));
        }
        if (req.get_param_value("fragment") == "1") {
            send_html(res, status, fragment);
            return;
        }
        // Without JavaScript: the page again, with the answer and its feedback in the part's box.
        const ShownFeedback shown{check.part, check.answer.size() <= k_max_answer_bytes ? check.answer : "", fragment};
        render_page(res, status, m_pages.problem(*problem, *who, &shown));
    }

    void api_check(const Request& req, Response& res) {
        auto body = parse_json_object(req.body, m_limits.max_body_bytes);
        if (!body) {
            send_json(res, 400, {{"error", "The request body " + body.error() + "."}});
            return;
        }
        std::string fields[5];
        const char* names[5] = {"problem", "part", "answer", "student", "token"};
        for (int i = 0; i < 5; ++i) {
            auto value = string_member(*body, names[i]);
            if (!value) {
                send_json(res, 400, {{"error", value.error() + "."}});
                return;
            }
            if (!*value && i < 3) {
                send_json(res, 400, {{"error", fmt::format("'{}' is missing: send problem, part and answer.", names[i])}});
                return;
            }
            fields[i] = value->value_or("");
        }
        const auto who = visitor(fields[3], fields[4]);
        if (!who) {
            send_json(res, 403, {{"error", "This student and token do not match: use the link on your problem sheet."}});
            return;
        }
        auto result = m_checker.check(CheckRequest{fields[0], fields[1], fields[2], who->student, req.remote_addr});
        if (!result) {
            nlohmann::ordered_json error{{"error", result.error().message}};
            if (result.error().status == 429) {
                error["retry_after"] = result.error().retry_after;
                res.set_header("Retry-After", std::to_string(result.error().retry_after));
            }
            send_json(res, result.error().status, error);
            return;
        }
        auto json = grade::verdict_json(*result->problem, *result->part, result->graded->verdict,
                                        result->graded->feedback, result->reveal);
        if (!who->student.empty())
            json["student"] = who->student;
        send_json(res, 200, json);
    }

    void api_problems(const Request&, Response& res) const {
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
        send_json(res, 200, {{"problems", problems}, {"identified", m_classroom.has_roster()}});
    }

    void serve_file(const Request& req, Response& res) const {
        const StaticFile* file = m_files.find(req.path);
        if (file == nullptr) {
            res.status = 404;
            return;
        }
        res.status = 200;
        res.set_header("Cache-Control", "public, max-age=3600");
        res.set_content(file->content, file->mime);
    }
};

} // namespace

Result<int> serve(const Classroom& classroom, const render::TemplateSet& templates, const ServeOptions& options) {
    StaticFiles files;
    if (auto ok = files.add_katex(options.katex); !ok)
        return std::unexpected(ok.error());
    files.add_builtin();
    // An instructor's templates folder may restyle the pages: its serve/static/ files replace the built-in ones.
    std::error_code ec;
    if (!options.templates.empty() && std::filesystem::is_directory(options.templates / "serve" / "static", ec))
        if (auto ok = files.add_directory(options.templates / "serve" / "static", "/static/"); !ok)
            return std::unexpected(ok.error());
    std::unique_ptr<AttemptLog> log;
    if (!options.log.empty()) {
        auto opened = AttemptLog::open(options.log);
        if (!opened)
            return std::unexpected(opened.error());
        log = std::move(*opened);
    }
    Checker checker(classroom, templates, log.get(), options.checks);
    Site site(classroom, templates, checker, files, options.connection);
    if (auto ok = site.self_test(); !ok)
        return std::unexpected(ok.error());

    // Signals are taken by one thread (sigwait), so the pool's threads never see them; a broken pipe is an error
    // on that write, not the end of the server.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    std::atomic<bool> stopping{false};
    std::atomic<bool> done{false};
    HttpServer server(options.connection, std::max<std::size_t>(1, options.threads), stopping);
    site.install(server);
    const int port = options.port == 0 ? server.bind_to_any_port(options.host)
                                       : (server.bind_to_port(options.host, options.port) ? options.port : -1);
    if (port <= 0)
        return std::unexpected(Error{{}, 0, 0, fmt::format("cannot listen on {}:{} (in use, or not an address of "
                                                           "this machine)", options.host, options.port)});
    ::listen(server.listening_socket(), 128);

    std::thread watcher([&] {
        const timespec tick{0, 50'000'000};
        while (!done.load()) {
            if (::sigtimedwait(&signals, nullptr, &tick) > 0) {
                stopping = true;
                break;
            }
        }
        // stop() may be called once the accept loop runs, and only once.
        while (!done.load() && !server.is_running())
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        if (!done.load())
            server.stop();
    });
    const std::string host = options.host.find(':') != std::string::npos ? "[" + options.host + "]" : options.host;
    fmt::print(stderr, "headcount serve: {} problem{}, {}{}\n", classroom.problems().size(),
               classroom.problems().size() == 1 ? "" : "s",
               classroom.has_roster() ? fmt::format("{} students with their own variants", classroom.students())
                                      : std::string("the numbers as written (no roster)"),
               options.log.empty() ? "" : fmt::format(", attempts logged to {}", options.log.string()));
    fmt::print("headcount serve: listening on http://{}:{}/ (stop with Ctrl-C or SIGTERM)\n", host, port);
    std::fflush(stdout);
    const bool listened = server.listen_after_bind();
    done = true;
    watcher.join();
    if (!stopping.load() && !listened)
        return std::unexpected(Error{{}, 0, 0, "the server stopped accepting connections"});
    fmt::print(stderr, "headcount serve: stopped after {} check{}; every request in flight was answered\n",
               checker.count(), checker.count() == 1 ? "" : "s");
    return 0;
}

} // namespace headcount::serve

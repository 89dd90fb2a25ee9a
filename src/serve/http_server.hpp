#pragma once
// serve's HTTP/1.1 server: listens, accepts, and serves each connection's requests in turn on a pool of threads,
// reading every request strictly (http.hpp) within ConnectionLimits. It knows nothing of problems: routes are
// the handlers it is given. It replaces cpp-httplib's server, whose parser took a GET's body for a second
// request, the first of two different Content-Lengths, percent-decoded header values and folded lines, served
// 1,000 ranges of a file in one response and compressed each static file per request.

#include <serve/connection.hpp>
#include <serve/http.hpp>
#include <util/error.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace headcount::serve {

/// A request as routes see it: the head, the body, and who sent it.
struct HttpRequest {
    RequestHead head;
    std::string body;
    std::string address; ///< the client's address
    FormFields query;    ///< the target's query, decoded
    FormFields form;     ///< an application/x-www-form-urlencoded body, decoded

    /// The value of `name` in the query, else in the form body; "" when neither has it.
    [[nodiscard]] std::string param(std::string_view name) const;
    /// Whether the query or the form body names `name`.
    [[nodiscard]] bool has_param(std::string_view name) const;
};

/// A response. The server adds Date, Content-Length, the connection fields and its default fields.
struct HttpResponse {
    int status = 200;
    HttpFields fields;
    std::string body;
    std::string_view shared_body; ///< sent instead of `body` when not empty (a static file; not copied)
    bool close = false;           ///< close the connection after this response
};

/// A response of `status` with `fields` and `body`.
HttpResponse make_response(int status, HttpFields fields, std::string body = {});

/// What the server asks of the routes.
struct HttpHandlers {
    /// Before a POST's body is read: a response that refuses it unread (the connection then closes), or nullopt.
    std::function<std::optional<HttpResponse>(const RequestHead&)> screen;
    /// A whole request's response (HEAD is asked as GET; the server drops the body).
    std::function<HttpResponse(const HttpRequest&)> handle;
    /// The response to a request the server refused; `head` is null when the request could not be read.
    std::function<HttpResponse(const HttpRefusal&, const RequestHead*)> refusal;
};

/// Listens on one address and serves until told to stop.
class HttpServer {
  public:
    HttpServer(HttpHandlers handlers, HttpFields default_fields, ConnectionLimits limits, std::size_t threads);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    /// Binds and listens on `host`:`port` (0: any free port); the port bound. Errors: the address is in use or
    /// not this machine's.
    Result<int> listen(const std::string& host, int port);
    /// Accepts and serves until `stopping` is set, then stops accepting, finishes every connection accepted (the
    /// request in flight is answered, with Connection: close) and returns.
    void run(const std::atomic<bool>& stopping);

  private:
    HttpHandlers m_handlers;
    HttpFields m_default_fields;
    ConnectionLimits m_limits;
    std::size_t m_threads;
    AddressCounts m_counts;
    int m_listener = -1;
    const std::atomic<bool>* m_stopping = nullptr;
    BoundedPool* m_pool = nullptr;

    void serve_connection(int fd, const std::string& address);
    /// Reads and answers one request; false when the connection must close.
    bool serve_request(Connection& connection, bool last);
    /// Writes `response` (its body unless `head_only`); false when the client is gone.
    bool send(Connection& connection, const HttpResponse& response, bool head_only, bool close) const;
    /// Answers a refused request and closes: the body, if any, is drained rather than read as a request.
    bool refuse(Connection& connection, const HttpRefusal& refusal, const RequestHead* head);
};

/// The bytes of a response's head: status line, Date, `fields`, Content-Length and the connection fields.
std::string response_head(const HttpResponse& response, const HttpFields& default_fields, std::size_t body_length,
                          bool close, const ConnectionLimits& limits);

} // namespace headcount::serve

#include <serve/http_server.hpp>

#include <util/text.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace headcount::serve {

namespace {

using namespace std::chrono;


/// A connection over its address's cap, answered 503 and drained for a moment before it is closed (closing with
/// unread bytes would reset it before the client reads the answer).
struct Refused {
    int fd;
    steady_clock::time_point until;
};

constexpr std::size_t k_max_refused = 256;

} // namespace

HttpResponse make_response(int status, HttpFields fields, std::string body) {
    HttpResponse response;
    response.status = status;
    response.fields = std::move(fields);
    response.body = std::move(body);
    return response;
}

std::string HttpRequest::param(std::string_view name) const {
    for (const FormFields* fields : {&query, &form})
        for (const auto& [key, value] : *fields)
            if (key == name)
                return value;
    return {};
}

bool HttpRequest::has_param(std::string_view name) const {
    for (const FormFields* fields : {&query, &form})
        for (const auto& [key, value] : *fields)
            if (key == name)
                return true;
    return false;
}

std::string response_head(const HttpResponse& response, const HttpFields& default_fields, std::size_t body_length,
                          bool close, const ConnectionLimits& limits) {
    const auto now = duration_cast<seconds>(system_clock::now().time_since_epoch()).count();
    std::string head = fmt::format("HTTP/1.1 {} {}\r\nDate: {}\r\n", response.status, status_phrase(response.status),
                                   http_date(now));
    for (const auto& [name, value] : response.fields)
        head += fmt::format("{}: {}\r\n", name, value);
    for (const auto& [name, value] : default_fields) {
        bool given = false;
        for (const auto& field : response.fields)
            given = given || field.first == name;
        if (!given)
            head += fmt::format("{}: {}\r\n", name, value);
    }
    head += fmt::format("Content-Length: {}\r\n", body_length);
    head += close ? std::string("Connection: close\r\n")
                  : fmt::format("Keep-Alive: timeout={}, max={}\r\n",
                                duration_cast<seconds>(limits.idle_timeout).count(), limits.max_requests);
    head += "\r\n";
    return head;
}

HttpServer::HttpServer(HttpHandlers handlers, HttpFields default_fields, ConnectionLimits limits, std::size_t threads)
    : m_handlers(std::move(handlers)), m_default_fields(std::move(default_fields)), m_limits(limits),
      m_threads(std::max<std::size_t>(1, threads)), m_counts(limits.per_address) {}

HttpServer::~HttpServer() {
    if (m_listener >= 0)
        ::close(m_listener);
}

Result<int> HttpServer::listen(const std::string& host, int port) {
    const auto cannot = [&] {
        return fail(fmt::format("cannot listen on {}:{} (in use, or not an address of this machine)", host, port));
    };
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    addrinfo* addresses = nullptr;
    if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &addresses) != 0)
        return cannot();
    for (const addrinfo* a = addresses; a != nullptr && m_listener < 0; a = a->ai_next) {
        const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0)
            continue;
        // SO_REUSEADDR alone allows a quick restart and still refuses a port in use (SO_REUSEPORT would let a second
        // server take half the students' requests).
        const int yes = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 128) == 0)
            m_listener = fd;
        else
            ::close(fd);
    }
    ::freeaddrinfo(addresses);
    if (m_listener < 0)
        return cannot();
    sockaddr_storage bound{};
    socklen_t length = sizeof bound;
    ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&bound), &length);
    return ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<const sockaddr_in6&>(bound).sin6_port
                                             : reinterpret_cast<const sockaddr_in&>(bound).sin_port);
}

void HttpServer::run(const std::atomic<bool>& stopping) {
    m_stopping = &stopping;
    BoundedPool pool(m_threads, m_threads * 4);
    m_pool = &pool;
    std::vector<Refused> refused;
    const std::string busy_body = "This address has too many connections open at once; try again in a few seconds.\n";
    const std::string busy = response_head(make_response(503, {{"Content-Type", "text/plain; charset=utf-8"},
                                                               {"Retry-After", "5"}}),
                                           m_default_fields, busy_body.size(), true, m_limits) + busy_body;
    std::vector<pollfd> polled;
    while (!stopping.load()) {
        polled.assign(1, pollfd{m_listener, POLLIN, 0});
        for (const Refused& r : refused)
            polled.push_back(pollfd{r.fd, POLLIN, 0});
        if (::poll(polled.data(), polled.size(), 50) < 0 && errno != EINTR)
            std::this_thread::sleep_for(milliseconds(10));
        const auto now = steady_clock::now();
        for (std::size_t i = refused.size(); i-- > 0;) {
            char sink[4096];
            const ssize_t n = polled[i + 1].revents != 0 ? ::recv(refused[i].fd, sink, sizeof sink, MSG_DONTWAIT) : -1;
            const bool drained = polled[i + 1].revents != 0 && (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR));
            if (drained || now > refused[i].until) {
                ::close(refused[i].fd);
                refused.erase(refused.begin() + static_cast<std::ptrdiff_t>(i));
            }
        }
        if ((polled[0].revents & POLLIN) == 0)
            continue;
        for (int accepted = 0; accepted < 64; ++accepted) {
            const int fd = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0) {
                if (errno == EMFILE || errno == ENFILE)
                    std::this_thread::sleep_for(milliseconds(10));
                break;
            }
            std::string address = peer_address(fd);
            if (!m_counts.acquire(address)) {
                ::send(fd, busy.data(), busy.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
                ::shutdown(fd, SHUT_WR);
                if (refused.size() < k_max_refused)
                    refused.push_back(Refused{fd, now + seconds(2)});
                else
                    ::close(fd);
                continue;
            }
            // Without TCP_NODELAY a response written in two parts would wait for the client's delayed ACK (40 ms).
            const int on = 1;
            ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
            pool.enqueue([this, fd, address = std::move(address)] {
                serve_connection(fd, address);
                m_counts.release(address);
            });
        }
    }
    ::close(m_listener);
    m_listener = -1;
    for (const Refused& r : refused)
        ::close(r.fd);
    pool.shutdown();
    m_pool = nullptr;
}

void HttpServer::serve_connection(int fd, const std::string& address) {
    Connection connection(fd, address, m_limits);
    for (std::size_t served = 0; served < m_limits.max_requests; ++served) {
        // The first request of a connection accepted before a stop is served; an idle kept-alive connection gives
        // its thread up when the server stops or other connections are waiting for one.
        const auto wait = served == 0 ? m_limits.read_timeout : m_limits.idle_timeout;
        if (!connection.wait_for_request(wait, [&] {
                return served > 0 && (m_stopping->load() || m_pool->waiting() > 0);
            }))
            return;
        connection.begin_request();
        const bool last = served + 1 == m_limits.max_requests || m_stopping->load();
        if (!serve_request(connection, last))
            return;
    }
}

bool HttpServer::send(Connection& connection, const HttpResponse& response, bool head_only, bool close) const {
    const std::string_view body = response.shared_body.empty() ? std::string_view(response.body) : response.shared_body;
    const std::string head = response_head(response, m_default_fields, body.size(), close, m_limits);
    return connection.write(head, head_only ? std::string_view() : body);
}

bool HttpServer::refuse(Connection& connection, const HttpRefusal& refusal, const RequestHead* head) {
    HttpResponse response = m_handlers.refusal(refusal, head);
    if (refusal.status == 405)
        response.fields.emplace_back("Allow", "GET, HEAD, POST");
    if (send(connection, response, head != nullptr && head->method == "HEAD", true))
        connection.linger();
    return false;
}

bool HttpServer::serve_request(Connection& connection, bool last) {
    std::string& received = connection.received();
    HeadScanner scanner(m_limits.head);
    std::size_t head_length = 0;
    while (head_length == 0) {
        auto scanned = scanner.scan(received);
        if (!scanned)
            return refuse(connection, scanned.error(), nullptr);
        head_length = *scanned;
        if (head_length > 0)
            break;
        const Connection::Read read = connection.read_more();
        if (read == Connection::Read::closed)
            return false;
        if (read == Connection::Read::timed_out)
            return refuse(connection, {408, "The request took too long to arrive."}, nullptr);
    }
    auto head = parse_request_head(std::string_view(received).substr(0, head_length));
    received.erase(0, head_length);
    if (!head)
        return refuse(connection, head.error(), nullptr);

    // Framing: only a POST has a body, and only with a Content-Length.
    const bool post = head->method == "POST";
    if (!post && head->method != "GET" && head->method != "HEAD")
        return refuse(connection, {405, "This address only answers GET, HEAD and POST."}, &*head);
    if (head->transfer_encoding)
        return refuse(connection, post ? HttpRefusal{411, "Send the request body with a Content-Length, not in chunks."}
                                       : HttpRefusal{400, "A GET or HEAD request has no body."}, &*head);
    const std::uint64_t length = head->content_length.value_or(0);
    if (!post && length > 0)
        return refuse(connection, {400, "A GET or HEAD request has no body."}, &*head);
    if (post) {
        if (!head->content_length)
            return refuse(connection, {411, "Send the request body with a Content-Length."}, &*head);
        if (auto screened = m_handlers.screen(*head)) {
            if (send(connection, *screened, false, true))
                connection.linger();
            return false;
        }
        if (length > m_limits.max_body_bytes)
            return refuse(connection, {413, fmt::format("The request body is {} bytes; requests are at most {} bytes.",
                                                        with_thousands(static_cast<std::int64_t>(std::min<std::uint64_t>(length, INT64_MAX))),
                                                        with_thousands(static_cast<std::int64_t>(m_limits.max_body_bytes)))},
                          &*head);
        if (head->expect_continue && received.size() < length && !connection.write("HTTP/1.1 100 Continue\r\n\r\n"))
            return false;
        while (received.size() < length) {
            const Connection::Read read = connection.read_more();
            if (read == Connection::Read::closed)
                return false;
            if (read == Connection::Read::timed_out)
                return refuse(connection, {408, "The request took too long to arrive."}, &*head);
        }
    }

    HttpRequest request;
    request.head = std::move(*head);
    request.body = received.substr(0, length);
    received.erase(0, length);
    request.address = connection.address();
    request.query = parse_form(request.head.query);
    const std::string* type = request.head.field("Content-Type");
    if (post && type != nullptr && starts_with_ignoring_case(*type, "application/x-www-form-urlencoded"))
        request.form = parse_form(request.body);
    HttpResponse response;
    try {
        response = m_handlers.handle(request);
    } catch (const std::exception&) {
        response = m_handlers.refusal({500, "The server could not answer this request."}, &request.head);
    }
    const bool close = response.close || request.head.close || last || m_stopping->load();
    return send(connection, response, request.head.method == "HEAD", close) && !close;
}

} // namespace headcount::serve

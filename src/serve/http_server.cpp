// The event loop of serve's HTTP server (http_server.hpp). One thread runs it; each connection moves through
// idle -> reading -> dispatched -> writing -> idle (or lingering -> closed), and every state has a deadline that
// sweep() enforces. Over ~400 lines because the loop and its states read best together.
#include <serve/http_server.hpp>

#include <util/text.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

namespace headcount::serve {

using namespace std::chrono;

namespace {

constexpr std::uint64_t k_listener_tag = 0; ///< epoll data of the listening socket
constexpr std::uint64_t k_wake_tag = 1;     ///< epoll data of the workers' eventfd
constexpr std::size_t k_max_turned_away = 256;
constexpr std::size_t k_max_received = 64 * 1024; ///< a head, a body and the start of a pipelined request fit
constexpr std::size_t k_max_drained = 256 * 1024;
constexpr milliseconds k_linger{2000};

} // namespace

/// A response a worker made, for the event loop to write.
struct HttpServer::Completed {
    std::uint64_t id;
    HttpResponse response;
    bool close;
};

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
    std::string head =
        fmt::format("HTTP/1.1 {} {}\r\nDate: {}\r\n", response.status, status_phrase(response.status), http_date(now));
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
      m_threads(threads), m_counts(limits.per_address) {}

HttpServer::~HttpServer() {
    if (m_pool)
        m_pool->shutdown();
    for (auto& [id, connection] : m_connections)
        ::close(connection->fd);
    for (const int fd : {m_listener, m_epoll, m_wake})
        if (fd >= 0)
            ::close(fd);
}

Result<int> HttpServer::listen(const std::string& host, int port) {
    // Every connection the limits allow is a descriptor, and the usual soft limit (1,024) is below them: raise it
    // toward the hard limit, or the cap is never reached and accept fails first.
    rlimit files{};
    const rlim_t wanted = m_limits.max_connections + k_max_turned_away + 64;
    if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY && files.rlim_cur < wanted) {
        files.rlim_cur = files.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, files.rlim_max);
        ::setrlimit(RLIMIT_NOFILE, &files);
    }
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
    if (auto ok = start(); !ok)
        return std::unexpected(ok.error());
    epoll_event listener{EPOLLIN, {.u64 = k_listener_tag}};
    if (::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_listener, &listener) != 0)
        return fail("cannot set up the server's event loop (epoll)");
    sockaddr_storage bound{};
    socklen_t length = sizeof bound;
    ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&bound), &length);
    return ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<const sockaddr_in6&>(bound).sin6_port
                                             : reinterpret_cast<const sockaddr_in&>(bound).sin_port);
}

Result<void> HttpServer::start() {
    if (m_epoll >= 0)
        return {};
    m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
    m_wake = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    epoll_event wake{EPOLLIN, {.u64 = k_wake_tag}};
    if (m_epoll < 0 || m_wake < 0 || ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wake, &wake) != 0)
        return fail("cannot set up the server's event loop (epoll)");
    m_pool = std::make_unique<WorkerPool>(m_threads);
    m_swept = now();
    return {};
}

void HttpServer::adopt(int fd, const std::string& key) { take(fd, key); }

steady_clock::time_point HttpServer::now() const { return m_clock ? m_clock() : steady_clock::now(); }

void HttpServer::run(const std::atomic<bool>& stopping) {
    for (;;) {
        if (stopping.load() && !m_stopping) {
            // Stop accepting; a connection with nothing begun and something answered already goes now.
            m_stopping = true;
            ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, m_listener, nullptr);
            ::close(m_listener);
            m_listener = -1;
            sweep(now());
        }
        if (m_stopping && m_connections.empty())
            break;
        poll(milliseconds(50));
    }
    m_pool->shutdown();
}

std::size_t HttpServer::poll(milliseconds wait) {
    epoll_event events[128];
    const int n = ::epoll_wait(m_epoll, events, 128, static_cast<int>(wait.count()));
    for (int i = 0; i < n; ++i) {
        const std::uint64_t tag = events[i].data.u64;
        if (tag == k_listener_tag) {
            if (!accept_all()) {
                // Out of descriptors: stop listening for a moment rather than spin on a listener always ready.
                ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, m_listener, nullptr);
                m_listener_paused_until = now() + milliseconds(100);
            }
            continue;
        }
        if (tag == k_wake_tag) {
            std::uint64_t count = 0;
            while (::read(m_wake, &count, sizeof count) > 0) {
            }
            collect_completed();
            continue;
        }
        const auto it = m_connections.find(tag);
        if (it == m_connections.end())
            continue;
        Connection& c = *it->second;
        if (c.state == Connection::State::writing)
            write_some(c); // writable, or an error the next write reports
        else
            on_readable(c);
    }
    const auto time = now();
    if (m_listener_paused_until != steady_clock::time_point{} && time >= m_listener_paused_until && m_listener >= 0) {
        epoll_event listener{EPOLLIN, {.u64 = k_listener_tag}};
        ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_listener, &listener);
        m_listener_paused_until = {};
    }
    if (time - m_swept >= milliseconds(50)) {
        sweep(time);
        m_swept = time;
    }
    return static_cast<std::size_t>(std::max(n, 0));
}

bool HttpServer::accept_all() {
    for (int i = 0; i < 64 && m_listener >= 0; ++i) {
        sockaddr_storage peer{};
        socklen_t length = sizeof peer;
        const int fd = ::accept4(m_listener, reinterpret_cast<sockaddr*>(&peer), &length, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0)
            return errno != EMFILE && errno != ENFILE;
        take(fd, client_key(peer));
    }
    return true;
}

void HttpServer::take(int fd, const std::string& key) {
    static const std::string address_full =
        "This address has too many connections open at once; try again in a few seconds.\n";
    static const std::string server_full =
        "The server has too many connections open at once; try again in a few seconds.\n";
    static const std::string reserved = "The server is nearly full, and keeps its last connections for addresses "
                                        "with few open; this one has many. Try again in a few seconds.\n";
    const std::size_t held = m_counts.open(key);
    if (m_limits.per_address != 0 && held >= m_limits.per_address) {
        turn_away(fd, address_full);
        return;
    }
    // The last reserved_connections are for addresses with few open: one address (a flood, or everyone behind one
    // proxy) cannot take every slot from the students who connect next.
    const bool few = held < m_limits.few_connections;
    const std::size_t room =
        few ? m_limits.max_connections
            : m_limits.max_connections - std::min(m_limits.reserved_connections, m_limits.max_connections);
    if (m_connections.size() - m_refusing >= room) {
        // Full for this address: a connection that has sent nothing yet makes room first (a client can open those
        // faster than the read timeout closes them), then the one idle longest after its answers. An address with
        // many open makes room only among its own.
        Connection* evicted = nullptr;
        for (auto& [id, c] : m_connections) {
            if (c->state != Connection::State::idle || c->turned_away || (!few && c->key != key))
                continue;
            const bool unused = c->served == 0;
            if (evicted == nullptr || unused > (evicted->served == 0) ||
                (unused == (evicted->served == 0) && c->last_moved < evicted->last_moved))
                evicted = c.get();
        }
        if (evicted == nullptr) {
            turn_away(fd, few ? server_full : reserved);
            return;
        }
        close(*evicted);
    }
    m_counts.acquire(key);
    admit(fd, key);
}

void HttpServer::admit(int fd, const std::string& key) {
    // Without TCP_NODELAY a response written in two parts would wait for the client's delayed ACK (40 ms).
    const int on = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    auto connection = std::make_unique<Connection>();
    Connection& c = *connection;
    c.fd = fd;
    c.id = ++m_next_id;
    c.key = key;
    c.counted = true;
    c.scanner = HeadScanner(m_limits.head);
    c.last_moved = now();
    c.deadline = c.last_moved + m_limits.read_timeout; // for the first request's first byte
    m_connections.emplace(c.id, std::move(connection));
    epoll_event event{EPOLLIN, {.u64 = c.id}};
    ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &event);
}

void HttpServer::turn_away(int fd, const std::string& body) {
    if (m_refusing >= k_max_turned_away) {
        ::close(fd);
        return;
    }
    const std::string answer =
        response_head(make_response(503, {{"Content-Type", "text/plain; charset=utf-8"}, {"Retry-After", "5"}}),
                      m_default_fields, body.size(), true, m_limits) +
        body;
    ::send(fd, answer.data(), answer.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    ::shutdown(fd, SHUT_WR);
    auto connection = std::make_unique<Connection>();
    Connection& c = *connection;
    c.fd = fd;
    c.id = ++m_next_id;
    c.turned_away = true;
    c.state = Connection::State::lingering;
    c.deadline = now() + k_linger;
    ++m_refusing;
    m_connections.emplace(c.id, std::move(connection));
    epoll_event event{EPOLLIN, {.u64 = c.id}};
    ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &event);
}

void HttpServer::watch(Connection& c, std::uint32_t events) {
    // With nothing to wait for, the socket leaves the set: epoll reports a hang-up whatever one asks, and a
    // connection a worker has must not wake the loop again and again.
    if (events == 0) {
        if (c.registered)
            ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, c.fd, nullptr);
        c.registered = false;
        return;
    }
    epoll_event event{events, {.u64 = c.id}};
    ::epoll_ctl(m_epoll, c.registered ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, c.fd, &event);
    c.registered = true;
}

void HttpServer::close(Connection& c) {
    if (c.registered)
        ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, c.fd, nullptr);
    ::close(c.fd);
    if (c.counted)
        m_counts.release(c.key);
    if (c.turned_away)
        --m_refusing;
    m_connections.erase(c.id); // c is gone
}

void HttpServer::on_readable(Connection& c) {
    char buffer[4096];
    if (c.state == Connection::State::lingering) {
        for (;;) {
            const ssize_t n = ::recv(c.fd, buffer, sizeof buffer, MSG_DONTWAIT);
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                return;
            c.drained += n > 0 ? static_cast<std::size_t>(n) : 0;
            if (n <= 0 || c.drained > k_max_drained) {
                close(c);
                return;
            }
        }
    }
    if (c.state != Connection::State::idle && c.state != Connection::State::reading)
        return;
    while (c.received.size() < k_max_received) {
        const ssize_t n = ::recv(c.fd, buffer, sizeof buffer, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (n <= 0) {
            // The client is gone, or has sent all it will: what it sent may still be a whole request to answer.
            c.peer_closed = true;
            watch(c, 0);
            break;
        }
        c.received.append(buffer, static_cast<std::size_t>(n));
        c.last_moved = now();
    }
    if (c.peer_closed && c.received.empty()) {
        close(c);
        return;
    }
    advance(c);
}

void HttpServer::advance(Connection& c) {
    const auto time = now();
    if (c.state == Connection::State::idle) {
        if (c.received.empty())
            return;
        c.state = Connection::State::reading;
        c.request_start = time;
        c.deadline = time + m_limits.request_timeout;
        c.last_moved = time;
    }
    if (!c.head) {
        // A request refused before its head is read still answers a HEAD without a body.
        std::string_view start = c.received;
        while (start.starts_with("\r\n"))
            start.remove_prefix(2);
        c.head_only = start.starts_with("HEAD ");
        auto scanned = c.scanner.scan(c.received);
        if (!scanned) {
            dispatch_refusal(c, scanned.error());
            return;
        }
        if (*scanned == 0) {
            if (c.peer_closed)
                close(c);
            return;
        }
        auto head = parse_request_head(std::string_view(c.received).substr(0, *scanned));
        c.received.erase(0, *scanned);
        if (!head) {
            dispatch_refusal(c, head.error());
            return;
        }
        c.head = std::move(*head);
        c.head_only = c.head->method == "HEAD";
        // Framing: only a POST has a body, and only with a Content-Length.
        const bool post = c.head->method == "POST";
        const std::uint64_t length = c.head->content_length.value_or(0);
        std::optional<HttpRefusal> refused;
        if (!post && c.head->method != "GET" && c.head->method != "HEAD")
            refused = HttpRefusal{405, "This address only answers GET, HEAD and POST."};
        else if (c.head->transfer_encoding)
            refused = post ? HttpRefusal{411, "Send the request body with a Content-Length, not in chunks."}
                           : HttpRefusal{400, "A GET or HEAD request has no body."};
        else if (!post && length > 0)
            refused = HttpRefusal{400, "A GET or HEAD request has no body."};
        else if (post && !c.head->content_length)
            refused = HttpRefusal{411, "Send the request body with a Content-Length."};
        else if (post && (refused = m_handlers.screen(*c.head)))
            ;
        else if (length > m_limits.max_body_bytes)
            refused = HttpRefusal{
                413, fmt::format("The request body is {} bytes; requests are at most {} bytes.",
                                 with_thousands(static_cast<std::int64_t>(std::min<std::uint64_t>(length, INT64_MAX))),
                                 with_thousands(static_cast<std::int64_t>(m_limits.max_body_bytes)))};
        if (refused) {
            dispatch_refusal(c, std::move(*refused));
            return;
        }
        // RFC 9110 15.2: no 1xx to an HTTP/1.0 client. Best effort: a client that does not see it sends anyway.
        if (c.head->expect_continue && c.head->minor_version == 1 && c.received.size() < length)
            ::send(c.fd, "HTTP/1.1 100 Continue\r\n\r\n", 25, MSG_DONTWAIT | MSG_NOSIGNAL);
    }
    const std::size_t length = static_cast<std::size_t>(c.head->content_length.value_or(0));
    if (c.received.size() < length) {
        if (c.peer_closed)
            close(c);
        return;
    }
    HttpRequest request;
    request.head = std::move(*c.head);
    request.body = c.received.substr(0, length);
    c.received.erase(0, length);
    request.address = c.key;
    request.query = parse_form(request.head.query);
    const std::string* type = request.head.field("Content-Type");
    if (request.head.method == "POST" && type != nullptr &&
        starts_with_ignoring_case(*type, "application/x-www-form-urlencoded"))
        request.form = parse_form(request.body);
    dispatch(c, std::move(request));
}

void HttpServer::dispatch(Connection& c, HttpRequest request) {
    c.state = Connection::State::dispatched;
    c.head.reset();
    c.scanner = HeadScanner(m_limits.head);
    if (!c.peer_closed)
        watch(c, 0);
    const bool close = request.head.close || c.served + 1 >= m_limits.max_requests;
    m_pool->enqueue([this, id = c.id, request = std::move(request), close] {
        HttpResponse response;
        try {
            response = m_handlers.handle(request);
        } catch (const std::exception&) {
            response = m_handlers.refusal({500, "The server could not answer this request."}, &request.head);
        }
        {
            const std::lock_guard lock(m_done_mutex);
            m_done.push_back(Completed{id, std::move(response), close});
        }
        const std::uint64_t one = 1;
        [[maybe_unused]] const auto written = ::write(m_wake, &one, sizeof one);
    });
}

void HttpServer::dispatch_refusal(Connection& c, HttpRefusal refusal) {
    c.state = Connection::State::dispatched;
    if (c.request_start == steady_clock::time_point{})
        c.request_start = now();
    if (!c.peer_closed)
        watch(c, 0);
    std::optional<RequestHead> head = std::move(c.head);
    c.head.reset();
    m_pool->enqueue([this, id = c.id, refusal = std::move(refusal), head = std::move(head)] {
        HttpResponse response = m_handlers.refusal(refusal, head ? &*head : nullptr);
        if (refusal.status == 405)
            response.fields.emplace_back("Allow", "GET, HEAD, POST");
        {
            const std::lock_guard lock(m_done_mutex);
            m_done.push_back(Completed{id, std::move(response), true});
        }
        const std::uint64_t one = 1;
        [[maybe_unused]] const auto written = ::write(m_wake, &one, sizeof one);
    });
}

void HttpServer::collect_completed() {
    std::vector<Completed> done;
    {
        const std::lock_guard lock(m_done_mutex);
        done.swap(m_done);
    }
    const auto time = now();
    for (Completed& completed : done) {
        const auto it = m_connections.find(completed.id);
        if (it == m_connections.end())
            continue;
        Connection& c = *it->second;
        HttpResponse& response = completed.response;
        // A client that has half-closed is answered for every whole request it sent first (RFC 9112 §9.6); the
        // last of them says the connection closes.
        c.close_after = completed.close || response.close || m_stopping || (c.peer_closed && c.received.empty());
        const std::string_view body =
            response.shared_body.empty() ? std::string_view(response.body) : response.shared_body;
        c.out_head = response_head(response, m_default_fields, body.size(), c.close_after, m_limits);
        c.out_body = c.head_only ? std::string() : std::move(response.body);
        c.shared_body = c.head_only ? std::string_view() : response.shared_body;
        c.out_sent = 0;
        c.state = Connection::State::writing;
        c.deadline = c.request_start + m_limits.response_timeout;
        c.last_moved = time;
        write_some(c);
    }
}

void HttpServer::write_some(Connection& c) {
    for (;;) {
        const std::string_view body = c.body();
        const std::size_t total = c.out_head.size() + body.size();
        if (c.out_sent == total) {
            finish_response(c);
            return;
        }
        iovec parts[2];
        int count = 0;
        if (c.out_sent < c.out_head.size())
            parts[count++] = {c.out_head.data() + c.out_sent, c.out_head.size() - c.out_sent};
        const std::size_t body_sent = c.out_sent > c.out_head.size() ? c.out_sent - c.out_head.size() : 0;
        if (body_sent < body.size())
            parts[count++] = {const_cast<char*>(body.data()) + body_sent, body.size() - body_sent};
        msghdr message{};
        message.msg_iov = parts;
        message.msg_iovlen = static_cast<std::size_t>(count);
        const ssize_t n = ::sendmsg(c.fd, &message, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            watch(c, EPOLLOUT);
            return;
        }
        if (n <= 0) {
            close(c);
            return;
        }
        c.out_sent += static_cast<std::size_t>(n);
        c.last_moved = now();
    }
}

void HttpServer::finish_response(Connection& c) {
    ++c.served;
    c.out_head.clear();
    c.out_body.clear();
    c.shared_body = {};
    c.head_only = false;
    const auto time = now();
    if (c.peer_closed && c.received.empty()) {
        close(c);
        return;
    }
    if (c.close_after) {
        // Closing with unread bytes would reset the connection before the client reads the answer: shut the write
        // side and drain what still comes, for a moment.
        ::shutdown(c.fd, SHUT_WR);
        c.state = Connection::State::lingering;
        c.deadline = time + k_linger;
        c.drained = 0;
        watch(c, EPOLLIN);
        return;
    }
    c.state = Connection::State::idle;
    c.deadline = time + m_limits.idle_timeout;
    c.last_moved = time;
    c.request_start = {};
    if (!c.peer_closed)
        watch(c, EPOLLIN);
    advance(c); // a pipelined request already here (after a half-close: closes unless it is whole)
}

void HttpServer::sweep(steady_clock::time_point now) {
    std::vector<Connection*> expired;
    for (auto& [id, c] : m_connections) {
        switch (c->state) {
        case Connection::State::idle:
            if (now > c->deadline || (m_stopping && c->served > 0))
                expired.push_back(c.get());
            break;
        case Connection::State::reading:
        case Connection::State::writing:
        case Connection::State::lingering: {
            const auto quiet = c->state == Connection::State::writing ? m_limits.write_timeout : m_limits.read_timeout;
            if (now > c->deadline || (c->state != Connection::State::lingering && now - c->last_moved > quiet))
                expired.push_back(c.get());
            break;
        }
        case Connection::State::dispatched:
            break;
        }
    }
    for (Connection* c : expired) {
        if (c->state == Connection::State::reading)
            dispatch_refusal(*c, {408, "The request took too long to arrive."});
        else
            close(*c);
    }
}

} // namespace headcount::serve

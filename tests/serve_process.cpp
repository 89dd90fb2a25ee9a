#include "serve_process.hpp"
#include "run_binary.hpp"

#include <util/test_catch.hpp>

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <netinet/in.h>
#include <poll.h>
#include <regex>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace headcount::testing {

ServeProcess::ServeProcess(const std::vector<std::string>& args) {
    static int started = 0;
    const std::string dir = fresh_temp_dir("serve-" + std::to_string(++started));
    m_err_path = dir + "/stderr";
    int out[2];
    REQUIRE(::pipe(out) == 0);
    std::fflush(stdout);
    std::fflush(stderr);
    m_pid = ::fork();
    REQUIRE(m_pid >= 0);
    if (m_pid == 0) {
        ::dup2(out[1], STDOUT_FILENO);
        ::close(out[0]);
        ::close(out[1]);
        if (::chdir(HEADCOUNT_SOURCE_DIR) != 0 || !::freopen(m_err_path.c_str(), "wb", stderr))
            ::_exit(127);
        std::vector<std::string> copies{HEADCOUNT_BINARY, "serve"};
        copies.insert(copies.end(), args.begin(), args.end());
        copies.insert(copies.end(), {"--port", "0"});
        std::vector<char*> argv;
        for (std::string& a : copies)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(HEADCOUNT_BINARY, argv.data());
        ::_exit(127);
    }
    ::close(out[1]);
    std::string printed;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    const std::regex listening(R"(listening on http://127\.0\.0\.1:(\d+)/)");
    std::smatch match;
    while (!std::regex_search(printed, match, listening) && std::chrono::steady_clock::now() < until) {
        pollfd p{out[0], POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0)
            continue;
        char buffer[256];
        const ssize_t n = ::read(out[0], buffer, sizeof buffer);
        if (n <= 0)
            break;
        printed.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(out[0]);
    INFO("serve printed: " << printed << "\nstderr: " << err());
    REQUIRE(!match.empty());
    m_port = std::stoi(match[1].str());
}

ServeProcess::~ServeProcess() {
    if (m_pid > 0) {
        ::kill(m_pid, SIGKILL);
        ::waitpid(m_pid, nullptr, 0);
    }
}

int ServeProcess::stop(int signal) {
    REQUIRE(m_pid > 0);
    ::kill(m_pid, signal);
    int status = 0;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (::waitpid(m_pid, &status, WNOHANG) == 0) {
        REQUIRE(std::chrono::steady_clock::now() < until);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    m_pid = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string ServeProcess::err() const {
    return std::filesystem::exists(m_err_path) ? read_text(m_err_path) : std::string();
}

int connect_loopback(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    return fd;
}

std::string read_until_closed(int fd, int wait_ms) {
    std::string got;
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, wait_ms) <= 0)
            return got;
        char buffer[4096];
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0)
            return got;
        got.append(buffer, static_cast<std::size_t>(n));
    }
}

std::string raw_exchange(int port, const std::string& bytes, int wait_ms) {
    const int fd = connect_loopback(port);
    std::size_t sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0)
            break; // the server may refuse before reading everything: read what it said
        sent += static_cast<std::size_t>(n);
    }
    std::string got = read_until_closed(fd, wait_ms);
    ::close(fd);
    return got;
}

int connect_from(const char* from, int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in local{};
    local.sin_family = AF_INET;
    ::inet_pton(AF_INET, from, &local.sin_addr);
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) == 0);
    sockaddr_in server{};
    server.sin_family = AF_INET;
    server.sin_port = htons(static_cast<std::uint16_t>(port));
    ::inet_pton(AF_INET, "127.0.0.1", &server.sin_addr);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&server), sizeof server) == 0);
    return fd;
}

void send_all(int fd, const std::string& bytes) {
    REQUIRE(::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size()));
}

std::vector<Response> responses(std::string_view raw) {
    std::vector<Response> out;
    while (raw.starts_with("HTTP/1.1 ")) {
        const auto end = raw.find("\r\n\r\n");
        if (end == std::string_view::npos)
            break;
        Response r;
        r.status = std::stoi(std::string(raw.substr(9, 3)));
        std::string_view head = raw.substr(0, end);
        head.remove_prefix(head.find("\r\n") + 2);
        while (!head.empty()) {
            const auto line_end = std::min(head.find("\r\n"), head.size());
            const std::string_view line = head.substr(0, line_end);
            std::string name(line.substr(0, line.find(':')));
            std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
            r.fields[name] = std::string(line.substr(line.find(':') + 2));
            head.remove_prefix(std::min(line_end + 2, head.size()));
        }
        const std::size_t length = r.fields.contains("content-length") ? std::stoul(r.fields["content-length"]) : 0;
        r.body = std::string(raw.substr(end + 4, length));
        r.size = end + 4 + length;
        out.push_back(r);
        raw.remove_prefix(std::min(r.size, raw.size()));
    }
    return out;
}

std::string field(const Response& response, const std::string& name) {
    const auto it = response.fields.find(name);
    return it == response.fields.end() ? std::string() : it->second;
}

Response only_response(const std::string& raw) {
    const auto all = responses(raw);
    INFO(raw.substr(0, 400));
    REQUIRE(all.size() == 1);
    return all.front();
}

} // namespace headcount::testing

#pragma once
// `headcount serve` as a child process for end-to-end tests: started on a free port (--port 0), stopped with a
// signal, and raw sockets for the requests a well-behaved client library would not send.

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <sys/types.h>

namespace headcount::testing {

/// A running `headcount serve ARGS... --port 0`, with the repository root as working directory.
class ServeProcess {
  public:
    /// Starts the server and waits (up to 20 s) for its "listening on" line; fails the test if it does not come.
    explicit ServeProcess(const std::vector<std::string>& args);
    ~ServeProcess();
    ServeProcess(const ServeProcess&) = delete;
    ServeProcess& operator=(const ServeProcess&) = delete;

    [[nodiscard]] int port() const { return m_port; }
    [[nodiscard]] pid_t pid() const { return m_pid; }

    /// Sends `signal` and waits (up to 20 s) for the exit: the exit code, or 128 + the signal that killed it.
    int stop(int signal);

    /// What the server printed on stderr so far.
    [[nodiscard]] std::string err() const;

  private:
    pid_t m_pid = -1;
    int m_port = 0;
    std::string m_err_path;
};

/// Sends `bytes` on a new loopback connection to `port` and returns everything the server sends back until it
/// closes the connection or `wait_ms` passes without data.
std::string raw_exchange(int port, const std::string& bytes, int wait_ms = 3000);

/// A connected loopback socket to `port` (fails the test if it cannot connect).
int connect_loopback(int port);

/// Reads from `fd` until the peer closes or `wait_ms` passes without data.
std::string read_until_closed(int fd, int wait_ms);

/// A connection to `port` from the loopback address `from` (127.0.0.2 is another client to the server).
int connect_from(const char* from, int port);

/// Sends all of `bytes` on `fd` at once (fails the test if the socket takes less).
void send_all(int fd, const std::string& bytes);

/// One response as a client reads it: status, fields (names lower-cased), body by Content-Length.
struct Response {
    int status = 0;
    std::map<std::string, std::string> fields;
    std::string body;
    std::size_t size = 0; ///< bytes of the whole response
};

/// Every response in `raw`, in order (a server that takes a body for a request answers twice).
std::vector<Response> responses(std::string_view raw);

/// The value of the field `name` (lower case), or "" when the response has none.
std::string field(const Response& response, const std::string& name);

/// The one response `raw` holds (fails the test if it holds none or more).
Response only_response(const std::string& raw);

} // namespace headcount::testing

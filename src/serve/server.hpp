#pragma once
// `headcount serve`: the problems on web pages where students type answers and read headcount's feedback, and the
// same checks as a JSON API (the routes are in site.hpp, the HTTP server in http_server.hpp).

#include <serve/checker.hpp>
#include <serve/classroom.hpp>
#include <serve/connection.hpp>

#include <render/templates.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace headcount::serve {

/// Everything `serve` is told besides the problems.
struct ServeOptions {
    std::string host = "127.0.0.1";
    int port = 8080;                 ///< 0: any free port (printed)
    std::filesystem::path log;       ///< the attempt log; empty: none
    std::filesystem::path templates; ///< --templates: its serve/static/ files replace the built-in style and script
    std::filesystem::path katex;     ///< a libjs-katex directory
    std::size_t threads = 8;         ///< workers making responses (reading and writing take none)
    std::optional<int> attempts;     ///< checks per student and part where the spec sets no `attempts:`
    CheckLimits checks;
    ConnectionLimits connection;
};

/// Serves until SIGTERM or SIGINT, then stops accepting, finishes the requests in flight and returns 0. Prints
/// "listening on http://HOST:PORT/" on stdout once it accepts connections. Errors before serving: KaTeX or the
/// page files missing, a template that does not render, the log not writable, the address not available.
Result<int> serve(const Classroom& classroom, const render::TemplateSet& templates, const ServeOptions& options);

} // namespace headcount::serve

#include <serve/server.hpp>

#include <serve/attempt_book.hpp>
#include <serve/attempt_log.hpp>
#include <serve/http_server.hpp>
#include <serve/site.hpp>
#include <serve/static_files.hpp>

#include <fmt/format.h>

#include <csignal>
#include <pthread.h>
#include <thread>

namespace headcount::serve {

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
    // The log is opened first: an unfinished last line is cut away before the checks are counted again from it.
    std::unique_ptr<AttemptLog> log;
    if (!options.log.empty()) {
        auto opened = AttemptLog::open(options.log);
        if (!opened)
            return std::unexpected(opened.error());
        log = std::move(*opened);
        if (log->cut_at_open() > 0)
            fmt::print(stderr,
                       "headcount serve: {} ended in an unfinished line ({} bytes, left by a crash or a power cut "
                       "mid-write); cut away\n",
                       options.log.string(), log->cut_at_open());
    }
    // Students' checks of parts with a limit, counted again from the log: a restart forgives nothing.
    AttemptBook book(options.attempts);
    std::size_t replayed = 0;
    if (!options.log.empty()) {
        auto counted = book.replay(options.log, [&](std::string_view problem_id, std::string_view part_id) {
            for (const solve::SolvedProblem& problem : classroom.problems())
                if (problem.problem.id == problem_id)
                    for (const solve::SolvedPart& part : problem.parts)
                        if (part.part.id == part_id)
                            return book.limit(problem.problem, part.part).has_value();
            return false;
        });
        if (!counted)
            return std::unexpected(counted.error());
        replayed = *counted;
    }
    Checker checker(classroom, templates, log.get(), options.checks, &book);
    Site site(classroom, templates, checker, files, options.connection, &book);
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

    HttpServer server(site.handlers(), Site::security_fields(), options.connection, options.threads);
    auto port = server.listen(options.host, options.port);
    if (!port)
        return std::unexpected(port.error());

    std::atomic<bool> stopping{false};
    std::atomic<bool> done{false};
    std::thread watcher([&] {
        const timespec tick{0, 50'000'000};
        while (!done.load())
            if (::sigtimedwait(&signals, nullptr, &tick) > 0) {
                stopping = true;
                return;
            }
    });
    const std::string host = options.host.find(':') != std::string::npos ? "[" + options.host + "]" : options.host;
    fmt::print(stderr, "headcount serve: {} problem{}, {}{}\n", classroom.problems().size(),
               classroom.problems().size() == 1 ? "" : "s",
               classroom.has_roster() ? fmt::format("{} students with their own variants", classroom.students())
                                      : std::string("the numbers as written (no roster)"),
               options.log.empty()
                   ? ""
                   : fmt::format(", attempts logged to {} ({} counted so far)", options.log.string(), replayed));
    fmt::print("headcount serve: listening on http://{}:{}/ (stop with Ctrl-C or SIGTERM)\n", host, *port);
    std::fflush(stdout);
    server.run(stopping);
    done = true;
    watcher.join();
    fmt::print(stderr, "headcount serve: stopped after {} check{}; every request in flight was answered\n",
               checker.count(), checker.count() == 1 ? "" : "s");
    return 0;
}

} // namespace headcount::serve

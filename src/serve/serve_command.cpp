#include <serve/serve_command.hpp>

#include <command/problems.hpp>
#include <command/secret_option.hpp>
#include <generate/roster.hpp>
#include <render/katex.hpp>
#include <render/templates.hpp>
#include <serve/server.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <memory>

namespace headcount::serve {

namespace {

struct ServeCommandOptions {
    std::vector<std::string> specs;
    std::string seed;
    std::string roster;
    std::string secret;
    std::string templates;
    std::string katex;
    double student_rate = 30;
    double address_rate = 600;
    ServeOptions serve;
};

/// What serve reads, and so what the token secret must not be inside: anything there may be sent to a student (the
/// static files and KaTeX are, whole) or quoted in an error (a spec, the roster).
std::vector<command::ExposedPath> exposed_paths(const ServeCommandOptions& options) {
    std::vector<command::ExposedPath> exposed;
    for (const std::string& spec : options.specs)
        exposed.push_back({spec, fmt::format("the specs {}, which serve reads", spec)});
    exposed.push_back({options.roster, fmt::format("the roster {}", options.roster)});
    if (!options.templates.empty())
        exposed.push_back(
            {options.templates, fmt::format("the templates folder {}, whose serve/static files serve sends to anyone "
                                            "who asks",
                                            options.templates)});
    const std::filesystem::path katex =
        options.katex.empty() ? render::default_katex_dir() : std::filesystem::path(options.katex);
    exposed.push_back(
        {katex, fmt::format("the KaTeX folder {}, whose files serve sends to anyone who asks", katex.string())});
    if (!options.serve.log.empty())
        exposed.push_back({options.serve.log, fmt::format("the attempt log {}", options.serve.log.string())});
    return exposed;
}

Result<int> run_serve(ServeCommandOptions& options) {
    auto solved = command::load_and_solve(options.specs);
    if (!solved)
        return std::unexpected(solved.error());
    if (solved->empty())
        return fail("no problem specs to serve");
    std::vector<std::string> roster;
    std::optional<TokenSecret> secret;
    if (!options.roster.empty()) {
        auto loaded = generate::load_roster(options.roster);
        if (!loaded)
            return std::unexpected(loaded.error());
        if (loaded->empty())
            return std::unexpected(Error{options.roster, 0, 0, "the roster has no students"});
        roster = std::move(*loaded);
        auto key = command::command_token_secret(options.secret, exposed_paths(options));
        if (!key)
            return std::unexpected(key.error());
        secret = std::move(*key);
    }
    if (roster.empty()) {
        const auto limited = std::find_if(solved->begin(), solved->end(), [](const solve::SolvedProblem& problem) {
            return std::any_of(problem.parts.begin(), problem.parts.end(), [&](const solve::SolvedPart& part) {
                return problem.problem.attempts_for(part.part).has_value();
            });
        });
        if (limited != solved->end())
            fmt::print(stderr,
                       "headcount serve: '{}' limits checks with attempts:, which counts the students of a "
                       "roster; without --roster nothing is limited\n",
                       limited->problem.id);
    }
    auto classroom = Classroom::open(std::move(*solved), std::move(roster), options.seed, std::move(secret));
    if (!classroom)
        return std::unexpected(classroom.error());
    auto templates = command::load_templates(options.templates);
    if (!templates)
        return std::unexpected(templates.error());
    options.serve.templates = options.templates;
    options.serve.katex = options.katex.empty() ? render::default_katex_dir() : std::filesystem::path(options.katex);
    // A burst of a third of a minute's checks: a student may check every part of a problem in a row.
    options.serve.checks.per_student = {options.student_rate, std::max(1.0, options.student_rate / 3)};
    options.serve.checks.per_address = {options.address_rate, std::max(1.0, options.address_rate / 10)};
    return serve(*classroom, *templates, options.serve);
}

} // namespace

command::Command add_serve_command(CLI::App& app) {
    auto options = std::make_shared<ServeCommandOptions>();
    CLI::App* serve = app.add_subcommand("serve", command::k_serve_description);
    command::add_specs_argument(*serve, options->specs);
    serve->add_option("--host", options->serve.host,
                      "Address to listen on (default 127.0.0.1; 0.0.0.0 for students on other machines)");
    serve->add_option("--port", options->serve.port, "Port to listen on (default 8080; 0 picks a free one)")
        ->check(CLI::Range(0, 65535));
    auto* seed = serve->add_option("--seed", options->seed, "The class seed: each student sees their own variant");
    auto* roster = serve->add_option("--roster", options->roster,
                                     "The class roster (a CSV with a student column): who may open a page, with the "
                                     "link on their sheet");
    seed->needs(roster);
    roster->needs(seed);
    serve->add_option("--secret", options->secret, std::string(command::k_secret_help) + " (used with --roster)")
        ->needs(roster);
    serve->add_option("--log", options->serve.log,
                      "Append one JSON line per check to this file (time, student, problem, part, answer, status, "
                      "mistakes), each written before its answer is sent");
    serve->add_option("--templates", options->templates,
                      std::string(command::k_templates_help) +
                          "; the pages are serve/*.mustache, their style and script serve/static/headcount.css and "
                          "headcount.js");
    serve->add_option("--katex", options->katex, "KaTeX's directory (default: Debian's libjs-katex)");
    serve
        ->add_option("--attempts", options->serve.attempts,
                     "Checks each student may make of each part, where the spec sets no attempts: (default: no "
                     "limit). Counted per student (so it needs --roster), kept in the --log across restarts")
        ->check(CLI::Range(1, 10000))
        ->needs(roster);
    serve
        ->add_option("--connections-per-address", options->serve.connection.per_address,
                     "Connections one client address (an IPv6 /64) may have open at once (default 64; one more gets "
                     "503 at once; 0: no cap). Behind a reverse proxy or a NAT many students share an address: see "
                     "docs/operations.md")
        ->check(CLI::Range(0, 100000));
    serve
        ->add_option("--threads", options->serve.threads,
                     "Workers making responses at once (default 8); reading requests and writing responses take "
                     "none, so slow clients do not hold them")
        ->check(CLI::Range(1, 1024));
    serve
        ->add_option("--student-rate", options->student_rate,
                     "Checks a minute per student (default 30, 10 in a row; 0: no limit)")
        ->check(CLI::Range(0.0, 1e9));
    serve
        ->add_option("--address-rate", options->address_rate,
                     "Checks a minute per client address (default 600, 60 in a row; 0: no limit)")
        ->check(CLI::Range(0.0, 1e9));
    serve->footer(
        "Students open http://HOST:PORT/ (with --seed and --roster, the link on their sheet: "
        "/?student=ID&token=TOKEN). Feedback follows each spec's feedback policy (hints unless the spec says "
        "otherwise); no page or response holds an expected value under hints or gaps. Stops on SIGTERM or Ctrl-C "
        "after answering the requests in flight, with exit status 0; 2 when it cannot start.");
    return {serve, [options] { return run_serve(*options); }};
}

int serve_main(int argc, char** argv) {
    CLI::App app{command::k_app_description, "headcount"};
    app.require_subcommand(1);
    app.set_version_flag("--version", command::k_version);
    const std::vector<command::Command> commands{add_serve_command(app)};
    return command::run_app(app, commands, argc, argv);
}

} // namespace headcount::serve

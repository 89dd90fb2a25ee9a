#include <cli/app.hpp>
#include <cli/commands.hpp>
#include <cli/problems.hpp>

#include <generate/class_variants.hpp>
#include <generate/roster.hpp>
#include <render/html.hpp>
#include <render/katex.hpp>
#include <serve/attempt_log.hpp>
#include <grade/class_reports.hpp>
#include <util/files.hpp>
#include <util/ids.hpp>
#include <util/staging.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unistd.h>

namespace headcount::cli {

namespace {

namespace fs = std::filesystem;

/// A submissions file past this is not a class (a disk image, /dev/zero); a million rows are about 40 MiB.
constexpr std::uint64_t k_max_submissions_bytes = std::uint64_t{4} << 30;

struct GradeOptions {
    std::vector<std::string> specs;
    std::string submissions;
    std::string out;
    std::string format = "class";
    bool reveal = false;
    std::string templates;
    std::string seed;
    std::string roster;
    std::string key;
    std::string problems;
    std::string feedback = "files";
    unsigned threads = 0;
    bool html = false;
};

/// The problems --problems names, as indices, in spec order; empty when it is not given.
Result<std::vector<std::size_t>> scope_of(const std::vector<solve::SolvedProblem>& problems, const std::string& list) {
    std::vector<std::size_t> scope;
    if (list.empty())
        return scope;
    std::vector<std::string_view> ids;
    for (const auto& p : problems)
        ids.push_back(p.problem.id);
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string id(list.substr(start, comma - start));
        const auto it = std::find(ids.begin(), ids.end(), id);
        if (it == ids.end())
            return std::unexpected(Error{{}, 0, 0,
                                         fmt::format("--problems names '{}', which none of the specs has{}",
                                                     printable(id), did_you_mean(id, ids))});
        scope.push_back(static_cast<std::size_t>(it - ids.begin()));
        start = comma + 1;
    }
    std::sort(scope.begin(), scope.end());
    scope.erase(std::unique(scope.begin(), scope.end()), scope.end());
    return scope;
}

/// Writes `text` to a new file `name` in the folder `dir_fd`: plain POSIX calls, relative to an open folder so a
/// class's hundreds of thousands of files cost no path walk each.
Result<void> write_new_file(int dir_fd, const fs::path& dir, const std::string& name, std::string_view text) {
    const int fd = ::openat(dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return std::unexpected(Error{(dir / name).string(), 0, 0, "cannot write the file"});
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n <= 0) {
            ::close(fd);
            return std::unexpected(Error{(dir / name).string(), 0, 0, "writing failed (disk full?)"});
        }
        done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0)
        return std::unexpected(Error{(dir / name).string(), 0, 0, "writing failed (disk full?)"});
    return {};
}

/// Writes a whole file by path (the report).
Result<void> write_new_file(const fs::path& path, std::string_view text) {
    const int dir = ::open(path.parent_path().c_str(), O_DIRECTORY | O_RDONLY | O_CLOEXEC);
    if (dir < 0)
        return std::unexpected(Error{path.string(), 0, 0, "cannot write the file"});
    auto ok = write_new_file(dir, path.parent_path(), path.filename().string(), text);
    ::close(dir);
    return ok;
}

/// Students per step of write_feedback: the threads meet after each, so an error stops the run soon.
constexpr std::size_t k_chunk = 4096;

/// Every student's feedback file. Each of the workers (`threads`, at most one per student) renders and creates the
/// files of every workers-th student of a chunk. Creating a file takes the folder's lock only for the directory entry
/// and the inode; opening, writing and closing run side by side, so two threads create files faster than one (the
/// README has the figures). Each file's bytes depend only on the class, so the folder is the same whatever the number
/// of threads. The error reported is the first failing student's in id order: a worker stops at its own first
/// failure, and every student before that one in the chunk was tried by some worker.
Result<void> write_feedback(const grade::ClassResults& results, const render::TemplateSet& templates, bool reveal,
                            const fs::path& dir, unsigned threads, bool html) {
    const int dir_fd = ::open(dir.c_str(), O_DIRECTORY | O_RDONLY | O_CLOEXEC);
    if (dir_fd < 0)
        return std::unexpected(Error{dir.string(), 0, 0, "cannot write in the feedback folder"});
    const std::unique_ptr<const int, void (*)(const int*)> close_dir(&dir_fd, [](const int* fd) { ::close(*fd); });
    const std::size_t students = results.students();
    const auto workers = static_cast<unsigned>(
        std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(1, students))); // no idle thread for a small class
    std::vector<grade::FeedbackRenderer> renderer;
    for (unsigned r = 0; r < workers; ++r)
        renderer.emplace_back(results, templates, reveal);
    const render::KatexLink katex{nullptr, "../katex"};
    // Student i's Markdown, and with `html` their page after it (KaTeX in the folder beside feedback/).
    const auto write_student = [&](grade::FeedbackRenderer& render, std::size_t i) -> Result<void> {
        auto markdown = render.render(i);
        if (!markdown)
            return std::unexpected(markdown.error());
        // Ids were checked as rows were read (no '/', '..', NUL, reserved names): this stays in dir.
        const std::string id(results.student(i));
        if (auto ok = write_new_file(dir_fd, dir, id + ".md", *markdown); !ok)
            return ok;
        if (!html)
            return {};
        auto page = render::html_page(fmt::format("Feedback for {}", id), {*markdown}, katex, templates);
        if (!page)
            return std::unexpected(page.error());
        return write_new_file(dir_fd, dir, id + ".html", *page);
    };
    Result<void> outcome;
    std::vector<std::pair<std::size_t, Error>> failed; // (student, why), at most one per worker per chunk
    std::exception_ptr thrown; // out of memory in a worker: rethrown here, where main reports it, not std::terminate
    std::mutex failed_lock;
    for (std::size_t begin = 0; begin < students && outcome; begin += k_chunk) {
        const std::size_t end = std::min(begin + k_chunk, students);
        const auto work = [&](unsigned r) {
            try {
                for (std::size_t i = begin + r; i < end; i += workers)
                    if (auto ok = write_student(renderer[r], i); !ok) {
                        const std::lock_guard lock(failed_lock);
                        failed.emplace_back(i, std::move(ok.error()));
                        return; // this worker's later students cannot come first
                    }
            } catch (...) {
                const std::lock_guard lock(failed_lock);
                if (!thrown)
                    thrown = std::current_exception();
            }
        };
        {
            std::vector<std::jthread> pool;
            for (unsigned r = 1; r < workers; ++r)
                pool.emplace_back(work, r);
            work(0);
        }
        if (thrown)
            std::rethrow_exception(thrown);
        if (!failed.empty())
            outcome = std::unexpected(std::min_element(failed.begin(), failed.end(), [](const auto& a, const auto& b) {
                                          return a.first < b.first;
                                      })->second);
    }
    return outcome;
}

Result<int> run_grade(const GradeOptions& options) {
    auto problems = load_and_solve(options.specs);
    if (!problems)
        return std::unexpected(problems.error());
    auto templates = load_templates(options.templates);
    if (!templates)
        return std::unexpected(templates.error());
    auto scope = scope_of(*problems, options.problems);
    if (!scope)
        return std::unexpected(scope.error());
    if (options.format == "gradescope" && scope->empty()) // the assignment is every spec given
        for (std::size_t p = 0; p < problems->size(); ++p)
            scope->push_back(p);

    std::optional<generate::ClassVariants> variants;
    if (!options.key.empty()) {
        std::ifstream key(options.key, std::ios::binary);
        if (!key)
            return std::unexpected(Error{options.key, 0, 0, "cannot read the key"});
        auto from_key = generate::ClassVariants::from_key(*problems, key, options.key);
        if (!from_key)
            return std::unexpected(from_key.error());
        variants = std::move(*from_key);
    } else if (!options.seed.empty()) {
        auto roster = generate::load_roster(options.roster);
        if (!roster)
            return std::unexpected(roster.error());
        auto seeded = generate::ClassVariants::seeded(*problems, *roster, options.seed);
        if (!seeded)
            return std::unexpected(seeded.error());
        variants = std::move(*seeded);
    }
    grade::VariantLookup lookup;
    if (variants)
        lookup = [&](std::size_t problem, std::string_view student) { return variants->find(problem, student); };

    std::ifstream in(options.submissions, std::ios::binary);
    if (!in)
        return std::unexpected(Error{options.submissions, 0, 0, "cannot read the submissions file"});
    // An attempt log from `serve --log` (JSON lines) is read as submissions too; a CSV never starts with '{'.
    char start[64] = {};
    in.read(start, sizeof start);
    const std::string_view text(start, static_cast<std::size_t>(in.gcount()));
    in.clear();
    in.seekg(0);
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    // Said for both kinds: a log is empty until a student checks an answer, and grading it then is no mistake.
    if (first == std::string_view::npos && text.size() < sizeof start)
        return std::unexpected(Error{options.submissions, 0, 0,
                                     "the file is empty: there is nothing to grade yet (serve's attempt log stays "
                                     "empty until a student checks an answer)"});
    const bool attempt_log = first != std::string_view::npos && text[first] == '{';
    std::optional<CsvStream> csv;
    std::optional<serve::AttemptLogStream> jsonl;
    Result<std::vector<std::string>> header = serve::AttemptLogStream::header();
    if (attempt_log) {
        jsonl.emplace(in, options.submissions, k_max_submissions_bytes);
    } else {
        csv.emplace(in, options.submissions, k_max_submissions_bytes);
        header = csv->header();
    }
    if (!header)
        return std::unexpected(header.error());
    grade::ClassGrader grader(*problems, std::move(lookup), *scope);
    if (auto ok = grader.set_header(*header, options.submissions); !ok)
        return std::unexpected(ok.error());

    const bool gradescope = options.format == "gradescope";
    std::optional<Staging> staging;
    std::ofstream log;
    std::optional<grade::ResultsLog> results_log;
    if (!gradescope) {
        auto created = Staging::create(options.out);
        if (!created)
            return std::unexpected(created.error());
        staging.emplace(std::move(*created));
        // Refused now rather than after grading: an output that may not be replaced (an instructor's own folder).
        for (const auto& [name, folder] : {std::pair<std::string, bool>{"results.jsonl", false}, {"gradebook.csv", false},
                                           {"report.md", false}, {"charts", true}, {"feedback", true},
                                           {"report.html", false}, {"katex", true}})
            if (auto ok = staging->may_replace(name, folder); !ok)
                return std::unexpected(ok.error());
        log.open(staging->dir() / "results.partial", std::ios::binary);
        results_log.emplace(log);
    }
    // One pass: each row is graded and logged as it is read; only per-student state is kept.
    for (;;) {
        auto record = csv ? csv->next() : jsonl->next();
        if (!record)
            return std::unexpected(record.error());
        if (!*record)
            break;
        const grade::RowResult& row = grader.add(std::move(**record));
        if (results_log)
            results_log->write(row);
    }
    std::vector<grade::Superseded> superseded = grader.superseded();
    const grade::ClassResults results = grader.finish();

    if (gradescope) {
        if (results.students() > 1)
            return std::unexpected(Error{options.submissions, 0, 0,
                                         fmt::format("--format gradescope grades one student's submission; this file "
                                                     "has {} students",
                                                     results.students())});
        auto json = grade::gradescope_results(results, 0, *templates, options.reveal);
        if (!json)
            return std::unexpected(json.error());
        if (auto ok = ensure_directory(options.out); !ok)
            return std::unexpected(ok.error());
        if (auto ok = write_file_atomic(fs::path(options.out) / "results.json", json->dump(2) + "\n"); !ok)
            return std::unexpected(ok.error());
    } else {
        const fs::path dir = staging->dir();
        log.close();
        {
            std::ifstream partial(dir / "results.partial", std::ios::binary);
            std::ofstream final(dir / "results.jsonl", std::ios::binary);
            if (auto ok = grade::mark_superseded(partial, final, std::move(superseded)); !ok || !final.flush())
                return std::unexpected(Error{(fs::path(options.out) / "results.jsonl").string(), 0, 0,
                                             "cannot write the file"});
        }
        fs::remove(dir / "results.partial");
        {
            std::ofstream gradebook(dir / "gradebook.csv", std::ios::binary);
            grade::write_gradebook(results, gradebook);
            if (!gradebook.flush())
                return std::unexpected(Error{(fs::path(options.out) / "gradebook.csv").string(), 0, 0,
                                             "cannot write the file"});
        }
        std::optional<render::KatexAssets> katex;
        if (options.html) {
            auto loaded = render::load_katex();
            if (!loaded)
                return std::unexpected(loaded.error());
            katex = std::move(*loaded);
        }
        const render::KatexLink report_katex{nullptr, "katex"};
        auto report = grade::class_report(results, *templates, katex ? &report_katex : nullptr);
        if (!report)
            return std::unexpected(report.error());
        if (auto ok = write_new_file(dir / "report.md", report->markdown); !ok)
            return std::unexpected(ok.error());
        auto charts = staging->folder("charts");
        if (!charts)
            return std::unexpected(charts.error());
        OutputFiles pictures;
        for (const auto& [name, svg] : report->charts)
            pictures.emplace_back(*charts / name, svg);
        std::vector<std::string> entries{"results.jsonl", "gradebook.csv", "report.md", "charts"};
        std::vector<std::string> removed;
        if (katex) {
            if (auto ok = write_new_file(dir / "report.html", report->html); !ok)
                return std::unexpected(ok.error());
            auto folder = staging->folder("katex");
            if (!folder)
                return std::unexpected(folder.error());
            const OutputFiles assets = render::katex_folder(*katex, *folder);
            pictures.insert(pictures.end(), assets.begin(), assets.end());
            entries.insert(entries.end(), {"report.html", "katex"});
        } else {
            removed.insert(removed.end(), {"report.html", "katex"}); // an older run's pages would not match
        }
        if (auto ok = write_files(pictures); !ok)
            return std::unexpected(ok.error());
        if (options.feedback == "files") {
            const unsigned threads = options.threads ? options.threads : std::min(8u, std::thread::hardware_concurrency());
            auto folder = staging->folder("feedback");
            if (!folder)
                return std::unexpected(folder.error());
            if (auto ok = write_feedback(results, *templates, options.reveal, *folder, threads, options.html); !ok)
                return std::unexpected(ok.error());
            entries.push_back("feedback");
        } else {
            removed.push_back("feedback"); // an older run's files would not match these results
        }
        if (auto ok = staging->commit(entries, removed); !ok)
            return std::unexpected(ok.error());
    }
    const std::uint64_t rejected = results.rejected().size();
    fmt::print(stderr, "headcount: {} row{} in: {} graded, {} rejected, {} superseded; {} student{}; wrote {}\n",
               results.rows, results.rows == 1 ? "" : "s", results.graded, rejected, results.superseded,
               results.students(), results.students() == 1 ? "" : "s", options.out);
    return k_exit_ok;
}

} // namespace

Command add_grade_command(CLI::App& app) {
    auto options = std::make_shared<GradeOptions>();
    CLI::App* grade = app.add_subcommand("grade", "Grade a class's answers (a CSV or serve's attempt log) and write gradebook, feedback "
                                                  "and a class report.");
    grade->add_option("specs", options->specs, "Problem spec files (.yaml) or directories of them")->required();
    grade->add_option("--submissions", options->submissions,
                      "CSV with a header row and columns student, problem, part, answer (others ignored), or the "
                      "attempt log of `headcount serve --log` (each student's latest attempt at a part counts)")
        ->required();
    grade->add_option("--out", options->out,
                      "Output directory: gradebook.csv, results.jsonl, report.md, feedback/STUDENT.md "
                      "(with --format gradescope: results.json)")
        ->required();
    grade->add_option("--format", options->format,
                      "class (default): files for the whole class; gradescope: one student's results.json")
        ->check(CLI::IsMember({"class", "gradescope"}));
    grade->add_option("--problems", options->problems,
                      "Grade these problems (ids, comma-separated); default: those the submissions name (gradescope: "
                      "every spec given)");
    grade->add_option("--feedback", options->feedback,
                      "files (default): a feedback file per student; none: only gradebook, results and report")
        ->check(CLI::IsMember({"files", "none"}));
    grade->add_flag("--html", options->html,
                    "Also write report.html and feedback/STUDENT.html: printable pages with the math typeset by KaTeX "
                    "(copied into OUT/katex) and the charts drawn in them");
    grade->add_option("--threads", options->threads, "Threads that write feedback files (default: the machine's "
                                                     "cores, at most 8); the files are the same for any number")
        ->check(CLI::Range(1u, 64u));
    auto* seed = grade->add_option("--seed", options->seed,
                                   "Grade each student against their own variant from `headcount generate --seed`");
    auto* roster = grade->add_option("--roster", options->roster, "The roster the variants were generated for");
    seed->needs(roster);
    roster->needs(seed);
    grade->add_option("--key", options->key,
                      "Grade each student against their row of a key.csv from `headcount generate` (instead of "
                      "--seed and --roster); their numbers are recovered from the spec's variants")
        ->excludes(seed);
    grade->add_flag("--reveal", options->reveal,
                    "Feedback in full, expected values included, whatever the specs' feedback policy (default: each "
                    "part's policy, hints unless the spec says otherwise)");
    grade->add_option("--templates", options->templates, k_templates_help);
    grade->footer("Every input row is graded or rejected with a reason (see results.jsonl); a repeated "
                  "(student, problem, part) counts on its last row. The files appear together when grading is done: "
                  "an error or an interrupted run leaves the previous ones as they were. Exit status: 0 graded, 2 bad "
                  "input or usage.");
    return {grade, [options] { return run_grade(*options); }};
}

} // namespace headcount::cli

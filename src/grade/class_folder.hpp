#pragma once
// The folder `grade` writes for a class, OUT: results.jsonl, gradebook.csv, report.md and charts/, feedback/ (one
// file per student), and with html report.html and katex/. Made in a staging folder beside OUT and put in place
// together when grading is done, so an error or an interrupted run leaves an older run's files as they were
// (util/staging.hpp). Also Gradescope's results.json, the folder of a class of one.

#include <grade/class_grading.hpp>
#include <grade/results_log.hpp>
#include <render/templates.hpp>
#include <util/staging.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace headcount::grade {

/// What goes into a class's folder besides results, gradebook and report.
struct ClassFolderOptions {
    bool feedback_files = true; ///< feedback/STUDENT.md for every student; false: none (an older run's are removed)
    bool html = false;          ///< also report.html and feedback/STUDENT.html, with KaTeX copied into katex/
    bool reveal = false;        ///< feedback in full, expected values included, whatever the specs' policy
    unsigned threads = 1;       ///< threads that write the feedback files (the files are the same for any number)
};

/// A class's folder being written: rows are logged as they are graded, the rest when the class is finished.
class ClassFolder {
  public:
    /// Starts OUT (`out`). Errors, before any grading: the staging folder cannot be made, or OUT holds something by
    /// one of our names that may not be replaced (an instructor's own folder).
    static Result<std::unique_ptr<ClassFolder>> open(const std::filesystem::path& out);

    /// Appends the row's line to results.jsonl.
    void record(const RowResult& row) { m_log->write(row); }

    /// Writes everything else for the finished class (`superseded`: grader.superseded()) and puts it all in OUT at
    /// once. Errors name the file that could not be written.
    Result<void> finish(const ClassResults& results, std::vector<Superseded> superseded,
                        const render::TemplateSet& templates, const ClassFolderOptions& options);

  private:
    ClassFolder(std::filesystem::path out, Staging staging) : m_out(std::move(out)), m_staging(std::move(staging)) {}
    std::filesystem::path m_out;
    Staging m_staging;
    std::ofstream m_partial; ///< results.jsonl as rows come, superseded ones not yet marked
    std::optional<ResultsLog> m_log;
};

/// Gradescope's results.json for a class of one student (none: a submission without a row), in the folder `out`
/// (created if missing). Errors: more than one student (`submissions` names the file), or it cannot be written.
Result<void> write_gradescope_results(const ClassResults& results, const render::TemplateSet& templates, bool reveal,
                                      const std::filesystem::path& out, const std::string& submissions);

} // namespace headcount::grade

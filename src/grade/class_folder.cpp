#include <grade/class_folder.hpp>

#include <grade/class_reports.hpp>
#include <grade/feedback_files.hpp>
#include <render/katex.hpp>
#include <util/files.hpp>
#include <util/new_files.hpp>

#include <fmt/format.h>

#include <utility>

namespace headcount::grade {

namespace fs = std::filesystem;

Result<std::unique_ptr<ClassFolder>> ClassFolder::open(const fs::path& out) {
    auto staging = Staging::create(out);
    if (!staging)
        return std::unexpected(staging.error());
    for (const auto& [name, folder] : {std::pair<std::string, bool>{"results.jsonl", false},
                                       {"gradebook.csv", false},
                                       {"report.md", false},
                                       {"charts", true},
                                       {"feedback", true},
                                       {"report.html", false},
                                       {"katex", true}})
        if (auto ok = staging->may_replace(name, folder); !ok)
            return std::unexpected(ok.error());
    std::unique_ptr<ClassFolder> folder(new ClassFolder(out, std::move(*staging)));
    folder->m_partial.open(folder->m_staging.dir() / "results.partial", std::ios::binary);
    folder->m_log.emplace(folder->m_partial);
    return folder;
}

Result<void> ClassFolder::finish(const ClassResults& results, std::vector<Superseded> superseded,
                                 const render::TemplateSet& templates, const ClassFolderOptions& options) {
    const fs::path dir = m_staging.dir();
    const auto cannot_write = [&](const char* name) {
        return std::unexpected(Error{(m_out / name).string(), 0, 0, "cannot write the file"});
    };
    m_partial.close();
    {
        std::ifstream partial(dir / "results.partial", std::ios::binary);
        std::ofstream final(dir / "results.jsonl", std::ios::binary);
        if (auto ok = mark_superseded(partial, final, std::move(superseded)); !ok || !final.flush())
            return cannot_write("results.jsonl");
    }
    fs::remove(dir / "results.partial");
    {
        std::ofstream gradebook(dir / "gradebook.csv", std::ios::binary);
        write_gradebook(results, gradebook);
        if (!gradebook.flush())
            return cannot_write("gradebook.csv");
    }
    std::optional<render::KatexAssets> katex;
    if (options.html) {
        auto loaded = render::load_katex();
        if (!loaded)
            return std::unexpected(loaded.error());
        katex = std::move(*loaded);
    }
    const render::KatexLink report_katex{nullptr, "katex"};
    auto report = class_report(results, templates, katex ? &report_katex : nullptr);
    if (!report)
        return std::unexpected(report.error());
    if (auto ok = write_new_file(dir / "report.md", report->markdown); !ok)
        return std::unexpected(ok.error());
    auto charts = m_staging.folder("charts");
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
        auto folder = m_staging.folder("katex");
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
    if (options.feedback_files) {
        auto folder = m_staging.folder("feedback");
        if (!folder)
            return std::unexpected(folder.error());
        if (auto ok = write_feedback_files(results, templates, options.reveal, *folder, options.threads, options.html);
            !ok)
            return std::unexpected(ok.error());
        entries.push_back("feedback");
    } else {
        removed.push_back("feedback"); // an older run's files would not match these results
    }
    return m_staging.commit(entries, removed);
}

Result<void> write_gradescope_results(const ClassResults& results, const render::TemplateSet& templates, bool reveal,
                                      const fs::path& out, const std::string& submissions) {
    if (results.students() > 1)
        return std::unexpected(Error{submissions, 0, 0,
                                     fmt::format("--format gradescope grades one student's submission; this file "
                                                 "has {} students",
                                                 results.students())});
    auto json = gradescope_results(results, 0, templates, reveal);
    if (!json)
        return std::unexpected(json.error());
    if (auto ok = ensure_directory(out); !ok)
        return std::unexpected(ok.error());
    return write_file_atomic(out / "results.json", json->dump(2) + "\n");
}

} // namespace headcount::grade

#include <util/zip.hpp>

#include <fmt/format.h>

#include <zip.h>

#include <cstring>
#include <ctime>
#include <memory>
#include <set>

namespace headcount {

namespace {

/// 1980-01-01 00:00 local time, which is what a zip's DOS timestamp stores for this date in every time zone.
std::time_t zip_epoch() {
    std::tm date{};
    date.tm_year = 80;
    date.tm_mday = 1;
    date.tm_isdst = 0;
    return std::mktime(&date);
}

std::string name_problem(const std::string& name) {
    if (name.empty() || name.front() == '/')
        return "is empty or absolute";
    std::size_t start = 0;
    while (start <= name.size()) {
        const std::size_t end = std::min(name.find('/', start), name.size());
        if (name.compare(start, end - start, "..") == 0)
            return "has a '..' component";
        start = end + 1;
    }
    return {};
}

Error zip_error(std::string_view what, zip_t* archive) {
    return Error{{}, 0, 0, fmt::format("cannot write the zip archive ({}): {}", what, zip_strerror(archive))};
}

} // namespace

Result<std::string> zip_archive(const std::vector<ZipEntry>& entries) {
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* buffer = zip_source_buffer_create(nullptr, 0, 0, &error);
    if (!buffer)
        return std::unexpected(Error{{}, 0, 0, fmt::format("cannot start a zip archive: {}", zip_error_strerror(&error))});
    zip_source_keep(buffer); // the archive frees its reference on close; this one lets us read the bytes after
    std::unique_ptr<zip_source_t, decltype(&zip_source_free)> kept(buffer, zip_source_free);
    zip_t* archive = zip_open_from_source(buffer, ZIP_TRUNCATE, &error);
    if (!archive)
        return std::unexpected(Error{{}, 0, 0, fmt::format("cannot start a zip archive: {}", zip_error_strerror(&error))});

    std::set<std::string> names;
    const std::time_t epoch = zip_epoch();
    for (const ZipEntry& entry : entries) {
        if (const std::string why = name_problem(entry.name); !why.empty() || !names.insert(entry.name).second) {
            zip_discard(archive);
            return std::unexpected(Error{{}, 0, 0, fmt::format("zip entry '{}' {}", entry.name,
                                                               why.empty() ? "is added twice" : why)});
        }
        // libzip copies nothing until close: the entries' strings outlive the archive, so no copy is needed.
        zip_source_t* source = zip_source_buffer(archive, entry.content.data(), entry.content.size(), 0);
        if (!source) {
            zip_discard(archive);
            return std::unexpected(zip_error("source", archive));
        }
        const zip_int64_t index = zip_file_add(archive, entry.name.c_str(), source, ZIP_FL_ENC_UTF_8);
        if (index < 0) {
            zip_source_free(source);
            const Error e = zip_error(entry.name, archive);
            zip_discard(archive);
            return std::unexpected(e);
        }
        const auto i = static_cast<zip_uint64_t>(index);
        const zip_uint32_t mode = (entry.executable ? 0100755u : 0100644u) << 16;
        if (zip_file_set_mtime(archive, i, epoch, 0) < 0 ||
            zip_file_set_external_attributes(archive, i, 0, ZIP_OPSYS_UNIX, mode) < 0 ||
            zip_set_file_compression(archive, i, ZIP_CM_DEFLATE, 9) < 0) {
            const Error e = zip_error(entry.name, archive);
            zip_discard(archive);
            return std::unexpected(e);
        }
    }
    if (zip_close(archive) < 0) {
        const Error e = zip_error("close", archive);
        zip_discard(archive);
        return std::unexpected(e);
    }

    zip_stat_t stat;
    if (zip_source_stat(buffer, &stat) < 0 || zip_source_open(buffer) < 0)
        return std::unexpected(Error{{}, 0, 0, "cannot read back the zip archive"});
    std::string bytes(static_cast<std::size_t>(stat.size), '\0');
    const zip_int64_t read = zip_source_read(buffer, bytes.data(), stat.size);
    zip_source_close(buffer);
    if (read < 0 || static_cast<zip_uint64_t>(read) != stat.size)
        return std::unexpected(Error{{}, 0, 0, "cannot read back the zip archive"});
    return bytes;
}

} // namespace headcount

#pragma once
// Zip archives written in memory (deflated by zlib), reproducibly: entries in the order given, every timestamp the
// same fixed date, deflated at a fixed level, so the same files give the same bytes.

#include <util/error.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace headcount {

/// One file of an archive.
struct ZipEntry {
    std::string name;        ///< path inside the archive, '/'-separated, relative ("a/b.xml")
    std::string content;     ///< bytes
    bool executable = false; ///< Unix mode 0755 rather than 0644 (scripts a platform runs, e.g. run_autograder)
};

/// A zip archive holding `entries` in this order, each dated 1980-01-01 00:00 (zip's earliest date; no build date
/// leaks in) with Unix permissions, as bytes. A name that is empty, absolute, has a ".." component or repeats one
/// already added is an error, as is an archive past zip's 32-bit limits (4 GiB, 65,535 entries).
Result<std::string> zip_archive(const std::vector<ZipEntry>& entries);

/// `content` as a gzip file (RFC 1952) deflated at level 9, its header's time 0: the same bytes every time.
Result<std::string> gzipped(std::string_view content);

} // namespace headcount

#include <util/zip.hpp>

#include <fmt/format.h>

#include <zlib.h>

#include <cstdint>
#include <limits>
#include <set>

// The archive is written by hand, as PKWARE's APPNOTE.TXT describes it (sections 4.3.7, 4.3.12, 4.3.16): a local
// header and the deflated bytes per entry, then the central directory and its end record. zlib does the deflating
// and the CRC-32. Only what headcount's archives need is written: no ZIP64 (an entry or archive over 4 GiB, or more
// than 65,535 entries, is an error), no encryption, no comments.

namespace headcount {

namespace {

constexpr std::uint16_t k_version = 20;            // 2.0: deflate; what "version needed to extract" says
constexpr std::uint16_t k_made_by = (3 << 8) | 20; // 3: Unix, so the external attributes carry a Unix mode
constexpr std::uint16_t k_utf8_names = 1 << 11;    // general purpose bit 11: names are UTF-8
constexpr std::uint16_t k_deflate = 8;
constexpr std::uint16_t k_dos_date_1980_01_01 = (0 << 9) | (1 << 5) | 1; // years since 1980, month, day
constexpr std::uint16_t k_dos_time_midnight = 0;

void put16(std::string& out, std::uint16_t v) {
    out.push_back(static_cast<char>(v & 0xff));
    out.push_back(static_cast<char>(v >> 8));
}

void put32(std::string& out, std::uint32_t v) {
    for (int shift = 0; shift < 32; shift += 8)
        out.push_back(static_cast<char>((v >> shift) & 0xff));
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

/// `content` deflated at level 9: a raw stream (window_bits -15, for zip entries) or a gzip file (15 + 16).
Result<std::string> deflated(std::string_view content, int window_bits = -15) {
    z_stream stream{};
    if (deflateInit2(&stream, 9, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return fail("cannot write the zip archive: zlib could not start");
    std::string out(deflateBound(&stream, static_cast<uLong>(content.size())), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(content.data()));
    stream.avail_in = static_cast<uInt>(content.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int status = deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    if (status != Z_STREAM_END)
        return fail("cannot write the zip archive: zlib could not deflate an entry");
    return out;
}

/// The fields local and central headers share, from "version needed to extract" to "extra field length".
void put_common(std::string& out, std::uint32_t crc, std::size_t compressed, std::size_t size,
                std::size_t name_length) {
    put16(out, k_version);
    put16(out, k_utf8_names);
    put16(out, k_deflate);
    put16(out, k_dos_time_midnight);
    put16(out, k_dos_date_1980_01_01);
    put32(out, crc);
    put32(out, static_cast<std::uint32_t>(compressed));
    put32(out, static_cast<std::uint32_t>(size));
    put16(out, static_cast<std::uint16_t>(name_length));
    put16(out, 0); // extra field length
}

} // namespace

Result<std::string> gzipped(std::string_view content) { return deflated(content, 15 + 16); }

Result<std::string> zip_archive(const std::vector<ZipEntry>& entries) {
    constexpr std::size_t k_max32 = std::numeric_limits<std::uint32_t>::max();
    // 0xFFFF and 0xFFFFFFFF in the end record or a header mean "see the ZIP64 record" (APPNOTE 4.4.1.4): the
    // largest values written are one less.
    if (entries.size() >= std::numeric_limits<std::uint16_t>::max())
        return fail("cannot write the zip archive: 65,535 entries or more");
    std::set<std::string> names;
    std::string archive;
    std::string directory;
    for (const ZipEntry& entry : entries) {
        if (const std::string why = name_problem(entry.name); !why.empty() || !names.insert(entry.name).second)
            return fail(fmt::format("zip entry '{}' {}", entry.name, why.empty() ? "is added twice" : why));
        if (entry.name.size() > std::numeric_limits<std::uint16_t>::max() || entry.content.size() > k_max32 / 2)
            return fail(fmt::format("zip entry '{}' is too large", entry.name));
        auto data = deflated(entry.content);
        if (!data)
            return std::unexpected(data.error());
        const auto crc =
            static_cast<std::uint32_t>(crc32(crc32(0, nullptr, 0), reinterpret_cast<const Bytef*>(entry.content.data()),
                                             static_cast<uInt>(entry.content.size())));
        const std::size_t offset = archive.size();
        if (offset >= k_max32 - 30 - entry.name.size() - data->size())
            return fail("cannot write the zip archive: it would pass 4 GiB");

        put32(archive, 0x04034b50); // local file header
        put_common(archive, crc, data->size(), entry.content.size(), entry.name.size());
        archive += entry.name;
        archive += *data;

        put32(directory, 0x02014b50); // central directory file header
        put16(directory, k_made_by);
        put_common(directory, crc, data->size(), entry.content.size(), entry.name.size());
        put16(directory, 0);                                              // file comment length
        put16(directory, 0);                                              // disk number start
        put16(directory, 0);                                              // internal file attributes
        put32(directory, (entry.executable ? 0100755u : 0100644u) << 16); // external: regular file, Unix mode
        put32(directory, static_cast<std::uint32_t>(offset));
        directory += entry.name;
    }
    if (archive.size() + directory.size() >= k_max32 - 22)
        return fail("cannot write the zip archive: it would pass 4 GiB");
    const auto directory_offset = static_cast<std::uint32_t>(archive.size());
    archive += directory;
    put32(archive, 0x06054b50); // end of central directory record
    put16(archive, 0);          // number of this disk
    put16(archive, 0);          // disk where the central directory starts
    put16(archive, static_cast<std::uint16_t>(entries.size()));
    put16(archive, static_cast<std::uint16_t>(entries.size()));
    put32(archive, static_cast<std::uint32_t>(directory.size()));
    put32(archive, directory_offset);
    put16(archive, 0); // comment length
    return archive;
}

} // namespace headcount

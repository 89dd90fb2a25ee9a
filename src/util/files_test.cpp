#include <util/files.hpp>

#include <util/test_catch.hpp>

#include <fstream>
#include <unistd.h>

using namespace headcount;

namespace {

std::filesystem::path file_with(const std::string& name, const std::string& content) {
    const auto dir = std::filesystem::temp_directory_path() / ("headcount-files-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / name, std::ios::binary) << content;
    return dir / name;
}

} // namespace

TEST_CASE("read_file_capped reads a file up to its cap and refuses more", "[files][hostile]") {
    const auto exact = file_with("exact.txt", std::string(100, 'a'));
    CHECK(read_file_capped(exact, 100, "the roster").value() == std::string(100, 'a'));
    // One byte over is refused, with the cap and the file's role in the message.
    const auto over = file_with("over.txt", std::string(101, 'a'));
    CHECK(read_file_capped(over, 100, "the roster").error().to_string() ==
          over.string() + ": the roster is larger than 100 bytes, the most headcount reads");
    // Larger than one read chunk (64 KiB), below the cap: read whole.
    const auto big = file_with("big.txt", std::string(200'000, 'b'));
    CHECK(read_file_capped(big, 1024 * 1024, "the spec file").value().size() == 200'000);
}

TEST_CASE("an endless file is refused at its cap (defect 5)", "[files][hostile]") {
    // /dev/zero has no size to check first: only reading stops it.
    CHECK(read_file_capped("/dev/zero", 64 * 1024 * 1024, "the key").error().to_string() ==
          "/dev/zero: the key is larger than 64 MiB, the most headcount reads");
}

TEST_CASE("an unreadable file says why", "[files]") {
    CHECK(read_file_capped("/nonexistent/x.csv", 10, "the roster").error().to_string() ==
          "/nonexistent/x.csv: cannot read the roster: No such file or directory");
    CHECK(read_file_capped(std::filesystem::temp_directory_path(), 10, "the roster").error().message ==
          "cannot read the roster: Is a directory");
}

TEST_CASE("caps are stated in the unit they were written in", "[files]") {
    CHECK(describe_cap(64 * 1024 * 1024) == "64 MiB");
    CHECK(describe_cap(512 * 1024) == "512 KiB");
    CHECK(describe_cap(1000) == "1000 bytes");
    CHECK(describe_cap(1) == "1 byte");
}

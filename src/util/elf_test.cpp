// ELF headers built by hand from the System V ABI's tables (ELF-64 header 64 bytes, program headers 56), and the
// test program itself, which is linked dynamically.
#include <util/elf.hpp>

#include <util/test_catch.hpp>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <vector>

using namespace headcount;

namespace {

struct Segment {
    std::uint32_t type;
    std::uint64_t offset, size;
};

void put(std::string& bytes, std::size_t at, std::uint64_t value, std::size_t width) {
    for (std::size_t i = 0; i < width; ++i)
        bytes[at + i] = static_cast<char>(value >> (8 * i) & 0xff);
}

/// An ELF-64 little-endian header of `type` for `machine`, its program headers right after it, `total` bytes long,
/// with a section header table said to start at `section_headers`.
std::string elf(std::uint16_t type, std::uint16_t machine, const std::vector<Segment>& segments, std::size_t total,
                std::uint64_t section_headers = 0) {
    std::string bytes(total, 'x');
    bytes.replace(0, 16,
                  std::string("\x7f"
                              "ELF\x02\x01\x01",
                              7) +
                      std::string(9, '\0'));
    put(bytes, 16, type, 2);
    put(bytes, 18, machine, 2);
    put(bytes, 32, 64, 8); // e_phoff
    put(bytes, 40, section_headers, 8);
    put(bytes, 54, 56, 2);
    put(bytes, 56, segments.size(), 2);
    put(bytes, 60, section_headers ? 30 : 0, 2); // e_shnum
    put(bytes, 62, section_headers ? 29 : 0, 2); // e_shstrndx
    for (std::size_t i = 0; i < segments.size(); ++i) {
        put(bytes, 64 + 56 * i, segments[i].type, 4);
        put(bytes, 64 + 56 * i + 8, segments[i].offset, 8);
        put(bytes, 64 + 56 * i + 32, segments[i].size, 8);
    }
    return bytes;
}

constexpr std::uint16_t k_exec = 2, k_dyn = 3, k_x86_64 = 62, k_aarch64 = 183;
constexpr std::uint32_t k_load = 1, k_interp = 3, k_note = 4;

} // namespace

TEST_CASE("a static x86-64 program is accepted; a dynamic one names its loader", "[elf]") {
    CHECK_FALSE(not_a_static_x86_64_program(elf(k_exec, k_x86_64, {{k_load, 0, 4096}}, 4096)));
    CHECK_FALSE(not_a_static_x86_64_program(elf(k_dyn, k_x86_64, {{k_load, 0, 4096}}, 4096))); // static PIE
    std::string dynamic = elf(k_dyn, k_x86_64, {{k_interp, 1000, 28}, {k_load, 0, 4096}}, 4096);
    dynamic.replace(1000, 28, std::string("/lib64/ld-linux-x86-64.so.2\0", 28));
    CHECK(not_a_static_x86_64_program(dynamic) ==
          "is linked dynamically: it needs /lib64/ld-linux-x86-64.so.2 and shared libraries");
    CHECK(not_a_static_x86_64_program(elf(k_exec, k_aarch64, {{k_load, 0, 4096}}, 4096)) == "is not an x86-64 program");
    CHECK(not_a_static_x86_64_program(elf(1, k_x86_64, {}, 4096)) == "is not an executable program"); // ET_REL
    CHECK(not_a_static_x86_64_program("#!/bin/sh\necho hello\n") == "is not a program (no ELF header)");
    CHECK(not_a_static_x86_64_program(elf(k_exec, k_x86_64, {{k_load, 0, 4096}}, 4096).substr(0, 100)) ==
          "has a malformed ELF header (its program headers lie outside the file)");
}

TEST_CASE("the test program itself is linked dynamically", "[elf]") {
    std::ifstream self("/proc/self/exe", std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(self), {}};
    const auto problem = not_a_static_x86_64_program(bytes);
    REQUIRE(problem);
    CHECK(problem->starts_with("is linked dynamically: it needs /lib"));
}

TEST_CASE("loaded_part keeps what the segments load and drops the section headers after them", "[elf]") {
    // Segments end at 6000 (the note inside the first load; the second load ends last); debug sections and the
    // section header table follow, up to 10000.
    const std::string program =
        elf(k_exec, k_x86_64, {{k_load, 0, 4096}, {k_note, 512, 64}, {k_load, 4096, 1904}}, 10000, 9000);
    const std::string cut = loaded_part(program);
    REQUIRE(cut.size() == 6000);
    CHECK(cut.substr(64) == program.substr(64, 6000 - 64));
    CHECK(cut.substr(0, 40) == program.substr(0, 40));
    CHECK(cut.substr(40, 8) == std::string(8, '\0')); // e_shoff
    CHECK(cut.substr(48, 12) == program.substr(48, 12));
    CHECK(cut.substr(60, 4) == std::string(4, '\0')); // e_shnum, e_shstrndx
    // Nothing after the segments: unchanged. A segment past the end, or no ELF header: unchanged too.
    const std::string whole = elf(k_exec, k_x86_64, {{k_load, 0, 4096}}, 4096);
    CHECK(loaded_part(whole) == whole);
    const std::string past = elf(k_exec, k_x86_64, {{k_load, 0, 8192}}, 4096);
    CHECK(loaded_part(past) == past);
    CHECK(loaded_part("not a program") == "not a program");
}

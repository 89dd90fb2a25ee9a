#include <util/elf.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

// Offsets are those of the ELF-64 header and program header (System V ABI, "Object Files"): e_type at 16,
// e_machine 18, e_phoff 32, e_shoff 40, e_phentsize 54, e_phnum 56, e_shnum 60, e_shstrndx 62; a program header's
// p_type at 0, p_offset 8, p_filesz 32.

namespace headcount {

namespace {

constexpr std::size_t k_header_bytes = 64;
constexpr std::size_t k_program_header_bytes = 56;
constexpr std::uint16_t k_executable = 2, k_shared_object = 3; // e_type: ET_EXEC, ET_DYN (a PIE)
constexpr std::uint16_t k_x86_64 = 62;                         // e_machine: EM_X86_64
constexpr std::uint32_t k_interpreter = 3;                     // p_type: PT_INTERP

std::uint64_t little_endian(std::string_view bytes, std::size_t at, std::size_t width) {
    std::uint64_t value = 0;
    for (std::size_t i = width; i-- > 0;)
        value = value << 8 | static_cast<unsigned char>(bytes[at + i]);
    return value;
}

void put_zeros(std::string& bytes, std::size_t at, std::size_t width) { std::fill_n(bytes.begin() + at, width, '\0'); }

/// The program headers' extent, or why they are not all inside `program`.
struct ProgramHeaders {
    std::uint64_t offset = 0;
    std::uint64_t count = 0;
};

std::optional<std::string> header_problem(std::string_view program, ProgramHeaders& headers) {
    if (program.size() < k_header_bytes || !program.starts_with("\x7f"
                                                                "ELF"))
        return "is not a program (no ELF header)";
    if (program[4] != 2 || program[5] != 1)
        return "is not a 64-bit little-endian program";
    const auto type = little_endian(program, 16, 2);
    if (type != k_executable && type != k_shared_object)
        return "is not an executable program";
    if (little_endian(program, 18, 2) != k_x86_64)
        return "is not an x86-64 program";
    headers.offset = little_endian(program, 32, 8);
    headers.count = little_endian(program, 56, 2);
    if (little_endian(program, 54, 2) != k_program_header_bytes || headers.offset > program.size() ||
        headers.count > (program.size() - headers.offset) / k_program_header_bytes)
        return "has a malformed ELF header (its program headers lie outside the file)";
    return std::nullopt;
}

} // namespace

std::optional<std::string> not_a_static_x86_64_program(std::string_view program) {
    ProgramHeaders headers;
    if (auto problem = header_problem(program, headers))
        return problem;
    for (std::uint64_t i = 0; i < headers.count; ++i) {
        const std::size_t at = headers.offset + i * k_program_header_bytes;
        if (little_endian(program, at, 4) != k_interpreter)
            continue;
        const auto offset = little_endian(program, at + 8, 8), size = little_endian(program, at + 32, 8);
        std::string_view loader = offset < program.size() ? program.substr(offset, size) : std::string_view();
        loader = loader.substr(0, loader.find('\0'));
        return fmt::format("is linked dynamically: it needs {} and shared libraries",
                           loader.empty() ? "a dynamic loader" : loader);
    }
    return std::nullopt;
}

std::string loaded_part(std::string program) {
    ProgramHeaders headers;
    if (header_problem(program, headers))
        return program;
    std::uint64_t end =
        std::max<std::uint64_t>(k_header_bytes, headers.offset + headers.count * k_program_header_bytes);
    for (std::uint64_t i = 0; i < headers.count; ++i) {
        const std::size_t at = headers.offset + i * k_program_header_bytes;
        const auto offset = little_endian(program, at + 8, 8), size = little_endian(program, at + 32, 8);
        if (offset > program.size() || size > program.size() - offset)
            return program; // a segment past the end: not a program to cut
        end = std::max(end, offset + size);
    }
    if (end >= program.size())
        return program;
    program.resize(end);
    put_zeros(program, 40, 8); // e_shoff
    put_zeros(program, 60, 4); // e_shnum, e_shstrndx
    return program;
}

} // namespace headcount

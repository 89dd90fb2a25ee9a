#pragma once
// Just enough of an ELF program's header (the System V ABI's ELF-64 format, little-endian) to ship a program
// somewhere else: whether it runs without a dynamic loader or any library, and the part of it the kernel loads.

#include <optional>
#include <string>
#include <string_view>

namespace headcount {

/// Why `program` would not run alone on an x86-64 Linux machine, in words ("is linked dynamically: it needs
/// /lib64/ld-linux-x86-64.so.2 and shared libraries"); nullopt when it is a static ELF-64 x86-64 executable (no
/// PT_INTERP program header: static PIE included). Truncated or malformed headers are a reason too.
std::optional<std::string> not_a_static_x86_64_program(std::string_view program);

/// `program` (which not_a_static_x86_64_program accepts) cut after the last byte a program header names, with its
/// section header table dropped (e_shoff, e_shnum, e_shstrndx zeroed): what `sstrip` keeps. The kernel and a static
/// C library's start-up read program headers only, so it runs as before; debugging sections and the symbol table,
/// which follow the loaded segments, are gone. A program with nothing after its segments is returned unchanged.
std::string loaded_part(std::string program);

} // namespace headcount

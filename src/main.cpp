#include <cli/app.hpp>

// Only in the static program, whose malloc is glibc's: a sanitizer's or valgrind's allocator is not grown this way,
// and those builds are not for speed.
#ifdef HEADCOUNT_STATIC_PROGRAM
#include <elf.h>
#include <link.h>
#include <malloc.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace {

// A student's `check` and a Makefile's `solve` are processes of a few milliseconds, and on a VM most of that is page
// faults: each costs ~10-20 µs, and a start takes ~100 of them (scripts/bench-check prints the count). Asking the
// kernel for the pages in one call per region costs ~0.15 µs a page for the program's own file (in the page cache)
// and ~2 µs for fresh memory. So before the constructors run, the program maps its own segments and a heap big enough
// for one check or solve. Only speed is at stake: where the kernel lacks MADV_POPULATE_* (Linux < 5.14) the calls
// fail and the pages fault in as before.
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

// A check touches ~120 KB of heap, a solve of a shipped problem 300-500 KB (week 3's ~340 KB): that much is made
// ready, and kept when freed (glibc's top pad), so that a trim does not hand it back.
constexpr std::size_t heap_reserve = 384 * 1024;

bool populate(std::uintptr_t begin, std::uintptr_t end, int advice) {
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  begin &= ~(page - 1);
  end = (end + page - 1) & ~(page - 1);
  return end > begin && madvise(reinterpret_cast<void*>(begin), end - begin, advice) == 0;
}

void prefault_startup_memory(int, char**, char**) {
  // The program's segments, from its own program headers (plus the load bias, which is 0 unless it was built as a
  // position-independent executable).
  const auto* phdrs = reinterpret_cast<const ElfW(Phdr)*>(getauxval(AT_PHDR));
  const auto count = static_cast<std::size_t>(getauxval(AT_PHNUM));
  std::uintptr_t bias = 0;
  for (std::size_t i = 0; i < count; ++i)
    if (phdrs[i].p_type == PT_PHDR) bias = reinterpret_cast<std::uintptr_t>(phdrs) - phdrs[i].p_vaddr;
  for (std::size_t i = 0; i < count; ++i) {
    const ElfW(Phdr)& segment = phdrs[i];
    if (segment.p_type != PT_LOAD) continue;
    const std::uintptr_t begin = bias + segment.p_vaddr;
    const std::uintptr_t end = begin + segment.p_memsz;
    // A writable segment may since have been made read-only (RELRO): then its pages are only read.
    if (!(segment.p_flags & PF_W) || !populate(begin, end, MADV_POPULATE_WRITE))
      populate(begin, end, MADV_POPULATE_READ);
  }
  // The heap: glibc's malloc has already made it ~132 KB long (the C library allocates before any constructor). It is
  // grown to heap_reserve by allocating blocks below the mmap threshold (128 KB) until the break moves, which with
  // the top pad set extends it by the pad at once; freed, they return to the top, which a trim now keeps.
  // Setting the pad also fixes glibc's mmap threshold at 128 KiB for the run (it no longer rises after a large free),
  // so a block of 128 KiB or more is always its own mapping. Counted with strace: 37 mmap calls while grading 1M rows,
  // 3 in `solve problems --format html`, so that costs nothing measurable.
  mallopt(M_TOP_PAD, heap_reserve);
  const auto heap_end = [] { return reinterpret_cast<std::uintptr_t>(sbrk(0)); };
  const std::uintptr_t heap_begin = heap_end() - mallinfo2().arena;
  void* blocks[4] = {};
  for (void*& block : blocks) {
    if (heap_end() - heap_begin >= heap_reserve) break;
    block = std::malloc(64 * 1024);
  }
  for (void* block : blocks) std::free(block);
  populate(heap_begin, std::min(heap_end(), heap_begin + heap_reserve), MADV_POPULATE_WRITE);
}

}  // namespace

// .preinit_array runs before every constructor, the C++ library's own included.
__attribute__((section(".preinit_array"), used)) void (*const headcount_prefault)(int, char**, char**) =
    prefault_startup_memory;
#endif

int main(int argc, char** argv) { return headcount::cli::headcount_main(argc, argv); }

// GMP's memory, kept in small lists of free blocks. Every value the formulas compute is a rational whose parts are
// a limb or two; a student's `check` computes some 12,000 of them (each mistake of the catalogue followed through
// the quantities it reaches), and GMP's default malloc/free of each was a quarter of the command's instructions
// (callgrind, week 3's problem). Blocks of one to four limbs are taken from and given back to a list per size,
// per thread; anything larger, and anything past the lists' bounds, is malloc's.

#include <formula/formula.hpp>

#include <gmp.h>

#include <array>
#include <cstdlib>
#include <cstring>

namespace headcount::formula {

namespace {

constexpr std::size_t k_limb = sizeof(mp_limb_t);
constexpr std::size_t k_classes = 4; // blocks of 1 to 4 limbs
constexpr std::size_t k_kept = 1024; // free blocks kept per size and thread

struct FreeBlock {
    FreeBlock* next;
};

struct FreeLists {
    std::array<FreeBlock*, k_classes + 1> head{};
    std::array<std::size_t, k_classes + 1> count{};

    ~FreeLists() {
        for (std::size_t c = 0; c < head.size(); ++c) {
            for (FreeBlock* block = head[c]; block;) {
                FreeBlock* next = block->next;
                std::free(block);
                block = next;
            }
            // A GMP value destroyed after this thread's lists (a static one, at exit) goes to malloc: none is
            // taken from a list that is gone, and none is kept in one.
            head[c] = nullptr;
            count[c] = k_kept;
        }
    }
};

thread_local FreeLists t_lists;

/// The list a block of `size` bytes belongs to, or 0 when it is not pooled. Only exact sizes are pooled (GMP asks
/// for whole limbs), so a block malloc gave before these functions were installed is reused only at its own size.
std::size_t class_of(std::size_t size) {
    return size % k_limb == 0 && size / k_limb >= 1 && size / k_limb <= k_classes ? size / k_limb : 0;
}

void* allocate(std::size_t size) {
    const std::size_t c = class_of(size);
    if (c != 0 && t_lists.head[c]) {
        FreeBlock* block = t_lists.head[c];
        t_lists.head[c] = block->next;
        --t_lists.count[c];
        return block;
    }
    void* block = std::malloc(size);
    if (!block)
        std::abort(); // as GMP's own allocator does: it cannot report a failure
    return block;
}

void release(void* pointer, std::size_t size) {
    const std::size_t c = class_of(size);
    if (c == 0 || t_lists.count[c] >= k_kept) {
        std::free(pointer);
        return;
    }
    auto* block = static_cast<FreeBlock*>(pointer);
    block->next = t_lists.head[c];
    t_lists.head[c] = block;
    ++t_lists.count[c];
}

void* reallocate(void* pointer, std::size_t old_size, std::size_t new_size) {
    if (class_of(old_size) == 0 && class_of(new_size) == 0) {
        void* block = std::realloc(pointer, new_size);
        if (!block)
            std::abort();
        return block;
    }
    void* block = allocate(new_size);
    std::memcpy(block, pointer, old_size < new_size ? old_size : new_size);
    release(pointer, old_size);
    return block;
}

} // namespace

void use_small_block_memory() {
    static const bool installed = [] {
        mp_set_memory_functions(allocate, reallocate, release);
        return true;
    }();
    (void)installed;
}

} // namespace headcount::formula

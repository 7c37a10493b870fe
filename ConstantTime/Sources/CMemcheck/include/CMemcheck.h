// Memcheck client requests for secret tracking (the ctgrind / TIMECOP method): a secret's
// bytes are marked undefined, so memcheck reports every branch and every memory index that
// depends on them; results are marked defined again (declassified) before they are used.
// Outside valgrind these are a few no-op instructions.
#ifndef CMEMCHECK_H
#define CMEMCHECK_H
#include <stddef.h>
#include <valgrind/memcheck.h>
#include "CCycles.h"

/// Marks `count` bytes at `address` secret (undefined to memcheck).
static inline void ct_mark_secret(const void *address, size_t count) {
    (void)VALGRIND_MAKE_MEM_UNDEFINED(address, count);
}

/// Marks `count` bytes at `address` public again (defined to memcheck).
static inline void ct_mark_public(const void *address, size_t count) {
    (void)VALGRIND_MAKE_MEM_DEFINED(address, count);
}

/// Nonzero under valgrind.
static inline unsigned ct_running_on_valgrind(void) {
    return RUNNING_ON_VALGRIND;
}

#endif

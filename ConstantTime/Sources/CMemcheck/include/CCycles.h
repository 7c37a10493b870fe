// A cycle counter for the dudect-style timing tool (Sources/mfa-ctgrind/Dudect.swift): the
// time-stamp counter on x86-64, the virtual counter on AArch64, via clang's builtin.
#ifndef CCYCLES_H
#define CCYCLES_H
#include <stdint.h>

/// The processor's cycle (or constant-rate tick) counter.
static inline uint64_t ct_cycles(void) {
    return (uint64_t)__builtin_readcyclecounter();
}

#endif

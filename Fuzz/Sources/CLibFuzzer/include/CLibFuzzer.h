// The one libFuzzer entry point the harness calls (compiler-rt's FuzzerInterface.h); the
// definition comes from the fuzzer runtime that -sanitize=fuzzer links.
#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif

// Start-up for the emulated Cortex-M4 board (QEMU mps2-an386): the vector table, the reset
// handler (zero .bss, open the semihosting handles, run the Swift firmware, exit through
// semihosting with its status), the clock the firmware times with, and the one allocator entry
// point Embedded Swift needs beyond newlib. C lives here, in Embedded/, never in the root package.
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

extern uint32_t _stack_top, _sbss, _ebss;
extern int firmware_main(void);
extern void initialise_monitor_handles(void);

// Semihosting call (ARM DUI 0471: BKPT 0xAB on M-profile).
static int semihost(int op, void *arg) {
    register int r0 __asm__("r0") = op;
    register void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

// SYS_CLOCK: centiseconds since the program started (QEMU's host clock).
int firmware_centiseconds(void) { return semihost(0x10, 0); }

// SysTick as a 24-bit down-counter at the core clock: with `qemu -icount`, a count of
// instructions; read twice around an operation (wraps are counted by the caller's short spans).
#define SYST_CSR (*(volatile uint32_t *)0xE000E010)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018)

void Reset_Handler(void) {
    for (uint32_t *p = &_sbss; p < &_ebss; p++) *p = 0;
    initialise_monitor_handles();
    int status = firmware_main();
    // SYS_EXIT_EXTENDED: on AArch32 plain SYS_EXIT takes only a reason code, no status.
    uint32_t block[2] = {0x20026 /* ADP_Stopped_ApplicationExit */, (uint32_t)status};
    semihost(0x20, block);
    for (;;) {}
}

// Prints the fault and the stacked PC (for arm-none-eabi-addr2line), then exits with status 3.
void Fault_Report(uint32_t *frame) {
    static char text[] = "firmware: hard fault at pc 0x00000000 (lr 0x00000000)\n";
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 8; i++) {
        text[29 + i] = digits[(frame[6] >> (28 - 4 * i)) & 0xF];
        text[44 + i] = digits[(frame[5] >> (28 - 4 * i)) & 0xF];
    }
    semihost(0x04, text);  // SYS_WRITE0
    uint32_t block[2] = {0x20026, 3};
    semihost(0x20, block);  // SYS_EXIT_EXTENDED, status 3
    for (;;) {}
}

__attribute__((naked)) static void Fault_Handler(void) {
    __asm__ volatile("tst lr, #4\n ite eq\n mrseq r0, msp\n mrsne r0, psp\n b Fault_Report\n");
}

__attribute__((section(".vectors"), used)) void (*const vectors[16])(void) = {
    (void (*)(void))&_stack_top, Reset_Handler, Fault_Handler, Fault_Handler, Fault_Handler, Fault_Handler, Fault_Handler,
};

// The board has no entropy source: SystemRandomSource's draws (getrandom) and newlib's
// arc4random, which the embedded standard library links (getentropy), fail. The self-test and
// the timed operations are deterministic and never ask.
int getentropy(void *buffer, size_t length) {
    (void)buffer;
    (void)length;
    errno = EIO;
    return -1;
}

// SystemRandomSource reads errno the way glibc and musl expose it.
int *__errno_location(void) {
    return &errno;
}

ssize_t getrandom(void *buffer, size_t length, unsigned int flags) {
    (void)buffer;
    (void)length;
    (void)flags;
    errno = EIO;
    return -1;
}

// Embedded Swift allocates through posix_memalign.
int posix_memalign(void **memptr, size_t alignment, size_t size) {
    void *p = memalign(alignment < sizeof(void *) ? sizeof(void *) : alignment, size);
    if (!p) return 12;  // ENOMEM
    *memptr = p;
    return 0;
}

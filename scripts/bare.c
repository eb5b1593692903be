/*
 * The least a child can do between exec and its hello: no libc, no start-up code at all, so that the launchers
 * (the supervisor's, the C floor's, Foundation.Process) are compared on their own, without the child's start-up
 * drowning the difference. Writes the hello frame to fd 4 (or to standard output when fd 4 is not open, as under
 * Foundation.Process), then reads until end of file.
 *
 *   cc -O2 -static -nostdlib -fno-stack-protector -o bare bare.c
 */
#include <sys/syscall.h>

static long call3(long number, long a, long b, long c) {
    long result;
#if defined(__x86_64__)
    __asm__ volatile("syscall" : "=a"(result) : "a"(number), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
#elif defined(__aarch64__)
    register long x8 __asm__("x8") = number, x0 __asm__("x0") = a, x1 __asm__("x1") = b, x2 __asm__("x2") = c;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
    result = x0;
#else
#error "bare.c knows the system call instruction of x86_64 and aarch64 only"
#endif
    return result;
}

void _start(void) {
    int mapped = call3(SYS_fcntl, 4, 1 /* F_GETFD */, 0) >= 0;
    /* The supervisor's hello frame: length 7, tag 1, pid 0, protocol version 2. */
    static const unsigned char hello[11] = {7, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0};
    call3(SYS_write, mapped ? 4 : 1, (long)hello, sizeof hello);
    char buffer[256];
    while (call3(SYS_read, mapped ? 3 : 0, (long)buffer, sizeof buffer) > 0) {}
    call3(SYS_exit_group, 0, 0, 0);
    for (;;) {}
}

/* The one way the worker's runtime enters the kernel: a raw system call, returning -errno on failure. Private to
 * the runtime's C files. */
#ifndef WORKER_RUNTIME_RAW_SYSCALL_H
#define WORKER_RUNTIME_RAW_SYSCALL_H

static inline long sys6(long n, long a, long b, long c, long d, long e, long f) {
    long result;
#if defined(__x86_64__)
    register long r10 __asm__("r10") = d, r8 __asm__("r8") = e, r9 __asm__("r9") = f;
    __asm__ volatile("syscall"
                     : "=a"(result)
                     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
#elif defined(__aarch64__)
    register long x8 __asm__("x8") = n, x0 __asm__("x0") = a, x1 __asm__("x1") = b, x2 __asm__("x2") = c,
                  x3 __asm__("x3") = d, x4 __asm__("x4") = e, x5 __asm__("x5") = f;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory");
    result = x0;
#else
#error "the worker runtime knows the system calls of x86_64 and aarch64 Linux only"
#endif
    return result;
}
#define sys(n, a, b, c) sys6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)

/* The architecture's number in a seccomp filter's view of a call (linux/audit.h). */
#if defined(__x86_64__)
#define WR_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define WR_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#endif

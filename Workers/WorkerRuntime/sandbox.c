/*
 * The worker's sandbox: no new privileges, and a seccomp filter that allows only the system calls a worker makes
 * once it has said hello. Anything else traps; the trap's handler reports the call on the channel and the worker
 * dies of SIGSYS. Hostile content that takes over a worker can still read and write its channel, map memory
 * (never executable), read the clock and die; it cannot open a file, make a socket or run a program.
 */
#include "WorkerRuntime.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/syscall.h>

#include "raw_syscall.h"
#include "signals.h"

/* A call the filter never allows. The trap handler makes it with SIGSYS blocked, so the kernel's second trap
 * cannot be handled: it kills the worker with SIGSYS. */
#define WR_NEVER_ALLOWED SYS_getuid

/* The report the handler sends: a frame the Swift side encoded, whose last four bytes are the call's number. */
static unsigned char report[16];
static long report_length;
static int report_fd = -1;

static void on_trap(int signal, void *info, void *context) {
    (void)signal;
    (void)context;
    /* siginfo_t for SIGSYS: signo, errno, code (3 ints and padding), then the call's address and its number. */
    int number = *(const int *)((const char *)info + 16 + sizeof(void *));
    if (report_length >= 4 && report_fd >= 0) {
        unsigned char frame[sizeof report];
        for (long i = 0; i < report_length; i++) frame[i] = report[i];
        for (int i = 0; i < 4; i++) frame[report_length - 4 + i] = (unsigned char)((unsigned)number >> (8 * i));
        sys(SYS_write, report_fd, frame, report_length);
    }
    for (;;) sys(WR_NEVER_ALLOWED, 0, 0, 0);
}

/* The filter, built once at start-up and kept short, since the kernel's cost of taking it grows with every
 * instruction (on the benchmark VM, 11 µs for one of 4 instructions, 15 µs for 20, 18 µs for 40): the number is
 * loaded once, one jump per allowed call leads to ALLOW or to its argument's check, and every check ends at the
 * shared TRAP or ALLOW at the end. Only the calls the runtime makes are allowed (27 instructions in all; 42 with
 * glibc's). */

enum check { any, equals, clear };
struct rule {
    long number;
    enum check check;
    int argument;
    unsigned first, second; /* equals: one of the two (the same twice for one); clear: none of first's bits */
};

enum { capacity = 64, most_rules = 32 };
static struct sock_filter program[capacity];
static unsigned short length;
static struct rule rules[most_rules];
static int rule_count;

static void rule(long number, enum check check, int argument, unsigned first, unsigned second) {
    if (rule_count < most_rules) rules[rule_count] = (struct rule){number, check, argument, first, second};
    rule_count++;
}
#define ALLOW(number) rule((number), any, 0, 0, 0)

static void emit(unsigned short code, unsigned int k, int to_true, int to_false) {
    /* Jumps are forward, counted from the next instruction. */
    if (length < capacity) program[length] = (struct sock_filter){code, (unsigned char)(to_true - length - 1),
        (unsigned char)(to_false - length - 1), k};
    length++;
}

#define LOAD(offset) emit(BPF_LD | BPF_W | BPF_ABS, (offset), length + 1, length + 1)
#define RETURN(value) emit(BPF_RET | BPF_K, (value), length + 1, length + 1)
#define ARGUMENT(n) (offsetof(struct seccomp_data, args) + 8 * (n)) /* its low half, on these little-endian CPUs */

static int check_length(const struct rule *r) {
    return r->check == any ? 0 : r->check == clear || r->first == r->second ? 2 : 3;
}

static void build(int input, int output, int self, int glibc) {
    rule_count = 0;
    /* The channel, and standard error for a trap's last words. */
    rule(SYS_read, equals, 0, (unsigned)input, (unsigned)input);
    rule(SYS_write, equals, 0, (unsigned)output, 2);
    /* Waiting: for the channel, or (a hung page) for ever. */
#ifdef SYS_poll
    ALLOW(SYS_poll);
    ALLOW(SYS_pause);
#else
    ALLOW(SYS_ppoll);
#endif
    /* Memory, never executable. */
    rule(SYS_mmap, clear, 2, 4 /* PROT_EXEC */, 0);
    ALLOW(SYS_munmap);
    /* Time, randomness, the end. */
    ALLOW(SYS_clock_gettime);
    ALLOW(SYS_getrandom);
    rule(SYS_kill, equals, 0, (unsigned)self, (unsigned)self); /* abort: SIGABRT to itself, no one else */
    ALLOW(SYS_exit_group);
    /* The return from the handler of a supervisor's resynchronisation (resync.c). */
    ALLOW(SYS_rt_sigreturn);
    if (glibc) {
        /* What glibc's allocator, its locks, its threads' ends and its abort() make besides. */
        ALLOW(SYS_getpid);
        ALLOW(SYS_exit);
        ALLOW(SYS_brk);
        ALLOW(SYS_madvise);
        ALLOW(SYS_mremap);
        rule(SYS_mprotect, clear, 2, 4 /* PROT_EXEC */, 0);
        ALLOW(SYS_futex);
        ALLOW(SYS_rt_sigprocmask);
        ALLOW(SYS_gettid);
        rule(SYS_tgkill, equals, 0, (unsigned)self, (unsigned)self);
        ALLOW(SYS_sched_yield);
    }
    if (rule_count > most_rules) return;

    length = 0;
    /* The kernel runs a new filter once for every system call number, to cache the ones it always allows (Linux
     * 5.11 on), and gives up at the first load of anything but the number or the architecture. That run cost
     * this worker 16 µs of its 0.13 ms start; the cache would save it perhaps 30 ns on each of the few dozen calls
     * a page makes. So the filter begins with such a load. */
    LOAD(offsetof(struct seccomp_data, instruction_pointer));
    LOAD(offsetof(struct seccomp_data, arch));
    emit(BPF_JMP | BPF_JEQ | BPF_K, WR_AUDIT_ARCH, length + 2, length + 1);
    RETURN(SECCOMP_RET_KILL_PROCESS);
    /* An x32 call shares the architecture's audit number and sets bit 30 of its number, so it is never one of
     * the numbers below, and traps. */
    LOAD(offsetof(struct seccomp_data, nr));
    int checks = length + rule_count, trap = checks, at = checks;
    for (int i = 0; i < rule_count; i++) trap += check_length(&rules[i]);
    int allow = trap + 1;
    for (int i = 0; i < rule_count; i++) {
        int next = i + 1 < rule_count ? length + 1 : trap;
        emit(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)rules[i].number, rules[i].check == any ? allow : at, next);
        at += check_length(&rules[i]);
    }
    for (int i = 0; i < rule_count; i++) {
        const struct rule *r = &rules[i];
        if (r->check == any) continue;
        LOAD(ARGUMENT(r->argument));
        if (r->check == clear) {
            emit(BPF_JMP | BPF_JSET | BPF_K, r->first, trap, allow);
        } else if (r->first == r->second) {
            emit(BPF_JMP | BPF_JEQ | BPF_K, r->first, allow, trap);
        } else {
            emit(BPF_JMP | BPF_JEQ | BPF_K, r->first, allow, length + 1);
            emit(BPF_JMP | BPF_JEQ | BPF_K, r->second, allow, trap);
        }
    }
    RETURN(SECCOMP_RET_TRAP);
    RETURN(SECCOMP_RET_ALLOW);
}

long wr_sandbox(const unsigned char *frame, long frame_length, int input, int output, int glibc) {
    if (frame_length > (long)sizeof report) return -22; /* EINVAL */
    for (long i = 0; i < frame_length; i++) report[i] = frame[i];
    report_length = frame_length;
    report_fd = output;
    int self = wr_getpid();
    build(input, output, self, glibc);
    if (rule_count > most_rules || length > capacity) return -7; /* E2BIG: the program outgrew its arrays */
    long result = wr_handle_signal(31 /* SIGSYS */, on_trap);
    if (result < 0) return result;
    result = sys(SYS_prctl, 38 /* PR_SET_NO_NEW_PRIVS */, 1, 0);
    if (result < 0) return result;
    struct sock_fprog filter = {length, program};
    return sys(SYS_prctl, 22 /* PR_SET_SECCOMP */, SECCOMP_MODE_FILTER, &filter);
}

long wr_attempt_number(int call) {
    switch (call) {
    case WR_ATTEMPT_OPEN: return SYS_openat;
    case WR_ATTEMPT_SOCKET: return SYS_socket;
    case WR_ATTEMPT_EXEC: return SYS_execve;
    default: return -1;
    }
}

long wr_attempt(int call, const char *path) {
    long result;
    switch (call) {
    case WR_ATTEMPT_OPEN:
        result = sys6(SYS_openat, -100 /* AT_FDCWD */, (long)(path ? path : "/etc/passwd"), 0 /* O_RDONLY */, 0, 0, 0);
        break;
    case WR_ATTEMPT_SOCKET:
        result = sys(SYS_socket, 2 /* AF_INET */, 1 /* SOCK_STREAM */, 0);
        break;
    case WR_ATTEMPT_EXEC: {
        const char *argv[] = {"/bin/true", 0};
        const char *envp[] = {0};
        result = sys(SYS_execve, "/bin/true", argv, envp);
        break;
    }
    default:
        return -22; /* EINVAL */
    }
    /* Unsandboxed, the call worked: a hostile page would now hold a file or a socket. */
    if (result >= 0) sys(SYS_close, result, 0, 0);
    return result;
}

/*
 * The worker's whole runtime: process entry, the system calls it makes, and the memory functions Embedded Swift
 * links against (an allocator and mem*). x86_64 and aarch64 Linux only.
 *
 * Every symbol is prefixed: SwiftPM also links this target into the supervisor (which depends on the worker so
 * that building one builds both), where a `malloc` or `_start` of ours would replace glibc's. Only the worker's
 * own link maps the C names onto these (Package.swift: --defsym, and the entry point).
 */
#include "WorkerRuntime.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>

#include "raw_syscall.h"

long wr_read(int fd, void *buffer, long count) { return sys(SYS_read, fd, buffer, count); }
long wr_write(int fd, const void *buffer, long count) { return sys(SYS_write, fd, buffer, count); }

int wr_wait_readable(int fd, long nanoseconds) {
    struct { int fd; short events, revents; } ready = {fd, 1 /* POLLIN */, 0};
#ifdef SYS_poll
    return sys(SYS_poll, &ready, 1, (nanoseconds + 999999) / 1000000) == 1;
#else
    struct { long sec, nsec; } wait = {nanoseconds / 1000000000L, nanoseconds % 1000000000L};
    return sys6(SYS_ppoll, (long)&ready, 1, (long)&wait, 0, 8, 0) == 1;
#endif
}

int wr_readable(int fd) { return wr_wait_readable(fd, 0); }

int wr_is_open(int fd) { return sys(SYS_fcntl, fd, 1 /* F_GETFD */, 0) >= 0; }

void *wr_map(long size) {
    long address = sys6(SYS_mmap, 0, size, 3 /* read, write */, 0x22 /* private, anonymous */, -1, 0);
    return address < 0 && address > -4096 ? 0 : (void *)address;
}

void wr_unmap(void *address, long size) { sys(SYS_munmap, address, size, 0); }

long wr_now(void) {
    struct { long sec, nsec; } now;
    sys(SYS_clock_gettime, 1 /* CLOCK_MONOTONIC */, &now, 0);
    return now.sec * 1000000000L + now.nsec;
}

/* Kept from the first call, which the sandbox makes before its filter: a worker never forks, and the filter lets
 * only glibc's own calls ask again. */
static int own_pid;

int wr_getpid(void) {
    if (own_pid == 0) own_pid = (int)sys(SYS_getpid, 0, 0, 0);
    return own_pid;
}
int wr_getppid(void) { return (int)sys(SYS_getppid, 0, 0, 0); }

void wr_die_with_parent(void) { sys(SYS_prctl, 1 /* PR_SET_PDEATHSIG */, 9 /* SIGKILL */, 0); }

void wr_disable_core_dumps(void) {
    long none[2] = {0, 0};
    sys6(SYS_prlimit64, 0, 4 /* RLIMIT_CORE */, (long)none, 0, 0, 0);
}

_Noreturn void wr_exit(int code) {
    for (;;) sys(SYS_exit_group, code, 0, 0);
}

static _Noreturn void die_of(int signal) {
    sys(SYS_kill, wr_getpid(), signal, 0);
    wr_exit(127);
}

_Noreturn void wr_abort(void) { die_of(6 /* SIGABRT */); }

_Noreturn void wr_kill_self(void) { die_of(9 /* SIGKILL */); }

void wr_sleep(long nanoseconds) {
    long deadline = wr_now() + nanoseconds;
    for (long left = nanoseconds; left > 0; left = deadline - wr_now()) {
#ifdef SYS_poll
        sys(SYS_poll, 0, 0, (left + 999999) / 1000000);
#else
        struct { long sec, nsec; } wait = {left / 1000000000L, left % 1000000000L};
        sys6(SYS_ppoll, 0, 0, (long)&wait, 0, 8, 0);
#endif
    }
}

_Noreturn void wr_hang(void) {
    for (;;) {
#ifdef SYS_pause
        sys(SYS_pause, 0, 0, 0);
#else
        sys6(SYS_ppoll, 0, 0, 0, 0, 8, 0);
#endif
    }
}

/* Entry: the kernel leaves argc, argv and the environment on the stack. */

static int expected_parent, sandbox_refused;

int wr_expected_parent(void) { return expected_parent; }
int wr_sandbox_refused(void) { return sandbox_refused; }

int wr_is_no_sandbox(const char *argument) {
    const char *flag = "--no-sandbox";
    while (*flag && *argument == *flag) argument++, flag++;
    return *flag == 0 && *argument == 0;
}

int wr_parse_pid(const char *text) {
    int pid = 0;
    for (const char *digit = text; *digit >= '0' && *digit <= '9'; digit++) pid = pid * 10 + (*digit - '0');
    return pid;
}

extern int main(int argc, char **argv);

__attribute__((used)) _Noreturn void wr_begin(long *stack) {
    int argc = (int)stack[0];
    char **argv = (char **)(stack + 1);
    if (argc > 1) expected_parent = wr_parse_pid(argv[1]);
    if (argc > 2) sandbox_refused = wr_is_no_sandbox(argv[2]);
    wr_exit(main(argc, argv));
}

#if defined(__x86_64__)
__asm__(".text\n.globl wr_entry\nwr_entry:\n xor %ebp, %ebp\n mov %rsp, %rdi\n and $-16, %rsp\n call wr_begin\n");
#elif defined(__aarch64__)
__asm__(".text\n.globl wr_entry\nwr_entry:\n mov x29, #0\n mov x0, sp\n and sp, x0, #-16\n bl wr_begin\n");
#endif

/*
 * Memory. Blocks are powers of two from 32 bytes to 1 MiB, carved from 1 MiB arenas and kept on one free list
 * per size; larger requests get their own mapping. Every block starts with a 16-byte header: where the block
 * begins and its size class, or its mapping's length.
 */

enum { classes = 21, arena_size = 1 << 20, header = 16 };

struct header { void *base; size_t size; };

static void *free_blocks[classes];
static char *arena, *arena_end;

static void *carve(int class) {
    size_t size = (size_t)1 << class;
    if (free_blocks[class]) {
        void *block = free_blocks[class];
        free_blocks[class] = *(void **)block;
        return block;
    }
    if (!arena || (size_t)(arena_end - arena) < size) {
        arena = wr_map(arena_size);
        if (!arena) return 0;
        arena_end = arena + arena_size;
    }
    void *block = arena;
    arena += size;
    return block;
}

int wr_posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) return 22; /* EINVAL: not a power of two */
    if (alignment < header) alignment = header;
    /* Every sum below stays under INTPTR_MAX, so none wraps and a mapping's length is a positive long. */
    if (alignment > (size_t)INTPTR_MAX / 2 || size > (size_t)INTPTR_MAX / 2 - alignment - 4095) return 12; /* ENOMEM */
    size_t needed = size + alignment;
    char *base;
    size_t recorded;
    if (needed <= (size_t)arena_size) {
        int class = 5;
        while (((size_t)1 << class) < needed) class++;
        base = carve(class);
        recorded = (size_t)class;
    } else {
        recorded = (needed + 4095) & ~(size_t)4095;
        base = wr_map((long)recorded);
    }
    if (!base) return 12; /* ENOMEM */
    char *user = (char *)(((uintptr_t)base + header + alignment - 1) & ~(uintptr_t)(alignment - 1));
    struct header *h = (struct header *)(user - header);
    h->base = base;
    h->size = recorded;
    *out = user;
    return 0;
}

void wr_free(void *pointer) {
    if (!pointer) return;
    const struct header *h = (const struct header *)((char *)pointer - header);
    void *base = h->base; /* the free-list link may overwrite the header */
    size_t size = h->size;
    if (size < classes) {
        *(void **)base = free_blocks[size];
        free_blocks[size] = base;
    } else {
        wr_unmap(base, (long)size);
    }
}

void *wr_memset(void *to, int value, size_t count) {
    unsigned char *d = to;
    while (count--) *d++ = (unsigned char)value;
    return to;
}

void *wr_memcpy(void *to, const void *from, size_t count) {
    unsigned char *d = to;
    const unsigned char *s = from;
    while (count--) *d++ = *s++;
    return to;
}

void *wr_memmove(void *to, const void *from, size_t count) {
    unsigned char *d = to;
    const unsigned char *s = from;
    if (d < s) {
        while (count--) *d++ = *s++;
    } else {
        d += count;
        s += count;
        while (count--) *--d = *--s;
    }
    return to;
}

/* Hashing seeds and the rare print from a trap: what the Embedded Swift runtime may ask of the platform. */
void wr_arc4random_buf(void *buffer, size_t count) { sys(SYS_getrandom, buffer, count, 0); }

int wr_putchar(int c) {
    char byte = (char)c;
    wr_write(2, &byte, 1);
    return c;
}

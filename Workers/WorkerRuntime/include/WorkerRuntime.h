#ifndef WORKER_RUNTIME_H
#define WORKER_RUNTIME_H

/*
 * What the WebContent worker needs from the system, without a C library: the worker is Embedded Swift on bare
 * Linux system calls, so that nothing runs between exec and its hello but its own code (glibc's start-up alone
 * costs this VM more than the whole worker does without it). System calls return -errno on failure.
 */

#include <stddef.h>

#define WR_CHANNEL_IN_FD 3
#define WR_CHANNEL_OUT_FD 4
#define WR_EINTR 4

long wr_read(int fd, void *buffer, long count);
long wr_write(int fd, const void *buffer, long count);
/// Whether `fd` has something to read right now (poll with no timeout).
int wr_readable(int fd);
/// Whether `fd` is open.
int wr_is_open(int fd);

/// posix_memalign and free for Embedded Swift: 0, or EINVAL for an alignment that is not a power of two, or ENOMEM
/// (for a size whose arithmetic would overflow, too).
int wr_posix_memalign(void **out, size_t alignment, size_t size);
void wr_free(void *pointer);

/// Anonymous read-write memory, or 0.
void *wr_map(long size);
void wr_unmap(void *address, long size);

/// CLOCK_MONOTONIC in nanoseconds.
long wr_now(void);

int wr_getpid(void);
int wr_getppid(void);
/// argv[1] as a number: the pid of the supervisor that spawned this worker, or 0 if it names none. Read by the
/// runtime's own entry point, so only a worker built on it (Embedded Swift) has it; a worker started by glibc
/// parses argv[1] with `wr_parse_pid`.
int wr_expected_parent(void);
/// The leading decimal digits of `text` as a number, 0 if there are none.
int wr_parse_pid(const char *text);

/// Asks the kernel to SIGKILL this process when the thread that spawned it dies.
void wr_die_with_parent(void);
void wr_disable_core_dumps(void);

_Noreturn void wr_exit(int code);
_Noreturn void wr_abort(void);
_Noreturn void wr_hang(void);

#endif

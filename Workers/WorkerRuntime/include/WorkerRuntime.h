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
/// Whether `fd` has something to read within `nanoseconds` (poll with that timeout, to the millisecond).
int wr_wait_readable(int fd, long nanoseconds);
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
/// Whether argv[2] is `--no-sandbox`: the launcher asks the worker to run without its sandbox. Read by the
/// runtime's entry point, as `wr_expected_parent` is.
int wr_sandbox_refused(void);
/// Whether `argument` is `--no-sandbox`.
int wr_is_no_sandbox(const char *argument);
/// The leading decimal digits of `text` as a number, 0 if there are none.
int wr_parse_pid(const char *text);

/// Records a supervisor's request to resynchronise the channel (resync.c): `signal` queued with the generation it
/// asks under as its value. Installed before the sandbox, which allows no sigaction. 0, or -errno.
long wr_watch_resync(int signal);
/// 1 and the generation if a request came since the last call, else 0.
int wr_take_resync(unsigned long long *generation);

/// Asks the kernel to SIGKILL this process when the thread that spawned it dies.
void wr_die_with_parent(void);
void wr_disable_core_dumps(void);

/// Forbids new privileges and installs the seccomp filter (sandbox.c) that lets the worker read `input`, write
/// `output` (and standard error), map memory that is never executable, read the clock, get random bytes and end;
/// with `glibc`, also what glibc's allocator, locks and abort() make. Any other call traps: the handler writes
/// `frame` (at most 16 bytes, an encoded report whose last four bytes it replaces with the call's number) to
/// `output`, and the worker dies of SIGSYS. 0, or -errno: -EINVAL where the kernel has no seccomp filters.
long wr_sandbox(const unsigned char *frame, long frame_length, int input, int output, int glibc);

/// What a hostile page may try (`x-fault` `syscall=`): open `path` (NULL: /etc/passwd) for reading, make a socket,
/// exec /bin/true. The call's result, -errno, or (unsandboxed) the descriptor it got, already closed; sandboxed,
/// it does not return.
#define WR_ATTEMPT_OPEN 1
#define WR_ATTEMPT_SOCKET 2
#define WR_ATTEMPT_EXEC 3
long wr_attempt(int call, const char *path);
/* The system call number `wr_attempt(call, …)` makes: what a sandbox that catches it reports. */
long wr_attempt_number(int call);

_Noreturn void wr_exit(int code);
_Noreturn void wr_abort(void);
/// SIGKILL to itself, which the sandbox allows as it allows abort(): a death the kernel reports as a kill, like
/// one from outside (`x-fault` `kill`).
_Noreturn void wr_kill_self(void);
_Noreturn void wr_hang(void);
/// Waits `nanoseconds` without reading its channel or using the CPU, as a page stuck on a lock does (`x-fault`
/// `hang=4s`).
void wr_sleep(long nanoseconds);

#endif

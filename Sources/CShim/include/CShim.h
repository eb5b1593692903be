#ifndef SUPERVISOR_CSHIM_H
#define SUPERVISOR_CSHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/types.h>

/// Where the worker finds its channel: the parent's requests arrive on this fd, its replies leave on the next.
#define SV_CHANNEL_IN_FD 3
#define SV_CHANNEL_OUT_FD 4

/// The bounds Jetsam enforces on its options, which the supervisor checks before it starts Jetsam.
#define SV_JETSAM_MAX_BUDGET_MB 1048576
#define SV_JETSAM_MIN_INTERVAL_MS 0.1
#define SV_JETSAM_MAX_INTERVAL_MS 60000.0

/// Spawns `path` with posix_spawn: `in_fd`/`out_fd` become fds 3/4, `null_fd` becomes 0 and 1, `err_fd` becomes 2
/// (with -1, 2 is inherited), and every other descriptor is closed; the signal mask and every disposition are
/// reset; the child leads its own process group. A pidfd is opened right after the spawn. Returns 0 or an errno
/// value.
int sv_spawn(const char *path, char *const argv[], char *const envp[],
             int in_fd, int out_fd, int null_fd, int err_fd, pid_t *pid, int *pidfd);

/// Spawns `path` as a filter with posix_spawn: `in_fd` becomes its standard input, `out_fd` its standard output,
/// /dev/null its standard error, and every other descriptor is closed; the signal mask and every disposition are
/// reset. A pidfd is opened right after the spawn. `out_fd` must be above 2. Returns 0 or an errno value.
int sv_spawn_filter(const char *path, char *const argv[], char *const envp[], int in_fd, int out_fd, pid_t *pid,
                    int *pidfd);

/// Nonzero while syscall faults are armed (Sources/System/SyscallFaults.swift): set at start-up when
/// SUPERVISOR_SYSCALL_FAULTS is in the environment, or by a test. A C global, so that checking it costs one load
/// and a branch, with no lazy initialisation.
extern int sv_syscall_faults_flag;
static inline int sv_syscall_faults_armed(void) { return __atomic_load_n(&sv_syscall_faults_flag, __ATOMIC_RELAXED); }
static inline void sv_syscall_faults_set(int armed) { __atomic_store_n(&sv_syscall_faults_flag, armed, __ATOMIC_RELAXED); }

/// eventfd(0, EFD_CLOEXEC), non-blocking when asked: Swift's Glibc module does not show eventfd.
int sv_eventfd(int nonblocking);

/// pipe2 with O_CLOEXEC; Swift cannot see pipe2 without _GNU_SOURCE.
int sv_pipe_cloexec(int fds[2]);

int sv_pidfd_open(pid_t pid);
int sv_pidfd_send_signal(int pidfd, int sig);

/// Reaps the child behind `pidfd`, without blocking unless `wait` is set. On success `*code` is CLD_EXITED,
/// CLD_KILLED or CLD_DUMPED and `*status` the exit code or signal; `*code` is 0 when the child has not exited yet.
int sv_waitid_pidfd(int pidfd, int *code, int *status, int wait);

/// Waits (or, without `wait`, only checks) until the child behind `pidfd` has exited, without reaping it
/// (waitid with WNOWAIT): 1 once it has, 0 if not yet, -1 with errno. Its zombie keeps its pid, and so the id of
/// the process group it leads, from being reused until the reap.
int sv_pidfd_exited(int pidfd, int wait);

/// Sends `sig` to every process in the group `pgid`: kill(-pgid, sig). -1 with errno (ESRCH: the group is empty;
/// EINVAL for a `pgid` of 1 or less, which would name the caller's group or every process).
int sv_kill_group(pid_t pgid, int sig);

/* The name of system call `number` on this architecture, for the calls a sandboxed worker is likely to be caught
 * making (files, the network, other programs and processes); NULL for any other. */
const char *sv_syscall_name(long number);

/* Gives the memory malloc holds free back to the system (glibc's malloc_trim(0)); 1 if any went back. */
int sv_return_free_memory(void);

int sv_cld_exited(void);

int sv_set_pdeathsig(int sig);
pid_t sv_gettid(void);
/// Makes orphaned descendants this process's children, so that whoever starts a supervisor can reap the workers
/// it leaves behind.
int sv_set_child_subreaper(void);
int sv_ignore_signal(int sig);

int sv_setpriority(pid_t pid, int nice);

/// Runs `path` to its end with stdout written to `stdout_path`, for benchmarks and tests: returns its wait status,
/// or -errno if it could not start.
int sv_run_to_file(const char *path, char *const argv[], char *const envp[], const char *stdout_path);

/// A set of byte strings to look for all at once: the log analyzer's first pass over whole blocks (Needles.c).
typedef struct sv_needles sv_needles;

/// Copies `count` needles (each 1 to 32 bytes and no newline, at most 64 needles); NULL if the set breaks those
/// limits. The scan uses the widest vectors the CPU has (AVX-512BW, AVX2, or none). Free it with sv_needles_free.
sv_needles *sv_needles_new(const char *const needles[], const size_t lengths[], int count);
void sv_needles_free(sv_needles *set);

/// Where a needle first starts in `bytes[from, length)`, or `length` if none does. Adds the newlines in `from` up to
/// that position to `*newlines`, and sets `*line_start` to the position after the last of them (`from` if none):
/// the start of the line the needle is in.
size_t sv_needles_next(const sv_needles *set, const void *bytes, size_t from, size_t length, size_t *newlines,
                       size_t *line_start);

/// Whether any needle occurs in `bytes`.
int sv_needles_any(const sv_needles *set, const void *bytes, size_t length);

/// Lowers the vector path a set uses (0: none, 1: AVX2, 2: AVX-512BW) but never above what the CPU has, so that
/// tests can hold every path to the same answers.
void sv_needles_limit_level(sv_needles *set, int level);

/// A needle a needle thread found: where it starts, where its line starts, and the newlines from the start of the
/// scan to that line.
typedef struct sv_needle_hit {
    size_t at;
    size_t line_start;
    size_t newlines;
} sv_needle_hit;

/// A helper thread that scans one block for a set's needles while its caller works on another (NeedleThread.c). It
/// blocks every signal. NULL if it could not start.
typedef struct sv_needle_thread sv_needle_thread;
sv_needle_thread *sv_needle_thread_new(const sv_needles *set);
/// Stops the thread and frees it; a scan started must have been waited for.
void sv_needle_thread_free(sv_needle_thread *thread);
/// Starts finding the first needle of each line of `bytes[from, length)`, up to `capacity` of them, into `hits`;
/// both must stay untouched until sv_needle_thread_wait returns.
void sv_needle_thread_start(sv_needle_thread *thread, const void *bytes, size_t from, size_t length,
                            sv_needle_hit *hits, size_t capacity);
/// Waits for the scan: returns how many hits it wrote, and where it stopped (`length`, or the start of the line after
/// the last hit when `capacity` ran out) with the newlines before that.
size_t sv_needle_thread_wait(sv_needle_thread *thread, size_t *end, size_t *newlines);

/// memrchr(3), a GNU extension Swift's Glibc module does not show.
const void *sv_memrchr(const void *bytes, int byte, size_t length);

/// memmem(3), a GNU extension Swift's Glibc module does not show.
const void *sv_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

int sv_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data);
/// Waits like epoll_wait but unpacks the (packed) events into two plain arrays.
int sv_epoll_wait(int epfd, uint64_t *data, uint32_t *events, int max, int timeout_ms);

/// Opens `path` beneath the directory `dirfd` as an O_PATH | O_CLOEXEC descriptor, resolved by the kernel with
/// RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV: a `..`, an absolute path or a symlink that would leave
/// `dirfd`, or a mount point on the way (a proc or any other file system mounted inside), fails with EXDEV, a
/// /proc-style link with ELOOP. O_PATH reads nothing, so a FIFO cannot block and a device is not touched.
/// openat2(2), which glibc does not wrap; -1 with errno (ENOSYS before Linux 5.6).
int sv_openat2_beneath(int dirfd, const char *path);
/// openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC): one step of a walk that must see symlinks, not follow them.
int sv_openat_path_nofollow(int dirfd, const char *name);
/// renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE): the rename fails with EEXIST if `to` exists, and with
/// EINVAL where the file system cannot promise that. -1 with errno.
int sv_rename_noreplace(const char *from, const char *to);
/// open(path, O_PATH | O_DIRECTORY | O_CLOEXEC): a directory held for openat, never read through this descriptor.
int sv_open_directory_path(const char *path);
/// 1 when `fd` is on a file system whose files the kernel makes as they are read (proc, sysfs, debugfs, tracefs,
/// securityfs, SELinux's and Smack's, efivarfs, cgroup, bpf, binfmt_misc: linux/magic.h), else 0; -1 with errno.
/// Such a file says it is regular and empty, and may be endless or wait for data (/proc/kmsg). fstatfs(2).
int sv_on_kernel_file_system(int fd);


/// Bytes of heap the process has allocated and not freed (glibc's mallinfo2 uordblks + hblkhd).
size_t sv_heap_in_use(void);

/// Pins the calling thread (and the children it spawns from now on) to the first CPU it may run on, saving its
/// current mask in `saved` (at least 128 bytes); sv_restore_affinity puts it back. Returns 0 or -1.
int sv_pin_to_one_cpu(void *saved);
int sv_restore_affinity(const void *saved);

/// How many temporary files an interruption can remove (Interruption.c): more than any command has outputs.
#define SV_INTERRUPTION_SLOTS 16

/// Remembers `path` as a file to remove if SIGINT or SIGTERM ends the process; returns its slot, or -1 when the
/// path is too long or every slot is taken (the file is then left for the next run to find).
int sv_interruption_add(const char *path);
/// Forgets the file of `slot`: it was placed, or removed.
void sv_interruption_remove(int slot);
/// The text written to standard error if SIGINT or SIGTERM ends the process (copied, at most 4 KiB); "" for none.
void sv_interruption_message(const char *text);
/// Makes SIGINT and SIGTERM remove the files added, write the message and end the process by the same signal, as
/// their default action would. A signal the process inherited ignored stays ignored. 0, or -1 with errno.
int sv_interruption_install(void);

#endif

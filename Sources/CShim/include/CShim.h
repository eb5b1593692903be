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

/// One descriptor of a child: `source` of ours duplicated onto `target`, or, when `path` is set, that file opened
/// there with `flags` and `mode`.
struct sv_child_fd {
    int target;
    int source;
    const char *path;
    int flags;
    unsigned int mode;
};

/// Spawns `path` with posix_spawn, its descriptors as `fds` says (each source above every target), 0 to 2 not named
/// there inherited, and every other descriptor closed; the signal mask and every disposition are reset; with
/// `own_group`, it leads a process group of its own. A pidfd is opened right after the spawn. Returns 0 or an errno
/// value.
int sv_spawn(const char *path, char *const argv[], char *const envp[], const struct sv_child_fd *fds, int count,
             int own_group, pid_t *pid, int *pidfd);

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

/// The most descriptors one message passes (SCM_RIGHTS).
#define SV_MAX_PASSED_FDS 8

/// socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC): messages kept whole, in order.
int sv_socketpair_seqpacket(int fds[2]);
/// sendmsg of `bytes` with `count` descriptors (at most SV_MAX_PASSED_FDS) passed as SCM_RIGHTS; MSG_NOSIGNAL.
ssize_t sv_send_with_fds(int socket, const void *bytes, size_t length, const int *fds, int count);
/// recvmsg into `bytes`, the descriptors passed into `fds` (room for SV_MAX_PASSED_FDS, close-on-exec), their number
/// in `*count`; `*truncated` is 1 if the message or its descriptors were cut short. Returns the bytes, 0 at the end,
/// or -1 with errno.
ssize_t sv_receive_with_fds(int socket, void *bytes, size_t capacity, int *fds, int *count, int *truncated);

/// A SOCK_SEQPACKET socket listening on the abstract address `name` (close-on-exec, non-blocking), or -1 with errno
/// (EADDRINUSE: another process listens there).
int sv_listen_abstract(const char *name);
/// Accepts a connection on `listener` (close-on-exec) from a process of this user only: -1 with EACCES for another's.
int sv_accept_same_user(int listener);
/// Connects to the abstract address `name` (close-on-exec), and only to a process of this user, whose pid goes in
/// `*peer`: -1 with errno otherwise (ECONNREFUSED: nobody listens there).
int sv_connect_abstract(const char *name, pid_t *peer);

/// An anonymous file in memory (memfd_create(2), close-on-exec): a regular file no path names.
int sv_memfd(const char *name);

int sv_pidfd_open(pid_t pid);
int sv_pidfd_send_signal(int pidfd, int sig);
/// Queues `sig` with `value` as its value (SI_QUEUE) through `pidfd`: how a supervisor that takes a worker's channel
/// over asks it to resynchronise under a generation (issue 34).
int sv_pidfd_queue_signal(int pidfd, int sig, uint64_t value);

/// Reaps the child behind `pidfd`, without blocking unless `wait` is set. On success `*code` is CLD_EXITED,
/// CLD_KILLED or CLD_DUMPED and `*status` the exit code or signal; `*code` is 0 when the child has not exited yet.
int sv_waitid_pidfd(int pidfd, int *code, int *status, int wait);

/// Waits (or, without `wait`, only checks) until the child behind `pidfd` has exited, without reaping it
/// (waitid with WNOWAIT): 1 once it has, 0 if not yet, -1 with errno. Its zombie keeps its pid, and so the id of
/// the process group it leads, from being reused until the reap.
int sv_pidfd_exited(int pidfd, int wait);

/// The pid of a child that has exited, left unreaped (waitid with WNOWAIT), so that its zombie still holds its pid
/// and its group's id; 0 if none has, -1 with errno (ECHILD: no children).
pid_t sv_next_exited_child(void);

/// How the process `pidfd` names ended, for a holder of the pidfd that is not its parent, once its parent has reaped
/// it: PIDFD_GET_INFO asking for PIDFD_INFO_EXIT (Linux 6.15). 1 with `*status` a wait status, 0 if it has not been
/// reaped yet, -1 with errno (ENOTTY or EINVAL before 6.15).
int sv_pidfd_exit_status(int pidfd, int *status);

/// Sends `sig` to every process in the group `pgid`: kill(-pgid, sig). -1 with errno (ESRCH: the group is empty;
/// EINVAL for a `pgid` of 1 or less, which would name the caller's group or every process).
int sv_kill_group(pid_t pgid, int sig);

/* The name of system call `number` on this architecture, for the calls a sandboxed worker is likely to be caught
 * making (files, the network, other programs and processes); NULL for any other. */
const char *sv_syscall_name(long number);


int sv_cld_exited(void);

int sv_set_pdeathsig(int sig);
pid_t sv_gettid(void);
/// Makes orphaned descendants this process's children, so that whoever starts a supervisor can reap the workers
/// it leaves behind.
int sv_set_child_subreaper(void);
int sv_ignore_signal(int sig);

int sv_setpriority(pid_t pid, int nice);



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

#define _GNU_SOURCE
#include "CShim.h"

#include <malloc.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/magic.h>
#include <linux/openat2.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef P_PIDFD
#define P_PIDFD 3
#endif

int sv_syscall_faults_flag;

/* Arms the faults before any Swift code runs, so that not one call of the run escapes them. */
__attribute__((constructor)) static void sv_syscall_faults_from_environment(void) {
    if (getenv("SUPERVISOR_SYSCALL_FAULTS") != NULL) sv_syscall_faults_set(1);
}

int sv_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int sv_memfd(const char *name) { return (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC); }

int sv_eventfd(int nonblocking) { return eventfd(0, EFD_CLOEXEC | (nonblocking ? EFD_NONBLOCK : 0)); }

int sv_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int sv_pidfd_send_signal(int pidfd, int sig) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
}

/* Spawns `path` with `actions` applied, every signal unblocked and at its default, in a process group of its own
 * when `group` is set, and opens a pidfd on the child. */
static int sv_spawn_with(const char *path, char *const argv[], char *const envp[],
                         posix_spawn_file_actions_t *actions, int group, pid_t *pid, int *pidfd) {
    posix_spawnattr_t attrs;
    sigset_t none, all;
    int rc;

    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    if ((rc = posix_spawnattr_init(&attrs)) != 0) return rc;
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (group ? POSIX_SPAWN_SETPGROUP : 0);
    if ((rc = posix_spawnattr_setsigmask(&attrs, &none)) == 0 &&
        (rc = posix_spawnattr_setsigdefault(&attrs, &all)) == 0 &&
        (!group || (rc = posix_spawnattr_setpgroup(&attrs, 0)) == 0) &&
        (rc = posix_spawnattr_setflags(&attrs, flags)) == 0) {
        rc = posix_spawn(pid, path, actions, &attrs, argv, envp);
        if (rc == 0) {
            /* Nothing else reaps our children, so the pid cannot be recycled before this call. */
            *pidfd = sv_pidfd_open(*pid);
            if (*pidfd < 0) {
                /* Out of descriptors, say: a child nobody can watch must not outlive this call. */
                rc = errno;
                kill(*pid, SIGKILL);
                while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR) {}
            }
        }
    }
    posix_spawnattr_destroy(&attrs);
    return rc;
}

int sv_spawn(const char *path, char *const argv[], char *const envp[], const struct sv_child_fd *fds, int count,
             int own_group, pid_t *pid, int *pidfd) {
    posix_spawn_file_actions_t actions;
    int rc, highest = 2;

    *pidfd = -1;
    if ((rc = posix_spawn_file_actions_init(&actions)) != 0) return rc;
    /* The caller guarantees every source fd is above every target, so no dup2 clobbers a later source. */
    for (int i = 0; i < count && rc == 0; i++) {
        const struct sv_child_fd *fd = &fds[i];
        rc = fd->path != NULL
            ? posix_spawn_file_actions_addopen(&actions, fd->target, fd->path, fd->flags, fd->mode)
            : posix_spawn_file_actions_adddup2(&actions, fd->source, fd->target);
        if (fd->target > highest) highest = fd->target;
    }
    if (rc == 0 && (rc = posix_spawn_file_actions_addclosefrom_np(&actions, highest + 1)) == 0)
        rc = sv_spawn_with(path, argv, envp, &actions, own_group, pid, pidfd);
    posix_spawn_file_actions_destroy(&actions);
    return rc;
}

int sv_waitid_pidfd(int pidfd, int *code, int *status, int wait) {
    siginfo_t info = {0};
    if (waitid((idtype_t)P_PIDFD, (id_t)pidfd, &info, WEXITED | (wait ? 0 : WNOHANG)) != 0) return -1;
    *code = info.si_pid == 0 ? 0 : info.si_code;
    *status = info.si_status;
    return 0;
}

int sv_pidfd_exited(int pidfd, int wait) {
    siginfo_t info = {0};
    if (waitid((idtype_t)P_PIDFD, (id_t)pidfd, &info, WEXITED | WNOWAIT | (wait ? 0 : WNOHANG)) != 0) return -1;
    return info.si_pid != 0;
}

pid_t sv_next_exited_child(void) {
    siginfo_t info = {0};
    if (waitid(P_ALL, 0, &info, WEXITED | WNOWAIT | WNOHANG) != 0) return -1;
    return info.si_pid;
}

int sv_kill_group(pid_t pgid, int sig) {
    /* kill(0) and kill(-1) would reach the caller's own group, or every process it may signal. */
    if (pgid <= 1) {
        errno = EINVAL;
        return -1;
    }
    return kill(-pgid, sig);
}

int sv_cld_exited(void) { return CLD_EXITED; }

pid_t sv_gettid(void) { return (pid_t)syscall(SYS_gettid); }

int sv_set_pdeathsig(int sig) { return prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0); }

int sv_set_child_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

int sv_ignore_signal(int sig) { return signal(sig, SIG_IGN) == SIG_ERR ? -1 : 0; }

int sv_setpriority(pid_t pid, int nice) { return setpriority(PRIO_PROCESS, (id_t)pid, nice); }

int sv_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event event = {.events = events, .data.u64 = data};
    return epoll_ctl(epfd, op, fd, &event);
}

int sv_epoll_wait(int epfd, uint64_t *data, uint32_t *events, int max, int timeout_ms) {
    struct epoll_event ready[64];
    if (max > 64) max = 64;
    int n = epoll_wait(epfd, ready, max, timeout_ms);
    for (int i = 0; i < n; i++) {
        data[i] = ready[i].data.u64;
        events[i] = ready[i].events;
    }
    return n;
}

int sv_openat2_beneath(int dirfd, const char *path) {
    struct open_how how = {
        .flags = O_PATH | O_CLOEXEC,
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
    };
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
}

int sv_openat_path_nofollow(int dirfd, const char *name) {
    return openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
}

int sv_rename_noreplace(const char *from, const char *to) {
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

int sv_open_directory_path(const char *path) { return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC); }

int sv_on_kernel_file_system(int fd) {
    static const uint32_t made[] = {
        PROC_SUPER_MAGIC, SYSFS_MAGIC, DEBUGFS_MAGIC, TRACEFS_MAGIC, SECURITYFS_MAGIC, SELINUX_MAGIC, SMACK_MAGIC,
        EFIVARFS_MAGIC, CGROUP_SUPER_MAGIC, CGROUP2_SUPER_MAGIC, BPF_FS_MAGIC, BINFMTFS_MAGIC,
    };
    struct statfs info;
    if (fstatfs(fd, &info)) return -1;
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++) {
        if ((uint32_t)info.f_type == made[i]) return 1;
    }
    return 0;
}

size_t sv_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

const char *sv_syscall_name(long number) {
    switch (number) {
#define NAME(call) case SYS_##call: return #call;
#ifdef SYS_open
        NAME(open) NAME(fork) NAME(vfork) NAME(unlink) NAME(rename) NAME(mkdir)
#endif
        NAME(openat) NAME(openat2) NAME(socket) NAME(socketpair) NAME(connect) NAME(bind) NAME(execve)
        NAME(execveat) NAME(clone) NAME(clone3) NAME(ptrace) NAME(kill) NAME(tgkill) NAME(getuid) NAME(unlinkat)
        NAME(renameat2) NAME(mkdirat) NAME(mount) NAME(prctl) NAME(ioctl) NAME(mprotect) NAME(mmap) NAME(read)
        NAME(write) NAME(close) NAME(getppid) NAME(fcntl) NAME(sendto) NAME(recvfrom)
#undef NAME
    default: return 0;
    }
}

